"""Metamorphic relations (``certify._metamorphic``): they hold on our engines, they are not vacuous, and a
deliberately broken engine (a policy that reads what it should not, or mishandles a cap, a cost or a label) is
caught by them."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st

from bounds import TaccInputError, load_config, parse_config
from certify._metamorphic import (PARTS, READS, changed_parts, default_runner, relabel_config, relabel_relation,
                                  s0_zero_relation, scale_config, scale_relation, static_relation, unread_relation)
from certify.strategies import configs, deterministic_configs, targeted_configs
from simulate import POLICIES, Action, MfUcb, Tacc, Ucb, make_problem, run, run_reference

SEEDS = (0, 1)
small = configs(budget=st.integers(40, 1500))


def holds(results):
    bad = [r for r in results if r.holds is False]
    assert not bad, bad[0]
    return [r for r in results if r.holds]


# ------------------------------------------------------------------------------------------------ declarations
def test_every_policy_declares_what_it_reads():
    assert set(READS) == set(POLICIES)
    for parts in READS.values():
        assert parts <= set(PARTS) and {"ell", "costs"} <= parts


def test_changed_parts_are_computed():
    base = load_config("llm-residual")
    small_budget = replace(base, params=replace(base.params, budget=3000.0))
    other = replace(small_budget, params=replace(small_budget.params, eta=0.5))
    assert changed_parts(make_problem(small_budget), make_problem(other)) == {"eta"}
    with pytest.raises(TaccInputError) as e:      # Set A's every low mean: 200 arms x 10^6 counts
        changed_parts(make_problem(load_config("set-a")), make_problem(load_config("set-a")))
    assert e.value.field == "horizon"


# ------------------------------------------------------------------------------------------------ perturbations
def _table_low(config):
    return config.instance.low.model in ("table", "frozen")


@st.composite
def perturbed(draw, kinds=("eta", "s0", "gamma", "certificate", "low", "high")):
    """A configuration and a copy that differs in one part (or a few, for changes of the table model)."""
    c = draw(small)
    p = c.params
    kind = draw(st.sampled_from(kinds))
    if kind == "eta":
        other = replace(c, params=replace(p, eta=draw(st.sampled_from([0.001, 0.3, 0.9]).filter(lambda x: x != p.eta))))
    elif kind == "s0":
        other = replace(c, params=replace(p, s0=draw(st.integers(0, 12).filter(lambda x: x != p.s0))))
    elif kind == "gamma":
        other = replace(c, params=replace(p, gamma=draw(st.sampled_from([0.07, 0.15, 0.3]).filter(
            lambda x: x != p.gamma))))
    else:
        low = c.instance.low
        if low.model != "table":
            c = draw(configs(budget=st.integers(40, 1500), models=("table",)))
            low, p = c.instance.low, c.params
        if kind == "certificate":     # a larger (still valid) certificate: B_k and zeta_k change
            factor = draw(st.sampled_from([2.0, 3.0]))
            new = replace(low, certificate=tuple(tuple(x * factor + 0.01 for x in row) for row in low.certificate))
            other = replace(c, instance=replace(c.instance, low=new))
        elif kind == "low":           # the low means after the first count change, the certificate covers them
            rows, certs = [], []
            for m, row in zip(c.instance.mu_high, low.mean_low, strict=True):
                new_row = [row[0]] + [x + 0.05 for x in row[1:]]
                run_, cert = 0.0, []
                for x in new_row:
                    run_ += abs(x - m)
                    cert.append(run_ + 0.5)
                rows.append(tuple(new_row))
                certs.append(tuple(cert))
            other = replace(c, instance=replace(c.instance, low=replace(low, mean_low=tuple(rows),
                                                                        certificate=tuple(certs))))
        else:                         # the high means change; a table's low means do not follow them
            mu = tuple(min(1.0, m + 0.125) if c.instance.noise.model == "bernoulli" else m + 0.125
                       for m in c.instance.mu_high)
            other = replace(c, instance=replace(c.instance, mu_high=mu))
    return c, other


@given(perturbed())
def test_unread_parts_do_not_change_decisions(pair):
    config, other = pair
    holds(unread_relation(config, other, seeds=SEEDS))


def test_unread_covers_every_policy():
    """Not vacuous: on fixed perturbations every policy is judged and the relation holds."""
    c = load_config("checkpoint")
    c = replace(c, params=replace(c.params, budget=3000.0))
    judged = set()
    for other in (replace(c, params=replace(c.params, eta=0.5)), replace(c, params=replace(c.params, s0=3)),
                  replace(c, params=replace(c.params, gamma=0.2))):
        judged |= {r.policy for r in holds(unread_relation(c, other, seeds=(0,)))}
    t = _table_config()
    bigger = replace(t.instance.low, certificate=tuple(tuple(2 * x for x in row) for row in t.instance.low.certificate))
    judged |= {r.policy for r in holds(unread_relation(t, replace(t, instance=replace(t.instance, low=bigger)),
                                                       seeds=(0,)))}
    mu = tuple(m + 0.125 for m in t.instance.mu_high)
    judged |= {r.policy for r in holds(unread_relation(t, replace(t, instance=replace(t.instance, mu_high=mu)),
                                                       seeds=(0,)))}
    assert judged == set(POLICIES) - {"tacc"}      # TACC reads every part


def _table_config():
    return parse_config({
        "name": "table", "instance": {"mu_high": [0.5, 0.3, 0.2], "seed": 0, "noise": {"model": "gaussian",
                                                                                   "sigma": 0.5},
                                      "low": {"model": "table", "mean_low": [[0.6, 0.55], [0.1, 0.35], [0.4, 0.3]],
                                              "certificate": [[0.1, 0.15], [0.2, 0.3], [0.2, 0.4]]}},
        "costs": {"low": 1.0, "high": 4.0},
        "params": {"budget": 1500, "delta": 0.1, "rho": 0.2, "gamma": 0.2, "eta": 0.01, "s0": 3}})


# ------------------------------------------------------------------------------------------------ the other relations
@given(deterministic_configs(), st.randoms(use_true_random=False))
def test_relabelling_permutes_counts(config, rnd):
    perm = list(range(config.instance.n_arms))
    rnd.shuffle(perm)
    holds(relabel_relation(config, perm, seeds=(0,)))


def test_relabelling_is_not_vacuous():
    """On a fixed deterministic instance every index policy is judged (no tie) and the relation holds."""
    res = holds(relabel_relation(_deterministic(), [1, 0], seeds=(0, 1)))
    assert {r.policy for r in res} == {"tacc", "dnc", "mf-ucb", "ucb", "weak-fixed", "low-improving"}


def _deterministic():
    return parse_config({
        "name": "det", "instance": {"mu_high": [1.0, 0.0], "seed": 0, "noise": {"model": "bernoulli"},
                                    "low": {"model": "table", "mean_low": [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]],
                                            "certificate": [[0.013, 1.013, 1.013], [0.37, 1.37, 1.37]]}},
        "costs": {"low": 1.0, "high": 2.0},
        "params": {"budget": 300, "delta": 0.1, "rho": 0.113, "gamma": 0.2, "eta": 0.05, "s0": 2}})


def test_relabel_refuses_what_is_not_sound():
    res = relabel_relation(load_config("llm-residual"), [1, 0, 2, 3], seeds=(0,), policies=("ucb",))
    assert res[0].holds is None and "depends on the arm index" in res[0].detail
    with pytest.raises(TaccInputError) as e:
        relabel_config(load_config("set-a"), list(range(200)))
    assert e.value.field == "instance.means"
    # the table as a configuration writes it: no repr (MeansSpec(...)), no dict ({'distribution': 'uniform'})
    assert str(e.value) == ('instance.means = { distribution = "uniform", low = 0.1, high = 0.9, n_arms = 200 }: '
                            "relabelling needs explicit mu_high (these means are drawn from a distribution)")
    from dataclasses import replace
    with pytest.raises(TaccInputError) as e:
        relabel_config(replace(_deterministic(), instance=replace(
            _deterministic().instance, low=replace(load_config("set-a").instance.low, signs="random"))), [1, 0])
    assert str(e.value) == 'instance.low.signs = "random": relabelling needs explicit signs'
    with pytest.raises(TaccInputError) as e:
        relabel_config(_deterministic(), [0, 0, 1])
    assert e.value.field == "perm"


@given(small)
def test_tacc_with_s0_zero_is_dnc(config):
    holds(s0_zero_relation(config, seeds=SEEDS))


def _dyadic(x):
    return round(x * 8) / 8


def constant_bound_configs():
    """Frozen sources with means and values on a grid of 1/8: U_k(n) = n |values_k - mu_k| and B_k(n) = U_k(n) / n
    are then exact, so B_k is constant in floating point too (the relation's precondition, checked)."""
    def snap(c):
        inst = c.instance
        low = replace(inst.low, values=tuple(_dyadic(x) for x in inst.low.values))
        return replace(c, instance=replace(inst, mu_high=tuple(_dyadic(m) for m in inst.mu_high), low=low))
    return configs(budget=st.integers(40, 1500), models=("frozen",)).map(snap)


@given(constant_bound_configs())
def test_mf_ucb_is_dnc_when_the_bound_is_constant(config):
    assert holds(static_relation(config, seeds=SEEDS))      # a frozen source has B_k(n) = |values_k - mu_k|


def test_static_relation_not_applicable_when_bound_moves():
    res = static_relation(_table_config(), seeds=SEEDS)
    assert len(res) == 1 and res[0].holds is None


@given(small, st.sampled_from([0.25, 2.0, 8.0, 1024.0]))
def test_scaling_costs_scales_regret(config, c):
    holds(scale_relation(config, c, seeds=(0,)))


def test_scale_needs_a_power_of_two():
    with pytest.raises(TaccInputError) as e:
        scale_config(_table_config(), 3.0)
    assert e.value.field == "c"


# ------------------------------------------------------------------------------------------------ broken engines
class _PeekingUcb(Ucb):
    """UCB that reads the low-fidelity source's bias zeta_k, which a high-fidelity-only policy must not."""

    def __init__(self, *args, zeta, **kw):
        super().__init__(*args, **kw)
        self.zeta = np.asarray(zeta)

    def choose(self):
        return Action(int(np.argmax(self.index - 10 * self.zeta)), self.fidelity)


class _FloorCapTacc(Tacc):
    """TACC whose continuation cap is read as max(S0, 1)."""

    def continuation_test(self, k):
        a, n = int(self.continuation_pulls[k]), int(self.n_low[k])
        cap = max(self.s0, 1)
        if not a < cap:
            return False
        b = self.mismatch_bound
        return any(b(k, n) - b(k, n + s) >= 2 * self.eta * self.gamma for s in range(1, cap - a + 1))


class _ReserveUcb(Ucb):
    """UCB whose budget check keeps 5 cost units in reserve (an absolute constant, not scaled with the costs)."""

    def select(self):
        a = super().select()
        if a is not None and not self.initialising and self.cost + self.price(a.fidelity) > self.budget - 5.0:
            self._pending = None
            self.stopped = True
            return None
        return a


class _LabelUcb(Ucb):
    """UCB whose index favours higher arm labels."""

    def choose(self):
        return Action(int(np.argmax(self.index + 0.05 * np.arange(self.n_arms))), self.fidelity)


class _HalfBiasMfUcb(MfUcb):
    """MF-UCB that uses half of zeta_k."""

    @classmethod
    def from_problem(cls, problem):
        p = problem
        return cls(p.n_arms, p.cost_low, p.cost_high, p.budget, ell=p.ell, n_gamma=p.n_gamma, gamma=p.gamma, eta=p.eta,
                   s0=p.s0, zeta=np.asarray(p.static_bias) / 2)


def _mutant_runner(name, build):
    def runner(problem, policy, seed):
        if policy != name:
            return default_runner(problem, policy, seed)
        return run_reference(problem, build(problem), seed, trace=True)
    return runner


def _catch(strategy, fails):
    """The first generated example on which the broken engine breaks a relation (no shrinking: finding is the
    point); NoSuchExample fails the test."""
    return find(strategy, fails, settings=settings(max_examples=100, database=None, derandomize=True,
                                                   phases=[Phase.generate]))


def test_peeking_ucb_is_caught_by_unread():
    runner = _mutant_runner("ucb", lambda p: _PeekingUcb(p.n_arms, p.cost_low, p.cost_high, p.budget, ell=p.ell,
                                                         zeta=p.static_bias))
    _catch(perturbed(kinds=("certificate",)), lambda pr: any(r.holds is False for r in unread_relation(
        pr[0], pr[1], seeds=SEEDS, policies=("ucb",), runner=runner)))


def test_floor_cap_tacc_is_caught_by_s0_zero():
    runner = _mutant_runner("tacc", lambda p: _FloorCapTacc(
        p.n_arms, p.cost_low, p.cost_high, p.budget, ell=p.ell, n_gamma=p.n_gamma, gamma=p.gamma, eta=p.eta,
        s0=p.s0, mismatch_bound=lambda k, n: float(p.instance.low.mismatch_bound(k, n))))
    _catch(targeted_configs(), lambda c: any(r.holds is False for r in s0_zero_relation(c, seeds=SEEDS,
                                                                                        runner=runner)))


def test_reserve_ucb_is_caught_by_scale():
    runner = _mutant_runner("ucb", _ReserveUcb.from_problem)
    _catch(small, lambda c: any(r.holds is False for r in scale_relation(c, 4.0, seeds=(0,), policies=("ucb",),
                                                                         runner=runner)))


def test_label_ucb_is_caught_by_relabel():
    _catch(deterministic_configs(), lambda c: any(r.holds is False for r in relabel_relation(
        c, list(reversed(range(c.instance.n_arms))), seeds=(0,), policies=("ucb",),
        policy_factory=lambda p, name: _LabelUcb.from_problem(p))))


def test_half_bias_mf_ucb_is_caught_by_static():
    runner = _mutant_runner("mf-ucb", _HalfBiasMfUcb.from_problem)
    _catch(constant_bound_configs(),
           lambda c: any(r.holds is False for r in static_relation(c, seeds=SEEDS, runner=runner)))


def test_engines_agree_for_the_relations():
    """The relations use the fast engine; it makes the reference engine's records (trace included)."""
    p = make_problem(_table_config())
    for pol in POLICIES:
        assert run(p, pol, 3, trace=True) == run(p, pol, 3, engine="reference", trace=True)
