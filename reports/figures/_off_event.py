"""Runs off the confidence event of ``lem:ci`` among those the count figures draw: how the figures label them and
what the report says beside the figures (the matplotlib-free part: the report's process imports no matplotlib).

Both count bounds of the report, ``prop:analysis-low-query-bound`` and ``prop:analysis-high-selection``, are stated
on the confidence event of ``lem:ci``; on a run where it failed neither is asserted, and a count above its bound
there is no counterexample.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["OFF_EVENT_LABEL", "OffEventRuns", "UndecidedRuns", "off_event_note", "undecided_note"]

#: the legend entry of the runs off the confidence event of lem:ci in the count figures
#: (``reports.figures.count_distribution``).
OFF_EVENT_LABEL = "confidence event of lem:ci failed: bound not asserted"


@dataclass(frozen=True)
class OffEventRuns:
    """The runs of ``policy`` the count figures draw, and how many of them are off the confidence event."""

    policy: str
    runs: int
    off_event: int


@dataclass(frozen=True)
class UndecidedRuns:
    """The runs of ``policy`` the count figures draw, and on how many each count claim is UNDECIDED (``undecided``:
    claim key -> runs)."""

    policy: str
    runs: int
    undecided: dict[str, int]


def off_event_note(x: OffEventRuns | None) -> list[str]:
    """The lines of report.md beside the count figures when some of their runs are off the confidence event.
    Nothing when every run is on the event."""
    if not x or not x.off_event:
        return []
    which = f"All {x.runs}" if x.off_event == x.runs else f"{x.off_event} of the {x.runs}"
    verb = "is" if x.off_event == 1 and x.runs != 1 else "are"
    return ["", f"{which} runs of {x.policy} drawn here {verb} off the confidence event of lem:ci (it failed on "
                f"them): both bounds (prop:analysis-low-query-bound and prop:analysis-high-selection) are stated on "
                f"the event only, so they are not asserted on those runs, and a count above its bound there is no "
                f"counterexample. The figures draw those runs as black crosses, legend entry \"{OFF_EVENT_LABEL}\"."]


#: the count claims of the report's count figures, with their labels.
_COUNT_CLAIMS = {"low-count": "prop:analysis-low-query-bound", "high-count": "prop:analysis-high-selection"}


def undecided_note(x: UndecidedRuns | None) -> list[str]:
    """The lines of report.md beside the count figures when a count claim is UNDECIDED on some of their runs (not
    decided either way: on large means, the rounding of the runs' float sums). Nothing when neither is."""
    if not x or not any(x.undecided.values()):
        return []
    runs = x.runs
    parts = [f"{key} ({_COUNT_CLAIMS.get(key, '')}) on {'all ' + str(runs) if n == runs else f'{n} of the {runs}'}"
             for key, n in x.undecided.items() if n]
    return ["", f"The count bounds are UNDECIDED on runs of {x.policy} drawn here: {' and '.join(parts)} "
                f"(neither HOLDS nor VIOLATED could be decided there; the conclusions above say why, e.g. the "
                f"rounding of the runs' float sums on large means): the bound is not asserted on those runs, which "
                f"the figures draw as the others."]
