"""Side conditions: each remark, corollary and experimental setting of the paper that fixes numbers or substitutes
a special case, checked against the standing assumptions and the algorithm's own conditions.

A setting is a substitution (symbols of the paper set to numbers or to one another). Each standing condition that
mentions a substituted symbol is evaluated under it, exactly (sympy, rationals): it holds, it is contradicted (the
setting is outside what the theorems assume), or it is left as a relation on the symbols still free, which the
setting then forces (unit costs force S_0 <= 1 through ``S_0 lambda_L <= lambda_H``). A setting may add
consequences of its own, each derived by sympy or decided by z3 (a static bias bound makes the certificate
constant, so TACC's continuation test never passes). A remark that fixes no number and substitutes no special case
says so.

Locations are line numbers of the paper's .tex (tacc-paper.tex), as in ``proofs_checks._coverage``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import sympy

from proofs_checks import _corollary
from proofs_checks._formula import symbols, text
from proofs_checks._inference import Inference, decide, domain
from proofs_checks._result import Outcome

__all__ = ["Condition", "SideCondition", "SideOutcome", "STANDING", "SIDE_CONDITIONS", "side_outcome",
           "side_outcomes"]

lam_L, lam_H, gamma, eta, Lam, zeta = symbols("lambda_L lambda_H gamma eta Lambda zeta")
S0, K = symbols("S_0 K", integer=True)


@dataclass(frozen=True)
class Condition:
    """A standing assumption or a condition of the algorithm: its ``name`` (label), ``formula`` (sympy)."""

    name: str
    formula: sympy.Basic

    @property
    def text(self) -> str:
        return text(self.formula)


#: the standing assumptions (sec:problem) and the algorithm's own conditions (sec:method, alg:adaptive-mf-mab)
#: that a setting's numbers can meet or miss.
STANDING = (
    Condition("sec:problem (costs)", sympy.And(lam_L > 0, lam_L < lam_H)),
    Condition("cap:S0 (eq:fidelity-selection)", S0 * lam_L <= lam_H),
    Condition("eta in (0, 1) (eq:fidelity-selection)", sympy.And(eta > 0, eta < 1)),
    Condition("gamma > 0 (ass:mono-cert)", gamma > 0),
    Condition("S_0 >= 0 (alg:adaptive-mf-mab)", S0 >= 0),
    Condition("alg:start (the first round fits the budget)", Lam >= K * (lam_L + lam_H)),
)


@dataclass(frozen=True)
class SideOutcome:
    """``holds``, ``contradicts`` and ``forces``: the standing conditions met, missed and left as a relation (the
    relation as text); ``consequences``: what the setting implies beyond them, each with how it was derived."""

    holds: tuple = ()
    contradicts: tuple = ()
    forces: tuple = ()
    consequences: tuple = ()

    @property
    def status(self) -> str:
        if self.contradicts:
            return "contradicts"
        if not (self.holds or self.forces or self.consequences):
            return "fixes nothing"
        return "consistent"

    @property
    def text(self) -> str:
        if self.status == "fixes nothing":
            return "fixes no number and substitutes no special case"
        parts = ["contradicts " + "; ".join(f"{n}: {t}" for n, t in self.contradicts)] if self.contradicts else \
            ["consistent"]
        if self.forces:
            parts.append("forces " + "; ".join(f"{t} ({n})" for n, t in self.forces))
        if self.holds:
            parts.append("meets " + ", ".join(self.holds))
        parts += list(self.consequences)
        return "; ".join(parts)


@dataclass(frozen=True)
class SideCondition:
    """A remark, corollary or setting at ``line`` (``where``: its label or context) that fixes ``setting`` (in
    words) by ``values`` (symbol -> number or expression); ``consequences`` returns what follows beyond the
    standing conditions: (contradicted, implied), the first as (condition, how) pairs, the second as sentences,
    each saying how it was derived."""

    line: int
    where: str
    setting: str
    values: dict = field(default_factory=dict)
    consequences: Callable[..., tuple] | None = field(default=None, repr=False)


def side_outcome(sc: SideCondition) -> SideOutcome:
    """Each standing condition that mentions a symbol ``sc`` fixes, evaluated under its values."""
    holds, contradicts, forces = [], [], []
    fixed = set(sc.values)
    for c in STANDING:
        if not (c.formula.free_symbols & fixed):
            continue
        v = sympy.simplify(c.formula.xreplace(sc.values))
        if v == sympy.true:
            holds.append(c.name + _at_equality(c.formula, sc.values))
        elif v == sympy.false:
            contradicts.append((c.name, c.text))
        else:
            forces.append((c.name, text(v)))
    implied: tuple = ()
    if sc.consequences is not None:
        missed, implied = sc.consequences()
        contradicts += list(missed)
    return SideOutcome(tuple(holds), tuple(contradicts), tuple(forces), tuple(implied))


def _at_equality(formula, values: dict) -> str:
    """`` with equality (<text>)`` for an inequality whose two sides are equal under ``values`` (a setting at the
    edge of what is assumed), else nothing."""
    if isinstance(formula, (sympy.Le, sympy.Ge)) and sympy.simplify((formula.lhs - formula.rhs).xreplace(values)) == 0:
        return f" with equality ({text(sympy.Eq(formula.lhs, formula.rhs))})"
    return ""


def _rational(x: str) -> sympy.Rational:
    """A decimal of the paper, as written."""
    f = Fraction(x)
    return sympy.Rational(f.numerator, f.denominator)


def _static_bias() -> tuple:
    """U_k(n) = n zeta_k: B_k(n) = sup_{s >= n} U_k(s)/s = zeta_k for every n, so the continuation gain
    V(s) = B(N) - B(N + s) is 0, and the test V(s) >= 2 eta gamma never passes (z3, with eta, gamma > 0)."""
    s = symbols("s")
    b = sympy.simplify((s * zeta) / s)
    gain = sympy.simplify(b - b)
    never = decide(Inference(domain(eta > 0, eta < 1, gamma > 0),
                             sympy.Not(gain >= 2 * eta * gamma)))
    out = [f"B_k(n) = {text(b)} for every n (sympy), so V(s) = B(N) - B(N + s) = {text(gain)}"]
    if never.outcome is Outcome.PROVED:
        out.append("the continuation test V(s) >= 2 eta gamma never passes (z3): TACC never continues and is DNC "
                   "(dynamic, no continuation)")
    return (), tuple(out)


def _corollary_n_gamma() -> tuple:
    """The substitution N_gamma = ceil(ell / gamma^2) against the definition min{n >= 1 : sqrt(ell / n) < gamma}:
    the step cor.n-gamma-substitution's own inference, decided by z3."""
    (sub,) = [st for st in _corollary.STEPS if st.sid == "cor.n-gamma-substitution"]
    r = decide(sub.inference)
    if r.outcome is Outcome.REFUTED:
        at = ", ".join(f"{k} = {v}" for k, v in (r.counterexample or {}).items())
        return (("the definition of N_gamma (sec:theory)",
                 f"N_gamma = min{{n >= 1 : G(n) < gamma}} = floor(ell / gamma^2) + 1, not ceil(ell / gamma^2), at {at} "
                 f"(z3; step {sub.sid})"),), ()
    return (), (f"the substitution agrees with the definition of N_gamma ({r.outcome.value})",)


def _dyadic_polynomial() -> tuple:
    """c(eps) = c_0 / eps^2 at eps_r = 2^-r: sum_{r <= R} c(eps_r) / c(eps_R) = (4/3)(1 - 4^-R) < 4/3 (sympy)."""
    r, R = sympy.symbols("r R", integer=True, positive=True)
    ratio = sympy.simplify(sympy.summation(4 ** r, (r, 1, R)) / 4 ** R)
    sup = sympy.limit(ratio, R, sympy.oo)
    return (), (f"for an oracle cost exactly c_0 / eps^2 (the high-fidelity regime without its ceiling) the ratio "
                f"sum_{{r <= R}} c(eps_r) / c(eps_R) is {text(ratio)} (sympy), below its limit {sup}, so C_dyad = "
                f"{sup} suffices there; the power-mismatch regime and the ceilings are not derived: C_dyad is "
                f"computed per arm for an instance (tacc bounds)",)


def _vanishing() -> tuple:
    """b_k = 0 in the residual-decay certificate: B_k(n) = a_k (n + n_0)^-r -> 0 (sympy), so the low-fidelity gap
    tends to the high-fidelity one."""
    a, n, n0, r = sympy.symbols("a n n_0 r", positive=True)
    lim = sympy.limit(a * (n + n0) ** -r, n, sympy.oo)
    return (), (f"B_k(n) = a_k (n + n_0)^-r tends to {lim} (sympy, r > 0): Delta^(L)(n) tends to Delta_k, so every "
                f"arm with Delta_k > 2 gamma is eventually certified at low fidelity",)


def _setting(lh: str, lg: str, s0: int, budget: str | None = None, arms: int | None = None) -> dict:
    """A TACC setting of the experiments: lambda_L = 1, lambda_H, gamma, eta = 10^-4, S_0 (and the final budget
    and the arms where the paper states them)."""
    out = {lam_L: sympy.Integer(1), lam_H: _rational(lh), gamma: _rational(lg), eta: _rational("0.0001"),
           S0: sympy.Integer(s0)}
    if budget is not None:
        out[Lam] = _rational(budget)
    if arms is not None:
        out[K] = sympy.Integer(arms)
    return out


#: every remark, corollary and experimental setting of the paper, with what it fixes.
SIDE_CONDITIONS = (
    SideCondition(166, "rem:evolving_vs_static", "a static bias bound |mu_L - mu_H| <= zeta_k: U_k(n) = n zeta_k",
                  {}, _static_bias),
    SideCondition(389, "remark after ass:mono-cert", "the stability window is finite (no number fixed)"),
    SideCondition(440, "cor:analysis-main-regret-order", "N_gamma = ceil(ell / gamma^2) substituted", {},
                  _corollary_n_gamma),
    SideCondition(466, "rem:analysis-mf-comparison", "unit costs lambda_L = lambda_H = 1",
                  {lam_L: sympy.Integer(1), lam_H: sympy.Integer(1)}),
    SideCondition(492, "subsec:syn (Set A)", "lambda_L = 1, lambda_H = 10, gamma = 0.063, S_0 = 10, eta = 10^-4, "
                  "200 arms", _setting("10", "0.063", 10, arms=200)),
    SideCondition(492, "subsec:syn (Set B)", "lambda_L = 1, lambda_H = 50, gamma = 0.141, S_0 = 50, eta = 10^-4, "
                  "500 arms", _setting("50", "0.141", 50, arms=500)),
    SideCondition(1591, "app:synthetic-sensitivity", "Set A's settings with the decay rate r varied (its values "
                  "not stated; r enters no standing condition)", _setting("10", "0.063", 10, arms=200)),
    SideCondition(1524, "remark after ass:app-rdfe-dyadic", "polynomial oracle costs c^(H)(eps) ~ 1 / eps^2", {},
                  _dyadic_polynomial),
    SideCondition(555, "subsec:llm (residual, lambda_H = 500)", "lambda_L = 1, lambda_H = 500, gamma = 0.025, "
                  "eta = 10^-4, S_0 = 128, Lambda = 128000, 4 arms", _setting("500", "0.025", 128, "128000", 4)),
    SideCondition(1646, "remark (four-arm benchmark)", "4 arms, the same for every method",
                  {K: sympy.Integer(4)}),
    SideCondition(1681, "app:llm-residual (lambda_H = 200)", "lambda_L = 1, lambda_H = 200, gamma = 0.025, "
                  "eta = 10^-4, S_0 = 128, Lambda = 128000, 4 arms", _setting("200", "0.025", 128, "128000", 4)),
    SideCondition(1783, "app:llm-pure-decay", "b_k = 0, the residual experiment's settings otherwise, at lambda_H = "
                  "200, the least of {200, 500, 1000} (lambda_L = 1, gamma = 0.025, eta = 10^-4, S_0 = 128, "
                  "Lambda = 128000, 4 arms)",
                  _setting("200", "0.025", 128, "128000", 4), _vanishing),
    SideCondition(1681, "app:llm-residual (lambda_H = 1000)", "lambda_L = 1, lambda_H = 1000, gamma = 0.025, "
                  "eta = 10^-4, S_0 = 128, Lambda = 128000, 4 arms", _setting("1000", "0.025", 128, "128000", 4)),
    SideCondition(1932, "app:llm-empirical-bandit", "lambda_L = 1, lambda_H = 500, gamma = 0.03, eta = 10^-4, "
                  "S_0 = 128, Lambda = 256000, 5 arms", _setting("500", "0.03", 128, "256000", 5)),
)


def side_outcomes() -> list[tuple[SideCondition, SideOutcome]]:
    """Every side condition with its outcome, in the paper's order."""
    return [(sc, side_outcome(sc)) for sc in sorted(SIDE_CONDITIONS, key=lambda s: s.line)]
