"""The runs ``tacc reproduce`` makes: each experiment's plan (every variant at every budget, and the rho sweep), the
experiments named on the command line, and every run made once across experiments (:class:`Shared`), a block of
seeds at a time."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace

from bounds import min_rho
from reports.reproduce._paper import EXPERIMENTS, Experiment, Variant, experiment
from reports.reproduce._variant import preset, variant_config
from simulate import LOW, SingleFidelityUcb, Task, config_key, make_problem, policy_class, tasks_for

__all__ = ["Plan", "Shared", "SEED_BLOCK", "plan_of", "routed", "selected", "seed_count", "work", "distinct_runs",
           "experiment_variant", "claim_variants", "sweep_scales", "experiment_budgets", "swept_variants",
           "sweep_seeds"]


def claim_variants(c, exp) -> tuple:
    """The variants a claim is judged on."""
    return tuple(v.name for v in exp.variants) if c.kind == "decreasing" else (c.args[0],)


def sweep_scales(exp, quick) -> tuple:
    """The rho / rho_min values of the sweep: every one, or with ``quick`` the nearest above 1 and 1 itself."""
    if not quick:
        return exp.rho_scales
    above = [s for s in exp.rho_scales if s > 1]
    return tuple(([min(above)] if above else []) + [1.0])


def experiment_budgets(exp: Experiment, quick: bool) -> list:
    fractions = exp.budget_fractions[-2:] if quick else exp.budget_fractions
    full = preset(exp.preset).params.budget
    return [full * f for f in fractions]


def swept_variants(exp: Experiment, quick: bool) -> tuple:
    """(the representative variant, the names of the variants the rho sweep runs)."""
    sv = next(v for v in exp.variants if v.name == (exp.sensitivity_variant or exp.variants[0].name))
    swept = [v.name for v in exp.variants if v.name == sv.name or (not quick and any(
        v.name in claim_variants(c, exp) for c in exp.claims))]           # --quick: the representative only
    return sv, swept


def sweep_seeds(n: int) -> int:
    return min(n, 50)


def work(keys=("all",), *, seeds: int | None = None, quick: bool = False) -> list[tuple]:
    """The runs :func:`reproduce` makes, as (configurations, methods, seeds per configuration) groups, for
    ``reports.estimate``: every variant at every budget, and the rho sweep (its configurations differ from the
    variant only in rho, so each counts as the variant at the full budget: the same rounds and runs; the memory
    bound is the one at rho_min)."""
    out = []
    for exp in selected(keys, seeds):
        n = seed_count(exp, seeds, quick)
        budgets = experiment_budgets(exp, quick)
        out.append(([variant_config(exp, v, budget=b) for v in exp.variants for b in budgets], exp.methods, n))
        _, swept = swept_variants(exp, quick)
        out.append(([variant_config(exp, experiment_variant(exp, v), budget=budgets[-1])
                     for _ in sweep_scales(exp, quick) for v in swept], exp.methods, sweep_seeds(n)))
    return out


def seed_count(exp: Experiment, seeds: int | None, quick: bool) -> int:
    """Seeds per configuration: ``seeds`` if given, else the experiment's (its quick count under --quick)."""
    return seeds if seeds is not None else (exp.quick_seeds if quick else exp.seeds)


#: the seeds of every experiment made together (their runs paired, then let go) before the next block's: the
#: memory a reproduction holds does not grow with --seeds beyond one block; the paper's seed counts (at most 200)
#: are one block, so their runs are made in the order of the experiments.
SEED_BLOCK = 256


def _block(plans, shared: "Shared", lo: int, block: int) -> list[tuple[Task, str, list]]:
    """The runs of seeds ``lo`` to ``lo + block - 1`` of every experiment, each made once (:class:`Shared`): (task,
    its key, [(experiment's index, task)] of the analyses that read its record), in the order they are made."""
    shared.new_block()
    readers: dict = {}
    for i, p in enumerate(plans):
        seeds = p.seeds[lo:lo + block]
        tasks = p.tasks_in(seeds) + p.sweep_tasks_in(seeds)
        for t, k in zip(tasks, shared.keys(tasks), strict=True):
            readers.setdefault(k, []).append((i, t))
    return [(t, k, readers.pop(k, [])) for t in shared.order for k in (shared.key(t),)]


def routed(plans, shared: "Shared", block: int) -> tuple[int, Iterator[tuple[Task, str, list]]]:
    """(how many runs, the runs): every run the plans need (:func:`_block`), ``block`` seeds of every experiment
    at a time, each block planned when the one before it has been taken. The count plans the first block and one
    block of each other shape (the seeds each experiment and its rho sweep have in it): every configuration is met
    in the first block, so the guards (:class:`Shared`) are all there, and blocks of one shape make as many runs."""
    longest = max((len(p.seeds) for p in plans), default=0)
    first = _block(plans, shared, 0, block)
    shapes: dict = {}                   # seeds per experiment in a block -> [the first such block's start, count]
    for lo in range(block, longest, block):
        shape = tuple((len(p.seeds[lo:lo + block]), len(p.sens_seeds[lo:lo + block])) for p in plans)
        shapes.setdefault(shape, [lo, 0])[1] += 1
    total = len(first) + sum(len(_block(plans, shared, lo, block)) * n for lo, n in shapes.values())

    taken = [first]                     # let go once taken (the generator would hold it to the end)

    def runs():
        yield from taken.pop()
        for lo in range(block, longest, block):
            yield from _block(plans, shared, lo, block)

    return total, runs()


def distinct_runs(keys=("all",), *, seeds: int | None = None, quick: bool = False) -> list[Task]:
    """The runs ``tacc reproduce KEYS`` makes, each once, in the order it makes them (runs shared across
    experiments and across configurations that differ only in ``costs.high`` for the low-fidelity-only methods
    counted once; the guards' runs included). ``tacc bench`` makes them with the engine alone, the floor of the
    reproduction's wall time."""
    exps = selected(keys, seeds)
    plans = [plan_of(e, seeds=range(seed_count(e, seeds, quick)), quick=quick) for e in exps]
    return [t for t, _, _ in routed(plans, Shared(), SEED_BLOCK)[1]]


def selected(keys, seeds) -> list:
    """The experiments named by ``keys`` ("all" for every one), with ``seeds`` checked."""
    from bounds import TaccInputError, did_you_mean
    exps = list(EXPERIMENTS) if "all" in keys else []
    for k in keys:
        if k == "all":
            continue
        try:
            e = experiment(k)
            if e not in exps:             # named twice (or with all): run once
                exps.append(e)
        except KeyError:
            names = ["all", *(e.key for e in EXPERIMENTS)]
            raise TaccInputError("experiment", k, f"must be 'all' or one of {', '.join(names[1:])}"
                                 + did_you_mean(k, names)) from None
    if seeds is not None and (isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 2):
        raise TaccInputError("seeds", seeds, "must be an int >= 2 (paired intervals need two seeds)")
    return exps


@dataclass(frozen=True)
class Plan:
    """The runs of one experiment: every variant at every budget (:meth:`tasks_in`) and the rho sweep
    (:meth:`sweep_tasks_in`)."""

    exp: Experiment
    quick: bool
    seeds: list
    budgets: list
    configs: dict
    sv: Variant
    swept: list
    scales: tuple
    sens_seeds: list
    sweep_keys: list
    sens_cfgs: list

    def tasks_in(self, seeds) -> list[Task]:
        """The runs of every variant at every budget on ``seeds`` (configuration, method, seed)."""
        return tasks_for(list(self.configs.values()), self.exp.methods, seeds)

    def sweep_tasks_in(self, seeds) -> list[Task]:
        """The rho sweep's runs on those of ``seeds`` it runs (the first ``sens_seeds``)."""
        swept = set(self.sens_seeds)
        return tasks_for(self.sens_cfgs, self.exp.methods, [s for s in seeds if s in swept])

    def runs_read(self) -> int:
        """How many records the analysis reads (a run shared by two configurations counted for each)."""
        n = len(self.exp.methods)
        return n * (len(self.seeds) * len(self.configs) + len(self.sens_seeds) * len(self.sens_cfgs))


def plan_of(exp: Experiment, *, seeds, quick) -> Plan:
    budgets = experiment_budgets(exp, quick)
    configs = {(v.name, b): variant_config(exp, v, budget=b) for v in exp.variants for b in budgets}
    # rho sweep, final budget: the representative variant and every variant a claim is judged on, above and below
    # the rho used (rho_min)
    sv, swept = swept_variants(exp, quick)
    scales = sweep_scales(exp, quick)
    sens_seeds = seeds[:sweep_seeds(len(seeds))]
    prob = make_problem(configs[(sv.name, budgets[-1])])
    rmin = min_rho(prob.instance.noise.subgaussian_scale, prob.n_arms, prob.horizon, prob.delta)
    sweep_keys = [(s, v) for s in scales for v in swept]
    # at rho / rho_min = 1 the sweep's configuration is the variant's own at the final budget (rho "min", resolved
    # to the same float): its runs are the variant's runs on the sweep's seeds, made once (not at rho_min rounded)
    sens_cfgs = [variant_config(exp, experiment_variant(exp, v), budget=budgets[-1], rho="min") if s == 1 else
                 variant_config(exp, experiment_variant(exp, v), budget=budgets[-1], rho=round(s * rmin, 10),
                                rho_scale=s)
                 for s, v in sweep_keys]
    return Plan(exp, quick, seeds, budgets, configs, sv, swept, scales, sens_seeds, sweep_keys, sens_cfgs)


def _low_only(policy: str) -> bool:
    """Whether every query of ``policy`` is at the low fidelity (Weak-Fixed, Low-Improving): its start and its
    choices are ``Action(k, fidelity)`` with the class's fidelity LOW."""
    cls = policy_class(policy)
    return issubclass(cls, SingleFidelityUcb) and cls.fidelity == LOW


class Shared:
    """Every run of a reproduction made once.

    Two tasks with the same key (the same configuration, policy and seed: Set A's runs in the decay experiment)
    are one run. A policy whose every query is at the low fidelity (:func:`_low_only`) never reads lambda^(H): its
    budget check, counts, cost and regret (lambda^(H) N^(H) = 0) do not involve it, so on configurations that
    differ only in ``costs.high`` (the LLM experiments' variants) it makes the same run; such tasks are run once,
    on the first of those configurations met. That is checked, not assumed: on every other configuration the first
    seed is also run for real, and a record that differs stops the reproduction (:meth:`check`).
    """

    def __init__(self):
        self.order: list[Task] = []         # the runs to make, each once, in the order first needed
        self._seen: set = set()
        self._keys: dict = {}               # id(task of order) -> its key (the tasks are held by order)
        self._canon: dict = {}              # id(config) -> (config, representative configuration)
        self._rep: dict = {}                # digest of a configuration without costs.high -> the first met
        self.guards: list[tuple] = []       # (real key, shared key, task) of the first seed on each other config
        self._guarded: set = set()          # (id(config), policy) guarded (the configurations are held by _canon)
        self.watched: set = set()           # the keys of the guards' runs

    def new_block(self) -> None:
        """Forget the runs of :attr:`order` (a block of seeds made): the next block's runs are new (each seed is in
        one block); the guards stay, one per configuration and policy."""
        self.order, self._seen, self._keys = [], set(), {}

    def _representative(self, config):
        hit = self._canon.get(id(config))
        if hit is None:
            free = config_key(replace(config, costs=replace(config.costs, high=config.costs.low)))
            hit = self._canon[id(config)] = (config, self._rep.setdefault(free, config))
        return hit[1]

    def _add(self, task: Task) -> str:
        key = task.key()
        if key not in self._seen:
            self._seen.add(key)
            self.order.append(task)
            self._keys[id(task)] = key
        return key

    def key(self, task: Task) -> str:
        """The key of a task of :attr:`order` (computed once, when it was added)."""
        return self._keys[id(task)]

    def keys(self, tasks: list[Task]) -> list[str]:
        """The key of the run that serves each task (adding the runs not met before)."""
        out, guarded = [], self._guarded
        for t in tasks:
            rep = self._representative(t.config) if _low_only(t.policy) else t.config
            if rep is t.config or config_key(rep) == config_key(t.config):
                out.append(self._add(t))
                continue
            shared = self._add(Task(rep, t.policy, t.seed, t.checkpoints))
            out.append(shared)
            if (id(t.config), t.policy) not in guarded:
                guarded.add((id(t.config), t.policy))
                real = self._add(t)
                self.guards.append((real, shared, t))
                self.watched.update((real, shared))
        return out

    def check(self, done: dict) -> None:
        """Every guard whose two runs are in ``done``: a record that differs from the shared one is an error."""
        for real, shared, t in list(self.guards):
            if real in done and shared in done:
                self.guards.remove((real, shared, t))
                self.watched = {k for g in self.guards for k in g[:2]}
                if done[real] != done[shared]:
                    raise RuntimeError(f"{t.policy} on {t.config.name}, seed {t.seed}: the run differs from the one "
                                       f"on a configuration that differs only in costs.high, so its runs cannot "
                                       f"be shared")


def experiment_variant(exp: Experiment, name: str):
    return next(v for v in exp.variants if v.name == name)
