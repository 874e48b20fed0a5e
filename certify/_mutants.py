"""Teeth: wrong bounds and broken algorithms that the property search must catch.

A bound mutant replaces one claim's bound with a wrong one and is judged on the real TACC; an algorithm mutant
replaces TACC by a broken step form (run on the reference engine) and is judged with the real claims. Either is
caught when the search finds an instance and seed where the event held, every assumption held, and a claim is
VIOLATED; the counterexample is shrunk by hypothesis and printed as a configuration.

Not a mutant: the high-fidelity bound without its "+1", ceil(4 ell / Delta^2). A query at count n needs
n <= 4 ell / Delta^2, so N^(H) <= 1 + floor(4 ell / Delta^2), which equals ceil(4 ell / Delta^2) whenever
4 ell / Delta^2 is not an integer: that "mutant" is a valid bound except on a set of measure zero, and the
paper's 1 + ceil(...) is one query loose there (the control claim uses 1 + floor).
"""

from __future__ import annotations

import math

from dataclasses import dataclass, replace
from typing import Callable

from bounds import ArmClass, dump_config, high_query_bound, low_query_bound
from certify._assumptions import check_assumptions
from certify._claims import claim, claims_for
from certify._context import ClaimContext
from certify._measurement import Measurement
from certify._search import search
from certify._verdict import Verdict, judge
from hypothesis import target
from hypothesis.control import currently_in_test_context
from simulate import LOW, Action, Tacc, make_problem, run

__all__ = ["Mutant", "MUTANTS", "Catch", "hunt"]


@dataclass(frozen=True)
class Mutant:
    """A deliberately wrong bound (``claims``) or algorithm (``policy``: problem -> step-form policy)."""

    name: str
    description: str
    claims: tuple
    policy: Callable | None = None


# ---------------------------------------------------------------------------------------------- wrong bounds
def _high_count_half(ctx, rec):
    return [Measurement("N_H", high_query_bound(ctx.problem.ell / 2, ctx.gaps[k]), rec.n_high[k], arm=k)
            for k in ctx.suboptimal]


def _low_cap_without_s0(ctx, rec):
    return [Measurement("N_L", low_query_bound(ctx.problem.n_gamma, 0), rec.n_low[k], arm=k) for k in ctx.suboptimal]


def _class_a_includes_c(ctx, rec):
    return [Measurement("N_H", 1, rec.n_high[k], arm=k) for k in ctx.suboptimal
            if ctx.classes[k] in (ArmClass.A, ArmClass.C)]


def _theorem_cd_without_s0(ctx, rec):
    refined = ctx.refined(rec)
    # C^d charged like A: lambda_L (N_gamma + 1) + lambda_H
    b = ctx.tacc_bound(tuple(ArmClass.A if c is ArmClass.C_D else c for c in refined), ctx.problem.s0)
    return [Measurement("R_k", b.terms[k], rec.regret_share[k], arm=k) for k in ctx.suboptimal]


def _mutated(key: str, measure, note: str) -> tuple:
    base = claim(key)
    return (replace(base, key=f"{key}[mutant]", statement=f"{base.statement} -- MUTATED: {note}", measure=measure),)


# ---------------------------------------------------------------------------------------------- broken algorithms
class _UncappedTacc(Tacc):
    """TACC whose continuation ignores its cap: s ranges over 1..S0 whatever A_k, and A_k < S0 is not required."""

    def continuation_test(self, k):
        n = int(self.n_low[k])
        b = self.mismatch_bound
        return any(b(k, n) - b(k, n + s) >= 2 * self.eta * self.gamma for s in range(1, self.s0 + 1))


class _EarlyThresholdTacc(Tacc):
    """TACC with the threshold test off by one: low fidelity only while N^(L) < N_gamma - 1."""

    def choose(self):
        k = int(self.index.argmax())
        if self.n_low[k] < self.n_gamma - 1:
            return Action(k, LOW)
        if self.continuation_test(k):
            return Action(k, LOW, continuation=True)
        from simulate import HIGH
        return Action(k, HIGH)


def _uncapped(problem):
    # the model's own B_k, not Problem.bias: an uncapped run passes the table's N_gamma + S0 + 1 counts
    model = problem.instance.low
    return _UncappedTacc(problem.n_arms, problem.cost_low, problem.cost_high, problem.budget, ell=problem.ell,
                         n_gamma=problem.n_gamma, gamma=problem.gamma, eta=problem.eta, s0=problem.s0,
                         mismatch_bound=model.mismatch_bound)


def _early(problem):
    return _EarlyThresholdTacc.from_problem(problem)


MUTANTS = (
    Mutant("high-count-half-constant", "prop:analysis-high-selection with 2 ell instead of 4 ell",
           _mutated("high-count", _high_count_half, "1 + ceil(2 ell / Delta^2)")),
    Mutant("low-cap-without-s0", "prop:analysis-low-query-bound without S0: N_L <= N_gamma + 1",
           _mutated("low-count", _low_cap_without_s0, "N_gamma + 1")),
    Mutant("class-a-includes-c", "the class-A certificate asserted for C arms as well (a partition bug)",
           _mutated("class-A", _class_a_includes_c, "A u C")),
    Mutant("theorem-cd-without-s0",
           "thm:analysis-main-regret's per-arm term charging C^d arms lambda_L (N_gamma + 1) + lambda_H",
           _mutated("theorem-arms", _theorem_cd_without_s0, "C^d charged as A")),
    Mutant("continuation-without-cap", "TACC whose continuation ignores A_k < S0", claims_for("tacc"), _uncapped),
    Mutant("threshold-off-by-one", "TACC switching at N^(L) = N_gamma - 1", claims_for("tacc"), _early),
)


@dataclass(frozen=True)
class Catch:
    """A mutant's counterexample: the shrunk configuration, the seed and the violated verdict (None: survived)."""

    mutant: str
    examples: int
    config_toml: str | None
    seed: int | None
    verdict: object

    @property
    def caught(self) -> bool:
        return self.verdict is not None


def _violation(mutant: Mutant):
    def condition(config, seed):
        problem = make_problem(config)
        ctx = ClaimContext(problem, check_assumptions(problem))
        if mutant.policy is None:
            rec = run(problem, "tacc", seed)
        else:
            from simulate import run_reference
            rec = run_reference(problem, mutant.policy(problem), seed)
        verdicts = [judge(c, ctx, rec) for c in mutant.claims]
        asserted = [v.ratio for v in verdicts if v.judged and not math.isnan(v.ratio)]
        if asserted and currently_in_test_context():
            target(min(max(asserted), 10.0), label="empirical / bound")
        return next((v for v in verdicts if v.verdict is Verdict.VIOLATED), None)
    return condition


def hunt(mutant: Mutant, *, max_examples: int = 200, strategy=None) -> Catch:
    """Search targeted instances and seeds for a run on which ``mutant`` is VIOLATED."""
    from certify.strategies import targeted_configs
    hit = search(strategy if strategy is not None else targeted_configs(), _violation(mutant), max_examples)
    if hit is None:
        return Catch(mutant.name, max_examples, None, None, None)
    cfg, seed, v = hit
    return Catch(mutant.name, max_examples, dump_config(cfg), seed, v)

