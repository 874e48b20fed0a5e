"""The gate: run policies on configurations and seeds, judge every claim, and aggregate a certificate
(issue 4, items 3 and 8)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from bounds import Config, TaccInputError, dump_config
from bounds import validate
from certify._assumptions import check_assumptions
from certify._draws import seed_only_draws
from certify._claims import CLAIMS, LEM_CI, UNDEFINED_RATIO, ClaimContext, claims_for
from certify._verdict import RunVerdict, Verdict, judge, judge_lem_ci
from simulate import make_problem, run, run_tasks, tasks_for

__all__ = ["DEFAULT_POLICIES", "ClaimSummary", "Reproducer", "IntegrityError", "NotJudged", "Certificate",
           "VACUOUS_RATIO", "check", "load_baseline", "accepted", "BASELINE", "unique_names", "sample_configs",
           "reproducer_path",
           "confirm"]

#: the policies a check runs by default: every policy some run-level claim is about.
DEFAULT_POLICIES = ("tacc", "dnc", "mf-ucb", "ucb", "rdfe")


@dataclass(frozen=True)
class ClaimSummary:
    """One claim over every run checked: verdict counts, and the largest empirical / bound.

    ``max_ratio`` is over asserted runs (HOLDS and VIOLATED); ``max_ratio_all`` over every run that measured
    something, NOT_APPLICABLE and OFF_EVENT included (what the assumption or the event buys). Each has a value or
    a reason (``<key>_reason``, None when there is a value): ``None`` when no run qualifies (judged on no run),
    NaN when every ratio among them is 0 / 0 (undefined: ``certify.UNDEFINED_RATIO``); an undefined ratio never
    counts as 0. ``vacuous`` counts the HOLDS verdicts whose every bound is infinite (``RunVerdict.vacuous``):
    they say nothing about tightness, so ``max_ratio`` leaves them out (None with ``VACUOUS_RATIO`` when every
    asserted run is vacuous), never a ratio of 0."""

    key: str
    label: str
    statement: str
    paper: bool
    counts: dict
    max_ratio: float | None
    max_ratio_all: float | None
    max_ratio_reason: str | None = None
    max_ratio_all_reason: str | None = None
    vacuous: int = 0


#: the reason of a ``max_ratio`` of None when every asserted run's bound is infinite.
VACUOUS_RATIO = "vacuous: the bound is infinite on every asserted run (HOLDS says nothing)"


@dataclass(frozen=True)
class Reproducer:
    """A VIOLATED verdict: the configuration file, the seed and the command that reruns it; ``accepted`` when the
    baseline accepts it, with the baseline entry's reason (``why``; "" when the entry gives none or it is new)."""

    claim: str
    label: str
    config: str
    policy: str
    seed: int | None
    path: str | None
    command: str
    accepted: bool
    why: str = ""


@dataclass(frozen=True)
class IntegrityError:
    """A VIOLATED verdict that did not survive a rerun from scratch: the stored run (a cache file, records
    passed in) is not what the policy does on that seed. Not a finding about the paper."""

    claim: str
    config: str
    policy: str
    seed: int | None
    stored: str
    rerun: str
    records_differ: bool

    def describe(self) -> str:
        what = "the stored run differs from a fresh run" if self.records_differ else "the verdict changed"
        seed = "all seeds" if self.seed is None else f"seed {self.seed}"
        return (f"{self.claim} on {self.config}, {self.policy}, {seed}: {self.stored} on the stored run(s), "
                f"{self.rerun} on a fresh run: {what}")


@dataclass(frozen=True)
class NotJudged:
    """A claim judged on no run (no HOLDS or VIOLATED with something measured), with why, in words: the
    assumptions that excluded it with their witnesses, off-event runs, undecided comparisons, or nothing to
    measure. ``measurable`` is True when some run had something the claim bounds (an arm of its class, a
    completed phase): the instance was meant to test the claim, and ``tacc check --strict`` fails on it."""

    claim: str
    label: str
    runs: int
    reasons: tuple
    measurable: bool



@dataclass(frozen=True)
class Certificate:
    """What ``tacc check`` reports: assumptions per configuration, every verdict, one summary per claim, a
    reproducer per confirmed VIOLATED verdict, and the VIOLATED verdicts a rerun from scratch did not confirm
    (``integrity_errors``). ``ok`` is False when a confirmed VIOLATED verdict is not accepted by the baseline."""

    configs: tuple
    policies: tuple
    seeds: tuple
    assumptions: dict
    verdicts: tuple
    summaries: tuple
    reproducers: tuple
    integrity_errors: tuple = ()

    @property
    def ok(self) -> bool:
        return all(r.accepted for r in self.reproducers)

    @property
    def new_violations(self) -> tuple:
        return tuple(r for r in self.reproducers if not r.accepted)

    @property
    def strict_failures(self) -> tuple:
        """Claims judged on no run although some run had something they bound (``--strict`` fails on them)."""
        return tuple(nj for nj in self.not_judged if nj.measurable)

    @property
    def run_verdicts(self) -> tuple:
        """The (claim, run) verdicts (``lem:ci``'s verdicts are per configuration and policy)."""
        return tuple(v for v in self.verdicts if v.seed is not None)

    @property
    def judged_pairs(self) -> int:
        """(claim, run) pairs asserted on something: HOLDS or VIOLATED with at least one measurement."""
        return sum(v.judged for v in self.run_verdicts)

    @property
    def not_judged(self) -> tuple:
        """Every claim that was run but judged on no run, with the reasons (:class:`NotJudged`)."""
        out = []
        for s in self.summaries:
            vs = [v for v in self.verdicts if v.claim == s.key]
            if any(v.judged for v in vs):
                continue
            out.append(NotJudged(s.key, s.label, len(vs), self.why_not_judged(vs),
                                 any(v.measurements > 0 for v in vs)))
        return tuple(out)

    def why_not_judged(self, verdicts) -> tuple:
        """Why each of ``verdicts`` (not HOLDS or VIOLATED) was not judged, in words, each reason once with its
        number of runs: the failed assumption with its detail and witness, the failed confidence event, the
        undecided comparison, or nothing to measure (what ``tacc check`` prints and its JUnit cases say)."""
        reasons: Counter = Counter()
        for v in verdicts:
            per = v.seed is not None       # a run's verdict; lem:ci's is one per (configuration, policy)
            if v.verdict is Verdict.NOT_APPLICABLE:
                for k in v.failed_assumptions:
                    r = self.assumptions[v.config][k]
                    reasons[f"NOT_APPLICABLE on {v.config}: {k} failed ({r.detail}; witness {r.witness})", per] += 1
            elif v.verdict is Verdict.UNDECIDED:
                reasons[f"UNDECIDED on {v.config}: {v.reason}", per] += 1
            elif v.verdict is Verdict.OFF_EVENT:
                reasons[f"OFF_EVENT on {v.config} ({v.policy}): the confidence event of lem:ci failed", per] += 1
            elif not v.judged:
                reasons[f"{v.verdict.value} on {v.config} ({v.policy}): {v.reason}", per] += 1
        return tuple(f"{text} [{n} {'run(s)' if per else '(configuration, policy) verdict(s)'}]"
                     for (text, per), n in reasons.items())


def unique_names(configs) -> list[Config]:
    """The configurations with unique names (a repeated name gets a suffix -2, -3, ...)."""
    seen: Counter = Counter()
    out = []
    for c in configs:
        seen[c.name] += 1
        out.append(c if seen[c.name] == 1 else replace(c, name=f"{c.name}-{seen[c.name]}"))
    return out


#: the repository's baseline: the paper's findings the gate and the property tests accept (each with "why").
BASELINE = Path(__file__).with_name("baseline.json")


def load_baseline(path) -> dict:
    """Accepted findings: a JSON list of {"claim": key, "config": name, "why": reason} (``"*"`` matches any
    configuration; ``why`` optional); ``"repo"`` is the repository's baseline (:data:`BASELINE`).

    Returns {(claim, configuration): why} ("" for an entry without a reason): :func:`accepted` reads it as a set of
    pairs, and a check's reproducers carry the reason (``Reproducer.why``)."""
    data = validate.json_file("baseline", BASELINE if str(path) == "repo" else path)
    if not isinstance(data, list):
        raise TaccInputError("baseline", str(path), 'must be a JSON list of {"claim": ..., "config": ...}')
    keys = [c.key for c in CLAIMS + (LEM_CI,)]
    for i, d in enumerate(data):
        entry = json.dumps(d, ensure_ascii=False)
        if not isinstance(d, dict) or not {"claim", "config"} <= set(d):
            raise TaccInputError("baseline", str(path), f'entry {i} ({entry}) must be an object with "claim" and '
                                                        f'"config" (and optionally "why")')
        unknown = sorted(set(d) - {"claim", "config", "why"})
        if unknown:                          # a misspelled "why" was dropped without a word
            raise TaccInputError("baseline", str(path), f"entry {i} ({entry}) has unknown key(s) "
                                                        f"{', '.join(json.dumps(k) for k in unknown)}: the keys are "
                                                        f'"claim", "config" and "why"')
        if not all(isinstance(d.get(k, ""), str) for k in ("claim", "config", "why")):
            raise TaccInputError("baseline", str(path), f"entry {entry}: claim, config and why must be strings")
        if d["claim"] not in keys:           # a typo would accept nothing, silently
            raise TaccInputError("baseline", str(path), f"entry {entry} names no claim: the claims are "
                                 f"{', '.join(keys)}")
    return {(d["claim"], d["config"]): d.get("why", "") for d in data}


def accepted(baseline, claim: str, config: str) -> bool:
    """Whether the baseline (:func:`load_baseline`'s mapping, or a set of (claim, configuration) pairs) accepts a
    VIOLATED verdict of ``claim`` on the configuration named ``config``."""
    return (claim, config) in baseline or (claim, "*") in baseline


def _why(baseline, claim: str, config: str) -> str:
    """The reason the baseline gives for accepting ``claim`` on ``config`` ("" for none, or for a set of pairs)."""
    if not isinstance(baseline, dict):
        return ""
    return baseline.get((claim, config)) or baseline.get((claim, "*")) or ""


def file_stem(text: str) -> str:
    """``text`` (a configuration's name) made safe as a file name's part: every run of characters other than
    letters, digits, ``_``, ``.`` and ``-`` becomes one ``-`` (no ``/``: a name cannot lead a file out of its
    folder)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


def reproducer_path(folder, name: str) -> Path:
    """The file :func:`check` writes the reproducer of configuration ``name`` to in ``folder`` (``<name>.toml``, the
    name made safe for a file name; names as :func:`unique_names` makes them)."""
    return Path(folder) / f"{file_stem(name)}.toml"


def _free(path: Path) -> Path:
    """``path``, or where it holds a file that is not a configuration (a reproducer of an earlier check is one, and
    is replaced), the first ``<stem>-2.toml``, ``-3``, ... that is free: a user's file is never written over (a
    README-only user's notes named like a reproducer were replaced in silence)."""
    from bounds import load_config
    candidate, i = path, 1
    while candidate.exists():
        try:
            load_config(str(candidate))
            return candidate
        except (TaccInputError, OSError, ValueError):
            i += 1
            candidate = path.with_name(f"{path.stem}-{i}{path.suffix}")
    return candidate


def _summaries(verdicts) -> tuple:
    out = []
    by_claim: dict = {}
    for v in verdicts:
        vs = by_claim.get(v.claim)
        if vs is None:
            vs = by_claim[v.claim] = []
        vs.append(v)
    asserting = (Verdict.HOLDS, Verdict.VIOLATED)
    for c in CLAIMS + (LEM_CI,):
        vs = by_claim.get(c.key, [])
        if not vs:
            continue
        counts: Counter = Counter()
        asserted, every = [], []
        vacuous, measured = 0, False
        for v in vs:                         # one pass: RunVerdict.judged inlined (asserted, something measured)
            verdict = v.verdict
            counts[verdict.value] += 1
            if v.worst is not None:
                measured = True
                if not v.vacuous:
                    every.append(v.ratio)
            if verdict in asserting and v.measurements > 0:
                if v.vacuous:
                    vacuous += 1
                else:
                    asserted.append(v.ratio)
        nothing = (VACUOUS_RATIO if vacuous else
                   f"judged on no run: no run had anything this claim bounds (no {c.measures})"
                   if not measured else
                   "judged on no run: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
        best, best_all = _max_ratio(asserted, nothing), _max_ratio(every, nothing)
        out.append(ClaimSummary(c.key, c.label, c.statement, c.paper,
                                {x.value: counts.get(x.value, 0) for x in Verdict}, best[0], best_all[0],
                                best[1], best_all[1], vacuous))
    return tuple(out)


def _max_ratio(ratios: list, nothing: str) -> tuple:
    """(the largest defined ratio, None) or, without one, (None, ``nothing``) when ``ratios`` is empty and
    (NaN, ``certify.UNDEFINED_RATIO`` on every run) when every ratio is 0 / 0."""
    if not ratios:
        return None, nothing
    defined = [r for r in ratios if not math.isnan(r)]
    if not defined:
        return math.nan, f"{UNDEFINED_RATIO} on every run"
    return max(defined), None


def check(configs, *, policies=DEFAULT_POLICIES, seeds=range(10), executor: str = "serial",
          workers: int | None = None, scheduler: str | None = None, cache=None, engine: str = "fast",
          progress: bool = False, reproducer_dir=None, baseline: dict | set | None = None,
          records=None, confirm_violations: bool = True) -> Certificate:
    """Run ``policies`` on every configuration and seed, and judge every claim about them.

    Args:
        configs: ``bounds.Config`` objects (names are made unique).
        policies, seeds: what to run (``simulate`` policy names; seed integers).
        executor, workers, scheduler, cache, engine, progress: passed to ``simulate.run_tasks``.
        reproducer_dir: where to write a configuration file per VIOLATED verdict (None: not written).
        baseline: accepted (claim, configuration) findings (:func:`load_baseline`: with their reasons, which
            the reproducers of accepted verdicts carry).
        records: run records already made, in ``simulate.tasks_for(configs, policies, seeds)`` order (skips the
            runs).
        confirm_violations: confirm every VIOLATED verdict on a fresh run (``certify._check.confirm``). Only a caller
            that promises no simulation (``tacc report --from``: saved runs) passes False, and must say that its
            VIOLATED verdicts are unconfirmed.
    """
    configs = unique_names(configs)
    seeds = tuple(int(s) for s in seeds)
    policies = tuple(policies)
    baseline = baseline or {}
    tasks = tasks_for(configs, policies, seeds)
    if records is None:
        records = run_tasks(tasks, executor=executor, workers=workers, scheduler=scheduler, cache=cache,
                            engine=engine, progress=progress)
    elif len(records) != len(tasks):
        raise TaccInputError("records", len(records), f"must hold one record per task ({len(tasks)})")
    contexts, assumptions = {}, {}
    for c in configs:
        problem = make_problem(c)
        assumptions[c.name] = check_assumptions(problem)
        contexts[c.name] = ClaimContext(problem, assumptions[c.name])
    verdicts: list[RunVerdict] = []
    groups: dict = {}
    about = {p: claims_for(p) for p in policies}
    for task, rec in zip(tasks, records, strict=True):
        ctx = contexts[task.config.name]
        verdicts += [judge(c, ctx, rec) for c in about[task.policy]]
        groups.setdefault((task.config.name, task.policy), []).append((task, rec))
    for (name, _policy), pairs in groups.items():
        verdicts.append(judge_lem_ci(contexts[name], [r for _, r in pairs]))
    verdicts, errors = confirm(verdicts, contexts, groups, engine) if confirm_violations else (verdicts, [])
    reproducers = []
    by_name = {c.name: c for c in configs}
    for v in verdicts:
        if v.verdict is not Verdict.VIOLATED:
            continue
        path = None
        if reproducer_dir is not None:
            d = Path(reproducer_dir)
            d.mkdir(parents=True, exist_ok=True)
            path = _free(reproducer_path(d, v.config))
            path.write_text(dump_config(by_name[v.config]))
        target = str(path) if path is not None else v.config
        seed_arg = f"{v.seed}:{v.seed + 1}" if v.seed is not None else f"{seeds[0]}:{seeds[-1] + 1}"
        reproducers.append(Reproducer(v.claim, v.label, v.config, v.policy, v.seed, None if path is None else str(path),
                                      f"tacc check {target} --policy {v.policy} --seeds {seed_arg} --evidence 0",
                                      accepted(baseline, v.claim, v.config), _why(baseline, v.claim, v.config)))
    return Certificate(tuple(c.name for c in configs), policies, seeds, assumptions, tuple(verdicts),
                       _summaries(verdicts), tuple(reproducers), tuple(errors))


def confirm(verdicts, contexts: dict, groups: dict, engine: str = "fast") -> tuple[list, list]:
    """Confirm every VIOLATED verdict on a run recomputed from scratch (never from a cache) and re-judged.

    Args:
        verdicts: the verdicts judged on the stored runs.
        contexts: {configuration name: ClaimContext}.
        groups: {(configuration name, policy): [(task, stored record), ...]}.
        engine: the engine of the reruns.

    Returns:
        (verdicts, integrity errors): every VIOLATED verdict is replaced by its verdict on the rerun; when the
        rerun does not confirm it, or the stored run differs from the rerun, an :class:`IntegrityError` is
        listed (the stored run is not what the policy does: a cache integrity error, not a finding).
    """
    fresh: dict = {}

    def rerun(name, policy, seed):
        key = (name, policy, seed)
        if key not in fresh:
            task, stored = next((t, r) for t, r in groups[name, policy] if t.seed == seed)
            fresh[key] = (stored, run(contexts[name].problem, policy, seed, engine=engine,
                                      checkpoints=task.checkpoints))
        return fresh[key]

    out, errors = [], []
    for v in verdicts:
        if v.verdict is not Verdict.VIOLATED:
            out.append(v)
            continue
        ctx = contexts[v.config]
        if v.seed is None:                                   # lem:ci over the seeds of (configuration, policy)
            pairs = [rerun(v.config, v.policy, t.seed) for t, _ in groups[v.config, v.policy]]
            again = judge_lem_ci(ctx, [r for _, r in pairs])
            differ = any(a != b for a, b in pairs)
        else:
            stored, new = rerun(v.config, v.policy, v.seed)
            again = judge(next(c for c in claims_for(v.policy) if c.key == v.claim), ctx, new)
            differ = stored != new
        out.append(again)
        if again.verdict is not Verdict.VIOLATED or differ:
            errors.append(IntegrityError(v.claim, v.config, v.policy, v.seed, v.verdict.value, again.verdict.value,
                                         differ))
    return out, errors


def sample_configs(n: int, seed: int = 0) -> list[Config]:
    """``n`` generated configurations (half targeted at every arm class, half from the generic strategy), drawn
    by hypothesis deterministically from ``seed``; the same arguments give the same list, in any process and
    install (the draw ignores constants of locally imported modules: ``certify._draws``)."""
    import random

    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import strategies as st

    from certify.strategies import configs as generic, targeted_configs

    if n <= 0:
        return []
    out: list = []
    rng = random.Random(seed)

    @settings(max_examples=n, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(st.one_of(targeted_configs(), generic(budget=st.integers(200, 5000))))
    def collect(config):
        if len(out) < n:
            out.append(replace(config, name=f"random-{len(out) + 1:03d}"))

    from hypothesis import seed as hypothesis_seed
    with seed_only_draws():
        hypothesis_seed(rng.getrandbits(64))(collect)()
    return out
