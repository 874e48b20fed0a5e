"""Arm classes A/B/C of ``eq:analysis-arm-partition`` and the run-dependent split of C (``eq:app-analysis-Cdet``)."""

from __future__ import annotations

import enum
import itertools
import math
import operator
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from bounds import _validate as v
from bounds._errors import TaccInputError

__all__ = ["ArmClass", "ArmRunFacts", "arm_partition", "refine_partition", "prior_partition", "in_h"]


class ArmClass(enum.Enum):
    """The class of an arm in the TACC analysis.

    OPTIMAL is k^* (the lowest index among the best arms). A, B, C are ``eq:analysis-arm-partition``;
    C_D and C_U are C^d and C^u (``eq:app-analysis-Cdet``), known only after a run. H = B u C^u.
    """

    OPTIMAL = "optimal"
    A = "A"
    B = "B"
    C = "C"
    C_D = "C^d"
    C_U = "C^u"


def in_h(cls: ArmClass) -> bool:
    """Whether an arm class belongs to H_gamma = B_gamma u C^u_gamma."""
    return cls in (ArmClass.B, ArmClass.C_U)


@dataclass(frozen=True)
class ArmRunFacts:
    """What one run records about one arm, enough to decide C^d versus C^u (``eq:app-analysis-Cdet``).

    Attributes:
        low_count: N_k^(L) at the end of the run (the count before round T_Lambda + 1). The arm reached its
            certification count (T_k^tau <= T_Lambda + 1) exactly when low_count >= tau_k(gamma).
        high_in_window: the number of high-fidelity queries of arm k made while
            N_gamma <= N_k^(L) < tau_k(gamma).
    """

    low_count: int
    high_in_window: int

    def __post_init__(self):
        v.count("low_count", self.low_count, minimum=0)
        v.count("high_in_window", self.high_in_window, minimum=0)


def arm_partition(tau: Sequence[float], n_gamma: int, s0: int, best_arm: int) -> tuple[ArmClass, ...]:
    r"""Arm partition (``eq:analysis-arm-partition``).

    .. math::

        \mathcal{A}_\gamma := \{k \ne k^\star : \tau_k(\gamma) \le N_\gamma\}, \\
        \mathcal{B}_\gamma := \{k \ne k^\star : \tau_k(\gamma) > N_\gamma + S_0\}, \\
        \mathcal{C}_\gamma := \{k \ne k^\star : N_\gamma < \tau_k(\gamma) \le N_\gamma + S_0\}.

    Args:
        tau: tau_k(gamma) per arm (int or inf; the entry of the best arm is ignored).
        n_gamma: N_gamma >= 1.
        s0: continuation cap S_0 >= 0.
        best_arm: k^* (index).

    Returns:
        One class per arm; every arm other than k^* is in exactly one of A, B, C. An arm tied with k^*
        (Delta_k = 0) has Delta_k^(L) <= 0 < 2 gamma, so tau_k = inf and it lands in B.

    >>> [c.value for c in arm_partition([math.inf, 3, 7, 30], n_gamma=5, s0=10, best_arm=0)]
    ['optimal', 'A', 'C', 'B']
    """
    ng = v.count("n_gamma", n_gamma)
    s = v.count("s0", s0, minimum=0)
    kb = v.integer("best_arm", best_arm, minimum=0)
    if kb >= len(tau):
        raise TaccInputError("best_arm", best_arm, f"must be an arm index below {len(tau)}")
    bad, t = _bad_tau(tau, kb)
    if bad:
        raise TaccInputError(f"tau[{bad[0]}]", tau[bad[0]], "must be an integer >= 1 or inf")
    assert t is not None                         # no bad arm: every tau was read as a float
    code = np.where(t <= ng, 0, np.where(t <= ng + s, 1, 2))
    code[kb] = 3
    names = (ArmClass.A, ArmClass.C, ArmClass.B, ArmClass.OPTIMAL)
    return tuple(map(names.__getitem__, code.tolist()))


def _bad_tau(tau: Sequence, best_arm: int) -> tuple[list, np.ndarray | None]:
    """The arms other than ``best_arm`` whose tau is neither an integer >= 1 nor inf, and every tau as a float
    (None when some arm is bad and a tau is an int beyond the float range).
    Decided in vector calls when every entry is an exact int or float (an int beyond the float range, or another
    type, takes the entry-by-entry path)."""
    inf = math.inf
    t = None
    if set(map(type, tau)) <= {int, float}:
        try:
            t = np.array(tau, dtype=float)
        except OverflowError:
            pass
    if t is not None:
        is_float = np.fromiter(map(operator.is_, map(type, tau), itertools.repeat(float)), dtype=bool,
                               count=len(tau))
        good = np.where(is_float, t == inf, t >= 1)
        good[best_arm] = True
        return np.flatnonzero(~good).tolist(), t
    bad = [k for k, x in enumerate(tau) if k != best_arm and not (x == inf or (isinstance(x, int) and x >= 1))]
    return bad, None if bad else np.array([float(x) for x in tau])


def refine_partition(classes: Sequence[ArmClass], tau: Sequence[float],
                     facts: Sequence[ArmRunFacts]) -> tuple[ArmClass, ...]:
    """Split C_gamma into C^d and C^u from one run (``eq:app-analysis-Cdet``).

    C^d = {k in C: T_k^tau <= T_Lambda + 1 and no high query while N_gamma <= N_k^(L) < tau_k(gamma)}.

    Args:
        classes: the output of :func:`arm_partition`.
        tau: tau_k(gamma) per arm.
        facts: one :class:`ArmRunFacts` per arm.

    >>> refine_partition([ArmClass.OPTIMAL, ArmClass.C, ArmClass.C], [math.inf, 8, 8],
    ...                  [ArmRunFacts(9, 0), ArmRunFacts(8, 0), ArmRunFacts(8, 1)])[1:]
    (<ArmClass.C_D: 'C^d'>, <ArmClass.C_U: 'C^u'>)
    """
    if not len(classes) == len(tau) == len(facts):
        raise TaccInputError("facts", len(facts), f"must hold one record per arm ({len(classes)})")
    out = []
    for c, t, f in zip(classes, tau, facts, strict=True):
        if c is ArmClass.C:
            reached = f.low_count >= t
            out.append(ArmClass.C_D if reached and f.high_in_window == 0 else ArmClass.C_U)
        else:
            out.append(c)
    return tuple(out)


def prior_partition(classes: Sequence[ArmClass]) -> tuple[ArmClass, ...]:
    """The partition before any run: every C arm counted in H (as C^u), so the bound holds for every run."""
    return replace_classes(classes, {ArmClass.C: ArmClass.C_U})


def replace_classes(classes: Sequence, swap: dict) -> tuple:
    """``classes`` with each member ``c`` that is a key of ``swap`` replaced by ``swap[c]`` and every other entry
    kept: ``tuple(swap[c] if c is a key else c for c in classes)``, keys matched by identity in C loops (a tuple
    of 10^5 classes; an enum member hashes in Python)."""
    if len(swap) == 1:                           # one member replaced: an identity test per entry
        (old, new), = swap.items()
        return tuple([new if c is old else c for c in classes])
    by_id = {id(c): new for c, new in swap.items()}
    return tuple(map(by_id.get, map(id, classes), classes))
