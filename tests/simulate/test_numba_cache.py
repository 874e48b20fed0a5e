"""numba's on-disk cache keyed on the code fingerprint (simulate/_numba_cache.py): folders of older code are pruned."""

import os

from simulate._numba_cache import KEEP_OTHER, prune


def _folder(base, i, mtime):
    path = base / f"tacc-{i:016x}"
    path.mkdir()
    (path / "f.nbi").write_bytes(b"x")
    os.utime(path, (mtime, mtime))
    return path


def test_prune_keeps_the_current_folder_and_the_most_recent_others(tmp_path):
    """Six folders of other code: the three written last stay (a branch switched back to finds its machine code),
    the oldest go; the current one stays whatever its time, and nothing that is not such a folder is touched: a
    link named like one (nor what it points to), a file named like one, another folder."""
    old = [_folder(tmp_path, i, 1_000_000 + i) for i in range(6)]
    current = _folder(tmp_path, 99, 1)                       # the oldest time, still kept
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / f"tacc-{100:016x}").symlink_to(outside, target_is_directory=True)
    (tmp_path / f"tacc-{101:016x}").write_text("a file")
    (tmp_path / "tacc-notes").mkdir()
    removed = prune(str(tmp_path), current.name, keep=3)
    assert sorted(removed) == sorted(str(p) for p in old[:3])
    assert all(p.is_dir() for p in old[3:]) and current.is_dir() and outside.is_dir()
    assert (tmp_path / f"tacc-{100:016x}").is_symlink() and (tmp_path / f"tacc-{101:016x}").is_file()
    assert (tmp_path / "tacc-notes").is_dir()
    assert prune(str(tmp_path), current.name, keep=3) == []                 # nothing more to remove
    assert KEEP_OTHER >= 1


def test_prune_of_a_folder_that_is_not_there_removes_nothing(tmp_path):
    assert prune(str(tmp_path / "missing"), "tacc-0000000000000000") == []
