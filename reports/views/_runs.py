"""``tacc runs``'s view: a summary of saved runs (:class:`RunsSummary`, made by ``reports.report.summarize_runs``)
as a table with its notes; it computes nothing."""

from __future__ import annotations

import math
from dataclasses import dataclass

from reports.tables import Shown, Whole, table

__all__ = ["render", "UNKNOWN", "EventFailures", "RunsRow", "RunsSummary"]

#: the configuration and budget ``tacc runs`` shows for runs of no known configuration.
UNKNOWN = "(unknown)"


@dataclass(frozen=True)
class EventFailures:
    """The runs of a row on which the confidence event of ``lem:ci`` failed, decided exactly on the observations
    (``failed``), the runs whose float check reported a failure the exact sums do not confirm (``rounding``), and
    the runs of no known configuration counted by the engine's float check alone (``float_check``)."""

    failed: int = 0
    rounding: int = 0
    float_check: int = 0


@dataclass(frozen=True)
class RunsRow:
    """The saved runs of one configuration, budget (NaN: unknown) and policy: how many, their first and last seed,
    their mean regret, the confidence event's failures, and the seeds saved for another budget or policy of the
    configuration but not for this one (as ``A:B`` spans; empty: none)."""

    config: str
    budget: float
    policy: str
    runs: int
    first_seed: int
    last_seed: int
    mean_regret: float
    event: EventFailures
    missing_seeds: str


@dataclass(frozen=True)
class RunsSummary:
    """What ``tacc runs DIR`` shows: a row per configuration, budget and policy, the runs of no known configuration
    (``unknown``) and each damaged run described (``simulate.describe_damaged``)."""

    rows: tuple[RunsRow, ...]
    unknown: int
    damaged: tuple[str, ...]


def _event_cell(e: EventFailures):
    """The event-failed cell: a count, with the rounding runs after it, or with the runs counted by the float check
    alone, marked."""
    if e.float_check:
        return Shown(f"{e.failed + e.float_check} ({e.float_check} float check)")
    return Shown(f"{e.failed} (+{e.rounding} rounding)") if e.rounding else e.failed


def render(summary: RunsSummary) -> str:
    """Runs per configuration, budget and policy, with the mean regret and the confidence event's failures; where
    the seed sets of a configuration's budgets and policies differ, the seeds each lacks of those saved for any."""
    # the budget is the configuration's: unknown with it (a NaN, which a table prints "undefined", as 0 / 0)
    rows = [(r.config, Shown(UNKNOWN) if math.isnan(r.budget) else r.budget, r.policy, r.runs, Whole(r.first_seed),
             Whole(r.last_seed), r.mean_regret, _event_cell(r.event), r.missing_seeds or "-") for r in summary.rows]
    rounding = any(not r.event.float_check and r.event.rounding for r in summary.rows)
    floats = any(r.event.float_check for r in summary.rows)
    gaps = any(r.missing_seeds for r in summary.rows)
    head = ["config", "budget", "policy", "runs", "first seed", "last seed", "mean regret", "event failed"]
    text = table(head + ["missing seeds"] * gaps, [row if gaps else row[:-1] for row in rows])
    if summary.unknown:
        text += (f"\n\n{UNKNOWN}: {summary.unknown} run(s) of no known configuration (the configuration saved with "
                 "them cannot be read: the warning names its file), so neither its name nor its budget is known")
    if rounding:
        text += ("\n\nevent failed: runs on which the confidence event of lem:ci failed, decided exactly on the "
                 "observations (+N rounding: runs whose float check reported a failure that the exact sums do not "
                 "confirm; the event held on them)")
    if floats:
        text += ("\n\nevent failed, (float check): runs of no known configuration, whose failures cannot be decided "
                 "again exactly here: the engine's float check")
    if gaps:
        text += ("\n\nmissing seeds: saved for another budget or policy of the configuration, not for this one "
                 "(A:B is seeds A to B-1, as --seeds reads it); `tacc report --from` refuses the folder until they "
                 "are made again")
    if summary.damaged:
        text += (f"\n\n{len(summary.damaged)} damaged run(s), not in the table nor in exported tables (no run is "
                 "made here; the sweep that saved them, run again over the same folder, makes them again):\n"
                 + "\n".join(f"  {d}" for d in summary.damaged))
    return text
