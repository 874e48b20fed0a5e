"""Mean schedules: the engines' mean_low(k, n) equals each low-fidelity model's own, at any count."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bounds import PRESETS, LowFidelityModel, TaccInputError, build_instance, frozen, load_config, power_decay
from certify.strategies import configs
from simulate import mean_schedule

COUNTS = np.unique(np.r_[1:200, np.geomspace(1, 1e9, 60).astype(np.int64)])


def _max_rel_diff(model, schedule, k):
    mine = np.array([schedule.mean(k, int(n)) for n in COUNTS])
    theirs = model.mean_low(k, COUNTS)
    return np.max(np.abs(mine - theirs) / np.maximum(1.0, np.abs(theirs)))


@pytest.mark.parametrize("name", PRESETS)
def test_presets_agree_to_the_last_bits(name):
    model = build_instance(load_config(name).instance).low
    s = mean_schedule(model, 10**6)
    for k in range(min(model.n_arms, 8)):
        assert _max_rel_diff(model, s, k) <= 4e-16      # numpy's and libm's pow may differ in the last bit


@settings(max_examples=40)
@given(configs())
def test_generated_models_agree(config):
    model = build_instance(config.instance).low
    s = mean_schedule(model, 1000)
    for k in range(model.n_arms):
        assert _max_rel_diff(model, s, k) <= 4e-16


def test_table_models_are_exact():
    m = frozen([0.5, 0.2], values=[0.45, 0.3])
    s = mean_schedule(m, 100)
    assert [s.mean(1, n) for n in (1, 2, 10**9)] == [0.3, 0.3, 0.3]


class _Odd(LowFidelityModel):
    """A user model with no parametric tail: tabulated up to the horizon."""
    name = "odd"

    def mean_low(self, k, n):
        arr = self._counts(n)
        return self._out(n, self.mu_high[k] + 0.1 * (arr % 2))

    def mismatch_sum(self, k, n):
        arr = self._counts(n, 0)
        return self._out(n, 0.1 * ((arr + 1) // 2))

    def certificate(self, k, n):
        return self.mismatch_sum(k, n)

    def mismatch_bound(self, k, n):
        return self._out(n, np.full(self._counts(n).shape, 0.1))

    def irregular_prefix(self, k):
        return 0


def test_generic_model_is_tabulated_up_to_the_horizon():
    m = _Odd([0.5, 0.4])
    s = mean_schedule(m, 50)
    assert [s.mean(0, n) for n in (1, 2, 49, 50)] == [0.6, 0.5, 0.6, 0.5]


def test_generic_model_too_large_to_tabulate_is_refused():
    with pytest.raises(TaccInputError) as e:
        mean_schedule(_Odd([0.5] * 100), 10**6)
    assert e.value.field == "instance.low"


def test_power_decay_tail_is_parametric():
    m = power_decay([0.5, 0.5], zeta=0.2, r=0.5, signs=[1, -1])
    s = mean_schedule(m, 10)
    assert s.prefix_len.tolist() == [0, 0]
    assert s.mean(0, 10**12) == pytest.approx(0.5 + 0.2e-6, rel=1e-12)


@pytest.mark.parametrize("name", ["llm-residual", "checkpoint", "set-b"])
def test_tabulated_prefix_keeps_every_value(name):
    from simulate._schedule import with_prefix
    model = build_instance(load_config(name).instance).low
    s = mean_schedule(model, 10**6)
    t = with_prefix(s, 300)
    assert t.power.size == 300 and s.power.size == 0
    for k in range(min(model.n_arms, 5)):
        for n in (*range(1, 302), 5000):
            assert t.mean(k, n) == s.mean(k, n)
    assert with_prefix(t, 100) is t


def test_schedules_with_one_tail_read_one_power_row():
    """Configurations that differ only in budget, rho or means share (n0, r): a shorter table is a slice of the
    longer row made before (no second ``pow`` pass), a longer one makes a new row, and every value is the one a
    fresh table has."""
    from simulate._schedule import _ROWS, _ROWS_KEPT, _power_table, with_prefix
    s = mean_schedule(build_instance(load_config("llm-residual").instance).low, 10**6)
    _ROWS.clear()
    long, short = with_prefix(s, 5000).power, with_prefix(s, 300).power
    assert np.shares_memory(long, short) and short.size == 300 and not short.flags.writeable
    assert np.array_equal(short, _power_table(s.n0, s.r, 300))
    longer = with_prefix(s, 9000).power
    assert not np.shares_memory(longer, long) and np.array_equal(longer[:5000], long)
    other = with_prefix(replace(s, r=s.r * 2), 300).power         # another tail: its own row
    assert not np.shares_memory(other, longer) and np.array_equal(other, _power_table(s.n0, s.r * 2, 300))
    for i in range(_ROWS_KEPT + 3):
        with_prefix(replace(s, r=1.0 + i), 10)
    assert len(_ROWS) == _ROWS_KEPT


@settings(max_examples=200)
@given(c=st.floats(-2.0, 2.0) | st.sampled_from([0.0, -0.0]), a=st.sampled_from([0.0, -0.0]),
       n0=st.floats(0.0, 1e6) | st.sampled_from([0.0]), r=st.floats(1e-3, 50.0) | st.sampled_from([1.0, 300.0]),
       n=st.integers(1, 10**12))
def test_a_flat_tail_is_the_sum_with_the_power_to_the_bit(c, a, n0, r, n):
    """A flat tail (a_k = +-0: a table's last value, a frozen source, zeta = 0) skips ``pow``: c_k + a_k equals
    c_k + a_k x (n + n0)^(-r) to the bit, the sign of a zero included (the power is in [0, 1])."""
    from simulate._schedule import MeanSchedule, _power_table
    s = MeanSchedule(np.zeros((1, 1)), np.zeros(1, dtype=np.int64), np.array([c]), np.array([a]), n0, r, False)
    expected = c + a * float(_power_table(n0, r, 1)[0] if n == 1 else (float(n) + n0) ** (-r))
    got = s.mean(0, n)
    assert np.float64(got).tobytes() == np.float64(expected).tobytes()


def test_the_problems_power_table_covers_the_counts_a_run_reaches():
    """Low-Improving queries one arm up to budget / lambda^(L) times (beyond TACC's B_k range): the tail's power is
    read from the table there, not computed by ``pow`` (at most ``_POWER_TABLE`` counts)."""
    from simulate import make_problem, run
    from simulate._problem import _POWER_TABLE
    problem = make_problem(load_config("llm-residual"))
    units = problem.units
    assert problem.low_reach == units.budget // units.low
    assert problem.schedule.power.size == min(max(problem.bias_length, units.budget // units.low), _POWER_TABLE)
    assert problem.schedule.power.size > problem.bias_length
    rec = run(problem, "low-improving", 0)
    assert max(rec.n_low) <= problem.schedule.power.size


@pytest.mark.parametrize("name", ["llm-residual", "checkpoint", "set-a"])
def test_means_are_mean_of_each_count(name):
    """MeanSchedule.means(k, upto) (one compiled loop, what certify's exact event check reads) is mean(k, n) for
    n = 1..upto, to the bit."""
    from simulate import make_problem
    s = make_problem(load_config(name)).schedule
    for k in range(min(3, s.c.size)):
        assert s.means(k, 400).tolist() == [s.mean(k, n) for n in range(1, 401)]
