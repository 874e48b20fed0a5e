"""The floor the fast engine is measured against (``tacc bench``): a minimal compiled TACC written for the
benchmark, and the observation generator's cost per draw. Kept in the benchmark, not in the library.

The minimal kernel makes TACC's decisions (Algorithm 1: the start, the UCB argmax over min(UCB^L, UCB^H) by a
tournament tree, the fidelity rule with continuation, the budget check) with the library's observation
generator, mean schedule and rules, and nothing else: no run record, no event check, no C^d window, no
checkpoints, no trace. Its counts must equal the fast engine's (checked by the benchmark), so the ratio of the
two per-round costs is the price of the engine's bookkeeping.
"""

from __future__ import annotations

import math
import time

import numba
import numpy as np

from simulate.kernel import (HIGH, LOW, continuation_gain_passes, draw_from, draw_many, key_bases, noise_code,
                             schedule_mean, upper)

__all__ = ["tacc_kernel", "draw_cost", "previous_draw_cost"]


@numba.njit
def _kernel(mu, sched, rows, row_of, bases, ell, n_gamma, s0, eta, gamma, cost_low, cost_high, budget, noise,
            sigma):
    prefix, prefix_len, tail_c, tail_a, n0, r, clip, power = sched
    K = mu.size
    width = rows.shape[1]
    cnt = np.zeros((2, K), dtype=np.int64)
    sums = np.zeros((2, K))
    cont_pulls = np.zeros(K, dtype=np.int64)
    size = 1
    while size < K:
        size *= 2
    tv = np.full(2 * size, -np.inf)
    ti = np.full(2 * size, -1, dtype=np.int64)
    cost, rounds, step = 0.0, 0, 0
    while True:
        if step < 2 * K:
            k, m, cont = step // 2, step % 2, False
        else:
            k = ti[1]
            n_low = cnt[0, k]
            cont = False
            if n_low < n_gamma:
                m = LOW
            elif cont_pulls[k] < s0 and continuation_gain_passes(
                    rows[row_of[k], n_low - 1], rows[row_of[k], n_low + s0 - cont_pulls[k] - 1], eta, gamma):
                m, cont = LOW, True
            else:
                m = HIGH
        price = cost_low if m == LOW else cost_high
        if cost + price > budget:
            break
        n = cnt[m, k] + 1
        mean = schedule_mean(prefix, prefix_len, tail_c, tail_a, n0, r, clip, power, k, n) if m == LOW else mu[k]
        sums[m, k] += draw_from(noise, sigma, mean, bases[m, k], n)
        cnt[m, k] = n
        cost += price
        rounds += 1
        step += 1
        if cont:
            cont_pulls[k] += 1
        if step < 2 * K:
            continue
        lo, hi = (0, K) if step == 2 * K else (k, k + 1)
        for j in range(lo, hi):                      # the moved index, then the winners up its path
            b = rows[row_of[j], min(cnt[0, j], width) - 1]
            node = size + j
            tv[node] = min(upper(sums[0, j], cnt[0, j], ell, b), upper(sums[1, j], cnt[1, j], ell, 0.0))
            ti[node] = j
            node //= 2
            while node >= 1:
                a, c = 2 * node, 2 * node + 1
                w = a if (ti[c] < 0 or (ti[a] >= 0 and (tv[a] > tv[c] or (tv[a] == tv[c] and ti[a] < ti[c])))) \
                    else c
                tv[node], ti[node] = tv[w], ti[w]
                node //= 2
    return cnt, cont_pulls, rounds


def tacc_kernel(problem, seed: int):
    """Run the minimal kernel once: (low counts, high counts, continuation pulls, rounds)."""
    s = problem.schedule
    rows, row_of = problem.bias_table
    cnt, cont, rounds = _kernel(np.asarray(problem.instance.mu_high, dtype=float),
                                (s.prefix, s.prefix_len, s.c, s.a, s.n0, s.r, s.clip, s.power), rows, row_of,
                                key_bases(int(seed), problem.n_arms), problem.ell, problem.n_gamma, problem.s0,
                                problem.eta, problem.gamma, problem.cost_low, problem.cost_high, problem.budget,
                                noise_code(problem.noise), problem.sigma)
    return cnt[0], cnt[1], cont, int(rounds)


def least_cpu(fn, repeats: int):
    """The least CPU time of this process over ``repeats`` calls of ``fn``, and what its last call returned (CPU
    time: one thread, no I/O; a shared machine's other processes do not count against it)."""
    best, out = math.inf, None
    for _ in range(repeats):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def interleaved_cpu(fns, repeats: int) -> list:
    """For each of ``fns``, the least CPU time of this process over ``repeats`` calls, the calls made in turn
    (fns[0], fns[1], ..., fns[0], ...), and what its last call returned: the functions of a ratio are timed in the
    same stretches of the machine's speed (on this shared virtual machine a function timed seconds after another
    ran up to twice as slow or as fast, so ratios of separately timed runs swung around their targets)."""
    best, out = [math.inf] * len(fns), [None] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            t = time.process_time()
            out[i] = fn()
            best[i] = min(best[i], time.process_time() - t)
    return list(zip(best, out, strict=True))


def _time_per_draw(fn, noise, bases, per_key, repeats):
    fn(noise, 1.0, bases, 2)                          # compile (or load numba's cache)
    best, _ = least_cpu(lambda: fn(noise, 1.0, bases, per_key), repeats)
    return 1e9 * best / (per_key * bases.size)


def draw_cost(noise: str = "gaussian", draws: int = 10**7, repeats: int = 3) -> float:
    """CPU nanoseconds per observation of the library's generator (best of ``repeats``), 512 keys, counts 1, 2, ..."""
    bases = key_bases(1, 256).reshape(-1)
    return _time_per_draw(draw_many, noise_code(noise), bases, max(1, draws // bases.size), repeats)


# The previous generator (a splitmix64 hash and Box-Muller per draw), kept here only as the reference the new
# one is compared with in the same run.
_G, _A, _B = np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)


@numba.njit(inline="always")
def _old_mix(x):
    z = np.uint64(x) + _G
    z = (z ^ (z >> np.uint64(30))) * _A
    z = (z ^ (z >> np.uint64(27))) * _B
    return z ^ (z >> np.uint64(31))


@numba.njit
def _old_draw_many(noise, sigma, bases, per_key):
    total = 0.0
    for n in range(1, per_key + 1):
        for base in bases:
            h = _old_mix(np.uint64(base) ^ np.uint64(n))
            a = _old_mix(h)
            b = _old_mix(a)
            u1 = (float(a >> np.uint64(11)) + 0.5) * (1.0 / 9007199254740992.0)
            u2 = (float(b >> np.uint64(11)) + 0.5) * (1.0 / 9007199254740992.0)
            total += 0.5 + sigma * (math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2))
    return total


def previous_draw_cost(draws: int = 10**7, repeats: int = 3) -> float:
    """Nanoseconds per Gaussian draw of the previous generator (hash and Box-Muller), same loop and keys."""
    bases = key_bases(1, 256).reshape(-1)
    return _time_per_draw(_old_draw_many, 0, bases, max(1, draws // bases.size), repeats)
