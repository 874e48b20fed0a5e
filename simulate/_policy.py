"""The step form shared by every policy: ``select()`` an arm and fidelity, then ``update()`` with the observation.

A policy owns its counts, sums and spent cost, and enforces the pre-query budget check of Algorithm 1
(``alg:adaptive-mf-mab``): ``select()`` returns ``None`` when the next query would take the cumulative cost
past the budget, and the run is over. The check is exact: costs and budget are read as the decimals written
(``bounds.exact_amount``) and counted in integer units (``bounds.cost_units``), so C_t <= Lambda is decided
without rounding. The same check applies to the initial queries, so a budget that does not
cover the first round stops during it (the regret R(Lambda) counts only queries with C_t <= Lambda anyway).

It can be driven by an engine against a reward table or by hand with real feedback::

    while (action := policy.select()) is not None:
        y = judge(action.arm) if action.fidelity == LOW else verifier(action.arm)
        policy.update(action.arm, action.fidelity, y)
"""

from __future__ import annotations

import abc
from dataclasses import dataclass

import numpy as np

from bounds import TaccInputError, cost_units
from bounds import validate as v
from simulate._errors import TaccStateError
from simulate._rewards import HIGH, LOW

__all__ = ["Action", "Policy", "LOW", "HIGH"]


@dataclass(frozen=True)
class Action:
    """One query: ``arm`` k, ``fidelity`` (LOW = 0 or HIGH = 1), and whether it is a TACC continuation pull."""

    arm: int
    fidelity: int
    continuation: bool = False


class Policy(abc.ABC):
    """Base of every policy's step form.

    Attributes (read them, do not write them):
        n_low, n_high: N_k^(L), N_k^(H) (int arrays).
        sum_low, sum_high: sums of the observations (float arrays).
        cost: cumulative cost C (a float: the exact cost rounded once).
        cost_units: cumulative cost in the integer units of ``units`` (exact).
        units: lambda^(L), lambda^(H), Lambda in common integer units (``bounds.CostUnits``).
        rounds: number of queries made.
    """

    #: the policy's name on the command line (``tacc``, ``dnc``, ...).
    name: str = ""
    #: which low-fidelity source the environment must serve: ``"improving"`` or ``"frozen"`` (Weak-Fixed).
    source: str = "improving"

    def __init__(self, n_arms: int, cost_low: float, cost_high: float, budget: float):
        # one arm is a well-defined policy (the argmax over one arm; tests/bounds/test_continuation.py replays one
        # arm's continuation test with it), unlike a configuration, which needs a best arm and a gap (two arms)
        self.n_arms = v.count("n_arms", n_arms, minimum=1)
        self.cost_low = v.positive_real("cost_low", cost_low)
        self.cost_high = v.positive_real("cost_high", cost_high)
        self.budget = v.positive_real("budget", budget)
        self.units = cost_units(cost_low, cost_high, budget)
        self.cost_units = 0
        self.n_low = np.zeros(self.n_arms, dtype=np.int64)
        self.n_high = np.zeros(self.n_arms, dtype=np.int64)
        self.sum_low = np.zeros(self.n_arms)
        self.sum_high = np.zeros(self.n_arms)
        self.rounds = 0
        self.stopped = False
        self._plan = list(self.initial_queries())
        self._pending: Action | None = None

    @property
    def cost(self) -> float:
        """The cumulative cost C (exact, rounded once to a float)."""
        return self.units.value(self.cost_units)

    def price(self, fidelity: int) -> float:
        """lambda^(m)."""
        return self.cost_low if fidelity == LOW else self.cost_high

    @property
    def initialising(self) -> bool:
        """True while the initial queries (Algorithm 1, line 2) are not all made."""
        return bool(self._plan)

    def initial_queries(self):
        """The start: each arm once at each fidelity, in arm order, L then H (docs/design.md section 6)."""
        for k in range(self.n_arms):
            yield Action(k, LOW)
            yield Action(k, HIGH)

    @classmethod
    def from_problem(cls, problem) -> Policy:
        """The policy with every threshold of a :class:`simulate.Problem` (each registered policy defines it)."""
        raise NotImplementedError(f"{cls.__name__} does not define from_problem")

    @abc.abstractmethod
    def choose(self) -> Action | None:
        """The policy's decision after the start (``None``: the policy itself stops, as RDFE may)."""

    def observe(self, action: Action, y: float) -> None:  # noqa: B027 (an optional hook, empty by default)
        """Hook after the counts and sums include ``y`` (policies with more state override it)."""

    def finish(self) -> None:  # noqa: B027 (an optional hook, empty by default)
        """Hook called once when the run stops (by the budget check or by the policy)."""

    def select(self) -> Action | None:
        """The next query, or ``None`` once the budget cannot pay for it (the run is over)."""
        if self.stopped:
            return None
        if self._pending is not None:
            raise TaccStateError("select", f"the previous action {self._pending} has not been updated yet")
        a = self._plan[0] if self._plan else self.choose()
        if a is None or self.cost_units + self.units.price(a.fidelity) > self.units.budget:   # C_t <= Lambda, exact
            self.stopped = True
            self.finish()
            return None
        self._pending = a
        return a

    def update(self, arm: int, fidelity: int, y: float) -> None:
        """Record the observation ``y`` of the action ``select()`` returned."""
        a = self._pending
        if a is None:
            raise TaccStateError("update", "no action is selected: call select() first"
                                 + (" (the run is over)" if self.stopped else ""))
        if a.arm != arm or a.fidelity != fidelity:
            raise TaccInputError("update", (arm, fidelity), f"does not match the selected action {a}")
        y = v.finite_real("y", y)
        if self._plan:
            self._plan.pop(0)
        if fidelity == LOW:
            self.n_low[arm] += 1
            self.sum_low[arm] += y
        else:
            self.n_high[arm] += 1
            self.sum_high[arm] += y
        self.cost_units += self.units.price(fidelity)
        self.rounds += 1
        self._pending = None
        self.observe(a, y)
