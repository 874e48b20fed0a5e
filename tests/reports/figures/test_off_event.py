"""What report.md says beside the count figures of runs off the confidence event of lem:ci."""

from reports.figures import OFF_EVENT_LABEL, off_event_note


def test_the_note_counts_the_runs_off_the_event_and_names_the_legend_entry():
    assert off_event_note(None) == [] and off_event_note({"policy": "tacc", "runs": 5, "off_event": 0}) == []
    (_, some) = off_event_note({"policy": "tacc", "runs": 5, "off_event": 2})
    assert some.startswith("2 of the 5 runs of tacc drawn here are off the confidence event of lem:ci")
    assert f'"{OFF_EVENT_LABEL}"' in some and "not asserted" in some
    (_, every) = off_event_note({"policy": "dnc", "runs": 3, "off_event": 3})
    assert every.startswith("All 3 runs of dnc")


def test_the_count_bounds_undecided_on_drawn_runs_are_said_beside_the_figures():
    """On means of 1e12 every count verdict is UNDECIDED (rounding) and the figures drew those runs with no word (a
    README-only user): a sentence names each claim and its runs; none when neither is undecided."""
    from reports.figures import undecided_note
    assert undecided_note(None) == [] and undecided_note({"policy": "tacc", "runs": 5, "undecided": {
        "low-count": 0, "high-count": 0}}) == []
    (_, line) = undecided_note({"policy": "tacc", "runs": 5, "undecided": {"low-count": 5, "high-count": 2}})
    assert "low-count (prop:analysis-low-query-bound) on all 5" in line
    assert "high-count (prop:analysis-high-selection) on 2 of the 5" in line and "not asserted" in line
