"""Coverage of the paper: every displayed equation or inequality of the appendix proofs has a row or a reason;
every row named exists. The .tex is read where the shared paper lives (skipped elsewhere)."""

import re
from pathlib import Path

import pytest

from proofs_checks import COVERAGE, STEPS, coverage_rows
from proofs_checks._coverage import APPENDIX_PROOFS

_REPO = Path(__file__).resolve().parents[2]
#: the paper's .tex: in a shared/ folder beside the repository (where CI lays it) or the workplace's shared/.
PAPER = next((p for p in (_REPO.parent / "shared" / "paper" / "tacc-paper.tex",
                          Path("/work/shared/paper/tacc-paper.tex")) if p.is_file()),
             _REPO.parent / "shared" / "paper" / "tacc-paper.tex")


def test_every_statement_has_a_row_or_a_reason_and_rows_exist():
    ids = {s.sid for s in STEPS}
    for s in COVERAGE:
        assert s.rows or s.reason, s
        assert set(s.rows) <= ids, (s.line, set(s.rows) - ids)


def test_every_step_covers_some_statement():
    covered = {r for s in COVERAGE for r in s.rows}
    assert not {s.sid for s in STEPS} - covered


def test_rows_carry_outcomes():
    rows = coverage_rows({"high-selection.total": "PROVED"})
    assert any("high-selection.total [PROVED]" in r[3] for r in rows)


@pytest.mark.skipif(not PAPER.exists(), reason="the paper's .tex is not on this machine")
def test_every_display_of_the_appendix_proofs_is_listed():
    lines = PAPER.read_text().splitlines()
    lo, hi = APPENDIX_PROOFS
    displays = [i + 1 for i, line in enumerate(lines)
                if lo <= i + 1 <= hi and re.match(r"\s*(\\begin\{(equation|align)\}|\\\[)", line)]
    listed = {s.line for s in COVERAGE}
    assert len(displays) > 60
    assert not [d for d in displays if d not in listed]
    for s in COVERAGE:
        if lo <= s.line <= hi and s.line in displays:
            assert re.match(r"\s*(\\begin|\\\[)", lines[s.line - 1])
