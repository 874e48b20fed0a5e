"""Running the steps, and the baseline of accepted findings."""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass
from pathlib import Path

from bounds import TaccInputError
from bounds import validate
from proofs_checks._step import Outcome, Step, StepResult

__all__ = ["StepReport", "run_steps", "load_baseline", "BASELINE"]

#: the repository's baseline: the paper's current findings (step ids whose REFUTED result is accepted).
BASELINE = Path(__file__).with_name("baseline.json")


@dataclass(frozen=True)
class StepReport:
    step: Step
    result: StepResult
    seconds: float
    accepted: bool = False


def run_steps(steps, baseline: set | None = None) -> list[StepReport]:
    """Check every step; an exception inside a check is an UNKNOWN result naming it (never a crash)."""
    baseline = baseline or set()
    out = []
    for s in steps:
        t = time.perf_counter()
        try:
            r = s.check()
        except Exception as exc:  # a failing checker is reported, not raised
            r = StepResult(Outcome.UNKNOWN, f"the check raised {type(exc).__name__}: {exc} "
                                            f"({traceback.extract_tb(exc.__traceback__)[-1].lineno})")
        out.append(StepReport(s, r, time.perf_counter() - t, r.outcome is Outcome.REFUTED and s.sid in baseline))
    return out


def load_baseline(path) -> set:
    """Accepted REFUTED steps: a JSON list of step ids (or objects with an "id")."""
    data = validate.json_file("baseline", path)
    if not isinstance(data, list):
        raise TaccInputError("baseline", str(path), "must be a JSON list of step ids")
    ids = set()
    for d in data:
        sid = d.get("id") if isinstance(d, dict) else d
        if not isinstance(sid, str):
            raise TaccInputError("baseline", str(path), f"entry {d!r} is not a step id")
        ids.add(sid)
    return ids
