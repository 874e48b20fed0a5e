"""Claims: one object per statement of the paper, tied to its label, with the assumptions it needs and the
measure that computes (bound, empirical value) from an instance and a run record (``certify._measures``).

Every bound is computed by ``bounds``; every empirical value is read from a ``simulate.RunRecord``. The
statistical claim ``lem:ci`` is judged over many runs (see ``certify._certificate``); the others run by run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from certify import _measures as m
from certify._measurement import KeyedMeasure, ScannedMeasure

__all__ = ["Claim", "Refutation", "CLAIMS", "LEM_CI", "claim", "claims_for", "SUBOPTIMAL"]


@dataclass(frozen=True)
class Claim:
    """One statement: ``key`` (unique), paper ``label``, the ``statement`` in words, the ``policies`` it is about,
    the ``assumptions`` it needs (keys of ``certify.ASSUMPTIONS``), whether it is asserted only on the confidence
    event, and ``measure(ctx, record) -> [Measurement]``. ``paper`` is False for the control claim. ``measures``
    names what a run must have for the claim to measure anything ("suboptimal arm"): a run without one gets the
    verdict NOTHING_TO_MEASURE, never HOLDS."""

    key: str
    label: str
    statement: str
    policies: tuple
    assumptions: tuple
    needs_event: bool
    measure: Callable | None  # None for LEM_CI, judged over the seeds of a sweep (judge_lem_ci), not per run
    paper: bool = True
    measures: str = "arm"
    refuted_by: tuple = ()    # the steps of tacc proofs that refute the statement as written (Refutation)


@dataclass(frozen=True)
class Refutation:
    """A step of ``tacc proofs`` (``proofs_checks``) that refutes a claim's statement as written: ``step`` is its
    id, ``condition`` says in words when the statement then fails, and ``witness(ctx)`` is the instance's value
    that meets the condition, in words, or None when the instance does not meet it. A VIOLATED verdict's reason
    names the step and the condition (``certify.judge``); a test holds each step REFUTED in ``tacc proofs``."""

    step: str
    condition: str
    witness: Callable

    def explain(self, ctx) -> str:
        """The step and its condition, and whether this instance meets it."""
        w = self.witness(ctx)
        said = f"tacc proofs refutes the statement as written (step {self.step}) when {self.condition}"
        return f"{said}: here {w}" if w is not None else f"{said}, which this instance does not meet"



_P = ("ass:plugin",)
#: what a claim about suboptimal arms (Delta_k > 0) measures: a run without one is NOTHING_TO_MEASURE.
SUBOPTIMAL = "suboptimal arm"
_PHASE = "completed RDFE phase"
_PM = ("ass:plugin", "ass:mono-cert")

#: every run-level claim: one per statement of the paper, tied to its label (and one control claim).
CLAIMS = (
    Claim("fidelity-rule", "eq:fidelity-selection",
          "no high-fidelity query while G(N^(L)) >= gamma, i.e. N^(L) < N_gamma (line 7 of alg:adaptive-mf-mab)",
          ("tacc", "dnc", "mf-ucb", "lucb"), (), False, KeyedMeasure(m.fidelity_rule, m.early_key, True)),
    Claim("low-count", "prop:analysis-low-query-bound",
          "N_k^(L) <= N_gamma + S0 + 1 for every arm k != k^* (S0 = 0 without continuation), an arm tied with k^* "
          "included",
          ("tacc", "dnc", "mf-ucb"), (), True,
          m.low_count(lambda ctx, rec: ctx.problem.s0 if rec.policy == "tacc" else 0), measures="arm other than k^*"),
    Claim("high-count", "prop:analysis-high-selection",
          "N_k^(H) <= 1 + ceil(4 ell / Delta_k^2) for every suboptimal arm",
          ("tacc", "dnc", "mf-ucb"), _P, True, KeyedMeasure(m.high_count, m.high_key, True), measures=SUBOPTIMAL),
    Claim("class-A", "prop:analysis-low-selection",
          "an arm of A_gamma is certified by low fidelity: no high-fidelity query beyond the first",
          ("tacc", "dnc"), _PM, True, KeyedMeasure(m.class_a, m.high_key, True), measures="suboptimal arm in class A"),
    Claim("class-Cd", "prop:analysis-low-query-bound",
          "an arm of C^d_gamma is certified by low fidelity: N^(H) <= 1 and N^(L) <= N_gamma + S0 + 1",
          ("tacc",), _PM, True, KeyedMeasure(m.class_cd, m.refined_key, True),
          measures="suboptimal arm that ends in C^d"),
    Claim("theorem", "thm:analysis-main-regret", "R(Lambda) <= the bound, with C split into C^d / C^u by the run",
          ("tacc",), _PM + ("cap:S0",), True, KeyedMeasure(m.theorem, m.refined_key, False)),
    Claim("theorem-arms", "thm:analysis-main-regret",
          "each arm's regret share <= its term of the bound (the proof bounds arm by arm)",
          ("tacc",), _PM + ("cap:S0",), True, KeyedMeasure(m.theorem_arms, m.refined_key, False), measures=SUBOPTIMAL),
    Claim("theorem-dnc", "thm:analysis-main-regret",
          "DNC: the bound with every C arm in H and S0 = 0 (no continuation)", ("dnc",), _PM, True,
          KeyedMeasure(m.dnc_theorem, m.counts_key, False)),
    Claim("theorem-static", "rem:analysis-mf-comparison",
          "MF-UCB: the bound with every suboptimal arm in H and S0 = 0 (static bias zeta_k = B_k(1))",
          ("mf-ucb",), _P, True, KeyedMeasure(m.static_theorem, m.counts_key, False)),
    Claim("rdfe-width", "lem:app-rdfe-phase-width",
          "after a completed phase r every active arm's interval covers mu_k^(H) and has width <= eps_r / 4",
          ("rdfe",), _P, True, ScannedMeasure(m.rdfe_width, m.rdfe_width_scan), measures=_PHASE),
    Claim("rdfe-elim", "lem:app-rdfe-elim", "an arm with Delta_k >= eps_r does not survive a completed phase r",
          ("rdfe",), _P, True, KeyedMeasure(m.rdfe_elim, m.elim_key, True), measures=_PHASE),
    Claim("rdfe-cost", "lem:app-rdfe-phase-cost", "the cost of arm k in a completed phase r <= c_k^*(eps_r)",
          ("rdfe",), (), False, KeyedMeasure(m.rdfe_cost, m.cost_key, False), measures=_PHASE),
    Claim("rdfe-theorem", "thm:app-rdfe-regret",
          "R <= C_1 sum Delta_k c_k^*(min(Delta_k/4, 1/2)) + C_2 K (lambda_L + lambda_H), this instance's C_1, C_2",
          ("rdfe",), _P + ("ass:app-rdfe-dyadic",), True, KeyedMeasure(m.rdfe_total, m.counts_key, False)),
    Claim("rdfe-theorem-phase-sum", "thm:app-rdfe-regret",
          "R <= sum Delta_k [sum_{r<=r_k} c_k^*(eps_r) + lambda_L + lambda_H] (the proof before the dyadic step)",
          ("rdfe",), _P, True, KeyedMeasure(m.rdfe_phase_sum, m.counts_key, False)),
    Claim("rdfe-theorem-as-stated", "thm:app-rdfe-regret",
          "R <= C_1 sum Delta_k c_k^*(Delta_k/4) + C_2 K (lambda_L + lambda_H), as stated, same C_1, C_2",
          ("rdfe",), _P + ("ass:app-rdfe-dyadic",), True, KeyedMeasure(m.rdfe_stated, m.counts_key, False),
          refuted_by=(Refutation("rdfe-thm.terminal-vs-quarter",
                                 "a gap Delta_k > 2: then r_k = 1 and eps_1 = 1/2 < Delta_k/4, so the statement's "
                                 "c_k^*(Delta_k/4) is below the c_k^*(eps_{r_k}) the proof charges",
                                 m.gap_above_two),)),
    Claim("control-ucb", "control (not from the paper)",
          "textbook UCB on the good event: N_k <= 1 + floor(4 ell / Delta_k^2) for every suboptimal arm",
          ("ucb",), (), True, KeyedMeasure(m.control, m.high_key, True), paper=False, measures=SUBOPTIMAL),
)

#: the statistical claim, judged over the seeds of one (configuration, policy).
LEM_CI = Claim("lem-ci", "lem:ci",
               "P(the confidence event fails) <= delta: failures over seeds vs delta, exact binomial test",
               ("tacc", "dnc", "mf-ucb", "ucb", "lucb", "weak-fixed", "low-improving", "rdfe"),
               ("lem:ci:rho", "sec:problem:noise", "ass:plugin"), False, None)


def claim(key: str) -> Claim:
    """The claim with this key."""
    for c in CLAIMS + (LEM_CI,):
        if c.key == key:
            return c
    raise KeyError(key)


def claims_for(policy: str) -> tuple:
    """The run-level claims about ``policy``."""
    return tuple(c for c in CLAIMS if policy in c.policies)
