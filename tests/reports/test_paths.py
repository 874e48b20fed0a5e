"""reports.paths: the temporary files written beside their targets."""


def test_temporary_files_are_per_process_so_two_writers_never_rename_each_others(tmp_path):
    """Two ``tacc report`` runs on one --out must not draw into one ``.regret_vs_budget.pdf.partial`` and rename
    the other's: each process has its own temporary name, and a figure saved while another writer's temporary file
    is there leaves it alone."""
    import os

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from reports.figures import save
    from reports.paths import partial
    target = tmp_path / "f.png"
    assert partial(target).name == f".f.png.{os.getpid()}.partial" and partial(target, 7).name == ".f.png.7.partial"
    other = partial(target, os.getpid() + 1)
    other.write_bytes(b"another writer's")
    fig = plt.figure()
    try:
        assert save(fig, tmp_path, "f", formats=("png",)) == ["f.png"]
    finally:
        plt.close(fig)
    assert target.read_bytes().startswith(b"\x89PNG") and other.read_bytes() == b"another writer's"
    assert not partial(target).exists()
