"""Figures drawn in a helper process: the same files as drawn here; an interrupt leaves no partial file and no
helper; a file is written whole or not at all."""

import multiprocessing

import numpy as np
import pytest
from matplotlib.image import imread

from reports.figures import FigureWriter
from reports.figures import new_figure, save

CURVES = ([250.0, 500.0, 1000.0], {"tacc": ([3.0, 5.0, 8.0], [0.5, 0.25, 0.125]),
                                    "ucb": ([4.0, 9.0, 20.0], [1.0, 1.0, 2.0])})


def _draw_all(writer: FigureWriter) -> dict:
    writer.draw("reports.figures:regret_curves", "curves", *CURVES, title="regret", logy=True)
    writer.draw("reports.figures:tightness", "tight", {"claim (lem:x)": [0.5, 0.75, 1.0], "empty (lem:y)": []},
                title="tightness")
    return writer.files()


def test_helper_process_draws_the_same_files_as_this_process(tmp_path):
    with FigureWriter(tmp_path / "here", process=False) as here:
        files_here = _draw_all(here)
    with FigureWriter(tmp_path / "helper", process=True) as helper:
        files_helper = _draw_all(helper)
    assert files_here == files_helper == {"curves": ["curves.png", "curves.pdf"], "tight": ["tight.png", "tight.pdf"]}
    for name in ("curves.png", "tight.png"):
        a, b = imread(tmp_path / "here" / name), imread(tmp_path / "helper" / name)
        assert a.shape == b.shape and np.array_equal(a, b), name          # pixel for pixel
    assert not list(tmp_path.rglob("*.partial"))


def test_an_error_in_the_helper_is_raised_by_files(tmp_path):
    with FigureWriter(tmp_path, process=True) as helper:
        helper.draw("reports.figures:no_such_figure", "bad")
        with pytest.raises(AttributeError, match="no_such_figure"):
            helper.files()


def test_an_interrupt_stops_the_helper_at_once_and_leaves_no_partial_file(tmp_path):
    before = set(multiprocessing.active_children())
    with pytest.raises(KeyboardInterrupt):
        with FigureWriter(tmp_path, process=True) as helper:
            helper.draw("reports.figures:regret_curves", "curves", *CURVES, title="regret")
            (helper_pid,) = [p.pid for p in multiprocessing.active_children() if p not in before]
            (tmp_path / f".curves.png.{helper_pid}.partial").write_bytes(b"half a file")   # as a killed draw leaves it
            (tmp_path / ".curves.png.1.partial").write_bytes(b"another command's")      # writing the same folder
            raise KeyboardInterrupt
    assert not [p for p in multiprocessing.active_children() if p not in before]     # the helper is gone
    assert [p.name for p in tmp_path.glob(".*.partial")] == [".curves.png.1.partial"]   # only that one is left


def test_save_writes_a_file_whole_or_not_at_all(tmp_path, monkeypatch):
    (tmp_path / "f.png").write_bytes(b"the previous figure")
    fig, _ = new_figure(6.4, 4.8)

    def killed(path, **kwargs):                         # dies half-way through writing
        with open(path, "wb") as f:
            f.write(b"\x89PNG half")
        raise KeyboardInterrupt
    monkeypatch.setattr(fig, "savefig", killed)
    with pytest.raises(KeyboardInterrupt):
        save(fig, tmp_path, "f", formats=("png",))
    assert (tmp_path / "f.png").read_bytes() == b"the previous figure"
    monkeypatch.undo()
    assert save(fig, tmp_path, "f", formats=("png",)) == ["f.png"]
    assert (tmp_path / "f.png").read_bytes().startswith(b"\x89PNG") and not list(tmp_path.glob(".*.partial"))


def test_an_idle_helper_is_ended_at_close_and_a_busy_one_finishes_first(tmp_path):
    import signal

    with FigureWriter(tmp_path / "idle", process=True) as idle:
        assert idle.call("math:fsum", [0.5, 0.25]).result() == 0.75
        _draw_all(idle)                                    # every figure and call finished
        helper, = idle._helper
    assert helper.exitcode == -signal.SIGKILL             # ended at once, not waited for while it tears down
    with FigureWriter(tmp_path / "busy", process=True) as busy:
        busy.draw("reports.figures:regret_curves", "curves", *CURVES, title="regret", logy=True)
        helper, = busy._helper
    assert helper.exitcode == 0                            # a figure still to draw: waited for, then ended
    assert (tmp_path / "busy" / "curves.png").exists()


def test_formats_choose_the_files_and_the_memo_keeps_them_apart(tmp_path):
    """``formats=("png",)`` (the reproduction's figures) writes PNGs only, in the helper as here; a memo entry of
    one set of formats is never restored for another (each set of files is its own entry)."""
    memo = tmp_path / "memo"
    with FigureWriter(tmp_path / "png", process=True, memo=memo, formats=("png",)) as helper:
        assert _draw_all(helper) == {"curves": ["curves.png"], "tight": ["tight.png"]}
    assert sorted(p.name for p in (tmp_path / "png").iterdir()) == ["curves.png", "tight.png"]
    with FigureWriter(tmp_path / "both", process=False, memo=memo) as here:
        assert _draw_all(here) == {"curves": ["curves.png", "curves.pdf"], "tight": ["tight.png", "tight.pdf"]}
    a, b = imread(tmp_path / "png" / "curves.png"), imread(tmp_path / "both" / "curves.png")
    assert a.shape == b.shape and np.array_equal(a, b)


def test_a_swept_quantity_names_the_x_axis():
    from reports.figures import regret_curves
    assert regret_curves(*CURVES, title="t").axes[0].get_xlabel() == "budget Lambda (separate runs per budget)"
    assert regret_curves(*CURVES, title="t", xlabel="rho / rho_min").axes[0].get_xlabel() == "rho / rho_min"
