"""Deciding an inference: z3 proves or refutes with exact numbers; an identity is evaluated exactly at rational
and integer points and refuted with the point; one sympy source gives both the text and the z3 goal."""

from fractions import Fraction

import pytest
import sympy

from proofs_checks import STEPS, Inference, Outcome, Premise, decide
from proofs_checks._formula import Forall, symbols, text, to_z3
from proofs_checks._inference import domain, points


def test_a_true_identity_is_proved():
    x, y = symbols("x y")
    r = decide(Inference((), sympy.Eq(x * (y + 1), x * y + x), method="exact"))
    assert r.outcome is Outcome.PROVED


def test_a_false_identity_is_refuted_with_the_point():
    x, y = symbols("x y")
    r = decide(Inference((), sympy.Eq(x * (y + 1), x * y + 2 * x), method="exact"))
    assert r.outcome is Outcome.REFUTED
    p = r.counterexample
    assert p["x"] * (p["y"] + 1) != p["x"] * p["y"] + 2 * p["x"]


def test_integer_symbols_get_integer_points_within_their_domain():
    n = symbols("n", integer=True)
    x = symbols("x")
    inf = Inference(domain(n >= 1, n <= 3, x > 0), sympy.Eq(n, n))
    pts = points(inf)
    assert pts and all(p[n].is_Integer and 1 <= p[n] <= 3 and p[x] > 0 for p in pts)


def test_an_identity_true_only_on_integers_is_refuted_at_a_rational_point():
    x = symbols("x")
    r = decide(Inference((), sympy.Eq(sympy.floor(x), x), method="exact"))
    assert r.outcome is Outcome.REFUTED and isinstance(r.counterexample["x"], Fraction)


def test_z3_counterexample_is_exact():
    x, y = symbols("x y")
    r = decide(Inference((Premise("p", x <= y, "test"),), 2 * x <= y))
    assert r.outcome is Outcome.REFUTED
    c = r.counterexample
    assert 2 * c["x"] > c["y"] and c["x"] <= c["y"]


def test_the_quoted_statement_and_the_z3_goal_come_from_one_formula():
    step = next(s for s in STEPS if s.sid == "high-selection.count")
    assert step.statement == "n <= 4*ell/Delta**2" == text(step.inference.conclusion)
    goal = str(to_z3(step.inference.conclusion))
    assert goal == "n <= (ToReal(4)*ell)/(Delta*Delta)"
    assert "[def G] G >= 0 and G**2*n = ell" in step.hypotheses


def test_quantified_premises_and_functions():
    D = sympy.Function("D")
    m, t = symbols("m t", integer=True)
    g = symbols("g")
    window = Forall((m,), sympy.Implies(m >= t, D(m) >= g))
    r = decide(Inference((Premise("window", window, "test"),), D(t + 3) >= g))
    assert r.outcome is Outcome.PROVED
    assert text(window) == "for all m: (m >= t) => (D(m) >= g)"


@pytest.mark.parametrize("bad", [sympy.Float(0.5) * symbols("x") <= 1, symbols("x") ** sympy.Rational(1, 2) <= 1])
def test_untranslatable_formulas_raise(bad):
    with pytest.raises(TypeError):
        to_z3(bad)


def _hard():
    """An inference z3 takes seconds on (integer cubes summing to 33, one of them huge): unknown at its timeout."""
    x, y, z = symbols("x y z", integer=True)
    return Inference((Premise("cubes", sympy.Eq(x ** 3 + y ** 3 + z ** 3, 33), "test"),
                      Premise("huge", x > 10 ** 6, "test")), sympy.false)


def test_a_ctrl_c_during_a_z3_check_is_raised_when_it_returns_never_answered_unknown():
    # z3 takes SIGINT itself while it checks and answers unknown ("interrupted from keyboard"): `tacc proofs`
    # interrupted ran on to exit 0 with a step UNKNOWN and a mutant not refused that an uninterrupted run proved
    import os
    import signal
    import threading
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)   # a test runner in the background ignores it
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            decide(_hard(), timeout_ms=1_500)       # raised when the check returns (here at its time limit)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)


def test_a_ctrl_c_during_a_z3_check_is_left_to_sigint_ignored():
    # SIGINT ignored (a command in the background): z3 is told to leave it alone, and the check goes on
    import os
    import signal
    import threading
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        r = decide(_hard(), timeout_ms=1_500)
        assert r.outcome is Outcome.UNKNOWN and "timeout" in r.detail, r.detail
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
