"""The metamorphic relations of ``certify`` run on one configuration, as a report section."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bounds import TaccInputError
from simulate import config_key
from certify import (READS, RELATIONS, RelationResult, default_runner, relabel_relation, s0_zero_relation,
                     scale_relation, static_relation, unread_relation)
from reports.tables import table

__all__ = ["RelationRow", "run_relations", "summarize", "markdown"]


@dataclass(frozen=True)
class RelationRow:
    """One metamorphic relation over the runs of the report's first seeds: the runs judged, held and failed, the
    policies judged, each failure (policy, seed, detail) and the reasons it did not apply to the others."""

    relation: str
    statement: str
    runs: int
    held: int
    failed: int
    policies: list[str]
    failures: list[str]
    not_applicable: list[str]


def _variants(config):
    """Copies of ``config`` that each differ in one part: eta, S0, gamma, and (table models) the certificate."""
    p = config.params
    out = [replace(config, params=replace(p, eta=p.eta / 2)), replace(config, params=replace(p, s0=p.s0 + 1)),
           replace(config, params=replace(p, gamma=p.gamma * 1.25))]
    low = config.instance.low
    if low.model == "table":
        cert = tuple(tuple(2 * x for x in row) for row in low.certificate)
        out.append(replace(config, instance=replace(config.instance, low=replace(low, certificate=cert))))
    return out


def _each_run_once():
    """``certify.default_runner``, each (configuration, policy, seed) run made once: every relation compares
    against runs of the same configuration (a run is a pure function of them; the key is the run cache's)."""
    made: dict = {}

    def runner(problem, policy: str, seed: int):
        key = (config_key(problem.config), policy, seed)
        if key not in made:
            made[key] = default_runner(problem, policy, seed)
        return made[key]
    return runner


def run_relations(config, seeds, policies=tuple(READS)) -> list[RelationResult]:
    """Every relation on ``config`` and ``seeds`` (a relation that cannot be applied gives a not-applicable
    result with the reason)."""
    seeds = tuple(seeds)
    runner = _each_run_once()
    out = []
    for other in _variants(config):
        try:
            out += unread_relation(config, other, seeds=seeds, policies=policies, runner=runner)
        except TaccInputError as exc:
            out.append(RelationResult("unread", "*", config.name, -1, None, str(exc)))
    try:
        perm = list(range(config.instance.n_arms))[::-1]
        out += relabel_relation(config, perm, seeds=seeds,
                                policies=[p for p in ("tacc", "dnc", "mf-ucb", "ucb", "weak-fixed", "low-improving")
                                          if p in policies])
    except TaccInputError as exc:
        out.append(RelationResult("relabel", "*", config.name, -1, None, str(exc)))
    out += s0_zero_relation(config, seeds=seeds, runner=runner)
    out += static_relation(config, seeds=seeds, runner=runner)
    out += scale_relation(config, 2.0, seeds=seeds, policies=policies, runner=runner)
    return out


def summarize(results) -> list[RelationRow]:
    """One row per relation: runs judged, held, failed, the policies judged, the reasons for not applicable."""
    rows = []
    for key, statement in RELATIONS.items():
        rs = [r for r in results if r.relation == key]
        judged = [r for r in rs if r.holds is not None]
        why: dict[str, set[str]] = {}
        for r in rs:
            if r.holds is None:
                why.setdefault(r.detail, set()).add(r.policy)
        reasons = [f"{', '.join(sorted(pols))}: {detail}" for detail, pols in sorted(why.items())]
        rows.append(RelationRow(key, statement, len(judged), sum(r.holds is True for r in judged),
                                sum(r.holds is False for r in judged), sorted({r.policy for r in judged}),
                                [f"{r.policy} seed {r.seed}: {r.detail}" for r in judged if r.holds is False],
                                reasons))
    return rows


def markdown(rows: list[RelationRow]) -> list[str]:
    """The report section's lines."""
    lines = ["Each policy declares the parts of an instance it reads (`certify._metamorphic.READS`); the relations "
             "that follow are checked exactly on runs of this configuration (same seeds; decisions = every query).",
             "", table(["relation", "statement", "runs judged", "held", "failed", "policies judged"],
                       [(r.relation, r.statement, r.runs, r.held, r.failed, ", ".join(r.policies) or "-")
                        for r in rows]), ""]
    for r in rows:
        for f in r.failures:
            lines.append(f"- FAILED {r.relation}: {f}")
        if r.not_applicable:
            shown = r.not_applicable[:4]
            more = len(r.not_applicable) - len(shown)
            lines.append(f"- `{r.relation}` not applicable to {'; '.join(shown)}"
                         + (f" (and {more} more)" if more > 0 else ""))
    return lines
