"""The confidence event of ``lem:ci`` on a run whose float check found it failed, decided exactly.

Both engines check the event after every update in floats (docs/design.md section 7): the running sum of the
observations over the count, against the mean of the means served, against ``G(n) = sqrt(ell / n)``. A float
running sum loses up to half an ulp of the running total at every addition, so on an instance with large means
(1e15, where an ulp of a sum of 577 observations is 64) the float deviation is off by far more than the radius,
and the float check reports a failure where the observations do not deviate at all. A failure reported that way
would be a false counterexample to the lemma.

:func:`event_failure` decides it exactly: it recomputes the observations of the run (the reward table is a pure
function of (seed, arm, fidelity, count), ``simulate.RewardTable``) and the means served, and compares
``D_n^2 > ell n`` in integers, with ``D_n`` the exact sum over the first n observations of (observation - mean
served): the event fails at count n exactly when ``|D_n / n| > sqrt(ell / n)``. The flagged count is decided
first; if the event held there, every visited count of every arm and fidelity is (the first float failure may hide
a later real one). ``certify.ClaimContext.event_status`` reads it: a confirmed failure puts the run off the event;
an unconfirmed one makes its claims UNDECIDED (the run's float sums, which the policy's indices use, are off by
more than the radius: the run is not the exact algorithm's).

A run whose float check found no failure is taken as held, unchecked: the float deviation at count n is within
E(n) = gamma_(n+2) (M + m) of the exact one (:func:`float_sums_faithful`), so a failure is missed only when the
exact deviation exceeds the radius by less than that; an instance where E can reach the radius is undecided on
every run (docs/design.md section 7).
"""

from __future__ import annotations

import numpy as np

from bounds import dyadic_ints, frozen_of
from simulate import FIDELITY_NAMES, LOW, POLICIES, RewardTable, RunRecord, Violation, mean_schedule, policy_class

__all__ = ["event_failure", "event_failures", "float_sums_faithful"]

#: a bound on ``|z|`` for the reward table's standard normals: the ziggurat's tail returns R + a with
#: a = -log(u) / R, u >= 2^-54 (``simulate.RewardTable``), so ``|z| <= 3.6542 + 37.43 / 3.6542 < 13.9``.
Z_MAX = 14


def _schedule_max(sched) -> float:
    """The largest |mean_low(k, n)| a schedule serves, over every arm and count: its tabulated prefix, then its tail
    c_k + a_k (n + n0)^(-r), whose power lies in [0, 1]; at most 1 when the schedule clips."""
    prefix = [float(np.abs(sched.prefix[k, :n]).max()) for k, n in enumerate(sched.prefix_len) if n > 0]
    tail = [abs(float(c)) + abs(float(a)) for c, a in zip(sched.c, sched.a, strict=True)]
    top = max(prefix + tail, default=0.0)
    return min(top, 1.0) if sched.clip else top


def float_sums_faithful(problem) -> tuple[bool, str]:
    """Whether the engines' float running means stay within the radius of the exact ones at every count a run can
    reach: (faithful, the bound in words).

    A float running sum of n terms of magnitude at most M is within gamma_(n-1) n M of the exact sum, and the mean
    and the deviation from the served means add two roundings, so the float deviation at count n is within
    E(n) = gamma_(n+2) (M + m) of the exact one (gamma_j = j u / (1 - j u), u = 2^-53; M bounds the observations:
    the largest mean plus ``Z_MAX`` sigma under Gaussian noise, 1 under Bernoulli; m the largest mean served).
    E(n) / G(n) grows with n, so the condition E(T)^2 < ell / T at the horizon T (no count exceeds it), decided in
    fractions, covers every count. When it fails, the run's float sums, which the policy's indices use, can be off
    by the radius or more: a run is not the exact algorithm's, and the claims that need the event are UNDECIDED on
    every run (``ClaimContext.event_status``).
    """
    from fractions import Fraction

    low = problem.instance.low      # the schedules' means without their power tables (made by compiled code)
    mu = max(abs(float(x)) for x in problem.instance.mu_high)
    m = max(mu, _schedule_max(mean_schedule(low, problem.horizon)),
            _schedule_max(mean_schedule(frozen_of(low), problem.horizon)))
    big = Fraction(1) if problem.noise == "bernoulli" else Fraction(m) + Z_MAX * Fraction(problem.sigma)
    T = int(problem.horizon)
    u = Fraction(1, 2**53)
    j = T + 2
    if j * u >= 1:
        return False, f"the horizon T = {T} is beyond what a float running sum bounds (T u >= 1)"
    error = j * u / (1 - j * u) * (big + Fraction(m))
    faithful = error * error < Fraction(problem.ell) / T
    radius = float(Fraction(problem.ell) / T) ** 0.5
    return faithful, (f"the float running means can be off by up to {float(error):.3g} at count T = {T}, "
                      f"{'below' if faithful else 'not below'} the radius G(T) = {radius:.3g} (observations up to "
                      f"{float(big):.3g}, means up to {m:.3g})")


#: the factor by which a screened comparison must clear its float evaluation (:func:`_screen`): (1 + 2^-40) exceeds
#: the few roundings (each a factor 1 +- 2^-53) in computing either side, so a count it decides is decided exactly.
_CLEAR = 1.0 + 2.0**-40


def _screen(ys: np.ndarray, means: np.ndarray, ell: float) -> tuple[np.ndarray, np.ndarray]:
    """(failed, held) per count n = 1..len(ys), each True only where the float running sum decides D_n^2 > ell n
    (or <) beyond its error bound: |fl-sum D_n - D_n| <= gamma_(2n+2) sum_(i <= n) (|y_i| + |mean_i|) (a recursive
    sum of n terms, each a rounded difference, its bound itself summed in floats; gamma_j = j u / (1 - j u),
    u = 2^-53), and both sides of the squared comparison cleared by :data:`_CLEAR`. A count where neither holds is
    decided in integers (:func:`_fails`)."""
    n = np.arange(1, ys.size + 1, dtype=float)
    # an overflow is inf, an inf - inf NaN: a comparison with either decides nothing wrongly (inf > a finite bound
    # is true of the exact value too; NaN compares false), and a count left undecided goes to the integers
    with np.errstate(over="ignore", invalid="ignore"):
        d = np.abs(np.cumsum(ys - means))
        j = 2 * n + 2
        err = (j * 2.0**-53 / (1 - j * 2.0**-53)) * np.cumsum(np.abs(ys) + np.abs(means)) * _CLEAR
        rhs = ell * n
        low, high = np.maximum(d - err, 0.0), d + err
        return low * low > rhs * _CLEAR, high * high * _CLEAR < rhs


def _fails(problem, record: RunRecord, table: RewardTable, k: int, m: int, upto: int) -> int | None:
    """The first count n <= ``upto`` of arm k at fidelity m at which the event fails exactly, or None.

    The observations and the means served are recomputed in compiled loops (the engines' own functions); each count
    is first screened in floats with a rigorous error bound (:func:`_screen`), and only if a count before the
    first screened failure is not decided there is the whole range decided in integers."""
    if upto <= 0:
        return None
    if m == LOW:
        sched = problem.frozen_schedule if policy_class(record.policy).source == "frozen" else problem.schedule
        mean_arr = sched.means(k, upto)
    else:
        mean_arr = np.full(upto, float(problem.instance.mu_high[k]))
    return _first_failure(float(problem.ell), table.draws(k, m, mean_arr), mean_arr)


def _first_failure(ell: float, ys: np.ndarray, means: np.ndarray) -> int | None:
    """The first n with D_n^2 > ell n, D_n the exact sum of ys[i] - means[i] over i < n, or None: screened in floats
    (:func:`_screen`), decided in integers (:func:`_fails_exactly`) when a count before the first screened failure
    is not decided there, or when a value is not finite."""
    upto = ys.size
    if np.isfinite(ys).all() and np.isfinite(means).all():
        failed, held = _screen(ys, means, ell)
        first_fail = int(np.argmax(failed)) if failed.any() else upto
        if (failed | held)[:first_fail].all():
            return first_fail + 1 if first_fail < upto else None
    return _fails_exactly(ell, ys.tolist(), means.tolist(), upto)


def _fails_exactly(ell_f: float, ys: list, means: list, upto: int) -> int | None:
    """The first count at which the event fails, in integers: the exact sum D_n of observation minus mean,
    D_n^2 > ell n, count by count."""
    ints, shift = dyadic_ints([ell_f, *ys, *means])
    ell, y_i, mean_i = ints[0], ints[1:upto + 1], ints[upto + 1:]
    d = 0
    for n in range(1, upto + 1):
        d += y_i[n - 1] - mean_i[n - 1]
        if d * d > (ell * n) << shift:                    # (D_n / 2^s)^2 > (ell / 2^s) n
            return n
    return None


def event_failure(problem, record: RunRecord) -> Violation | None:
    """Where the confidence event of ``lem:ci`` failed on ``record``'s run, decided exactly: a count at which
    ``|mu_hat - truth| > G(n)`` for the exact mean of the observations; None when it held at every visited count.

    ``record`` is a run of ``problem`` (its counts say which counts were visited). A record whose float check found
    no failure (``event_held``) is returned as held without a check (see the module's note on the error of the float
    check). The flagged count is decided first, then every visited count of every arm and fidelity. A run of a policy
    of your own (a name not in ``simulate.POLICIES``) keeps the float decision: the record does not say which
    low-fidelity source it read.
    """
    if record.event_held:
        return None
    if record.policy not in POLICIES:        # your own policy: which low-fidelity source it read is not on record,
        return record.violation              # so the means cannot be recomputed: the float decision stands
    table = RewardTable(record.seed, problem.noise, problem.sigma)
    v = record.violation
    if v is not None:
        m = next(c for c, name in FIDELITY_NAMES.items() if name == v.fidelity)
        if _fails(problem, record, table, v.arm, m, v.count) is not None:
            return v
    for k in range(problem.n_arms):
        for m, counts in enumerate((record.n_low, record.n_high)):
            n = _fails(problem, record, table, k, m, int(counts[k]))
            if n is not None:
                return Violation(k, FIDELITY_NAMES[m], n)
    return None


def event_failures(problem, records) -> tuple[int, int]:
    """Failures of the confidence event of ``lem:ci`` over ``records`` (runs of ``problem``), decided exactly:
    (runs whose event failed, runs whose float check reported a failure that the exact check does not confirm: the
    float running sums' rounding). See :func:`event_failure`.

    >>> from simulate import make_problem, run
    >>> from bounds import load_config
    >>> p = make_problem(load_config("set-a"))
    >>> event_failures(p, [run(p, "ucb", 0)])
    (0, 0)
    """
    flagged = [r for r in records if not r.event_held]
    failed = sum(event_failure(problem, r) is not None for r in flagged)
    return failed, len(flagged) - failed
