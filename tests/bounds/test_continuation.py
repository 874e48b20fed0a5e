"""The continuation window (``eq:fidelity-selection``): exact values, edge cases, properties, invalid arguments."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bounds import (TableLowFidelity, TaccInputError, analyze, continuation_gain_passes, continuation_last_count,
                    continuation_last_counts, continuation_of, continuation_rho_max, continuation_window, frozen,
                    load_config, log_factor,
                    n_gamma, power_decay)
from simulate import Tacc
from tests.bounds._relabel import relabelled


def outlier(D=1.0, t=8, length=10):
    """One arm whose t-th low query is D below mu, certificate D from t on: B(n) = D / max(n, t) exactly."""
    row = [0.5] * length
    row[t - 1] = 0.5 - D
    cert = [0.0] * (t - 1) + [D] * (length - t + 1)
    return TableLowFidelity([0.5], mean_low=[row], certificate=[cert])


# ------------------------------------------------------------------------------------------------ exact values
def test_outlier_bound_is_exact():   # source: the model's definition, B(n) = sup_{s >= n} U(s) / s
    m = outlier()
    assert [m.mismatch_bound(0, n) for n in range(1, 14)] == [1 / 8] * 8 + [1 / n for n in range(9, 14)]


def test_window_exact_values():
    m = outlier()
    # N_gamma = 5, S0 = 4: B(5..8) = 1/8, B(9) = 1/9, every state gains 1/72 = 0.0139 >= 2 * 0.05 * 0.1 = 0.01
    w = continuation_window(m, n_gamma=5, s0=4, eta=0.05, gamma=0.1, horizon=100, tau=[math.inf])
    assert w.pulls == (4,) and w.window(0) == (5, 8) and w.gain == (1 / 8 - 1 / 9,)
    # N_gamma = 8, S0 = 4, 2 eta gamma = 0.02: gains 1/8 - 1/12 = 1/24, 1/9 - 1/12 = 1/36 pass,
    # 1/10 - 1/12 = 1/60 fails: two pulls, counts 8 and 9
    w = continuation_window(m, n_gamma=8, s0=4, eta=0.1, gamma=0.1, horizon=100, tau=[math.inf])
    assert w.pulls == (2,) and w.window(0) == (8, 9) and w.can_fire


def test_last_count_exact():
    # past t = 8, B(n) - B(n + 4) = 4 / (n (n + 4)) >= 0.02  <=>  n (n + 4) <= 200  <=>  n <= 12
    assert continuation_last_count(outlier(), 0, s0=4, eta=0.1, gamma=0.1, limit=10**6) == 12
    assert continuation_last_count(outlier(), 0, s0=4, eta=0.1, gamma=0.1, limit=11) == 11


def test_rho_max_is_the_boundary_of_n_gamma():
    K, T, delta, gamma = 3, 5000, 0.05, 0.1
    for n_max in (1, 2, 12, 1000):
        rho = continuation_rho_max(n_max, gamma=gamma, n_arms=K, horizon=T, delta=delta)
        assert n_gamma(log_factor(rho, K, T, delta), gamma) == n_max
        above = math.nextafter(rho, math.inf)
        assert n_gamma(log_factor(above, K, T, delta), gamma) == n_max + 1
        # the real-number supremum n_max gamma^2 / log(2KT/delta), to a few ulps
        assert rho == pytest.approx(n_max * gamma**2 / math.log(2 * K * T / delta), rel=1e-12)


def test_reaches_tau():
    m = outlier()
    w = continuation_window(m, n_gamma=5, s0=4, eta=0.05, gamma=0.1, horizon=100, tau=[8])
    assert w.reaches_tau == (True,)          # 5 < 8 <= 5 + 4
    w = continuation_window(m, n_gamma=8, s0=4, eta=0.1, gamma=0.1, horizon=100, tau=[11])
    assert w.reaches_tau == (False,)         # the window stops at 9, before 11
    w = continuation_window(m, n_gamma=8, s0=4, eta=0.1, gamma=0.1, horizon=100, tau=[8])
    assert w.reaches_tau == (False,)         # tau <= N_gamma: certified before the threshold


# ------------------------------------------------------------------------------------------------ edge cases
def test_s0_zero_is_empty():
    w = continuation_window(outlier(), n_gamma=5, s0=0, eta=0.05, gamma=0.1, horizon=100, tau=[math.inf])
    assert w.pulls == (0,) and w.window(0) is None and not w.can_fire and w.gain == (0.0,)
    assert continuation_last_count(outlier(), 0, s0=0, eta=0.05, gamma=0.1, limit=100) == 0
    assert continuation_rho_max(0, gamma=0.1, n_arms=2, horizon=10, delta=0.05) == 0.0


def test_constant_bound_never_fires():
    m = frozen([0.5, 0.4], values=[0.7, 0.1])
    w = continuation_window(m, n_gamma=3, s0=5, eta=1e-4, gamma=0.01, horizon=100, tau=[math.inf, math.inf])
    assert w.pulls == (0, 0) and w.gain == (0.0, 0.0)
    assert continuation_last_count(m, 1, s0=5, eta=1e-4, gamma=0.01, limit=10**9) == 0


def test_unreachable_threshold():
    w = continuation_window(outlier(), n_gamma=100, s0=4, eta=1e-6, gamma=0.1, horizon=100, tau=[math.inf])
    assert w.pulls == (4,) and not w.reachable and not w.can_fire


def test_presets_set_a_cannot_fire_llm_can():
    set_a = continuation_of(analyze(load_config("set-a")))
    assert not set_a.window.can_fire and set(set_a.window.pulls) == {0}
    assert 0 < set_a.instance_rho_max < set_a.rho   # it would fire only at a smaller radius constant
    llm = continuation_of(analyze(load_config("llm-residual")))
    assert llm.window.can_fire and llm.instance_rho_max >= llm.rho


def test_window_agrees_with_runs():
    """What the engine did never leaves the window: A_k <= w_k, and A_k = 0 wherever w_k = 0."""
    from simulate import make_problem, run
    config = load_config("llm-residual")
    problem = make_problem(config)
    w = continuation_of(analyze(config)).window
    fired = 0
    for seed in range(3):
        rec = run(problem, "tacc", seed)
        assert all(a <= p for a, p in zip(rec.continuation, w.pulls, strict=True))
        fired += sum(rec.continuation)
    assert fired > 0


# ------------------------------------------------------------------------------------------------ properties
@st.composite
def tables(draw):
    K = draw(st.integers(1, 3))
    length = draw(st.integers(1, 12))
    mu = [draw(st.sampled_from([0.0, 0.25, 0.5])) for _ in range(K)]
    rows, certs = [], []
    for m in mu:
        dev = [draw(st.sampled_from([0.0, 0.125, -0.25, 0.5, -1.0])) for _ in range(length)]
        rows.append([m + d for d in dev])
        run, cert = 0.0, []
        for d in dev:
            run += abs(d) + draw(st.sampled_from([0.0, 0.0625]))
            cert.append(run)
        certs.append(cert)
    return TableLowFidelity(mu, mean_low=rows, certificate=certs)


params = dict(s0=st.integers(0, 6), eta=st.sampled_from([1e-3, 0.05, 0.2, 0.5]),
              gamma=st.sampled_from([0.01, 0.05, 0.1]))


@given(model=tables(), ng=st.integers(1, 20), **params)
def test_window_is_the_engine_test(model, ng, s0, eta, gamma):
    """The window is exactly where TACC's own continuation test (the step form) passes, state by state."""
    K = model.n_arms
    w = continuation_window(model, n_gamma=ng, s0=s0, eta=eta, gamma=gamma, horizon=10**6, tau=[math.inf] * K)
    pol = Tacc(K, 1.0, 100.0, 1e9, ell=1.0, n_gamma=ng, gamma=gamma, eta=eta, s0=s0,
               mismatch_bound=lambda k, n: float(model.mismatch_bound(k, n)))
    for k in range(K):
        passes = []
        for a in range(s0 + 1):
            pol.n_low[k], pol.continuation_pulls[k] = ng + a, a
            passes.append(pol.continuation_test(k))
        first_fail = passes.index(False)
        assert w.pulls[k] == first_fail


@given(model=tables(), limit=st.integers(1, 400), **params)
def test_last_count_is_brute_force(model, limit, s0, eta, gamma):
    for k in range(model.n_arms):
        n = np.arange(1, limit + s0 + 1)
        b = np.atleast_1d(model.mismatch_bound(k, n))
        hits = [i + 1 for i in range(limit) if continuation_gain_passes(b[i], b[i + s0], eta, gamma)] if s0 else []
        assert continuation_last_count(model, k, s0=s0, eta=eta, gamma=gamma, limit=limit) == max(hits, default=0)


@given(st.floats(0.05, 1.0), st.sampled_from([0.25, 0.5, 1.0]), st.integers(1, 8),
       st.sampled_from([1e-4, 1e-2]), st.sampled_from([0.05, 0.1]))
@pytest.mark.slow
def test_last_count_power_decay_beyond_leaf(zeta, r, s0, eta, gamma):
    """On power decay (the bisection past 4096 counts), the last count passes and the next one does not."""
    m = power_decay([0.5, 0.4], zeta=zeta, r=r, signs=[1, -1])
    n = continuation_last_count(m, 1, s0=s0, eta=eta, gamma=gamma, limit=10**7)
    if n:
        b = [m.mismatch_bound(1, x) for x in (n, n + s0, n + 1, n + 1 + s0)]
        assert continuation_gain_passes(b[0], b[1], eta, gamma)
        assert n == 10**7 or not continuation_gain_passes(b[2], b[3], eta, gamma)


@given(st.integers(1, 10**6), st.sampled_from([0.01, 0.063, 0.3]), st.integers(2, 500),
       st.integers(10, 10**7), st.sampled_from([0.01, 0.05, 0.3]))
def test_rho_max_property(n_max, gamma, K, T, delta):
    rho = continuation_rho_max(n_max, gamma=gamma, n_arms=K, horizon=T, delta=delta)
    assert n_gamma(log_factor(rho, K, T, delta), gamma) <= n_max
    assert n_gamma(log_factor(math.nextafter(rho, math.inf), K, T, delta), gamma) > n_max


def test_fraction_check_of_gain():   # the gain at the first state, recomputed exactly with fractions
    m = outlier(D=1.0, t=8)
    w = continuation_window(m, n_gamma=9, s0=3, eta=0.01, gamma=0.1, horizon=100, tau=[math.inf])
    assert Fraction(w.gain[0]) == pytest.approx(Fraction(1, 9) - Fraction(1, 12), rel=1e-15)


# ------------------------------------------------------------------------------------------------ invalid arguments
@pytest.mark.parametrize("call, field", [
    (lambda: continuation_window(outlier(), n_gamma=0, s0=1, eta=0.1, gamma=0.1, horizon=9, tau=[1]), "n_gamma"),
    (lambda: continuation_window(outlier(), n_gamma=1, s0=-1, eta=0.1, gamma=0.1, horizon=9, tau=[1]), "s0"),
    (lambda: continuation_window(outlier(), n_gamma=1, s0=1, eta=1.0, gamma=0.1, horizon=9, tau=[1]), "eta"),
    (lambda: continuation_window(outlier(), n_gamma=1, s0=1, eta=0.1, gamma=0.0, horizon=9, tau=[1]), "gamma"),
    (lambda: continuation_window(outlier(), n_gamma=1, s0=1, eta=0.1, gamma=0.1, horizon=0, tau=[1]), "horizon"),
    (lambda: continuation_window(outlier(), n_gamma=1, s0=1, eta=0.1, gamma=0.1, horizon=9, tau=[1, 2]), "tau"),
    (lambda: continuation_window("model", n_gamma=1, s0=1, eta=0.1, gamma=0.1, horizon=9, tau=[1]), "model"),
    (lambda: continuation_last_count(outlier(), 1, s0=1, eta=0.1, gamma=0.1, limit=9), "k"),
    (lambda: continuation_last_count(outlier(), 0, s0=1, eta=0.1, gamma=0.1, limit=-1), "limit"),
    (lambda: continuation_rho_max(-1, gamma=0.1, n_arms=2, horizon=9, delta=0.1), "last_count"),
    (lambda: continuation_rho_max(3, gamma=0.1, n_arms=2, horizon=9, delta=1.5), "delta"),
])
def test_invalid_arguments(call, field):
    with pytest.raises(TaccInputError) as e:
        call()
    assert e.value.field == field


# ------------------------------------------------------------------------------------- many arms, one search each
def test_arms_sharing_b_share_one_search_and_agree_with_one_by_one():
    """Residual decay labels arms by (|b_k|, |a_k|); the labelled search, the generic block check (a model that
    gives no labels) and one search per arm give the same last counts; a changed |b_k| gets its own label."""
    from bounds import residual_decay

    m = residual_decay([0.9, 0.5, 0.6, 0.4, 0.7], zeta=0.3, r=0.5, signs=[1, -1, 1, 1, -1],
                       b=[0.0, 0.01, 0.0, 0.01, 0.02], n0=0)
    labels = m.mismatch_bound_classes()
    assert labels[0] == labels[2] and labels[1] == labels[3] and len(set(labels.tolist())) == 3
    n = np.arange(1, 2000)
    assert np.array_equal(m.mismatch_bound(0, n), m.mismatch_bound(2, n))

    class Unlabelled(type(m)):
        def mismatch_bound_classes(self):
            return None

    generic = Unlabelled.__new__(Unlabelled)
    generic.__dict__.update(m.__dict__)
    kw = dict(s0=10, eta=1e-3, gamma=0.05, limit=10**6)
    one_by_one = tuple(continuation_last_count(m, k, **kw) for k in range(5))
    assert continuation_last_counts(m, **kw) == continuation_last_counts(generic, **kw) == one_by_one
    assert not np.array_equal(m.mismatch_bound(1, n), m.mismatch_bound(4, n))   # the labels separate unequal B_k


def test_window_computed_once_per_label_equals_every_arm_computed():
    """continuation_window computes one window per B_k label; a model that gives no labels computes every arm:
    the windows, gains and reaches_tau agree, and a wrong labelling (every arm one label) is seen."""
    from bounds import residual_decay

    m = residual_decay([0.9, 0.5, 0.6, 0.4, 0.7, 0.55], zeta=0.3, r=0.5, signs=[1, -1, 1, 1, -1, 1],
                       b=[0.0, 0.3, 0.0, 0.3, 0.123, 0.0], n0=0)
    kw = dict(n_gamma=40, s0=30, eta=1e-3, gamma=0.05, horizon=10**5, tau=[math.inf, 45, 41, 70, 60, 50])
    windows = [continuation_window(x, **kw) for x in (m, relabelled(m, None), relabelled(m, [0] * 6))]
    assert windows[0] == windows[1]
    assert windows[2].gain != windows[1].gain        # |b_k| cancels in the gain but for its rounding (last bits)


@given(st.lists(st.tuples(st.sampled_from([0.0, 0.01, -0.01, 0.02]), st.sampled_from([1, -1])), min_size=1,
                max_size=30))
def test_labels_are_equal_exactly_for_equal_parameters(arms):
    """Two arms share a label exactly when (|b_k|, |a_k|) are equal; labels are the ranks 0, 1, ... of the distinct
    pairs in (|b_k|, |a_k|) order."""
    from bounds import residual_decay

    b, s = [x for x, _ in arms], [y for _, y in arms]
    m = residual_decay([0.5] * len(arms), zeta=0.3, r=0.5, signs=s, b=b)
    labels = m.mismatch_bound_classes().tolist()
    pairs = [(abs(x), 0.3) for x in b]
    rank = {p: i for i, p in enumerate(sorted(set(pairs)))}
    assert labels == [rank[p] for p in pairs]


@given(st.lists(st.tuples(st.one_of(st.integers(1, 60), st.just(math.inf), st.just(2**60), st.just(2.5),
                                    st.just(math.nan)), st.integers(0, 8)), max_size=30), st.integers(1, 40))
def test_reaches_tau_in_vector_calls_is_the_entry_by_entry_test(rows, ng):
    from bounds._continuation import _reaches
    tau, pulls = [t for t, _ in rows], np.array([w for _, w in rows], dtype=np.int64)
    want = [t != math.inf and ng < t <= ng + w for t, w in rows]
    assert _reaches(tau, ng, pulls) == want


# ---- an S0 past the horizon: the window is cut at T, exactly ----
def _brute_pulls(model, k, ng, s0, thr, states):
    """w_k from the definition, over the states 0..states - 1 only."""
    b_end = model.mismatch_bound(k, ng + s0)
    for a in range(states):
        if not (a < s0 and model.mismatch_bound(k, ng + a) - b_end >= thr):
            return a
    return states


@pytest.mark.parametrize("s0", [30, 49, 50, 51, 400])
def test_window_past_the_horizon_is_cut_at_t_exactly(s0):
    from bounds import power_decay
    m = power_decay([0.9, 0.5, 0.4], zeta=0.5, r=0.3, signs=[1, -1, 1])
    T, ng, eta, gamma = 50, 3, 1e-3, 0.1
    w = continuation_window(m, n_gamma=ng, s0=s0, eta=eta, gamma=gamma, horizon=T, tau=[math.inf] * 3)
    assert w.cut == (s0 > T)
    full = [_brute_pulls(m, k, ng, s0, 2 * eta * gamma, s0 + 1) for k in range(3)]
    assert list(w.pulls) == [min(x, T) for x in full]
    assert max(full) > T or s0 <= T          # the cut cases do cut a window that passes past T
    assert w.gain == tuple(m.mismatch_bound(k, ng) - m.mismatch_bound(k, ng + s0) for k in range(3))


def test_last_count_with_a_huge_s0_reads_two_ranges():
    """S0 = 2**40 with limit 5000: the search read a..b + S0 (8 TiB); it now reads a..b and a + S0..b + S0, with
    the same result as the definition."""
    from bounds import power_decay
    m = power_decay([0.9, 0.5], zeta=0.5, r=0.3, signs=[1, 1])
    s0, limit, eta, gamma = 2**40, 5000, 1e-3, 0.1
    n = np.arange(1, limit + 1)
    gains = m.mismatch_bound(0, n) - m.mismatch_bound(0, n + s0)
    want = int(n[gains >= 2 * eta * gamma].max()) if (gains >= 2 * eta * gamma).any() else 0
    assert want > 0
    assert continuation_last_count(m, 0, s0=s0, eta=eta, gamma=gamma, limit=limit) == want
    assert continuation_last_count(m, 0, s0=s0, eta=eta, gamma=1e6, limit=limit) == 0


def test_the_reason_a_last_count_and_rho_max_do_not_apply():
    """No count passes (S0 = 0, or no gain reaches 2 eta gamma): each arm's rho_max has a reason, the instance's
    too; where the test passes at some count, none (its rho_max is a number)."""
    from bounds import load_config, config_to_dict, parse_config
    d = config_to_dict(load_config("set-a"))
    d["instance"]["means"]["n_arms"] = 3
    d["params"]["s0"] = 0
    c = continuation_of(analyze(parse_config(d)))
    assert c.last_count == (0, 0, 0) and "S0 = 0" in c.no_count_reason
    assert c.rho_max_reason(1) == c.no_count_reason == c.instance_rho_max_reason
    d["params"].update(s0=10, eta=0.9999999)
    c = continuation_of(analyze(parse_config(d)))
    assert c.last_count == (0, 0, 0) and "passes at no low count 1..T - 1" in c.instance_rho_max_reason
    fires = continuation_of(analyze(load_config("llm-residual")))
    assert fires.instance_rho_max_reason is None and all(fires.rho_max_reason(k) is None for k in range(4))


@pytest.mark.slow
def test_a_window_and_a_last_count_over_many_counts_take_little_memory():
    """A threshold that almost every count passes (eta = 1e-12) over S0 = 10^7 states and counts up to 10^11: the
    window reads its states in chunks until every arm's test has failed (all at once, S0 = 10^9 states take 24 GB),
    and the last-count search takes ranges highest first (holding every live range of a level, 10^13 counts make
    10^8 ranges: a MemoryError). Their peak memory here is under 200 MB, with the results of the definitions: every
    state passes, and the last count is the limit."""
    import tracemalloc
    m = power_decay([0.9, 0.5], zeta=0.2, r=0.5, signs=[1, 1])
    s0, eta, gamma, T = 10**7, 1e-12, 0.1, 10**11
    tracemalloc.start()
    try:
        w = continuation_window(m, n_gamma=7002, s0=s0, eta=eta, gamma=gamma, horizon=T, tau=[math.inf, 11])
        last = continuation_last_count(m, 0, s0=s0, eta=eta, gamma=gamma, limit=T - 1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert w.pulls == (s0, s0)
    assert last == T - 1 and continuation_gain_passes(m.mismatch_bound(0, last), m.mismatch_bound(0, last + s0),
                                                      eta, gamma)
    assert peak < 200 * 2**20, peak
