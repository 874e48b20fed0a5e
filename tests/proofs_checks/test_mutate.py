"""The mutation machinery: which mutants it makes, that it refuses them, that a changed constant is caught as
slack, that an unneeded premise is found, and that a step that cannot fail is VACUOUS."""

import sympy
from sympy.core.function import AppliedUndef

from proofs_checks import STEPS, Inference, Premise, mutants, mutate
from proofs_checks._formula import symbols
from proofs_checks._inference import domain

_BY_ID = {s.sid: s for s in STEPS}


def test_mutants_of_each_kind():
    N = symbols("N", integer=True)
    x, y = symbols("x y")
    ms = mutants(N <= 1 + sympy.ceiling(4 * x) + y)
    kinds = {m.kind for m in ms}
    assert kinds == {"constant", "strict", "floor/ceiling", "term"}
    texts = {m.description for m in ms}
    assert "constant 4 -> 2 in 4*x" in texts and "constant 4 -> 18/5 in 4*x" in texts
    assert "ceiling(4*x) -> floor(4*x)" in texts
    assert any(t.startswith("term y dropped") for t in texts)


def test_the_arguments_of_a_function_are_not_mutated():
    B = sympy.Function("B")
    n = symbols("n", integer=True)
    ms = mutants(B(n + 1) <= B(n))
    assert ms and all({f.args[0] for f in m.formula.atoms(AppliedUndef)} == {n + 1, n} for m in ms)


def test_high_selection_count_refuses_its_mutants():
    m = mutate(_BY_ID["high-selection.count"].inference)
    assert m.refused == m.total > 0 and not m.slack and m.needed == m.premises == 2


def test_a_weakened_constant_is_caught_as_slack():
    """4 ell -> 8 ell in prop:analysis-high-selection still PROVES, but its mutants 8 -> 4 and 8 -> 7.2 survive
    and are not declared: the suite fails (test_steps: every slack is explained)."""
    inf = _BY_ID["high-selection.count"].inference
    n, ell, D = (next(s for s in inf.conclusion.free_symbols if s.name == k) for k in ("n", "ell", "Delta"))
    weak = inf.with_conclusion(n <= 8 * ell / D ** 2)
    m = mutate(weak)
    assert "constant 8 -> 4 in 8*ell/Delta**2" in m.slack
    assert not set(m.slack) <= set(_BY_ID["high-selection.count"].slack)


def test_an_unneeded_premise_is_found_and_a_needed_one_is_not():
    x, y, z = symbols("x y z")
    inf = Inference(domain(x > 0) + (Premise("used", x <= y, "test"), Premise("spare", z >= 0, "test")), x <= y + 1)
    m = mutate(inf)
    assert m.unneeded == ("spare",) and m.needed == 1


def test_a_step_that_cannot_fail_is_vacuous():
    x = symbols("x")
    assert mutate(Inference((), sympy.Eq(x, x))).vacuous          # sympy makes it True: nothing to perturb
    spare = Inference((Premise("spare", x >= 0, "test"),), sympy.Abs(x) >= 0)
    m = mutate(spare)
    assert m.vacuous and m.unneeded == ("spare",)
