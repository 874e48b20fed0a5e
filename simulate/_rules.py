"""The decision rules every policy applies, written once as scalar functions.

Each function is plain Python that numba can also compile (``register_jitable``, when the compiled functions are
made: :func:`simulate._compile.jitable`): the step-form policies call
them from Python, the fast engine calls the compiled versions, so both engines evaluate the same expressions
in the same order and make the same decisions. The radius is ``bounds.radius_scalar`` itself.
"""

from __future__ import annotations

from bounds import continuation_gain_passes as _continuation_gain_passes
from bounds import radius_scalar
from simulate._compile import jitable

__all__ = ["radius", "upper", "lower", "continuation_gain_passes", "deviation_exceeds"]

#: G_Lambda(n, delta) = sqrt(ell / n): the radius ``bounds`` uses (``subsec:confidence-bounds``).
radius = jitable(inline="always")(radius_scalar)


@jitable(inline="always")
def upper(total, n, ell, bias):
    """UCB^(m) = mu_hat + rad(n), rad = G(n) + bias (``eq:fidelity-confidence-bounds``; bias = B_k(n) at low
    fidelity, zeta_k for the static rules, 0 at high fidelity and for single-fidelity UCB)."""
    return total / n + (radius(n, ell) + bias)


@jitable(inline="always")
def lower(total, n, ell, bias):
    """LCB^(m) = mu_hat - rad(n) (``eq:fidelity-confidence-bounds``)."""
    return total / n - (radius(n, ell) + bias)


#: V(s) = B(N) - B(N + s) >= 2 eta gamma: one term of the continuation test (``eq:continuation-gain``,
#: ``eq:fidelity-selection``); ``bounds.continuation_gain_passes`` itself, so the continuation window of ``bounds``
#: and the engines apply one formula.
continuation_gain_passes = jitable(inline="always")(_continuation_gain_passes)


@jitable(inline="always")
def deviation_exceeds(total, n, truth_mean, ell):
    """|mu_hat - truth| > G(n): the confidence event of ``lem:ci`` fails at this count (docs/design.md section 7;
    truth is mu_k^(H) at high fidelity and the mean of mean_low(k, 1..n) at low fidelity)."""
    return abs(total / n - truth_mean) > radius(n, ell)
