"""The per-round numpy implementation of TACC the way research code is usually written: every round recomputes
every arm's index with vectorized numpy, then picks the fidelity. Kept in the benchmark as a reference point,
not in the library.

``draws="own"`` draws noise with numpy's generator (what such code does); ``draws="table"`` reads the toolkit's
reward table instead, so its decisions can be compared with the fast engine's, query by query.
"""

from __future__ import annotations

import numpy as np

from simulate import HIGH, LOW, RewardTable

__all__ = ["numpy_tacc"]


def numpy_tacc(problem, seed: int, *, draws: str = "own", trace: bool = False):
    K = problem.n_arms
    mu = np.asarray(problem.instance.mu_high, dtype=float)
    sched = problem.schedule
    rows, row_of = problem.bias_table
    B = rows[row_of]                                  # K x width
    width = B.shape[1]
    ell, ng, s0 = problem.ell, problem.n_gamma, problem.s0
    thr = 2.0 * problem.eta * problem.gamma
    cl, ch, budget = problem.cost_low, problem.cost_high, problem.budget
    bern = problem.noise == "bernoulli"
    sigma = problem.sigma
    rng = np.random.default_rng(seed)
    table = RewardTable(seed, problem.noise, sigma)
    nL = np.zeros(K, dtype=np.int64)
    nH = np.zeros(K, dtype=np.int64)
    sL = np.zeros(K)
    sH = np.zeros(K)
    A = np.zeros(K, dtype=np.int64)
    cost, out = 0.0, []

    def observe(k, m):
        n = (nL if m == LOW else nH)[k] + 1
        mean = sched.mean(k, int(n)) if m == LOW else mu[k]
        if draws == "table":
            return table(k, m, int(n), mean)
        if bern:
            return float(rng.random() < mean)
        return mean + sigma * rng.standard_normal()

    def query(k, m, cont):
        y = observe(k, m)
        if m == LOW:
            nL[k] += 1
            sL[k] += y
            A[k] += cont
        else:
            nH[k] += 1
            sH[k] += y
        if trace:
            out.append((k, m))
        return cl if m == LOW else ch

    for k in range(K):                                # start: each arm at L then H
        for m in (LOW, HIGH):
            if cost + (cl if m == LOW else ch) > budget:
                return nL, nH, A, out
            cost += query(k, m, False)
    idx = np.arange(K)
    while True:
        bL = B[idx, np.minimum(nL, width) - 1]
        ucb_low = sL / nL + (np.sqrt(ell / nL) + bL)
        ucb_high = sH / nH + (np.sqrt(ell / nH) + 0.0)
        k = int(np.argmax(np.minimum(ucb_low, ucb_high)))
        cont = False
        if nL[k] < ng:
            m = LOW
        elif A[k] < s0 and B[k, nL[k] - 1] - B[k, nL[k] + s0 - A[k] - 1] >= thr:
            m, cont = LOW, True
        else:
            m = HIGH
        if cost + (cl if m == LOW else ch) > budget:
            return nL, nH, A, out
        cost += query(k, m, cont)
