"""RDFE runs that completed no phase of ``alg:app-rdfe``, for the report's comparison of methods.

A run of RDFE records its phases (``simulate.RdfePhase``, one per phase started, ``completed`` when every active
arm reached its stopping count and the elimination was made). When the budget runs out inside phase 1, no arm was
ever eliminated: the run's regret is that of the first phase's query plan cut off by the budget (a plan fixed by
G, B_k and eps_1 alone), small because the budget stopped it, not because RDFE found the best arm. Such a regret
is no basis for ranking RDFE against the other methods, so the report says, beside RDFE's numbers and where it
compares the methods, in how many runs this happened.
"""

from __future__ import annotations

from dataclasses import dataclass

from reports.tables import fmt

__all__ = ["NoPhaseRuns", "completed_a_phase", "no_phase_runs", "regret_cell_note", "no_phase_footnote",
           "no_phase_sentence"]

#: the policy whose phases are read.
RDFE = "rdfe"


@dataclass(frozen=True)
class NoPhaseRuns:
    """RDFE's runs at one budget and how many of them completed no phase of ``alg:app-rdfe``."""

    budget: float
    runs: int
    no_phase: int


def completed_a_phase(record) -> bool:
    """Whether a run of RDFE completed a phase of ``alg:app-rdfe`` (its record's ``phases``, each
    ``simulate.RdfePhase.completed``)."""
    return any(ph.completed for ph in record.phases)


def no_phase_runs(by: dict, budgets, policies) -> list[NoPhaseRuns]:
    """Per budget, RDFE's runs (``by[budget, "rdfe"]``) and how many of them completed no phase; empty when RDFE is
    not among ``policies``."""
    if RDFE not in policies:
        return []
    return [NoPhaseRuns(b, len(by[b, RDFE]), sum(not completed_a_phase(r) for r in by[b, RDFE])) for b in budgets]


def regret_cell_note(x: NoPhaseRuns) -> str:
    """What RDFE's cell of the regret table adds at one budget (an entry of :func:`no_phase_runs`): nothing when
    every run completed a phase."""
    return f" (no phase: {x.no_phase} of {x.runs} runs)" if x.no_phase else ""


def no_phase_footnote(rows: list[NoPhaseRuns]) -> str | None:
    """The regret table's footnote on the cells :func:`regret_cell_note` marks (``rows`` from
    :func:`no_phase_runs`), or None when every run of RDFE completed a phase."""
    marked = [x for x in rows if x.no_phase]
    if not marked:
        return None
    at = ", ".join(f"{x.no_phase} of {x.runs} at {fmt(x.budget)}" for x in marked)
    return (f"no phase: RDFE completed no phase of `alg:app-rdfe` in that many of its runs at that budget ({at}): "
            f"the budget ran out inside its first phase, before any arm was eliminated, so the regret of those runs "
            f"is that of the first phase's fixed query plan cut off by the budget, not of RDFE's elimination, and is "
            f"no basis for ranking RDFE against the other policies.")


def no_phase_sentence(rows: list[NoPhaseRuns], means: dict) -> str | None:
    """The conclusion on RDFE's runs at the full budget without a completed phase (``rows`` from
    :func:`no_phase_runs`, the last at the full budget; ``means`` each policy's mean regret at the full budget), or
    None when each of them completed one. When RDFE has the lowest mean there, the sentence says that this ranking
    does not stand."""
    if not rows or not rows[-1].no_phase:
        return None
    full = rows[-1]
    text = (f"RDFE completed no phase of alg:app-rdfe in {full.no_phase} of {full.runs} runs at the full "
            f"budget: the budget ran out inside its first phase, before any arm was eliminated, so its regret there "
            f"is that of a fixed query plan cut off by the budget and is no basis for comparing it with the other "
            f"policies (the regret table marks those cells: no phase).")
    lowest = min(means, key=means.__getitem__)
    if lowest == RDFE and len(means) > 1:
        text += (f" Its mean regret at the full budget, {fmt(means[RDFE])}, is the lowest of the policies, but it is "
                 f"not the best for that: " + ("none" if full.no_phase == full.runs else
                                               f"only {full.runs - full.no_phase}")
                 + " of its runs there completed a phase.")
    return text
