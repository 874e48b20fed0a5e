"""A run's fixed inputs: the instance, costs, parameters, and every threshold the policies use, from ``bounds``.

A :class:`Problem` is built once per configuration and shared by every policy, engine and seed. Everything a
policy compares against (T_Lambda, ell_Lambda, N_gamma, B_k(n), zeta_k, the RDFE stopping counts) is computed
here by the ``bounds`` functions and nowhere else (docs/design.md section 3), and the tables the fast engine reads
are the same values the step-form policies read.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass

import numpy as np

from bounds import (Config, Instance, TaccInputError, config_to_dict, cost_units, frozen_of,
                    instance_certification_times)
from simulate._asktell import thresholds
from simulate._certificate import bias_length
from simulate._schedule import MeanSchedule, mean_schedule, with_prefix

__all__ = ["Problem", "problem_of", "config_key", "config_json"]

#: the most counts whose tail power a problem tabulates (``Problem.schedule``): 2 MiB of float64
_POWER_TABLE = 1 << 18


def config_key(config: Config) -> str:
    """The digest (sha256 hex) of ``config``'s canonical serialized form: ``bounds.config_to_dict`` (what
    ``parse_config`` reads back, so every field that determines a run) as sorted JSON, without the name and the
    source path, which determine nothing. Computed once per configuration object (configurations are frozen)."""
    return _canonical(config)[1]


def config_json(config: Config) -> str:
    """``bounds.config_to_dict(config)`` as JSON text (the name first, then the canonical form of
    :func:`config_key`): ``bounds.parse_config(json.loads(text))`` is ``config`` again. Made once per object."""
    c = _canonical(config)
    return '{"name":' + json.dumps(config.name) + "," + c[2][1:]


def _canonical(config: Config) -> tuple:
    hit = _DIGESTS.get(id(config))
    if hit is not None and hit[0] is config:
        return hit
    d = config_to_dict(config)
    d.pop("name", None)
    text = json.dumps(d, sort_keys=True, separators=(",", ":"))
    if len(_DIGESTS) >= 256:
        _DIGESTS.pop(next(iter(_DIGESTS)))
    # the entry holds the object, so its id is not reused meanwhile
    hit = _DIGESTS[id(config)] = (config, hashlib.sha256(text.encode()).hexdigest(), text)
    return hit


_DIGESTS: dict = {}


@dataclass(frozen=True, eq=False)
class Problem:
    """The fixed inputs of every run on one configuration.

    Attributes:
        config: the configuration it came from.
        instance: means, noise and low-fidelity model (``bounds.build_instance``).
        cost_low, cost_high, budget: lambda^(L), lambda^(H), Lambda.
        horizon: T_Lambda = ceil(Lambda / lambda^(L)).
        delta, rho, ell: confidence level, radius constant (``"min"`` resolved), ell_Lambda.
        gamma, eta, s0: threshold, continuation parameter, continuation cap.
        n_gamma: N_gamma, the only threshold count the engines compare with.
        tau: tau_k(gamma) per arm (inf for k^* and for uncertifiable arms).
    """

    config: Config
    instance: Instance
    cost_low: float
    cost_high: float
    budget: float
    horizon: int
    delta: float
    rho: float
    ell: float
    gamma: float
    eta: float
    s0: int
    n_gamma: int
    tau: tuple

    @property
    def n_arms(self) -> int:
        return self.instance.n_arms

    @property
    def noise(self) -> str:
        return self.instance.noise.model

    @property
    def sigma(self) -> float:
        return float(self.instance.noise.sigma)

    @functools.cached_property
    def key(self) -> str:
        """A hash of the configuration: with the policy and seed, it names a run in the runner's cache."""
        return config_key(self.config)

    # ------------------------------------------------------------------ tables the policies read
    @functools.cached_property
    def bias_length(self) -> int:
        """L = min(N_gamma, T) + S0 + 1: the counts n at which a TACC-family policy may read B_k(n) (:meth:`bias`).

        TACC's and DNC's low count never passes min(N_gamma, T) + S0 (low queries past N_gamma are continuation
        pulls, at most S0), and the continuation test looks at most S0 further, to N_gamma + S0.
        """
        return bias_length(self.n_gamma, self.horizon, self.s0)

    @functools.cached_property
    def low_reach(self) -> int:
        """floor(Lambda / lambda^(L)) in the exact units of the budget check: the most low-fidelity queries a run can
        make, so the most any arm's low count reaches (the B_k table's and the tail power's range)."""
        return self.units.budget // self.units.low

    @functools.cached_property
    def bias_width(self) -> int:
        """W = min(L, floor(Lambda / lambda^(L))) (at least 1): the counts n = 1..W with B_k(n) in :attr:`bias_table`.

        No arm's low count passes the low queries the budget pays for (floor(Lambda / lambda^(L)), in the exact
        units of the budget check), so a run reads B_k at its own count only there; the one count past it a run
        may read is the continuation window's far end, :attr:`continuation_end`. With S0 far beyond the budget
        (S0 = 10^8 on a budget of 128,000 queries) L was 10^8 counts and the table gigabytes; W is the budget's.
        """
        return max(1, min(self.bias_length, self.low_reach))

    @functools.cached_property
    def _bias_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rows, row_of, ends): B_k(1..W) per distinct row, and each row's B_k(N_gamma + S0), from one vector call
        of the model per arm over the counts 1..W and N_gamma + S0 (so each value is the one a call over 1..L gave:
        the models compute count by count)."""
        model, width = self.instance.low, self.bias_width
        reached = self.n_gamma <= self.low_reach   # a run can make a continuation test
        n = np.arange(1, width + 2, dtype=np.int64)
        n[-1] = self.n_gamma + self.s0 if reached else width
        rows: list[np.ndarray] = []
        ends: list[float] = []
        index: dict[bytes, int] = {}
        row_of = np.zeros(self.n_arms, dtype=np.int64)
        classes = model.mismatch_bound_classes()
        row_of_class: dict[int, int] = {}
        for k in range(self.n_arms):
            label = None if classes is None else int(classes[k])
            if label is not None and label in row_of_class:
                row_of[k] = row_of_class[label]
                continue
            b = np.ascontiguousarray(model.mismatch_bound(k, n), dtype=float)
            row_of[k] = index.setdefault(b.tobytes(), len(rows))
            if row_of[k] == len(rows):
                rows.append(b[:width])
                ends.append(float(b[width]))
            if label is not None:
                row_of_class[label] = int(row_of[k])
        table, end = np.ascontiguousarray(np.stack(rows)), np.array(ends, dtype=float)
        for a in (table, row_of, end):
            a.setflags(write=False)
        return table, row_of, end

    @functools.cached_property
    def bias_table(self) -> tuple[np.ndarray, np.ndarray]:
        """(rows, row_of): B_k(n) = rows[row_of[k], n - 1] for 1 <= n <= ``bias_width``.

        Arms with identical B_k share a row (all arms do under power decay), so memory is O(distinct rows x W); an
        arm whose model says it has the B_k of an arm met before (``mismatch_bound_classes``) is not tabulated again
        (Set B's 500 arms: one row computed, not 500, 0.3 s of each problem).
        """
        rows, row_of, _ = self._bias_rows
        return rows, row_of

    @functools.cached_property
    def continuation_end(self) -> np.ndarray:
        """B_k(N_gamma + S0) per row of :attr:`bias_table` (read-only): the far end of TACC's continuation window.

        TACC's continuation test (``eq:continuation-gain``) at arm k compares B_k(N) with B_k(N + s) for
        1 <= s <= S0 - A_k, N its low count; B_k is nonincreasing, so the test passes iff it passes at the largest s,
        and N - A_k = N_gamma whenever the test is made (the low count reaches N_gamma, N_gamma >= 1, by ordinary
        low queries, and passes it only by continuation pulls), so N + S0 - A_k = N_gamma + S0: one count per arm.
        When no run can make the test (N_gamma > floor(Lambda / lambda^(L))) the entry is B_k(W), never read.
        """
        return self._bias_rows[2]

    def bias(self, k: int, n: int) -> float:
        """B_k(n) for 1 <= n <= ``bias_length`` (what TACC and DNC read): from :attr:`bias_table` for
        n <= ``bias_width``, from :attr:`continuation_end` at N_gamma + S0, and past W otherwise from arm k's
        B_k(W + 1..L), tabulated the first time one is asked for: only the step form's continuation test reads
        them (it tries s = 1, 2, ... up to the first that passes; the fast engine reads the far end alone)."""
        if not 1 <= n <= self.bias_length:
            raise TaccInputError("n", n, f"B_k is tabulated for 1 <= n <= {self.bias_length}")
        rows, row_of = self.bias_table
        width = rows.shape[1]
        if n <= width:
            return float(rows[row_of[k], n - 1])
        if n == self.n_gamma + self.s0 and self.n_gamma <= self.low_reach:
            return float(self.continuation_end[row_of[k]])
        beyond = self.__dict__.setdefault("_bias_beyond", {})
        if k not in beyond:
            b = np.ascontiguousarray(self.instance.low.mismatch_bound(
                k, np.arange(width + 1, self.bias_length + 1, dtype=np.int64)), dtype=float)
            b.setflags(write=False)
            beyond[k] = b
        return float(beyond[k][n - width - 1])

    @functools.cached_property
    def static_bias(self) -> np.ndarray:
        """zeta_k = B_k(1), the fixed bias bound of the static rules (MF-UCB, LUCB-style)."""
        z = np.array(self.instance.low.static_biases(), dtype=float)      # B_k(1) of every arm, one vector call
        z.setflags(write=False)
        return z

    @functools.cached_property
    def units(self):
        """The exact integer units of the costs and budget (``bounds.cost_units``), computed once per problem."""
        return cost_units(self.cost_low, self.cost_high, self.budget)

    def checkpoint_units(self, checkpoints: tuple) -> np.ndarray:
        """``units.floor`` of each checkpoint (a cumulative cost in units exceeds checkpoint c exactly when it
        exceeds floor(c x denominator)), as a read-only int64 array, computed once per tuple of checkpoints."""
        memo = self.__dict__.setdefault("_checkpoint_units", {})
        hit = memo.get(checkpoints)
        if hit is None:
            if len(memo) >= 64:
                memo.pop(next(iter(memo)))
            hit = np.array([_floor(self.units, c) for c in checkpoints], dtype=np.int64)
            hit.setflags(write=False)
            memo[checkpoints] = hit
        return hit

    @functools.cached_property
    def static_bias_table(self) -> tuple[np.ndarray, np.ndarray]:
        """(rows, row_of) of the static rules (MF-UCB, LUCB-style): zeta_k = rows[row_of[k], 0], laid out as
        :attr:`bias_table` (read-only, so the fast engine's compiled loop sees one argument type for every
        policy and compiles once)."""
        rows = np.ascontiguousarray(self.static_bias[:, None])
        row_of = np.arange(self.n_arms, dtype=np.int64)
        rows.setflags(write=False)
        row_of.setflags(write=False)
        return rows, row_of

    @functools.cached_property
    def static_continuation_end(self) -> np.ndarray:
        """:attr:`continuation_end` laid out for :attr:`static_bias_table` (zeros: the static rules have no
        continuation branch; read-only, as the other, so the compiled loop compiles once)."""
        end = np.zeros(self.n_arms)
        end.setflags(write=False)
        return end

    @functools.cached_property
    def schedule(self) -> MeanSchedule:
        """The improving source's means (every two-fidelity policy, Low-Improving), with the power of their tail
        tabulated over the low-fidelity counts a run can reach (the budget over lambda^(L): Low-Improving queries
        one arm up to that often, TACC and DNC up to the B_k table's range), at most ``_POWER_TABLE`` counts (2 MiB),
        so the engines read them, not ``pow``."""
        return with_prefix(mean_schedule(self.instance.low, self.horizon),
                           min(max(self.bias_length, self.low_reach), _POWER_TABLE))

    @functools.cached_property
    def frozen_schedule(self) -> MeanSchedule:
        """The frozen source mean_low(k, 1) (Weak-Fixed)."""
        return mean_schedule(frozen_of(self.instance.low), self.horizon)

    # ------------------------------------------------------------------ RDFE (alg:app-rdfe)
    @functools.cached_property
    def rdfe_oracle(self):
        """The :class:`simulate.RdfeOracle` of this problem (stopping counts, fidelities, B_k), shared by the
        RDFE step form and the fast engine's plan."""
        from simulate._rdfe import RdfeOracle
        return RdfeOracle(self.instance.low, self.ell, self.cost_low, self.cost_high)

    @functools.cached_property
    def rdfe_plan(self) -> tuple:
        """(fidelity, stopping count, B_k at the block's end) per (arm, phase), and B_k(1): what the fast engine
        reads. Every run ends by the first phase whose high-fidelity count exceeds T_Lambda."""
        from simulate._fast import rdfe_plan
        return rdfe_plan(self)



def problem_of(config: Config, inst: Instance, like: Problem | None = None) -> Problem:
    """The :class:`Problem` of a configuration whose instance is already built.

    ``like``: a problem of the same instance (``inst`` is ``like.instance``) and the same gamma, whose
    certification times tau_k(gamma) are reused (they depend on nothing else; a sweep over budgets searches them
    once)."""
    c, p = config.costs, config.params
    t = thresholds(inst.n_arms, c.low, p.budget, delta=p.delta, rho=p.rho, gamma=p.gamma, s0=p.s0,
                   noise_scale=inst.noise.subgaussian_scale)
    if like is not None and like.instance is inst and like.gamma == float(p.gamma):
        tau = like.tau
    else:
        tau = instance_certification_times(inst, p.gamma)
    problem = Problem(config=config, instance=inst, cost_low=float(c.low), cost_high=float(c.high),
                      budget=float(p.budget), horizon=t.horizon, delta=float(p.delta), rho=t.rho, ell=t.ell,
                      gamma=float(p.gamma), eta=float(p.eta), s0=int(p.s0), n_gamma=t.n_gamma, tau=tau)
    if like is not None and like.instance is inst and "static_bias" in like.__dict__:
        problem.__dict__["static_bias"] = like.static_bias       # zeta_k = B_k(1): the instance's alone
    return problem


def _floor(units, amount) -> int:
    """``units.floor(amount)``, remembered per (denominator, amount): a sweep over budgets meets the same
    checkpoints again (the checkpoints of budget 2 Lambda include those of Lambda)."""
    key = (units.denominator, amount)
    hit = _FLOORS.get(key)
    if hit is None:
        if len(_FLOORS) >= 4096:
            _FLOORS.clear()
        hit = _FLOORS[key] = units.floor(amount)
    return hit


_FLOORS: dict = {}
