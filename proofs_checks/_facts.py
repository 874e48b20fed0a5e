"""Facts the algorithm relies on without stating them: B_k nonincreasing, the continuation test's behaviour in
s, and the validity of each low-fidelity model's certificate, clipping included (docs/design.md, the models)."""

from __future__ import annotations

import numpy as np
import sympy

from bounds import checkpoint_profile, frozen, power_decay, residual_decay
from proofs_checks._consistency import POINTS, agree, rng
from proofs_checks._formula import Forall, Imp, symbols
from proofs_checks._inference import Inference, Premise, domain
from proofs_checks._step import step, steps_of


def _b_consistency(_r) -> str:
    models = [power_decay([0.9, 0.4], zeta=0.3, r=0.6, signs=[1, -1]),
              residual_decay([0.9, 0.4], zeta=0.4, r=0.75, signs=[1, -1], b=0.05),
              checkpoint_profile([0.9, 0.4], q=[4, 16, 64], gap=[0.2, 0.1, 0.05], q_max=64, signs=[1, -1])]
    r0 = rng(8)
    pts = [(i, r0.randint(1, 10**6)) for i in range(len(models)) for _ in range(POINTS // 3)]
    return agree("bounds models' mismatch_bound", lambda i, n_: bool(models[i].mismatch_bound(1, n_ + 1)
                                                                     <= models[i].mismatch_bound(1, n_)),
                 lambda i, n_: True, pts)


@step("fact.B-nonincreasing", "ass:plugin", "l.146 (B_k(n) := sup_{s >= n} U_k(s)/s)",
      consistency=_b_consistency)
def _b_monotone():
    U, B = sympy.Function("U"), sympy.Function("B")
    n, s = symbols("n s", integer=True)
    y = symbols("y")
    return Inference(
        domain(n >= 1) + (
            Premise("B(n) an upper bound", Forall((s,), sympy.Implies(s >= n, U(s) <= B(n) * s)),
                    "B_k(n) >= U_k(s)/s for every s >= n"),
            Premise("B(n+1) the least upper bound",
                    Forall((y,), Imp(Forall((s,), sympy.Implies(s >= n + 1, U(s) <= y * s)), B(n + 1) <= y)),
                    "B_k(n+1) is the least upper bound of {U_k(s)/s : s >= n + 1}")),
        B(n + 1) <= B(n))


@step("fact.continuation-in-s", "eq:continuation-gain", "l.249, eq:fidelity-selection (l.269)",
      note="V(s) = B(N) - B(N + s) is nondecreasing in s, so 'exists 1 <= s <= S_0 - A with V(s) >= 2 eta gamma' "
           "is 'V(S_0 - A) >= 2 eta gamma' (what the engines test)")
def _continuation():
    b0, bs, bm, eta, g = symbols("B_N B_N_plus_s B_N_plus_max eta gamma")
    return Inference(
        domain(eta > 0, eta < 1, g > 0) + (
            Premise("fact.B-nonincreasing", bm <= bs, "s <= S_0 - A, so B(N + S_0 - A) <= B(N + s)"),
            Premise("the test at s", b0 - bs >= 2 * eta * g, "V(s) >= 2 eta gamma")),
        b0 - bm >= 2 * eta * g)


@step("fact.cert-power-decay", "ass:plugin", "l.492 (Set A/B power-decay model)",
      note="n = 3 counts; x_tau = tau^-r > 0; s_k = +-1: sum |mu_L(tau) - mu_H| = zeta sum tau^-r = U_k(n)")
def _power():
    z = symbols("zeta")
    x = symbols("x1:4")
    sg = symbols("s_k", integer=True)
    return Inference(domain(z >= 0, *[xi > 0 for xi in x]) + (
        Premise("sign", sympy.Or(sympy.Eq(sg, 1), sympy.Eq(sg, -1)), "s_k in {-1, +1}"),),
        sympy.Eq(sum(sympy.Abs(sg * z * xi) for xi in x), z * sum(x)))


@step("fact.cert-residual-decay", "ass:plugin", "eq:llm-residual-bias-model (l.536)",
      note="|b_k + a_k (tau + n0)^-r| <= |b_k| + |a_k| (tau + n0)^-r, so U_k(n) = n |b_k| + |a_k| sum (tau+n0)^-r "
           "is a valid certificate")
def _residual():
    b, a, x = symbols("b a x")
    return Inference(domain(x > 0), sympy.Abs(b + a * x) <= sympy.Abs(b) + sympy.Abs(a) * x)


def _clip_consistency(_r) -> str:
    m = residual_decay([0.98, 0.02], zeta=0.5, r=0.5, signs=[1, -1], b=0.05)
    n = np.arange(1, 2001)
    return agree("bounds.residual_decay (clipped) certificate", lambda k: bool(np.all(
        np.cumsum(np.abs(m.mean_low(k, n) - m.mu_high[k])) <= m.certificate(k, n) * (1 + 1e-12) + 1e-15)),
        lambda k: True, [(0,), (1,)])


@step("fact.clip-contraction", "ass:plugin", "app:llm-task-protocol (Bernoulli judge means clipped to [0, 1])",
      consistency=_clip_consistency)
def _clip():
    x, mu, c = symbols("x mu clipped")
    return Inference(
        (Premise("mu in [0, 1]", sympy.And(mu >= 0, mu <= 1), "Bernoulli rewards"),
         Premise("clip", sympy.Eq(c, sympy.Min(sympy.Max(x, 0), 1)), "clip01(x)")),
        sympy.Abs(c - mu) <= sympy.Abs(x - mu))


def _power_exact_consistency(_r) -> str:
    m = power_decay([0.9, 0.4], zeta=0.3, r=0.6, signs=[1, -1])
    r0 = rng(9)
    pts = [(r0.randint(1, 10**7),) for _ in range(POINTS)]
    return agree("bounds.power_decay mismatch_bound", lambda n_: float(m.mismatch_bound(1, n_)),
                 lambda n_: float(m.certificate(1, n_)) / n_, pts, rel=1e-12)


@step("fact.power-B-exact", "ass:plugin", "l.146 with the power-decay certificate",
      note="P(s) = sum_{tau<=s} tau^-r, y = (s+1)^-r: U(s)/s nonincreasing, so B_k(n) = U_k(n)/n",
      consistency=_power_exact_consistency)
def _power_exact():
    P, s, y = symbols("P_s s y")
    return Inference(
        domain(s >= 1, y > 0) + (
            Premise("each term >= the next", P >= s * y, "tau^-r >= (s+1)^-r for tau <= s, s terms"),),
        (P + y) / (s + 1) <= P / s)


def _table_consistency(_r) -> str:
    models = [checkpoint_profile([0.6, 0.5], q=[3, 9, 27], gap=[0.2, 0.1, 0.04], q_max=27, signs=[1, -1]),
              frozen([0.6, 0.5], values=[0.7, 0.2])]
    n = np.arange(1, 5001)
    return agree("bounds table models' certificate", lambda i, k_: bool(np.all(
        np.cumsum(np.abs(models[i].mean_low(k_, n) - models[i].mu_high[k_]))
        <= models[i].certificate(k_, n) * (1 + 1e-12) + 1e-12)),
        lambda i, k_: True, [(i, k_) for i in range(2) for k_ in range(2)])


@step("fact.cert-table", "ass:plugin", "app:llm-empirical-bandit (checkpoint model), frozen model",
      note="the certificate past the table is extended by the last deviation; every count to 5000 checked "
           "numerically (consistency column)", consistency=_table_consistency)
def _table():
    a, u, d, k = symbols("running_sum U_m last_dev extra")
    return Inference(
        domain(k >= 0) + (Premise("certificate at the table's end", a <= u, "U_k(m) >= sum_{tau<=m} |dev|"),),
        a + k * sympy.Abs(d) <= u + k * sympy.Abs(d))


STEPS = steps_of(globals())
