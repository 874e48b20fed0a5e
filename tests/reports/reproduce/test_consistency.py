"""The consistency of the paper's numbers (``reports.reproduce._consistency``): each relation is decided from the
printed numbers, and a perturbed paper number turns a consistent relation into an inconsistent one (and back)."""

from dataclasses import replace
from fractions import Fraction
from types import SimpleNamespace

import pytest

from reports.reproduce._consistency import (_claim_checks, _invariance_checks, _paired_checks, _range_checks,
                                  _repeated_checks, _seed_free_checks, paper_number)
from reports.reproduce import experiment
from reports.reproduce import variant_config
from simulate import make_problem

RES = experiment("llm-residual")
VAN = experiment("llm-vanishing")


def _by(checks, relation, numbers=""):
    found = [c for c in checks if c.relation.startswith(relation) and numbers in c.numbers]
    assert found, (relation, numbers)
    return found[0]


def test_paper_number_is_the_printed_interval():          # exact values: the decimal as printed
    assert paper_number(3277.7) == (Fraction(32777, 10), Fraction(1, 20))
    assert paper_number(6503.0) == (Fraction(6503), Fraction(1, 20))
    assert paper_number(0.0508) == (Fraction(508, 10000), Fraction(1, 20000))


def _with_paired(exp, variant, method, value):
    return replace(exp, paper_paired={**exp.paper_paired, variant: {**exp.paper_paired[variant], method: value}})


def test_paired_mean_against_table_difference():
    c = _by(_paired_checks(RES, 200), "a paired mean difference", "TACC - dnc")
    assert c.consistent is False and "616.5" in c.why                 # the paper's -561.1 against -1177.6
    fixed = _with_paired(RES, "cost_high = 500", "dnc", (-1177.6, -1719.6, -635.6))
    assert _by(_paired_checks(fixed, 200), "a paired mean difference", "TACC - dnc").consistent is True
    off = _with_paired(RES, "cost_high = 500", "dnc", (-1177.8, -1719.8, -635.8))   # beyond the rounding 0.15
    assert _by(_paired_checks(off, 200), "a paired mean difference", "TACC - dnc").consistent is False


def test_paired_interval_symmetry():
    assert _by(_paired_checks(RES, 200), "the paired 95% interval is symmetric", "TACC - ucb").consistent is True
    skew = _with_paired(RES, "cost_high = 500", "ucb", (-619.4, -1227.2, -11.2))
    assert _by(_paired_checks(skew, 200), "the paired 95% interval is symmetric", "TACC - ucb").consistent is False


def test_paired_standard_error_against_the_two_standard_errors():
    assert _by(_paired_checks(RES, 200), "the paired standard error", "TACC - dnc").consistent is True
    wide = _with_paired(RES, "cost_high = 500", "dnc", (-561.1, -1700.0, 577.8))     # se_d ~ 577 > 247.3 + 289.7
    c = _by(_paired_checks(wide, 200), "the paired standard error", "TACC - dnc")
    assert c.consistent is False and "allowed" in c.why


def test_mean_and_standard_error_against_the_regret_range():
    problem = SimpleNamespace(budget=128000.0)
    assert all(c.consistent for c in _range_checks(VAN, 200, problem))
    # DNC's 598.7 +- 187.9 needs M >= 12328.8: a budget of 20000 with mu* = 0.5568 allows 11136 only
    c = _by(_range_checks(VAN, 200, SimpleNamespace(budget=20000.0)), "a mean and its standard error",
            "dnc 598.7")
    assert c.consistent is False and "gap >= 0.616" in c.why
    big = replace(VAN, paper_table={**VAN.paper_table, "cost_high = 500": {"tacc": (143.0, 300.0)}})   # M >= 125388
    assert _by(_range_checks(big, 200, problem), "a mean and its standard error", "tacc 143.0").consistent is False


def test_seed_free_regret_is_a_published_gap():
    problems = {(VAN.key, v.name): SimpleNamespace(budget=128000.0, cost_low=1.0) for v in VAN.variants}
    assert all(c.consistent for c in _seed_free_checks(VAN, problems))
    moved = replace(VAN, paper_table={"cost_high = 500": {"weak-fixed": (6000.0, 0.0)}})
    c, = _seed_free_checks(moved, problems)
    assert c.consistent is False and "no published gap" in c.why


def test_repeated_table_must_match():
    assert all(c.consistent for c in _repeated_checks(RES))
    bad = replace(RES, paper_repeated={"tab:x": {"cost_high = 500": {"tacc": (4023.5, 247.3)}}})
    c, = _repeated_checks(bad)
    assert c.consistent is False


def test_claims_against_the_paper_numbers():
    assert all(c.consistent is not False for c in _claim_checks(RES))
    worse = replace(RES, paper_table={**RES.paper_table, "cost_high = 200": {**RES.paper_table["cost_high = 200"],
                                                                           "tacc": (4500.0, 243.2)}})
    c = _by(_claim_checks(worse), "the claim follows", "")
    assert c.consistent is False and "dnc (3894.0)" in c.why


@pytest.fixture(scope="module")
def small():
    """The two regimes at cost_high = 500 on a small budget (the parts compared do not depend on it)."""
    v = RES.variants[1]
    res = replace(RES, variants=(v,), paper_table={v.name: RES.paper_table[v.name]}, paper_paired={})
    van = replace(VAN, variants=(v,), paper_table={v.name: VAN.paper_table[v.name]})
    problems = {(e.key, v.name): make_problem(variant_config(e, v, budget=2000)) for e in (res, van)}
    return res, van, problems


def test_unread_parts_give_equal_distributions(small):
    res, van, problems = small
    checks = _invariance_checks(res, [res, van], problems, None)
    c = _by(checks, "a policy that reads none", "ucb")
    assert c.consistent is False and "bound, low, low_first, static_bias" in c.why      # 5083.2 against 2711.1
    assert {x.numbers.split(":")[0] for x in checks} == {"ucb"}      # every other policy reads the low fidelity
    same = replace(van, paper_table={"cost_high = 500": {**van.paper_table["cost_high = 500"],
                                                         "ucb": (5083.2 + 500.0, 286.8)}})
    assert _by(_invariance_checks(res, [res, same], problems, None), "a policy", "ucb").consistent is True


@pytest.mark.parametrize("n", [2, 3, 10, 120, 200, 1000])
def test_quantiles_are_the_ones_scipy_stats_computes(n):
    """The quantiles come from scipy.special (scipy.stats costs a second of a reproduction's main process to
    import): to the bit, scipy.stats' norm.ppf and t.ppf, at every level the checks use."""
    from scipy import stats
    from scipy.special import ndtri, stdtrit

    from reports.reproduce._consistency import _quantiles
    assert _quantiles(n) == (float(stats.norm.ppf(0.975)) * (1 - 1e-12),
                             float(stats.t.ppf(0.975, n - 1)) * (1 + 1e-12))
    for pairs in (1, 2, 7, 40, 1000):           # the family-wise level of the invariance checks
        p = 1 - 0.05 / (2 * pairs)
        assert float(ndtri(p)) == float(stats.norm.ppf(p))
    assert float(stdtrit(n - 1, 0.975)) == float(stats.t.ppf(0.975, n - 1))


def test_the_consistency_checks_do_not_import_scipy_stats():
    import subprocess
    import sys
    code = ("import sys; from reports.reproduce import consistency, experiment; "
            "consistency(experiment('llm-residual')); print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
