"""The fast engine: one compiled (numba) loop that makes the step forms' decisions for every policy.

The loop calls the same compiled rules (``simulate._rules``), reward table (``simulate._rewards``) and mean
schedule as the reference engine, read the same threshold tables from :class:`Problem`, and accumulate in the
same order, so their records are equal to the reference engine's (tested for every policy).

Cost per round: with ell fixed for the run only the queried arm's index moves, so the argmax is a tournament
tree (winner per node, ties to the lower index, as ``np.argmax``): O(log K) per round. Memory: O(K) arrays,
the checkpoint snapshots, the B_k rows over the low counts a run reaches (shared between arms with equal B_k;
``Problem.bias_width``), and a trace only when asked for.
"""

from __future__ import annotations

import math

import numpy as np

from simulate._compile import compiled
from simulate._errors import RunStopped
from simulate._rdfe import RdfePhase
from simulate._record import (FIDELITY_NAMES, RunRecord, Violation, default_checkpoints, record_from_arrays,
                              regret_sums, regret_summary)
from simulate._registry import policy_class
from simulate._rewards import HIGH, LOW, draw_from, key_base, noise_code
from simulate._rules import continuation_gain_passes, deviation_exceeds, lower, upper
from simulate._schedule import schedule_mean

__all__ = ["run_fast"]

_NO_TRACE = np.zeros((0, 2), dtype=np.int32)
#: the stop flag of a run nobody stops (never written)
_NEVER = np.zeros(1, dtype=np.int8)
#: the compiled loop reads its stop flag when the round count is a multiple of this (a mask and a branch per round,
#: a memory read every 65,536 rounds: 3 ms at 50 ns per round, 33 ms at the slowest rounded-up 500 ns)
_STOP_EVERY = 1 << 16
#: a trace is allocated for every round the budget allows up to this many rows (1 MiB); beyond, for the run's rounds
_TRACE_ROWS_AT_ONCE = 1 << 17
#: with a caller's bound on the run's rounds (``rounds_bound``), the trace is allocated for that bound up to this many
#: rows (1 GiB; the pages a run does not reach are never touched); beyond, the run is first made untraced as above
_TRACE_ROWS_BOUNDED = 1 << 27


# ------------------------------------------------------------------------------------------- tournament tree
@compiled(inline="always")
def _wins(va, ia, vb, ib):
    """Does (value va, arm ia) win against (vb, ib)? Larger value; ties (and a NaN) to the lower index, as
    ``np.argmax``. Antisymmetric for ia != ib, so the winner does not depend on the order of the two."""
    if va > vb:
        return True
    if vb > va:
        return False
    return ia < ib


@compiled(inline="always")
def _wins_flat(va, ia, vb, ib):
    """:func:`_wins` without branches (tested equal on every case, NaN and ties included): in a deep tree each
    level's comparison is as likely to go either way, and a mispredicted branch costs more than both sides."""
    return (va > vb) | ((not (vb > va)) & (ia < ib))


#: from this many leaves on, :func:`_tree_update` compares without branches (measured: below it the branches
#: predict well and are faster, at K = 5000 the branch-free form saves about 15% of a round)
_FLAT_FROM = 2048


@compiled()
def _tree_size(n):
    """The number of leaves of a tournament tree over n values: the smallest power of two >= n."""
    size = 1
    while size < n:
        size *= 2
    return size


@compiled()
def _tree_fill(tv, ti, vals):
    """Fill the tournament tree (tv, ti) of 2 x ``_tree_size(vals.size)`` nodes over ``vals``: each node keeps its
    winner's value and arm, so an update compares stored values only (O(log K) per change, no indirection). A leaf
    j >= vals.size is empty: (-inf, j), which every arm beats (a larger value, or a tie and a lower index). The
    arrays are allocated once per run and refilled in place (a compiled loop that rebinds arrays pays reference
    counting on every round)."""
    size = tv.size // 2
    for j in range(size):
        tv[size + j] = vals[j] if j < vals.size else -np.inf
        ti[size + j] = j
    for node in range(size - 1, 0, -1):
        left, right = 2 * node, 2 * node + 1
        w = left if _wins(tv[left], ti[left], tv[right], ti[right]) else right
        tv[node] = tv[w]
        ti[node] = ti[w]


@compiled(inline="always")
def _tree_update(tv, ti, vals, k):
    """Arm k's value changed: recompute the winners on its path, reading only each node's sibling (the path's own
    winner is carried along)."""
    node = tv.size // 2 + k
    v, i = vals[k], ti[node]
    tv[node] = v
    if tv.size // 2 < _FLAT_FROM:
        _climb(tv, ti, node, v, i, _wins, True)
    else:
        _climb(tv, ti, node, v, i, _wins_flat, True)


@compiled(inline="always")
def _climb(tv, ti, node, v, i, wins, write):
    """The winners from ``node`` (holding (v, i)) up to the root, compared by ``wins`` (compiled once per form),
    written on the path with ``write``; returns the root's winner."""
    while node > 1:
        sib = node ^ 1
        vs, js = tv[sib], ti[sib]
        if not wins(v, i, vs, js):
            v, i = vs, js
        node //= 2
        if write:
            tv[node] = v
            ti[node] = i
    return i


@compiled(inline="always")
def _tree_winner_without(tv, ti, k):
    """The winner the tree would have if arm k's value were -inf, read without writing: the climb of
    :func:`_tree_update` from k's leaf holding (-inf, k), comparing with the same siblings in the same order (which
    that update would leave unchanged), so its result is the root the update would make, NaN and ties included
    (``tests/simulate/test_fast.py``). One read-only pass instead of an update and its undoing."""
    node = tv.size // 2 + k
    v, i = -np.inf, ti[node]
    if tv.size // 2 < _FLAT_FROM:
        return _climb(tv, ti, node, v, i, _wins, False)
    return _climb(tv, ti, node, v, i, _wins_flat, False)


# ------------------------------------------------------------------------------------------- index policies
#: the policy families the loop runs: Algorithm 1 (TACC, DNC, MF-UCB), UCB on one fidelity (UCB, Weak-Fixed,
#: Low-Improving), the LUCB-style rule, and RDFE (``alg:app-rdfe``, its phases as a state machine).
FAMILY_TWO_FIDELITY = 0
FAMILY_SINGLE = 1
FAMILY_LUCB = 2
FAMILY_RDFE = 3


#: the columns of the per-arm rows (``arm_f[k, m]`` is the sum and ``arm_i[k, m]`` the count at fidelity m = 0, 1)
F_TRUTH, F_UCB, F_MU, F_TAU = 2, 3, 5, 6        # arm_f[k, F_UCB + m]: UCB at fidelity m
I_AUX, I_BASE = 2, 6                              # arm_i[k, I_AUX + j]: observer column j; arm_i[k, I_BASE + m]: key


@compiled(nogil=True)    # runs in a thread while the main thread waits interruptibly (simulate._runner)
def _run(family, continuation, fidelity, rows, row_of, ends, eta, gamma, s0, units, rdfe, st, cnt, aux, sums, truth_low,
         cps, snaps, viol, trace, mu, sched, noise, sigma, seed, bases, ell, n_gamma, tau, cost_low, cost_high, gaps,
         shares, at, work, stop):
    """One loop for every policy: the start, then select (by family), the budget check, the query with its
    bookkeeping (written once, here, so the compiled loop keeps its state in registers), and the one-arm index
    update. The budget check and the checkpoints count in exact integer units (``bounds.cost_units``):
    ``units`` is (lambda^(L), lambda^(H), Lambda, spent) in those units, ``cps`` the checkpoints floored to them.
    Decisions are the step forms' (``simulate._tacc``, ``_ucb``, ``_lucb``, ``_rdfe``). ``rdfe`` holds
    RDFE's plan and phase outputs: (fidelity, target, B at block end, B_k(1), active, done, ucb, lcb, cost,
    [completed, leader], [output]).

    A round reads and writes the state of the arm it queries in two rows, ``arm_f[k]`` (floats: the sums, the
    low-fidelity truth, the two UCBs, mu_k, tau_k) and ``arm_i[k]`` (ints: the counts, the observer's columns, the
    reward table's keys), built here at the start of every run, so a round touches a few cache lines whatever K.
    At the end they are written to the problem's work arrays: ``cnt`` the counts (low, high), ``aux`` the
    observer's columns (continuation, threshold count, high in window, high before threshold), ``sums``,
    ``truth_low``; ``bases`` gets the reward table's keys of ``seed``. At the end the regret numbers are
    computed here too (``simulate._record.regret_sums``: ``shares``, ``at``, and ``st[3]`` the regret, ``st[4]``
    1 when every sum was finite).

    ``stop`` is a one-element array another thread may set (nonzero): the loop reads it every ``_STOP_EVERY``
    rounds and, if set, ends there with ``st[0] = 1``: the run is unfinished and its arrays are no record
    (:func:`run_fast` raises :class:`simulate.RunStopped`)."""
    K = mu.size
    st[0] = 0.0
    prefix, prefix_len, tail_c, tail_a, n0, r, clip, power = sched
    arm_f = np.zeros((K, 8))
    arm_i = np.zeros((K, 8), dtype=np.int64)
    for k in range(K):
        arm_f[k, F_MU] = mu[k]
        arm_f[k, F_TAU] = tau[k]
        arm_i[k, I_AUX + 1] = -1
    for m in range(2):
        for k in range(K):
            b = key_base(seed, k, m)
            bases[m, k] = b
            arm_i[k, I_BASE + m] = np.int64(b)
    fid, target, bias_end, bias_one, ph_active, ph_done, ph_ucb, ph_lcb, ph_cost, ph_state, out = rdfe
    n_phases = fid.shape[1]
    ph_active[:] = False
    ph_done[:] = False
    ph_ucb[:] = 0.0
    ph_lcb[:] = 0.0
    ph_cost[:] = 0.0
    ph_state[:] = 0
    active = np.arange(K)
    n_active, phase, pos, marked, output = K, 0, 0, False, -1
    width = rows.shape[1]
    start_len = K if family == FAMILY_SINGLE else 2 * K
    lcb = np.empty((2, K))
    vals = np.full(K, -np.inf)
    lvals = np.full(K, -np.inf)
    n_nodes = 2 * _tree_size(K)
    tv, ti = np.empty(n_nodes), np.empty(n_nodes, dtype=np.int64)
    ltv, lti = np.empty(n_nodes), np.empty(n_nodes, dtype=np.int64)
    _tree_fill(tv, ti, vals)
    _tree_fill(ltv, lti, lvals)
    tracing = trace.shape[0] > 0
    units_low, units_high, units_budget = units[0], units[1], units[2]
    cost, rounds, ci, step = 0, 0, 0, 0
    vk, vm, vn = -1, -1, -1
    stop_mask = _STOP_EVERY - 1
    while True:
        if (rounds & stop_mask) == 0 and stop[0] != 0:             # another thread asked the run to end
            st[0] = 1.0
            break
        # ---- select an arm and a fidelity
        cont = False
        selected = step >= start_len
        if not selected:                                           # Algorithm 1, line 2 (or one query per arm)
            if family == FAMILY_SINGLE:
                k, m = step, fidelity
            else:
                k, m = step // 2, step % 2
        elif family == FAMILY_TWO_FIDELITY:                        # lines 5-12
            k = ti[1]
            n_low = arm_i[k, 0]
            row = row_of[k]
            if n_low < n_gamma:
                m = LOW
            elif (continuation and arm_i[k, I_AUX] < s0 and continuation_gain_passes(
                    rows[row, n_low - 1], ends[row], eta, gamma)):     # B_k(N_gamma + S0): Problem.continuation_end
                m = LOW
                cont = True
            else:
                m = HIGH
        elif family == FAMILY_SINGLE:
            k, m = ti[1], fidelity
        elif family == FAMILY_LUCB:                                # leader, challenger, the wider interval
            leader = lti[1]
            challenger = _tree_winner_without(tv, ti, leader)   # the best UCB among the other arms
            w_leader = vals[leader] - lvals[leader]
            w_challenger = vals[challenger] - lvals[challenger]
            if w_leader > w_challenger or (w_leader == w_challenger and leader < challenger):
                k = leader
            else:
                k = challenger
            m = LOW if arm_i[k, 0] < n_gamma else HIGH
        else:                                                      # RDFE: the next query of the phase in progress
            k = -1
            while n_active > 1 and phase < n_phases:
                if not marked:
                    for i in range(n_active):
                        ph_active[phase, active[i]] = True
                    marked = True
                if pos < n_active:                                 # for each arm k in S_r
                    j = active[pos]
                    mj = fid[j, phase]
                    if arm_i[j, mj] < target[j, phase]:                # query until the stopping condition
                        k, m = j, mj
                        break
                    b = bias_end[j, phase] if mj == LOW else 0.0
                    ph_ucb[phase, j] = upper(arm_f[j, mj], arm_i[j, mj], ell, b)
                    ph_lcb[phase, j] = lower(arm_f[j, mj], arm_i[j, mj], ell, b)
                    ph_done[phase, j] = True
                    pos += 1
                    continue
                eps = math.ldexp(1.0, -(phase + 1))                # leader, survival test, output
                leader = active[0]
                for i in range(1, n_active):
                    if ph_lcb[phase, active[i]] > ph_lcb[phase, leader]:
                        leader = active[i]
                floor = ph_lcb[phase, leader] - eps / 4
                kept = 0
                for i in range(n_active):
                    if ph_ucb[phase, active[i]] >= floor:
                        active[kept] = active[i]
                        kept += 1
                n_active = kept
                output = active[0]
                for i in range(1, n_active):
                    if ph_lcb[phase, active[i]] > ph_lcb[phase, output]:
                        output = active[i]
                ph_state[phase, 0] = 1
                ph_state[phase, 1] = leader
                phase, pos, marked = phase + 1, 0, False
            if k < 0:
                if n_active == 1:
                    output = active[0]
                break
        price = units_low if m == LOW else units_high
        if cost + price > units_budget:                            # line 14: C_t <= Lambda, exact
            break
        # ---- the query and the run's bookkeeping (the reference engine's order)
        new_cost = cost + price
        while ci < cps.size and new_cost > cps[ci]:
            for j in range(K):
                snaps[ci, 0, j] = arm_i[j, 0]
                snaps[ci, 1, j] = arm_i[j, 1]
            ci += 1
        n_low = arm_i[k, 0]
        if selected:
            if arm_i[k, I_AUX + 1] < 0 and n_low >= n_gamma:
                arm_i[k, I_AUX + 1] = n_low
            if m == HIGH:
                if n_low < n_gamma:
                    arm_i[k, I_AUX + 3] += 1
                elif n_low < arm_f[k, F_TAU]:
                    arm_i[k, I_AUX + 2] += 1
        if tracing and rounds < trace.shape[0]:                    # past its rows: made again (run_fast)
            trace[rounds, 0] = k
            trace[rounds, 1] = m
        n = arm_i[k, m] + 1
        if m == LOW:
            mean = schedule_mean(prefix, prefix_len, tail_c, tail_a, n0, r, clip, power, k, n)
        else:
            mean = arm_f[k, F_MU]
        total = arm_f[k, m] + draw_from(noise, sigma, mean, np.uint64(arm_i[k, I_BASE + m]), n)
        arm_f[k, m] = total
        arm_i[k, m] = n
        cost = new_cost
        rounds += 1
        step += 1
        if cont:
            arm_i[k, I_AUX] += 1
        if family == FAMILY_RDFE and selected:
            ph_cost[phase, k] += cost_low if m == LOW else cost_high
        if m == LOW:
            truth = arm_f[k, F_TRUTH] + mean
            arm_f[k, F_TRUTH] = truth
            truth = truth / n
        else:
            truth = mean
        if vk < 0 and deviation_exceeds(total, n, truth, ell):
            vk, vm, vn = k, m, n
        # ---- the index: only arm k's moved (all arms once, when the start is complete)
        if family == FAMILY_RDFE:
            if step == start_len:                                  # the warm-start LCB leader
                best = -np.inf
                for j in range(K):
                    lc = max(lower(arm_f[j, 0], arm_i[j, 0], ell, bias_one[j]),
                             lower(arm_f[j, 1], arm_i[j, 1], ell, 0.0))
                    if lc > best:
                        output, best = j, lc
        elif step >= start_len:
            full = step == start_len
            lo, hi = (0, K) if full else (k, k + 1)
            for j in range(lo, hi):
                if family == FAMILY_SINGLE:
                    vals[j] = upper(arm_f[j, fidelity], arm_i[j, fidelity], ell, 0.0)
                    continue
                if full or m == LOW:
                    b = rows[row_of[j], min(arm_i[j, 0], width) - 1]
                    arm_f[j, F_UCB] = upper(arm_f[j, 0], arm_i[j, 0], ell, b)
                    if family == FAMILY_LUCB:
                        lcb[0, j] = lower(arm_f[j, 0], arm_i[j, 0], ell, b)
                if full or m == HIGH:
                    arm_f[j, F_UCB + 1] = upper(arm_f[j, 1], arm_i[j, 1], ell, 0.0)
                    if family == FAMILY_LUCB:
                        lcb[1, j] = lower(arm_f[j, 1], arm_i[j, 1], ell, 0.0)
                vals[j] = min(arm_f[j, F_UCB], arm_f[j, F_UCB + 1])
                if family == FAMILY_LUCB:
                    lvals[j] = max(lcb[0, j], lcb[1, j])
            if step > start_len:
                _tree_update(tv, ti, vals, k)
                if family == FAMILY_LUCB:
                    _tree_update(ltv, lti, lvals, k)
            else:
                _tree_fill(tv, ti, vals)
                _tree_fill(ltv, lti, lvals)
    for j in range(K):
        cnt[0, j] = arm_i[j, 0]
        cnt[1, j] = arm_i[j, 1]
        for c4 in range(4):
            aux[c4, j] = arm_i[j, I_AUX + c4]
        sums[0, j] = arm_f[j, 0]
        sums[1, j] = arm_f[j, 1]
        truth_low[j] = arm_f[j, F_TRUTH]
    units[3] = cost
    viol[0], viol[1], viol[2] = vk, vm, vn
    out[0] = output
    regret, ok = regret_sums(gaps, cost_low, cost_high, cnt[0], cnt[1], snaps, ci, shares, at, work)
    st[1], st[2], st[3], st[4] = rounds, ci, regret, 1.0 if ok else 0.0


# ------------------------------------------------------------------------------------------- driver
def rdfe_plan(problem):
    """Fidelity, stopping count and end-of-block B_k per (arm, phase), from the shared :class:`RdfeOracle`.

    The block of arm k in phase r ends at n_end = the largest finite low-fidelity count of phases 1..r (at
    least 1): the counts carry over between phases. B_k(n_end) is read where the phase is at low fidelity with
    a finite count, NaN where that count is infinite (the block cannot finish), 0 at high fidelity."""
    oracle = problem.rdfe_oracle
    R, K = oracle.last_phase(problem.horizon), problem.n_arms
    fid, target = oracle.plan(K, R)
    low = fid == LOW
    finite = low & np.isfinite(target)
    n_end = np.maximum.accumulate(np.where(finite, target, 1.0), axis=1).astype(np.int64)
    arms = np.broadcast_to(np.arange(K, dtype=np.int64)[:, None], (K, R))
    b = oracle.biases(np.concatenate([arms[finite], np.arange(K)]), np.concatenate([n_end[finite], np.ones(K)]))
    bias_end = np.zeros((K, R))
    bias_end[finite] = b[:-K] if K else b
    bias_end[low & ~finite] = math.nan           # the block cannot finish
    return fid, np.ascontiguousarray(target), bias_end, b[b.size - K:]


class _Work:
    """The arrays one run writes (allocated once per problem, policy and checkpoints; ``_run`` resets them)."""

    def __init__(self, plan: "_Plan"):
        K, n_cps, R = plan.K, len(plan.cps), plan.R
        self.per_arm = np.zeros((6, K), dtype=np.int64)        # n_low, n_high, then the observer's four columns
        self.cnt, self.aux = self.per_arm[0:2], self.per_arm[2:6]
        self.sums = np.zeros((2, K))
        self.truth_low = np.zeros(K)
        self.bases = np.zeros((2, K), dtype=np.uint64)
        self.snaps = np.zeros((n_cps, 2, K), dtype=np.int64)
        self.st = np.zeros(5)
        self.viol = np.full(3, -1, dtype=np.int64)
        self.shares, self.at, self.work = np.zeros(K), np.zeros(n_cps), np.zeros(K)
        self.ph = (np.zeros((R, K), dtype=np.bool_), np.zeros((R, K), dtype=np.bool_), np.zeros((R, K)),
                   np.zeros((R, K)), np.zeros((R, K)), np.zeros((R, 2), dtype=np.int64))
        self.out = np.full(1, -1, dtype=np.int64)
        self.units = np.array([*plan.units, 0], dtype=np.int64)
        # the loop's arguments around (trace, seed), built once
        self.args = ((*plan.head, self.units, (*plan.plan, *self.ph, self.out), self.st, self.cnt, self.aux,
                      self.sums, self.truth_low, plan.cps_units, self.snaps, self.viol),
                     (plan.mu, plan.sched, plan.noise, plan.sigma),
                     (self.bases, *plan.tail, self.shares, self.at, self.work))


class _Plan:
    """What every run of one policy on one problem with one set of checkpoints shares: the compiled loop's
    constant arguments, and a pool of work arrays (a run takes one and gives it back, so runs in several threads
    never share one)."""

    def __init__(self, problem, policy: str, cps: tuple):
        cls = policy_class(policy)
        K = problem.n_arms
        self.policy, self.cps, self.K = policy, tuple(float(c) for c in cps), K
        s = problem.frozen_schedule if cls.source == "frozen" else problem.schedule
        acct = problem.units
        self.acct = acct
        self.costs: dict[int, float] = {}            # units spent -> the cost as a float, memoised
        self.units = (acct.low, acct.high, acct.budget)
        self.cps_units = problem.checkpoint_units(cps)
        # TACC and DNC read B_k(n); the static rules the bias zeta_k = B_k(1) (MF-UCB, LUCB); unused otherwise
        if policy in ("tacc", "dnc"):
            (rows, row_of), ends = problem.bias_table, problem.continuation_end
        else:
            (rows, row_of), ends = problem.static_bias_table, problem.static_continuation_end
        if policy == "rdfe":
            self.plan = problem.rdfe_plan
        else:
            self.plan = (np.zeros((K, 0), dtype=np.int64), np.zeros((K, 0)), np.zeros((K, 0)), np.zeros(K))
        self.R = self.plan[0].shape[1]
        family = (FAMILY_TWO_FIDELITY if policy in ("tacc", "dnc", "mf-ucb") else FAMILY_LUCB if policy == "lucb"
                  else FAMILY_RDFE if policy == "rdfe" else FAMILY_SINGLE)
        self.head = (family, policy == "tacc", getattr(cls, "fidelity", LOW), rows, row_of, ends, problem.eta,
                     problem.gamma, problem.s0)
        self.mu = np.ascontiguousarray(problem.instance.mu_high, dtype=float)
        self.sched = (s.prefix, s.prefix_len, s.c, s.a, s.n0, s.r, s.clip, s.power)
        self.noise, self.sigma = noise_code(problem.noise), problem.sigma
        self.gaps = np.ascontiguousarray(problem.instance.gaps, dtype=float)
        self.cost_low, self.cost_high = problem.cost_low, problem.cost_high
        self.tail = (problem.ell, problem.n_gamma, np.array(problem.tau, dtype=float), self.cost_low,
                     self.cost_high, self.gaps)
        self.max_rounds = acct.budget // min(acct.low, acct.high) + 1
        self.phase_info = _phase_info(problem, self.R) if policy == "rdfe" else None
        self.free: list[_Work] = []

    def cost(self, units: int) -> float:
        hit = self.costs.get(units)
        if hit is None:
            if len(self.costs) >= 256:
                self.costs.clear()
            hit = self.costs[units] = self.acct.value(units)
        return hit


def _plan(problem, policy: str, checkpoints) -> _Plan:
    plans = problem.__dict__.setdefault("_fast_plans", {})
    key = (policy, None if checkpoints is None else tuple(checkpoints))
    plan = plans.get(key)
    if plan is None:
        if len(plans) >= 64:
            plans.pop(next(iter(plans)))
        cps = default_checkpoints(problem.budget) if checkpoints is None else tuple(checkpoints)
        plan = plans[key] = _Plan(problem, policy, cps)
    return plan


def _phase_info(problem, R: int) -> list:
    """Per phase r: (r, eps_r, fidelity of every arm, stopping count of every arm), from the oracle."""
    oracle, K = problem.rdfe_oracle, problem.n_arms
    return [(r, oracle.eps(r), [oracle.fidelity(k, r) for k in range(K)], [oracle.target(k, r) for k in range(K)])
            for r in range(1, R + 1)]


def _phases(info, ph_active, ph_done, ph_ucb, ph_lcb, ph_cost, ph_state) -> tuple:
    out = []
    for r0, (r, eps, fids, targets) in enumerate(info):
        S = np.flatnonzero(ph_active[r0]).tolist()
        if not S:
            break
        done, u_all, l_all, c_all = ph_done[r0].tolist(), ph_ucb[r0].tolist(), ph_lcb[r0].tolist(), ph_cost[r0].tolist()
        ucb = tuple(u_all[k] if done[k] else None for k in S)
        lcb = tuple(l_all[k] if done[k] else None for k in S)
        completed = bool(ph_state[r0, 0])
        leader = int(ph_state[r0, 1]) if completed else None
        floor = None if not completed else l_all[leader] - eps / 4
        out.append(RdfePhase(
            r=r, eps=eps, active=tuple(S), fidelity=tuple(fids[k] for k in S),
            target=tuple(targets[k] for k in S), cost=tuple(c_all[k] for k in S),
            ucb=ucb, lcb=lcb,
            width=tuple(None if u is None or lo is None else u - lo for u, lo in zip(ucb, lcb, strict=True)),
            completed=completed, leader=leader,
            survivors=tuple(k for k in S if u_all[k] >= floor) if completed else None))
    return tuple(out)


def run_fast(problem, policy: str, seed: int, *, checkpoints=None, trace: bool = False, stop=None,
             rounds_bound: int | None = None) -> RunRecord:
    """Run ``policy`` on ``problem`` with the reward table of ``seed`` in the compiled engine.

    ``stop``: a one-element int8 array (:func:`simulate.stop_flag`) another thread may set to a nonzero value to
    end the run within 65,536 rounds; a run so ended raises :class:`simulate.RunStopped` (it has no record).
    ``rounds_bound``: with ``trace``, the most rounds the caller knows the run can make (``tacc explain``: the
    policy's bound from its algorithm), so the trace is allocated at once; a run that makes more is made again
    with its own length (the record is the same either way)."""
    plan = _plan(problem, policy, checkpoints)
    flag = _NEVER if stop is None else stop
    try:
        w = plan.free.pop()
    except IndexError:
        w = _Work(plan)
    tr = _NO_TRACE
    if trace:
        # a trace row per round the run can make; where that bound is large (budget / cheapest cost: 10^12 rows,
        # 7 TiB, on a budget of 10^12 whose runs end after 17,783 rounds on high queries of cost 10^9), the same
        # seed is first run untraced to learn its own length (runs are a pure function of the seed), unless the
        # caller bounds its rounds
        rows = plan.max_rounds
        if rounds_bound is not None:
            rows = min(rows, int(rounds_bound) + 1)
        if rows > (_TRACE_ROWS_AT_ONCE if rounds_bound is None else _TRACE_ROWS_BOUNDED):
            rows = run_fast(problem, policy, seed, checkpoints=checkpoints, stop=stop).rounds + 1
        tr = np.zeros((rows, 2), dtype=np.int32)
    before, middle, after = w.args
    _run(*before, tr, *middle, int(seed), *after, flag)
    st, viol = w.st.tolist(), w.viol.tolist()
    if st[0]:                                        # ended by its stop flag: unfinished, no record
        plan.free.append(w)
        raise RunStopped(policy, int(seed), int(st[1]))
    if trace and int(st[1]) > tr.shape[0]:           # more rounds than the caller's bound: again, its own length
        plan.free.append(w)
        return run_fast(problem, policy, seed, checkpoints=checkpoints, trace=True, stop=stop,
                        rounds_bound=int(st[1]))
    rounds, n_snaps, regret = int(st[1]), int(st[2]), st[3]
    if not st[4]:                                    # a sum that is not finite: math.fsum decides it
        regret = regret_summary(plan.gaps, plan.cost_low, plan.cost_high, w.cnt[0], w.cnt[1], w.snaps, n_snaps,
                                w.shares, w.at, w.work)
    phases, output = (), None
    if plan.phase_info is not None:
        phases = _phases(plan.phase_info, *w.ph)
        output = None if w.out[0] < 0 else int(w.out[0])
    violation = None if viol[0] < 0 else Violation(viol[0], FIDELITY_NAMES[viol[1]], viol[2])
    record = record_from_arrays(policy, int(seed), w.per_arm, w.shares, rounds, plan.cost(int(w.units[3])), regret,
                                plan.cps, w.at, violation, phases, output,
                                None if not trace else tuple(map(tuple, tr[:rounds].tolist())))
    plan.free.append(w)
    return record
