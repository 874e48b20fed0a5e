"""``tacc runs``'s view (``reports.views.render_runs``): each row's cells and the notes that explain them appear
exactly when a row needs them."""

import math

from reports.views import UNKNOWN, EventFailures, RunsRow, RunsSummary
from reports.views import render_runs


def _row(**kw) -> RunsRow:
    base = dict(config="set-a", budget=4000.0, policy="tacc", runs=10, first_seed=0, last_seed=9, mean_regret=12.5,
                event=EventFailures(), missing_seeds="")
    return RunsRow(**{**base, **kw})


def test_a_plain_summary_has_no_notes_and_no_missing_seeds_column():
    text = render_runs(RunsSummary(rows=(_row(),), unknown=0, damaged=()))
    assert "missing seeds" not in text and "rounding" not in text and "float check" not in text
    assert UNKNOWN not in text and "damaged" not in text
    assert "set-a" in text and "4000" in text and "tacc" in text


def test_each_cell_that_needs_a_note_brings_it():
    rows = (_row(event=EventFailures(failed=2, rounding=1)),
            _row(config=UNKNOWN, budget=math.nan, policy="dnc", event=EventFailures(failed=0, rounding=0,
                                                                                     float_check=3)),
            _row(policy="ucb", missing_seeds="10:12"))
    text = render_runs(RunsSummary(rows=rows, unknown=4, damaged=("run 7 of set-a: truncated",)))
    lines = text.splitlines()
    assert "2 (+1 rounding)" in text and "(+N rounding: runs whose float check" in text
    assert "3 (3 float check)" in text and "event failed, (float check)" in text
    assert any(line.count(UNKNOWN) == 2 and "dnc" in line for line in lines)   # its config and its NaN budget
    assert f"{UNKNOWN}: 4 run(s) of no known configuration" in text
    assert "missing seeds" in lines[0] and "10:12" in text and "`tacc report --from` refuses the folder" in text
    assert "1 damaged run(s)" in text and "  run 7 of set-a: truncated" in lines


def test_a_rounding_count_of_a_float_checked_row_brings_no_rounding_note():
    """The float check alone counts a row of no known configuration: its rounding is no exact decision."""
    row = _row(config=UNKNOWN, budget=math.nan, event=EventFailures(failed=0, rounding=2, float_check=1))
    text = render_runs(RunsSummary(rows=(row,), unknown=1, damaged=()))
    assert "+N rounding" not in text and "event failed, (float check)" in text
