"""What ``tacc reproduce`` keeps of one experiment's runs, counted as they come, in memory that does not grow with
the seeds: the regret curves and identical-runs digests per (variant, budget, method), each variant's
final-budget runs on common seeds (``reports.reproduce._common_seeds.CommonSeeds``: summaries, paired
differences, diagnostics, per-arm sums for the explanations), the arm classes TACC's runs refine, and the rho
sweep's runs."""

from __future__ import annotations

from collections import Counter

from bounds import arm_partition, refine_partition
from certify import event_failure
from reports.reproduce._common_seeds import CommonSeeds
from reports.report import RecordStreams
from simulate import make_problem

__all__ = ["ExperimentTally"]


class ExperimentTally:
    """One experiment's runs (``plan``: a ``reports.reproduce._reproduce`` plan), given by :meth:`add` with the task
    each answers, in any order across configurations and in seed order within one (configuration, method).

    ``curves[v, b, m]`` (``RecordStreams``), ``final[v]`` (``CommonSeeds`` of the variant at the full budget, per
    arm, compared), ``sweep[j]`` (of the sweep's j-th configuration), ``priors[v]`` ((problem, arm classes before
    the runs) at the full budget), ``refined[v]`` (C^d / C^u counts summed over TACC's runs)."""

    def __init__(self, plan):
        exp = plan.exp
        self.plan = plan
        self.full = plan.budgets[-1]
        self.curves = RecordStreams([(v, b, m) for (v, b) in plan.configs for m in exp.methods])
        self.final = {v.name: CommonSeeds(exp.methods, per_arm=True, compare=True) for v in exp.variants}
        self.sweep = [CommonSeeds(exp.methods) for _ in plan.sweep_keys]
        self.priors: dict = {}
        self.refined = {v.name: Counter() for v in exp.variants}
        self._problems: dict = {}       # id(configuration) -> (configuration, its problem), made when first needed
        for v in exp.variants:
            config = plan.configs[(v.name, self.full)]
            problem = make_problem(config)
            self._problems[id(config)] = (config, problem)
            self.priors[v.name] = (problem, arm_partition(problem.tau, problem.n_gamma, problem.s0,
                                                          problem.instance.best_arm))
        self._place = {id(c): ("main", v, b) for (v, b), c in plan.configs.items()}
        self._place.update({id(c): ("sweep", j) for j, c in enumerate(plan.sens_cfgs)})
        self._last: dict = {}           # (variant, budget, method) -> the last seed counted
        self.remaining = plan.runs_read()

    def off_event(self, config, record) -> bool:
        """Whether the confidence event of ``lem:ci`` failed on a run of ``config``, decided exactly
        (``certify.event_failure``: a failure the float check reported and the exact sums do not confirm was the
        float sums' rounding; a run the float check did not flag held, within the float sums' stated error,
        ``certify.float_sums_faithful``, which holds on every experiment here: means in [0, 1], sigma 1). The
        configuration's problem is made only for a flagged run."""
        if record.event_held:
            return False
        hit = self._problems.get(id(config))
        if hit is None:
            hit = self._problems[id(config)] = (config, make_problem(config))
        return event_failure(hit[1], record) is not None

    def add(self, task, record) -> bool:
        """Count ``record``, the run of ``task``; returns whether every run of the experiment is counted."""
        place, m, seed = self._place[id(task.config)], task.policy, task.seed
        off = self.off_event(task.config, record)
        if place[0] == "main":
            _, v, b = place
            key = (v, b, m)
            if seed <= self._last.get(key, -1):
                raise RuntimeError(f"{m} on {task.config.name}: seed {seed} came after seed {self._last[key]}")
            self._last[key] = seed
            body = self.curves.add(key, record)
            if b == self.full:
                self.final[v].add(m, seed, record, off, body)
                if m == "tacc":
                    problem, prior = self.priors[v]
                    self.refined[v].update(c.value for c in refine_partition(prior, problem.tau, record.facts()))
        else:
            self.sweep[place[1]].add(m, seed, record, off)
        self.remaining -= 1
        if self.remaining < 0:
            raise RuntimeError(f"{self.plan.exp.key}: more runs than planned")
        if self.remaining == 0:
            for t in (*self.final.values(), *self.sweep):
                t.close()
        return self.remaining == 0
