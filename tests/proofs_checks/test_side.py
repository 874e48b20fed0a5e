"""Side conditions (``proofs_checks._side``): every remark, corollary and experimental setting of the paper is
listed, and each is checked against the standing assumptions and the algorithm's conditions exactly."""

import dataclasses
import re

import pytest
import sympy

from proofs_checks import SIDE_CONDITIONS, side_outcome, side_outcomes
from proofs_checks._side import S0, lam_H, lam_L
from tests.proofs_checks.test_coverage import PAPER


def _by(where):
    return next(sc for sc in SIDE_CONDITIONS if sc.where == where)


@pytest.mark.skipif(not PAPER.exists(), reason="the paper's .tex is not on this machine")
def test_every_remark_corollary_example_and_setting_of_the_paper_has_a_side_condition():
    lines = PAPER.read_text().splitlines()
    begins = [i + 1 for i, s in enumerate(lines) if re.search(r"\\begin\{(remark|corollary|example)\}", s)]
    for b in begins:                       # the substitution a corollary makes may be stated in the line before it
        assert any(b - 2 <= sc.line <= b + 12 for sc in SIDE_CONDITIONS), f"l.{b}: no side condition"
    settings = [i + 1 for i, s in enumerate(lines) if re.search(r"\$S_0\s*=\s*\d+\$", s)]
    assert settings                                           # Set A/B, the LLM residual, its appendix, checkpoint
    for n in settings:
        assert any(sc.line == n for sc in SIDE_CONDITIONS), f"l.{n}: an experimental setting with no side condition"


def test_unit_costs_contradict_the_cost_order_and_force_a_continuation_cap_of_one():
    o = side_outcome(_by("rem:analysis-mf-comparison"))
    assert o.status == "contradicts" and [n for n, _ in o.contradicts] == ["sec:problem (costs)"]
    assert ("cap:S0 (eq:fidelity-selection)", "S_0 <= 1") in o.forces


def test_the_experimental_settings_meet_the_continuation_cap_set_a_and_b_with_equality():
    for where in ("subsec:syn (Set A)", "subsec:syn (Set B)", "app:llm-empirical-bandit",
                  "app:llm-residual (lambda_H = 200)", "app:llm-pure-decay"):
        o = side_outcome(_by(where))
        assert o.status == "consistent" and any(h.startswith("cap:S0") for h in o.holds), where
    a = _by("subsec:syn (Set A)")
    assert a.values[S0] * a.values[lam_L] == a.values[lam_H]                  # 10 x 1 = 10: at the cap
    assert "cap:S0 (eq:fidelity-selection) with equality (S_0*lambda_L = lambda_H)" in side_outcome(a).holds
    assert "cap:S0 (eq:fidelity-selection)" in side_outcome(_by("app:llm-residual (lambda_H = 200)")).holds
    # one continuation pull more than Set A's cap allows is a contradiction, with the condition named
    over = dataclasses.replace(a, values={**a.values, S0: sympy.Integer(11)})
    assert [n for n, _ in side_outcome(over).contradicts] == ["cap:S0 (eq:fidelity-selection)"]
    low = dataclasses.replace(a, values={**a.values, lam_H: sympy.Rational(1, 2)})     # lambda_H below lambda_L
    assert "sec:problem (costs)" in [n for n, _ in side_outcome(low).contradicts]


def test_a_static_bias_bound_makes_the_certificate_constant_so_tacc_never_continues():
    o = side_outcome(_by("rem:evolving_vs_static"))
    assert o.status == "consistent"
    assert any("V(s) = B(N) - B(N + s) = 0" in c for c in o.consequences)
    assert any("never passes (z3)" in c for c in o.consequences)


def test_the_corollarys_substitution_contradicts_the_definition_of_n_gamma():
    o = side_outcome(_by("cor:analysis-main-regret-order"))
    assert o.status == "contradicts" and "floor(ell / gamma^2) + 1" in o.contradicts[0][1]


def test_polynomial_oracle_costs_give_a_dyadic_constant_of_four_thirds():
    (c,) = side_outcome(_by("remark after ass:app-rdfe-dyadic")).consequences
    assert "C_dyad = 4/3 suffices there" in c


def test_the_vanishing_mismatch_makes_the_certificate_tend_to_zero():
    (c,) = side_outcome(_by("app:llm-pure-decay")).consequences
    assert "tends to 0 (sympy" in c


def test_a_remark_that_fixes_nothing_says_so_and_the_outcomes_are_in_the_papers_order():
    assert side_outcome(_by("remark after ass:mono-cert")).status == "fixes nothing"
    lines = [sc.line for sc, _ in side_outcomes()]
    assert lines == sorted(lines) and len(lines) == len(SIDE_CONDITIONS)
