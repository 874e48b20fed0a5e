"""Figures kept beside the runs (reports._figure_memo): a figure drawn from the same input is copied, byte for byte
what a fresh draw writes; a changed input or figure code draws it again; a damaged entry is drawn again with a
warning, never used; no helper process is started when every figure is kept."""

import json
import multiprocessing

import pytest

from reports._figure_memo import FigureMemo, FigureMemoWarning
from reports._figure_pool import FigureWriter

CURVES = ([250.0, 500.0, 1000.0], {"tacc": ([3.0, 5.0, 8.0], [0.5, 0.25, 0.125])})
BUILDER = "reports._figures:regret_curves"


def _draw(out, memo, curves=CURVES, process=False):
    with FigureWriter(out, process=process, memo=memo) as w:
        w.draw(BUILDER, "curves", *curves, title="regret", logy=True)
        return w.files()


def _drawn(monkeypatch) -> list:
    """Record every figure actually drawn (not copied from the memo)."""
    import reports._figure_pool as pool
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
    assert memo.key(BUILDER, CURVES, {}) != memo.key("reports._figures:tightness", CURVES, {})
    assert memo.key(BUILDER, CURVES, {}) == memo.key(BUILDER, CURVES, {})


def test_a_changed_figure_code_changes_the_key(tmp_path, monkeypatch):
    import reports._figure_memo as m
    memo = FigureMemo(tmp_path)
    before = memo.key(BUILDER, CURVES, {})
    real = m._source
    monkeypatch.setattr(m, "_source", lambda module: real(module) + (b"# edited" if module == "reports._figures"
                                                                      else b""))
    assert memo.key(BUILDER, CURVES, {}) != before


def test_the_module_of_a_class_among_the_arguments_is_in_the_key(tmp_path, monkeypatch):
    import reports._figure_memo as m
    from bounds import ArmClass
    memo = FigureMemo(tmp_path)
    before = memo.key(BUILDER, (ArmClass.A,), {})
    real = m._source
    monkeypatch.setattr(m, "_source", lambda module: real(module) + (b"# edited" if module == ArmClass.__module__
                                                                      else b""))
    assert memo.key(BUILDER, (ArmClass.A,), {}) != before


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
