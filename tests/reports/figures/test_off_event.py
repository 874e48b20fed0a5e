"""What report.md says beside the count figures of runs off the confidence event of lem:ci."""

from reports.figures import OFF_EVENT_LABEL, OffEventRuns, UndecidedRuns, off_event_note


def test_the_note_counts_the_runs_off_the_event_and_names_the_legend_entry():
    assert off_event_note(None) == [] and off_event_note(OffEventRuns("tacc", 5, 0)) == []
    (_, some) = off_event_note(OffEventRuns("tacc", 5, 2))
    assert some.startswith("2 of the 5 runs of tacc drawn here are off the confidence event of lem:ci")
    assert f'"{OFF_EVENT_LABEL}"' in some and "not asserted" in some
    (_, every) = off_event_note(OffEventRuns("dnc", 3, 3))
    assert every.startswith("All 3 runs of dnc")


def test_the_count_bounds_undecided_on_drawn_runs_are_said_beside_the_figures():
    """On means of 1e12 every count verdict is UNDECIDED (rounding): a sentence beside the figures names each claim
    and its runs; none when neither is undecided."""
    from reports.figures import undecided_note
    assert undecided_note(None) == []
    assert undecided_note(UndecidedRuns("tacc", 5, {"low-count": 0, "high-count": 0})) == []
    (_, line) = undecided_note(UndecidedRuns("tacc", 5, {"low-count": 5, "high-count": 2}))
    assert "low-count (prop:analysis-low-query-bound) on all 5" in line
    assert "high-count (prop:analysis-high-selection) on 2 of the 5" in line and "not asserted" in line
