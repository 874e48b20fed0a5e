"""Facts the algorithm relies on without stating them: B_k nonincreasing, the continuation test's behaviour in
s, and the validity of each low-fidelity model's certificate (docs/design.md section 5), clipping included."""

from __future__ import annotations

import numpy as np
import sympy
import z3

from bounds import checkpoint_profile, frozen, power_decay, residual_decay
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._solvers import identity, implies
from proofs_checks._step import Outcome, StepResult, step, steps_of


@step("fact.B-nonincreasing", "ass:plugin",
      "B_k(n) = sup_{s >= n} U_k(s) / s is nonincreasing in n", "B(n) an upper bound of {U(s)/s : s >= n}, "
      "B(n+1) the least upper bound of {U(s)/s : s >= n+1}", "z3 (quantified integers, uninterpreted U, B)")
def _b_monotone():
    U = z3.Function("U", z3.IntSort(), z3.RealSort())
    B = z3.Function("B", z3.IntSort(), z3.RealSort())
    n, s = z3.Ints("n s")
    y = z3.Real("y")
    upper_n = z3.ForAll([s], z3.Implies(s >= n, U(s) <= B(n) * z3.ToReal(s)))
    least_n1 = z3.ForAll([y], z3.Implies(z3.ForAll([s], z3.Implies(s >= n + 1, U(s) <= y * z3.ToReal(s))),
                                         B(n + 1) <= y))
    r = implies([n >= 1, upper_n, least_n1], B(n + 1) <= B(n))
    models = [power_decay([0.9, 0.4], zeta=0.3, r=0.6, signs=[1, -1]),
              residual_decay([0.9, 0.4], zeta=0.4, r=0.75, signs=[1, -1], b=0.05),
              checkpoint_profile([0.9, 0.4], q=[4, 16, 64], gap=[0.2, 0.1, 0.05], q_max=64, signs=[1, -1])]
    r0 = rng(8)
    pts = [(i, r0.randint(1, 10**6)) for i in range(len(models)) for _ in range(POINTS // 3)]
    cons = agree("bounds models' mismatch_bound", lambda i, n_: bool(models[i].mismatch_bound(1, n_ + 1)
                                                                     <= models[i].mismatch_bound(1, n_)),
                 lambda i, n_: True, pts)
    return StepResult(r.outcome, r.detail, r.counterexample, consistency=cons)


@step("fact.continuation-in-s", "eq:continuation-gain",
      "V(s) = B(N) - B(N + s) is nondecreasing in s, so 'exists 1 <= s <= S_0 - A with V(s) >= 2 eta gamma' "
      "is 'V(S_0 - A) >= 2 eta gamma'", "B nonincreasing (fact.B-nonincreasing); 1 <= s <= S_0 - A",
      "z3 (reals)")
def _continuation():
    b0, bs, bm, t = z3.Reals("B_N B_N_plus_s B_N_plus_max threshold")
    # s <= S0 - A: B(N + S0 - A) <= B(N + s)
    return implies([bm <= bs, b0 - bs >= t], b0 - bm >= t)


@step("fact.cert-power-decay", "ass:plugin",
      "power decay: sum_{tau<=n} |s_k zeta tau^-r| = zeta sum_{tau<=n} tau^-r = U_k(n)", "zeta >= 0, r > 0, "
      "s_k = +-1", "sympy identity")
def _power():
    z, r, t = sympy.symbols("zeta r tau", positive=True)
    out = []
    for sgn in (1, -1):
        out.append(identity(sympy.Abs(sgn * z * t ** (-r)), z * t ** (-r)))
    return out[0] if out[0].outcome is not Outcome.PROVED else out[1]


@step("fact.cert-residual-decay", "ass:plugin",
      "residual decay: |b_k + a_k (tau + n0)^-r| <= |b_k| + |a_k| (tau + n0)^-r (so U_k is valid)",
      "x = (tau + n0)^-r > 0", "z3 (reals)")
def _residual():
    b, a, x = z3.Reals("b a x")
    return implies([x > 0], z3.Abs(b + a * x) <= z3.Abs(b) + z3.Abs(a) * x)


@step("fact.clip-contraction", "ass:plugin",
      "clipping: |clip01(x) - mu_H| <= |x - mu_H| for mu_H in [0, 1] (a clipped model keeps its certificate)",
      "Bernoulli rewards: mu_H in [0, 1]", "z3 (reals)")
def _clip():
    x, mu = z3.Reals("x mu")
    c = z3.If(x < 0, z3.RealVal(0), z3.If(x > 1, z3.RealVal(1), x))
    r = implies([mu >= 0, mu <= 1], z3.Abs(c - mu) <= z3.Abs(x - mu))
    m = residual_decay([0.98, 0.02], zeta=0.5, r=0.5, signs=[1, -1], b=0.05)
    n = np.arange(1, 2001)
    cons = agree("bounds.residual_decay (clipped) certificate", lambda k: bool(np.all(
        np.cumsum(np.abs(m.mean_low(k, n) - m.mu_high[k])) <= m.certificate(k, n) * (1 + 1e-12) + 1e-15)),
        lambda k: True, [(0,), (1,)])
    return StepResult(r.outcome, r.detail, r.counterexample, consistency=cons)


@step("fact.power-B-exact", "ass:plugin",
      "power decay: U(s)/s is nonincreasing, so B_k(n) = U_k(n) / n (the exact tail of docs/design.md section 3)",
      "P(s) = sum_{tau<=s} tau^-r, r > 0: P(s+1)/(s+1) <= P(s)/s  <=>  s (s+1)^-r <= P(s), true as each of the "
      "s terms tau^-r >= (s+1)^-r", "z3 (reals, the term inequality and the rearrangement)")
def _power_exact():
    P, s, y = z3.Reals("P s y")  # y = (s+1)^-r <= every term, so P >= s y
    r = implies([s >= 1, y > 0, P >= s * y], (P + y) / (s + 1) <= P / s)
    m = power_decay([0.9, 0.4], zeta=0.3, r=0.6, signs=[1, -1])
    r0 = rng(9)
    pts = [(r0.randint(1, 10**7),) for _ in range(POINTS)]
    cons = agree("bounds.power_decay mismatch_bound", lambda n_: float(m.mismatch_bound(1, n_)),
                 lambda n_: float(m.certificate(1, n_)) / n_, pts, rel=1e-12)
    return StepResult(r.outcome, r.detail, r.counterexample, consistency=cons)


@step("fact.cert-table", "ass:plugin",
      "checkpoint, table and frozen models: the certificate is the running sum of |mean_low - mu_H| (its value "
      "at n), extended past the table by the last deviation", "the model's construction", "numeric (every count "
      "to 5000) and z3 for the extension step")
def _table():
    a, u, d, k = z3.Reals("running_sum U_m last_dev extra")
    r = implies([a <= u, k >= 0], a + k * z3.Abs(d) <= u + k * z3.Abs(d))
    models = [checkpoint_profile([0.6, 0.5], q=[3, 9, 27], gap=[0.2, 0.1, 0.04], q_max=27, signs=[1, -1]),
              frozen([0.6, 0.5], values=[0.7, 0.2])]
    n = np.arange(1, 5001)
    cons = agree("bounds table models' certificate", lambda i, k_: bool(np.all(
        np.cumsum(np.abs(models[i].mean_low(k_, n) - models[i].mu_high[k_]))
        <= models[i].certificate(k_, n) * (1 + 1e-12) + 1e-12)),
        lambda i, k_: True, [(i, k_) for i in range(2) for k_ in range(2)])
    return StepResult(r.outcome, r.detail, r.counterexample, consistency=cons)


STEPS = steps_of(globals())
