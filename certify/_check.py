"""The gate: run policies on configurations and seeds, judge every claim, and aggregate a certificate."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Sized
from dataclasses import dataclass, replace
from pathlib import Path

from bounds import Config, TaccInputError, dump_config
from bounds import validate
from certify._assumptions import check_assumptions
from certify._draws import seed_only_draws
from certify._claims import CLAIMS, LEM_CI, claims_for
from certify._context import ClaimContext
from certify._measurement import UNDEFINED_RATIO
from certify._tally import Tally, merged_reasons, reason_lines, reason_of
from certify._verdict import RunVerdict, Verdict, judge, judge_lem_ci_counts
from simulate import iter_runs, iter_tasks, make_problem, run

__all__ = ["DEFAULT_POLICIES", "ClaimSummary", "Reproducer", "IntegrityError", "NotJudged", "Certificate",
           "VACUOUS_RATIO", "check", "load_baseline", "accepted", "BASELINE", "unique_names", "sample_configs",
           "reproducer_path",
           "confirm", "KEEP"]

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
    counts: dict[str, int]
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
    baseline accepts it, with the baseline entry's reason (``why``; "" when the entry gives none or it is new);
    ``reason``, the verdict's own, with or without a baseline: the inequality exceeded with its amounts and any
    step of ``tacc proofs`` that refutes the statement (:func:`certify.judge`)."""

    claim: str
    label: str
    config: str
    policy: str
    seed: int | None
    path: str | None
    command: str
    accepted: bool
    why: str = ""
    reason: str = ""


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
    """What ``tacc check`` reports: assumptions per configuration, the verdicts kept (``verdicts_kept``: every one,
    or only the VIOLATED ones and ``lem:ci``'s, :data:`KEEP`), one summary per claim, a reproducer per confirmed
    VIOLATED verdict, and the VIOLATED verdicts a rerun from scratch did not confirm (``integrity_errors``). ``ok``
    is False when a confirmed VIOLATED verdict is not accepted by the baseline.

    ``tally`` counts every verdict, kept or not (:class:`certify._tally.Tally`): the judged pairs, the claims judged
    on no run and the JUnit cases read it (made from ``verdicts`` when not given)."""

    configs: tuple
    policies: tuple
    seeds: tuple | range
    assumptions: dict
    verdicts: tuple
    summaries: tuple
    reproducers: tuple
    integrity_errors: tuple = ()
    tally: Tally | None = None
    verdicts_kept: str = "all"

    def __post_init__(self):
        if self.tally is None:
            object.__setattr__(self, "tally", Tally.of(self.verdicts, self.assumptions))

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
        """The (claim, run) verdicts kept (``lem:ci``'s verdicts are per configuration and policy)."""
        return tuple(v for v in self.verdicts if v.seed is not None)

    @property
    def run_pairs(self) -> int:
        """(claim, run) pairs judged, kept or not."""
        return self._tally.run_pairs

    @property
    def judged_pairs(self) -> int:
        """(claim, run) pairs asserted on something: HOLDS or VIOLATED with at least one measurement."""
        return self._tally.judged_pairs

    @property
    def _tally(self) -> Tally:
        assert self.tally is not None                    # made in __post_init__
        return self.tally

    @property
    def not_judged(self) -> tuple:
        """Every claim that was run but judged on no run, with the reasons (:class:`NotJudged`)."""
        out = []
        for s in self.summaries:
            cells = self._tally.of_claim(s.key)
            if any(c.judged for c in cells):
                continue
            out.append(NotJudged(s.key, s.label, sum(c.n for c in cells), reason_lines(merged_reasons(cells)),
                                 any(c.measurable for c in cells)))
        return tuple(out)

    def why_not_judged(self, verdicts) -> tuple:
        """Why each of ``verdicts`` (not HOLDS or VIOLATED) was not judged, in words, each reason once with its
        number of runs: the failed assumption with its detail and witness, the failed confidence event, the
        undecided comparison, or nothing to measure (what ``tacc check`` prints and its JUnit cases say)."""
        reasons: Counter = Counter()
        for v in verdicts:
            for r in reason_of(v, self.assumptions) or ():
                reasons[r] += 1
        return reason_lines(reasons)


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
    is replaced), the first ``<stem>-2.toml``, ``-3``, ... that is free: a user's file is never written over, not
    even notes named like a reproducer."""
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


def _summaries(verdicts, assumptions: dict | None = None) -> tuple:
    """The claims' summaries of ``verdicts`` (:func:`summaries_of` of their :class:`certify._tally.Tally`)."""
    return summaries_of(Tally.of(verdicts, assumptions or {}))


def summaries_of(tally: Tally) -> tuple:
    """One :class:`ClaimSummary` per claim with a verdict, in the order of ``CLAIMS`` (``lem:ci`` last), from the
    tally's cells: the verdict counts, the largest ratios (asserted runs, every measured run; vacuous runs left
    out) or why there is none."""
    out = []
    for c in CLAIMS + (LEM_CI,):
        cells = tally.of_claim(c.key)
        if not cells:
            continue
        counts: Counter = Counter()
        vacuous, measured, asserted, every = 0, False, False, False
        top = top_all = -math.inf
        for cell in cells:
            counts.update(cell.counts)
            vacuous += cell.vacuous
            measured, asserted, every = measured or cell.measured, asserted or cell.asserted, every or cell.every
            top, top_all = max(top, cell.top), max(top_all, cell.top_all)
        nothing = (VACUOUS_RATIO if vacuous else
                   f"judged on no run: no run had anything this claim bounds (no {c.measures})"
                   if not measured else
                   "judged on no run: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items()) if n))
        best, best_all = _max_ratio(asserted, top, nothing), _max_ratio(every, top_all, nothing)
        out.append(ClaimSummary(c.key, c.label, c.statement, c.paper,
                                {x.value: counts.get(x.value, 0) for x in Verdict}, best[0], best_all[0],
                                best[1], best_all[1], vacuous))
    return tuple(out)


def _max_ratio(any_run: bool, top: float, nothing: str) -> tuple:
    """(the largest defined ratio, None) or, without one, (None, ``nothing``) when no run qualifies (``any_run``
    False) and (NaN, ``certify.UNDEFINED_RATIO`` on every run) when every ratio is 0 / 0 (``top`` -inf)."""
    if not any_run:
        return None, nothing
    if top == -math.inf:
        return math.nan, f"{UNDEFINED_RATIO} on every run"
    return top, None


#: what a check keeps of its verdicts (``check(keep=)``, ``tacc check --verdicts``): every one, or only the
#: VIOLATED ones and ``lem:ci``'s (one per configuration and policy). The summaries, the judged pairs, the claims
#: judged on no run with their reasons and the JUnit cases are the same either way (:class:`certify._tally.Tally`).
KEEP = ("all", "violated")


@dataclass
class _Group:
    """One (configuration, policy)'s runs as ``lem:ci`` reads them, counted one run at a time: ``failures`` decided
    exactly, ``rounding`` seen by the float check alone, and ``facts``, a hash of every run's seed, event flag and
    first deviation in seed order (a VIOLATED ``lem:ci`` verdict is confirmed on reruns of every seed, whose facts
    are compared with these: no record is kept). The hash is Python's, compared within one process only."""

    policy: str
    n: int = 0
    failures: int = 0
    rounding: int = 0
    facts: int = 0

    def add(self, ctx: ClaimContext, rec) -> None:
        held = ctx.event_held(rec)
        self.n += 1
        self.failures += not held
        self.rounding += held and not rec.event_held
        self.facts = hash((self.facts, rec.seed, rec.event_held, rec.violation))

    def verdict(self, ctx: ClaimContext) -> RunVerdict:
        return judge_lem_ci_counts(ctx, self.policy, self.n, self.failures, self.rounding)


def check(configs, *, policies=DEFAULT_POLICIES, seeds=range(10), executor: str = "serial",
          workers: int | None = None, scheduler: str | None = None, cache=None, engine: str = "fast",
          progress: bool = False, reproducer_dir=None, baseline: dict | set | None = None,
          records=None, confirm_violations: bool = True, keep: str = "all") -> Certificate:
    """Run ``policies`` on every configuration and seed, and judge every claim about them.

    The runs are judged as they come back (``simulate.iter_runs``) and never kept: with ``keep="violated"`` the
    memory does not grow with the number of seeds.

    Args:
        configs: ``bounds.Config`` objects (names are made unique).
        policies, seeds: what to run (``simulate`` policy names; seed integers; a ``range`` stays one).
        executor, workers, scheduler, cache, engine, progress: passed to ``simulate.iter_runs``.
        reproducer_dir: where to write a configuration file per VIOLATED verdict (None: not written).
        baseline: accepted (claim, configuration) findings (:func:`load_baseline`: with their reasons, which
            the reproducers of accepted verdicts carry).
        records: run records already made, in ``simulate.tasks_for(configs, policies, seeds)`` order (skips the
            runs): a sequence, or an iterator read once as the runs are judged (``tacc report`` passes its sweep's
            runs at the full budget as they come); one record too many or too few is an error.
        confirm_violations: confirm every VIOLATED verdict on a fresh run from scratch. Only a caller
            that promises no simulation (``tacc report --from``: saved runs) passes False, and must say that its
            VIOLATED verdicts are unconfirmed.
        keep: ``all`` keeps every verdict in ``Certificate.verdicts``; ``violated`` only the VIOLATED ones and
            ``lem:ci``'s (:data:`KEEP`).
    """
    if keep not in KEEP:
        raise TaccInputError("keep", keep, f"must be one of {', '.join(KEEP)}")
    configs = unique_names(configs)
    seeds = seeds if isinstance(seeds, range) else tuple(int(s) for s in seeds)
    policies = tuple(policies)
    baseline = baseline or {}
    total = len(configs) * len(policies) * len(seeds)
    if records is None:
        records = iter_runs(iter_tasks(configs, policies, seeds), executor=executor, workers=workers,
                            scheduler=scheduler, cache=cache, engine=engine, progress=progress, total=total)
    elif isinstance(records, Sized) and len(records) != total:
        raise TaccInputError("records", len(records), f"must hold one record per task ({total})")
    contexts, assumptions = {}, {}
    for c in configs:
        problem = make_problem(c)
        assumptions[c.name] = check_assumptions(problem)
        contexts[c.name] = ClaimContext(problem, assumptions[c.name])
    tally = Tally(assumptions)
    kept: list[RunVerdict] = []
    stored: dict = {}                  # (configuration, policy, seed) -> (task, record): runs with a VIOLATED verdict
    pending: list[int] = []            # where the VIOLATED verdicts are in ``kept``
    groups: dict = {}
    about = {p: claims_for(p) for p in policies}
    every = keep == "all"
    for task, rec in zip(iter_tasks(configs, policies, seeds), records, strict=True):
        name = task.config.name
        ctx = contexts[name]
        group = groups.get((name, task.policy))
        if group is None:
            group = groups[name, task.policy] = _Group(task.policy)
        group.add(ctx, rec)
        for c in about[task.policy]:
            v = judge(c, ctx, rec)
            if v.verdict is Verdict.VIOLATED:
                tally.cell(v)                  # counted once confirmed (below), in its place among the cells
                stored[name, task.policy, task.seed] = (task, rec)
                pending.append(len(kept))
                kept.append(v)
            else:
                tally.add(v)
                if every:
                    kept.append(v)
    for (name, _policy), group in groups.items():
        v = group.verdict(contexts[name])
        if v.verdict is Verdict.VIOLATED:
            tally.cell(v)
            pending.append(len(kept))
        else:
            tally.add(v)
        kept.append(v)
    kept, errors = confirm(kept, contexts, stored, groups, seeds, engine) if confirm_violations else (kept, [])
    for i in pending:                  # the VIOLATED verdicts as confirmed (or not: an integrity error)
        tally.add(kept[i])
    reproducers = []
    by_name = {c.name: c for c in configs}
    for v in kept:
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
                                      accepted(baseline, v.claim, v.config), _why(baseline, v.claim, v.config),
                                      v.reason))
    return Certificate(tuple(c.name for c in configs), policies, seeds, assumptions, tuple(kept),
                       summaries_of(tally), tuple(reproducers), tuple(errors), tally, keep)


def confirm(verdicts, contexts: dict, stored: dict, groups: dict, seeds, engine: str = "fast") -> tuple[list, list]:
    """Confirm every VIOLATED verdict on a run recomputed from scratch (never from a cache) and re-judged.

    Args:
        verdicts: the verdicts judged on the stored runs.
        contexts: {configuration name: ClaimContext}.
        stored: {(configuration name, policy, seed): (task, stored record)} of every run with a VIOLATED verdict.
        groups: {(configuration name, policy): :class:`_Group`} (a VIOLATED ``lem:ci`` verdict reruns every seed
            and compares the runs' event facts with the group's: ``records_differ`` when they differ).
        seeds: the seeds of the check.
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
            task, rec = stored[key]
            fresh[key] = (rec, run(contexts[name].problem, policy, seed, engine=engine, checkpoints=task.checkpoints))
        return fresh[key]

    out, errors = [], []
    for v in verdicts:
        if v.verdict is not Verdict.VIOLATED:
            out.append(v)
            continue
        ctx = contexts[v.config]
        if v.seed is None:                                   # lem:ci over the seeds of (configuration, policy)
            again_group = _Group(v.policy)
            for seed in seeds:
                again_group.add(ctx, run(ctx.problem, v.policy, seed, engine=engine))
            again = again_group.verdict(ctx)
            differ = again_group.facts != groups[v.config, v.policy].facts
        else:
            rec, new = rerun(v.config, v.policy, v.seed)
            again = judge(next(c for c in claims_for(v.policy) if c.key == v.claim), ctx, new)
            differ = rec != new
        out.append(again)
        if again.verdict is not Verdict.VIOLATED or differ:
            errors.append(IntegrityError(v.claim, v.config, v.policy, v.seed, v.verdict.value, again.verdict.value,
                                         differ))
    return out, errors


def sample_configs(n: int, seed: int = 0) -> list[Config]:
    """``n`` generated configurations (half targeted at every arm class, half from the generic strategy), drawn
    by hypothesis deterministically from ``seed``; the same arguments give the same list, in any process and
    install (the draw ignores the constants of modules imported meanwhile)."""
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
