"""Running the steps (each decided, then mutated), and the baseline of accepted findings."""

from __future__ import annotations

import json
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from bounds import TaccInputError
from bounds import validate
from proofs_checks._mutate import MutationReport, mutate
from proofs_checks._result import Outcome, StepResult
from proofs_checks._step import Step
from proofs_checks._tighten import tightened_constants

__all__ = ["StepReport", "run_steps", "load_baseline", "BASELINE"]

#: the repository's baseline: the paper's current findings (step ids whose REFUTED result is accepted).
BASELINE = Path(__file__).with_name("baseline.json")


@dataclass(frozen=True)
class StepReport:
    """A step, its result, its mutation report (of the step if PROVED, of its correction if REFUTED and the
    correction is PROVED; None otherwise), the seconds it took, and whether the baseline accepts it."""

    step: Step
    result: StepResult
    seconds: float
    accepted: bool = False
    mutation: MutationReport | None = None
    mutated: str = ""     # "step", "correction" or ""
    tightened: tuple = ()  # proofs_checks._tighten.Tightened: constants shown to suffice, a smaller value valid

    @property
    def vacuous(self) -> bool:
        return self.mutation is not None and self.mutation.vacuous

    @property
    def undeclared(self) -> tuple:
        """Premises not needed and not explained (a test fails on any)."""
        if self.mutation is None or self.mutated != "step":
            return ()
        return tuple(n for n in self.mutation.unneeded if self.step.why_unneeded(n).startswith("UNDECLARED"))


def _one(s: Step, baseline: set, do_mutate: bool) -> StepReport:
    t = time.perf_counter()
    mutation, mutated = None, ""
    tightened: tuple = ()
    try:
        r = s.check()
        if do_mutate and r.outcome is Outcome.PROVED:
            mutation, mutated = mutate(s.inference), "step"
            tightened = tuple(tightened_constants(s.inference, mutation.slack))
        elif (do_mutate and s.corrected is not None and r.outcome is Outcome.REFUTED
              and r.corrected_outcome is Outcome.PROVED):
            mutation, mutated = mutate(s.corrected(), hypotheses=False), "correction"
    except Exception as exc:  # a failing checker is reported, not raised
        r = StepResult(Outcome.UNKNOWN, f"the check raised {type(exc).__name__}: {exc} "
                                        f"({traceback.extract_tb(exc.__traceback__)[-1].lineno})")
    return StepReport(s, r, time.perf_counter() - t, r.outcome is Outcome.REFUTED and s.sid in baseline,
                      mutation, mutated, tightened)


def run_steps(steps, baseline: set | None = None, *, mutate_steps: bool = True) -> list[StepReport]:
    """Check every step (and mutate it); an exception inside a check is an UNKNOWN result naming it."""
    baseline = baseline or set()
    return [_one(s, baseline, mutate_steps) for s in steps]


def load_baseline(path, known=None) -> set:
    """Accepted REFUTED steps: a JSON list of step ids (or objects with an "id"); with ``known`` (the step ids
    that exist), an id outside it is refused (a typo would accept nothing, silently). A refused entry is quoted as
    the file spells it, JSON (it was quoted as Python: ``{'claim': 1}``)."""
    data = validate.json_file("baseline", path)
    if not isinstance(data, list):
        raise TaccInputError("baseline", str(path), "must be a JSON list of step ids")
    ids = set()
    for d in data:
        sid = d.get("id") if isinstance(d, dict) else d
        if not isinstance(sid, str):
            raise TaccInputError("baseline", str(path), f"entry {json.dumps(d)} is not a step id")
        if known is not None and sid not in known:
            raise TaccInputError("baseline", str(path), f"entry {json.dumps(d)} names no step (tacc proofs lists "
                                                        "the ids)")
        ids.add(sid)
    return ids
