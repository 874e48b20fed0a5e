"""A proof step: the paper's inference (premises with their sources, the conclusion as written), where it is in
the paper, and what is known about it (a finding with its correction, premises it does not need, slack).

The statement and hypotheses a reader sees are generated from the same sympy formulas z3 is given
(``proofs_checks._formula``): they cannot differ.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable

from proofs_checks._inference import DOMAIN, Inference, decide
from proofs_checks._result import Outcome, StepResult

__all__ = ["Outcome", "StepResult", "Step", "step", "steps_of"]


@dataclass(frozen=True)
class Step:
    """One link of a proof.

    ``build()`` returns the :class:`Inference` (built on first use); ``corrected`` (optional) builds the corrected
    inference of a refuted step; ``finding`` says in words what is wrong; ``unneeded`` maps a premise the
    conclusion does not need to why (``"over-assumption: ..."`` when the paper assumes more than the step uses,
    ``"encoding: ..."`` when the encoding states more than the paper); ``slack`` maps a surviving conclusion
    mutant to why the stated form is not the tightest; ``consistency(result)`` compares the ``bounds``
    counterpart with the checked expression; ``note`` says what is checked and what is not; ``unchecked`` (a
    step resting on an argument neither z3 nor sympy is given, e.g. concentration) makes the step UNKNOWN with
    that reason; ``toolkit`` says which form the toolkit computes where the paper's constant is not the least."""

    sid: str
    label: str
    tex: str
    build: Callable[[], Inference] = field(repr=False)
    corrected: Callable[[], Inference] | None = field(default=None, repr=False)
    corrected_text: str = ""
    finding: str = ""
    unneeded: dict = field(default_factory=dict)
    slack: dict = field(default_factory=dict)
    consistency: Callable[[StepResult], str] | None = field(default=None, repr=False)
    note: str = ""
    unchecked: str = ""
    toolkit: str = ""

    @property
    def inference(self) -> Inference:
        return self.build()

    @property
    def statement(self) -> str:
        return self.inference.text

    @property
    def hypotheses(self) -> str:
        return "; ".join(f"[{p.name}] {p.text}" for p in self.inference.premises if p.source != DOMAIN)

    @property
    def domain(self) -> str:
        return "; ".join(p.text for p in self.inference.premises if p.source == DOMAIN)

    @property
    def method(self) -> str:
        if self.unchecked:
            return "not checked (see the reason)"
        return "exact points + sympy" if self.inference.method == "exact" else "z3"

    def why_unneeded(self, name: str) -> str:
        """Why a premise is not needed: declared, or automatic for a domain premise."""
        if name in self.unneeded:
            return self.unneeded[name]
        src = {p.name: p.source for p in self.inference.premises}.get(name)
        if src == DOMAIN:
            return "encoding: a domain premise the conclusion does not use"
        return "UNDECLARED: the paper cites it, the conclusion does not need it"

    def check(self) -> StepResult:
        if self.unchecked:
            cons = self.consistency(StepResult(Outcome.UNKNOWN)) if self.consistency else None
            return StepResult(Outcome.UNKNOWN, self.unchecked, consistency=cons)
        r = decide(self.inference)
        extra: dict = {}
        if r.outcome is Outcome.REFUTED:
            extra["detail"] = f"{self.finding} ({r.detail})" if self.finding else r.detail
            if self.corrected is not None:
                c = decide(self.corrected())
                extra.update(corrected=self.corrected_text or self.corrected().text, corrected_outcome=c.outcome)
        if self.consistency is not None:
            extra["consistency"] = self.consistency(r)
        return StepResult(r.outcome, extra.pop("detail", r.detail), r.counterexample, **extra)


def step(sid: str, label: str, tex: str, **kw):
    """Turn the decorated builder ``() -> Inference`` into a :class:`Step` (the name then holds the Step)."""
    if kw.get("corrected") is not None:
        kw["corrected"] = functools.cache(kw["corrected"])

    def make(fn: Callable[[], Inference]) -> Step:
        return Step(sid, label, tex, functools.cache(fn), **kw)
    return make


def steps_of(namespace: dict) -> tuple:
    """The Steps defined in a module, in definition order (``steps_of(globals())`` at the module's end)."""
    return tuple(v for v in list(namespace.values()) if isinstance(v, Step))
