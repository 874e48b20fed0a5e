"""The fast engine: one compiled (numba) loop that makes the step forms' decisions for every policy.

The loop calls the same compiled rules (``simulate._rules``), reward table (``simulate._rewards``) and mean
schedule as the reference engine, read the same threshold tables from :class:`Problem`, and accumulate in the
same order, so their records are equal to the reference engine's (tested for every policy).

Cost per round: with ell fixed for the run only the queried arm's index moves, so the argmax is a tournament
tree (winner per node, ties to the lower index, as ``np.argmax``): O(log K) per round. Memory: O(K) arrays,
the checkpoint snapshots, the B_k rows (shared between arms with equal B_k), and a trace only when asked for.
"""

from __future__ import annotations

import math

import numpy as np

from simulate._compile import compiled
from simulate._rdfe import RdfePhase
from simulate._record import FIDELITY_NAMES, RunRecord, Violation, default_checkpoints
from simulate._reference import build_record
from simulate._registry import policy_class
from simulate._rewards import HIGH, LOW, draw_from, key_bases, noise_code
from simulate._rules import continuation_gain_passes, deviation_exceeds, lower, upper
from simulate._schedule import schedule_mean

__all__ = ["run_fast"]

_NO_TRACE = np.zeros((0, 2), dtype=np.int32)


# ------------------------------------------------------------------------------------------- tournament tree
@compiled(inline="always")
def _wins(va, ia, vb, ib):
    """Does (value va, arm ia) win against (vb, ib)? Larger value; ties to the lower arm (as np.argmax); -1 is
    an empty leaf."""
    if ib < 0:
        return True
    if ia < 0:
        return False
    if va > vb:
        return True
    if vb > va:
        return False
    return ia < ib


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
    winner's value and arm, so an update compares stored values only (O(log K) per change, no indirection). The
    arrays are allocated once per run and refilled in place (a compiled loop that rebinds arrays pays reference
    counting on every round)."""
    size = tv.size // 2
    tv[:] = -np.inf
    ti[:] = -1
    for k in range(vals.size):
        tv[size + k] = vals[k]
        ti[size + k] = k
    for node in range(size - 1, 0, -1):
        left, right = 2 * node, 2 * node + 1
        w = left if _wins(tv[left], ti[left], tv[right], ti[right]) else right
        tv[node] = tv[w]
        ti[node] = ti[w]


@compiled(inline="always")
def _tree_update(tv, ti, vals, k):
    node = tv.size // 2 + k
    tv[node] = vals[k]
    node //= 2
    while node >= 1:
        left, right = 2 * node, 2 * node + 1
        w = left if _wins(tv[left], ti[left], tv[right], ti[right]) else right
        tv[node] = tv[w]
        ti[node] = ti[w]
        node //= 2


# ------------------------------------------------------------------------------------------- index policies
#: the policy families the loop runs: Algorithm 1 (TACC, DNC, MF-UCB), UCB on one fidelity (UCB, Weak-Fixed,
#: Low-Improving), the LUCB-style rule, and RDFE (``alg:app-rdfe``, its phases as a state machine).
FAMILY_TWO_FIDELITY = 0
FAMILY_SINGLE = 1
FAMILY_LUCB = 2
FAMILY_RDFE = 3


@compiled()
def _run(family, continuation, fidelity, rows, row_of, eta, gamma, s0, units, rdfe, st, cnt, sums, truth_low, aux,
         cps, snaps, viol, trace, mu, sched, noise, sigma, bases, ell, n_gamma, tau, cost_low, cost_high):
    """One loop for every policy: the start, then select (by family), the budget check, the query with its
    bookkeeping (written once, here, so the compiled loop keeps its state in registers), and the one-arm index
    update. The budget check and the checkpoints count in exact integer units (``bounds.cost_units``):
    ``units`` is (lambda^(L), lambda^(H), Lambda, spent) in those units, ``cps`` the checkpoints floored to them.
    Decisions are the step forms' (``simulate._tacc``, ``_ucb``, ``_lucb``, ``_rdfe``). ``rdfe`` holds
    RDFE's plan and phase outputs: (fidelity, target, B at block end, B_k(1), active, done, ucb, lcb, cost,
    [completed, leader], [output])."""
    K = mu.size
    prefix, prefix_len, tail_c, tail_a, n0, r, clip = sched
    fid, target, bias_end, bias_one, ph_active, ph_done, ph_ucb, ph_lcb, ph_cost, ph_state, out = rdfe
    n_phases = fid.shape[1]
    active = np.arange(K)
    n_active, phase, pos, marked, output = K, 0, 0, False, -1
    width = rows.shape[1]
    start_len = K if family == FAMILY_SINGLE else 2 * K
    ucb = np.empty((2, K))
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
    while True:
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
            n_low = cnt[0, k]
            row = row_of[k]
            if n_low < n_gamma:
                m = LOW
            elif (continuation and aux[0, k] < s0 and continuation_gain_passes(
                    rows[row, n_low - 1], rows[row, n_low + s0 - aux[0, k] - 1], eta, gamma)):
                m = LOW
                cont = True
            else:
                m = HIGH
        elif family == FAMILY_SINGLE:
            k, m = ti[1], fidelity
        elif family == FAMILY_LUCB:                                # leader, challenger, the wider interval
            leader = lti[1]
            saved = vals[leader]
            vals[leader] = -np.inf
            _tree_update(tv, ti, vals, leader)
            challenger = ti[1]
            vals[leader] = saved
            _tree_update(tv, ti, vals, leader)
            w_leader = vals[leader] - lvals[leader]
            w_challenger = vals[challenger] - lvals[challenger]
            if w_leader > w_challenger or (w_leader == w_challenger and leader < challenger):
                k = leader
            else:
                k = challenger
            m = LOW if cnt[0, k] < n_gamma else HIGH
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
                    if cnt[mj, j] < target[j, phase]:              # query until the stopping condition
                        k, m = j, mj
                        break
                    b = bias_end[j, phase] if mj == LOW else 0.0
                    ph_ucb[phase, j] = upper(sums[mj, j], cnt[mj, j], ell, b)
                    ph_lcb[phase, j] = lower(sums[mj, j], cnt[mj, j], ell, b)
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
            snaps[ci, 0, :] = cnt[0, :]
            snaps[ci, 1, :] = cnt[1, :]
            ci += 1
        n_low = cnt[0, k]
        if selected:
            if aux[1, k] < 0 and n_low >= n_gamma:
                aux[1, k] = n_low
            if m == HIGH:
                if n_low < n_gamma:
                    aux[3, k] += 1
                elif n_low < tau[k]:
                    aux[2, k] += 1
        if tracing:
            trace[rounds, 0] = k
            trace[rounds, 1] = m
        n = cnt[m, k] + 1
        if m == LOW:
            mean = schedule_mean(prefix, prefix_len, tail_c, tail_a, n0, r, clip, k, n)
        else:
            mean = mu[k]
        total = sums[m, k] + draw_from(noise, sigma, mean, bases[m, k], n)
        sums[m, k] = total
        cnt[m, k] = n
        cost = new_cost
        rounds += 1
        step += 1
        if cont:
            aux[0, k] += 1
        if family == FAMILY_RDFE and selected:
            ph_cost[phase, k] += cost_low if m == LOW else cost_high
        if m == LOW:
            truth = truth_low[k] + mean
            truth_low[k] = truth
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
                    lc = max(lower(sums[0, j], cnt[0, j], ell, bias_one[j]), lower(sums[1, j], cnt[1, j], ell, 0.0))
                    if lc > best:
                        output, best = j, lc
        elif step >= start_len:
            full = step == start_len
            lo, hi = (0, K) if full else (k, k + 1)
            for j in range(lo, hi):
                if family == FAMILY_SINGLE:
                    vals[j] = upper(sums[fidelity, j], cnt[fidelity, j], ell, 0.0)
                    continue
                if full or m == LOW:
                    b = rows[row_of[j], min(cnt[0, j], width) - 1]
                    ucb[0, j] = upper(sums[0, j], cnt[0, j], ell, b)
                    if family == FAMILY_LUCB:
                        lcb[0, j] = lower(sums[0, j], cnt[0, j], ell, b)
                if full or m == HIGH:
                    ucb[1, j] = upper(sums[1, j], cnt[1, j], ell, 0.0)
                    if family == FAMILY_LUCB:
                        lcb[1, j] = lower(sums[1, j], cnt[1, j], ell, 0.0)
                vals[j] = min(ucb[0, j], ucb[1, j])
                if family == FAMILY_LUCB:
                    lvals[j] = max(lcb[0, j], lcb[1, j])
            if step > start_len:
                _tree_update(tv, ti, vals, k)
                if family == FAMILY_LUCB:
                    _tree_update(ltv, lti, lvals, k)
            else:
                _tree_fill(tv, ti, vals)
                _tree_fill(ltv, lti, lvals)
    units[3] = cost
    st[1], st[2] = rounds, ci
    viol[0], viol[1], viol[2] = vk, vm, vn
    out[0] = output


# ------------------------------------------------------------------------------------------- driver
def rdfe_plan(problem):
    """Fidelity, stopping count and end-of-block B_k per (arm, phase), from the shared :class:`RdfeOracle`."""
    oracle = problem.rdfe_oracle
    R, K = oracle.last_phase(problem.horizon), problem.n_arms
    fid = np.zeros((K, R), dtype=np.int64)
    target = np.zeros((K, R))
    bias_end = np.zeros((K, R))
    for k in range(K):
        n_end = 1
        for r in range(1, R + 1):
            fid[k, r - 1] = oracle.fidelity(k, r)
            t = oracle.target(k, r)
            target[k, r - 1] = t
            if fid[k, r - 1] == LOW and t != math.inf:
                n_end = max(n_end, int(t))
                bias_end[k, r - 1] = oracle.bias(k, n_end)
            elif fid[k, r - 1] == LOW:
                bias_end[k, r - 1] = math.nan       # the block cannot finish
    bias_one = np.array([oracle.bias(k, 1) for k in range(K)])
    return fid, target, bias_end, bias_one


def _phases(problem, ph_active, ph_done, ph_ucb, ph_lcb, ph_cost, ph_state) -> tuple:
    oracle, out = problem.rdfe_oracle, []
    for r0 in range(ph_active.shape[0]):
        S = [int(k) for k in np.flatnonzero(ph_active[r0])]
        if not S:
            break
        r, done = r0 + 1, ph_done[r0]
        ucb = tuple(float(ph_ucb[r0, k]) if done[k] else None for k in S)
        lcb = tuple(float(ph_lcb[r0, k]) if done[k] else None for k in S)
        completed = bool(ph_state[r0, 0])
        floor = None if not completed else ph_lcb[r0, ph_state[r0, 1]] - oracle.eps(r) / 4
        out.append(RdfePhase(
            r=r, eps=oracle.eps(r), active=tuple(S), fidelity=tuple(oracle.fidelity(k, r) for k in S),
            target=tuple(oracle.target(k, r) for k in S), cost=tuple(float(ph_cost[r0, k]) for k in S),
            ucb=ucb, lcb=lcb,
            width=tuple(None if u is None or lo is None else u - lo for u, lo in zip(ucb, lcb, strict=True)),
            completed=completed, leader=int(ph_state[r0, 1]) if completed else None,
            survivors=tuple(k for k in S if ph_ucb[r0, k] >= floor) if completed else None))
    return tuple(out)


def run_fast(problem, policy: str, seed: int, *, checkpoints=None, trace: bool = False) -> RunRecord:
    """Run ``policy`` on ``problem`` with the reward table of ``seed`` in the compiled engine."""
    cls = policy_class(policy)
    K = problem.n_arms
    s = problem.frozen_schedule if cls.source == "frozen" else problem.schedule
    sched = (s.prefix, s.prefix_len, s.c, s.a, s.n0, s.r, s.clip)
    cps = default_checkpoints(problem.budget) if checkpoints is None else tuple(checkpoints)
    st = np.zeros(3)
    cnt = np.zeros((2, K), dtype=np.int64)
    sums = np.zeros((2, K))
    truth_low = np.zeros(K)
    aux = np.zeros((4, K), dtype=np.int64)
    aux[1, :] = -1
    acct = problem.units
    units = np.array([acct.low, acct.high, acct.budget, 0], dtype=np.int64)
    cps_arr = problem.checkpoint_units(cps)
    snaps = np.zeros((len(cps), 2, K), dtype=np.int64)
    viol = np.full(3, -1, dtype=np.int64)
    tr = np.zeros((acct.budget // min(acct.low, acct.high) + 1, 2), dtype=np.int32) if trace else _NO_TRACE
    common = (st, cnt, sums, truth_low, aux, cps_arr, snaps, viol, tr, np.asarray(problem.instance.mu_high), sched,
              noise_code(problem.noise), problem.sigma, key_bases(int(seed), K), problem.ell, problem.n_gamma,
              np.array(problem.tau, dtype=float), problem.cost_low, problem.cost_high)
    phases, output = (), None
    if policy in ("tacc", "dnc"):
        rows, row_of = problem.bias_table
    else:                                            # the static bias zeta_k = B_k(1) (MF-UCB, LUCB); unused otherwise
        rows, row_of = problem.static_bias_table
    if policy == "rdfe":
        fid, target, bias_end, bias_one = problem.rdfe_plan
    else:
        fid, target, bias_end, bias_one = (np.zeros((K, 0), dtype=np.int64), np.zeros((K, 0)), np.zeros((K, 0)),
                                           np.zeros(K))
    R = fid.shape[1]
    ph = (np.zeros((R, K), dtype=np.bool_), np.zeros((R, K), dtype=np.bool_), np.zeros((R, K)), np.zeros((R, K)),
          np.zeros((R, K)), np.zeros((R, 2), dtype=np.int64))
    out = np.full(1, -1, dtype=np.int64)
    family = (FAMILY_TWO_FIDELITY if policy in ("tacc", "dnc", "mf-ucb") else FAMILY_LUCB if policy == "lucb" else
              FAMILY_RDFE if policy == "rdfe" else FAMILY_SINGLE)
    _run(family, policy == "tacc", getattr(cls, "fidelity", LOW), rows, row_of, problem.eta, problem.gamma,
         problem.s0, units, (fid, target, bias_end, bias_one, *ph, out), *common)
    if policy == "rdfe":
        phases = _phases(problem, *ph)
        output = None if out[0] < 0 else int(out[0])
    rounds = int(st[1])
    violation = None if viol[0] < 0 else Violation(int(viol[0]), FIDELITY_NAMES[int(viol[1])], int(viol[2]))
    snaps_used = [(snaps[i, 0], snaps[i, 1]) for i in range(int(st[2]))]
    return build_record(problem, policy, seed, n_low=cnt[0], n_high=cnt[1], continuation=aux[0], threshold=aux[1],
                        window=aux[2], early=aux[3], cost=acct.value(int(units[3])), rounds=rounds, checkpoints=cps,
                        snaps=snaps_used,
                        violation=violation, phases=phases, output=output,
                        trace=None if not trace else tr[:rounds].tolist())
