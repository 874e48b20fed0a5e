"""Tightened constants (``proofs_checks._tighten``): the smallest value found valid for a constant only shown to
suffice, called the tightest only with a witness point at which every stronger value fails."""

from fractions import Fraction

import sympy

from proofs_checks import Inference, Premise
from proofs_checks._mutate import mutate, positions
from proofs_checks._tighten import tightened_constants, witness

x, y = sympy.symbols("x y", real=True)
n = sympy.Symbol("n", integer=True)


def _inf(*premises, conclusion):
    return Inference(tuple(Premise(str(p), p, "test") for p in premises), conclusion)


def _tightened(inf):
    return tightened_constants(inf, mutate(inf).slack)


def _path(inf, value):
    return next(p for p, node in positions(inf.conclusion) if node == value)


def test_an_attained_bound_is_the_tightest_with_the_point_that_attains_it():
    (t,) = _tightened(_inf(x >= 0, x <= 1, conclusion=x <= 3))
    assert t.stated == 3 and t.value == 1 and t.refuted_below < 1
    assert t.tightest and t.witness == {"x": 1}


def test_a_bound_that_is_not_attained_is_only_sufficient():
    (t,) = _tightened(_inf(x >= 0, x < 1, conclusion=x <= 3))
    assert t.value == 1 and not t.tightest and t.witness is None       # x < 1: 1 - e fails, but at no single x


def test_a_valid_value_above_the_least_has_no_witness():
    inf = _inf(x >= 0, x <= 1, conclusion=x <= 3)
    path = _path(inf, 3)
    assert witness(inf, path, Fraction(2), 1) is None
    assert witness(inf, path, Fraction(1), 1) == {"x": 1}
    # below the least, a point still shows every smaller value fails: the witness speaks only of what is stronger,
    # validity is z3's proof (tightened_constants asks for a witness only of a value it proved)
    assert witness(inf, path, Fraction(1, 2), 1) == {"x": Fraction(1, 2)}


def test_zero_is_the_tightest_only_when_values_past_it_fail():
    # n <= m + 1 from n <= m (integers): 0 is valid and -1 fails at n = m
    m = sympy.Symbol("m", integer=True)
    (t,) = _tightened(_inf(n >= 1, m >= 1, n <= m, conclusion=n <= m + 1))
    assert t.value == 0 and t.tightest and t.witness["n"] == t.witness["m"]
    # n <= m + 1 from n <= m - 2: 0 is valid but so is -2: 0 is only sufficient (the search stops at 0)
    (t,) = _tightened(_inf(n >= 1, m >= 1, n <= m - 2, conclusion=n <= m + 1))
    assert t.value == 0 and not t.tightest


def test_a_negative_constant_is_tightened_toward_zero_and_beyond():
    # y >= x - eps/4 from y >= x: the margin's least value is 0 (any positive margin fails at y = x)
    eps = sympy.Symbol("eps", real=True)
    (t,) = _tightened(_inf(eps > 0, y >= x, conclusion=y >= x - eps / 4))
    assert t.stated == Fraction(-1, 4) and t.value == 0 and t.tightest and t.witness["x"] == t.witness["y"]
    (t,) = _tightened(_inf(eps > 0, y >= x + eps, conclusion=y >= x - eps / 4))
    assert t.value == 0 and not t.tightest                               # a margin up to eps holds
