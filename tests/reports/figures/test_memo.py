"""Figures kept beside the runs (reports.figures._memo): a figure drawn from the same input is copied, byte for byte
what a fresh draw writes; a changed input or figure code draws it again; a damaged entry is drawn again with a
warning, never used; no helper process is started when every figure is kept."""

import json
import multiprocessing
import os

import pytest

from reports.figures import FigureMemo, FigureMemoWarning
from reports.figures import FigureWriter

CURVES = ([250.0, 500.0, 1000.0], {"tacc": ([3.0, 5.0, 8.0], [0.5, 0.25, 0.125])})
BUILDER = "reports.figures:regret_curves"


def _draw(out, memo, curves=CURVES, process=False):
    with FigureWriter(out, process=process, memo=memo) as w:
        w.draw(BUILDER, "curves", *curves, title="regret", logy=True)
        return w.files()


def _drawn(monkeypatch) -> list:
    """Record every figure actually drawn (not copied from the memo)."""
    import reports.figures._pool as pool
    calls: list = []
    real = pool._draw
    monkeypatch.setattr(pool, "_draw", lambda *job: calls.append(job[4]) or real(*job))
    return calls


def test_a_kept_figure_is_copied_and_equals_a_fresh_draw(tmp_path, monkeypatch):
    calls = _drawn(monkeypatch)
    assert _draw(tmp_path / "a", tmp_path / "memo") == {"curves": ["curves.png", "curves.pdf"]}
    assert calls == ["curves"]
    assert _draw(tmp_path / "b", tmp_path / "memo") == {"curves": ["curves.png", "curves.pdf"]}
    assert calls == ["curves"]                                               # copied, not drawn
    _draw(tmp_path / "fresh", None)                                          # no memo: drawn
    assert calls == ["curves", "curves"]
    # the PNG is byte for byte a fresh draw (the PDF differs from a fresh one only by its creation date)
    assert (tmp_path / "b" / "curves.png").read_bytes() == (tmp_path / "fresh" / "curves.png").read_bytes()
    assert (tmp_path / "b" / "curves.pdf").read_bytes() == (tmp_path / "a" / "curves.pdf").read_bytes()
    assert not list(tmp_path.rglob("*.partial"))


def test_a_changed_input_is_drawn_again(tmp_path, monkeypatch):
    calls = _drawn(monkeypatch)
    _draw(tmp_path / "a", tmp_path / "memo")
    changed = (CURVES[0], {"tacc": ([3.0, 5.0, 8.000000000000002], [0.5, 0.25, 0.125])})   # one ulp
    _draw(tmp_path / "b", tmp_path / "memo", changed)
    assert calls == ["curves", "curves"]
    assert (tmp_path / "a" / "curves.png").read_bytes() != b""
    memo = FigureMemo(tmp_path / "memo")
    assert memo.key(BUILDER, CURVES, {}) != memo.key(BUILDER, changed, {})
    assert memo.key(BUILDER, CURVES, {}) != memo.key("reports.figures:tightness", CURVES, {})
    assert memo.key(BUILDER, CURVES, {}) == memo.key(BUILDER, CURVES, {})


def test_an_edit_to_any_source_of_the_toolkit_changes_the_key(tmp_path, monkeypatch):
    # a figure depends on more than its builder's module (a label's number format, a property of an argument's
    # class): every source file of the four packages is in the key
    import reports.figures._memo as m
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "b.py").write_text("def fmt(v):\n    return f'{v:.4g}'\n")
    before = m._toolkit_code.__wrapped__((pkg,))              # uncached: the files are read each time
    (pkg / "b.py").write_text("def fmt(v):\n    return f'{v:.3g}'\n")
    assert m._toolkit_code.__wrapped__((pkg,)) != before
    assert {p.name for p in m._default_roots()} == {"bounds", "certify", "reports", "simulate"}
    memo = FigureMemo(tmp_path / "memo")
    key = memo.key(BUILDER, CURVES, {})
    monkeypatch.setattr(m, "_toolkit_code", lambda roots=(): "edited")
    assert memo.key(BUILDER, CURVES, {}) != key


def test_a_memo_file_that_is_a_link_is_not_followed(tmp_path, monkeypatch):
    calls = _drawn(monkeypatch)
    _draw(tmp_path / "a", tmp_path / "memo")
    png = next((tmp_path / "memo").glob("*.png"))
    outside = tmp_path / "outside.png"
    outside.write_bytes(png.read_bytes())                   # the same bytes: only the link is wrong
    png.unlink()
    png.symlink_to(outside)
    with pytest.warns(FigureMemoWarning, match="symbolic link"):
        _draw(tmp_path / "b", tmp_path / "memo")
    assert calls == ["curves", "curves"]


@pytest.mark.parametrize("damage", ["png", "pdf", "index"])
def test_a_damaged_entry_is_drawn_again_with_a_warning(tmp_path, monkeypatch, damage):
    calls = _drawn(monkeypatch)
    _draw(tmp_path / "a", tmp_path / "memo")
    (index,) = (tmp_path / "memo").glob("*.json")
    key = index.stem
    if damage == "index":
        index.write_text(json.dumps({"key": "0" * 64, "sha256": json.loads(index.read_text())["sha256"]}))
    else:
        f = tmp_path / "memo" / f"{key}.{damage}"
        data = bytearray(f.read_bytes())
        data[len(data) // 2] ^= 1                                            # one bit
        f.write_bytes(bytes(data))
    with pytest.warns(FigureMemoWarning, match="drawn again"):
        _draw(tmp_path / "b", tmp_path / "memo")
    assert calls == ["curves", "curves"]                                     # drawn, the damaged entry not used
    assert (tmp_path / "b" / "curves.png").read_bytes() == (tmp_path / "a" / "curves.png").read_bytes()
    _draw(tmp_path / "c", tmp_path / "memo")                                 # the entry was rewritten
    assert calls == ["curves", "curves"]


def test_no_helper_process_when_every_figure_is_kept(tmp_path):
    _draw(tmp_path / "a", tmp_path / "memo", process=True)                  # drawn by a helper, kept
    before = set(multiprocessing.active_children())
    with FigureWriter(tmp_path / "b", process=True, memo=tmp_path / "memo") as w:
        w.draw(BUILDER, "curves", *CURVES, title="regret", logy=True)
        assert w._pool is None and not [p for p in multiprocessing.active_children() if p not in before]
        assert w.files() == {"curves": ["curves.png", "curves.pdf"]}
    assert (tmp_path / "b" / "curves.png").read_bytes() == (tmp_path / "a" / "curves.png").read_bytes()


def test_the_memo_is_readable_by_the_group(tmp_path):
    """A shared cache on a cluster: the memo (a folder inside the run cache's) is group-readable as its runs are,
    whatever the umask (under 077 it was drwx------ with -rw------- files)."""
    old = os.umask(0o077)
    try:
        _draw(tmp_path / "a", tmp_path / "memo")
    finally:
        os.umask(old)
    assert os.stat(tmp_path / "memo").st_mode & 0o050 == 0o050
    kept = list((tmp_path / "memo").iterdir())
    assert len(kept) == 3 and all(os.stat(p).st_mode & 0o040 for p in kept)
