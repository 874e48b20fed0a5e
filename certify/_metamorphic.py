"""Metamorphic relations: what must follow from what each policy reads of an instance.

Each policy declares the parts of an instance its decisions may depend on (:data:`READS`); the relations below
follow from those declarations and from the algorithms' definitions, and are checked exactly on runs:

- ``unread``: two instances that differ only in parts a policy does not read give it the same decisions on common
  seeds (the parts that differ are computed from the two problems, never assumed);
- ``relabel``: relabelling the arms permutes every per-arm count. The reward table draws by arm index, so the
  relation is exact only when observations do not depend on the draw: Bernoulli rewards with every mean (high,
  and low at every count) in {0, 1}. Ties in an argmax go to the lowest index, which a relabelling changes, so a
  run is judged only if its argmax was unique at every selection (checked on the step form); otherwise the
  relation is not applicable to that run and says why;
- ``s0-zero``: TACC with S_0 = 0 makes DNC's run (line 9 of ``alg:adaptive-mf-mab`` needs A_k < S_0);
- ``static``: MF-UCB makes DNC's run when B_k(n) = B_k(1) at every count (``rem:evolving_vs_static``);
- ``scale``: multiplying both costs and the budget by c = 2^j multiplies the cost, the regret and every
  checkpoint by c, with the same decisions (a power of two keeps every product and comparison exact).

A relation's result is HOLDS (True), FAILS (False: an engine or a declaration is wrong) or not applicable (None,
with the reason).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from bounds import Config, TaccInputError, config_to_dict, toml_value
from simulate import POLICIES, RunRecord, make_policy, make_problem, policy_class, run, run_reference

__all__ = ["PARTS", "READS", "RELATIONS", "RelationResult", "instance_parts", "changed_parts", "reads",
           "decisions", "unread_relation", "relabel_config", "relabel_relation", "s0_zero_relation",
           "static_relation", "scale_config", "scale_relation", "default_runner", "Runner"]

#: what a run's decisions can depend on.
PARTS = {
    "high": "high-fidelity observations (mu_k^(H))",
    "low": "improving low-fidelity observations mu_k^(L)(n), n >= 2",
    "low_first": "the first low-fidelity observation mu_k^(L)(1) (what the frozen source serves)",
    "bound": "the count-dependent mismatch bound B_k(n), n >= 2",
    "static_bias": "zeta_k = B_k(1)",
    "gamma": "gamma and N_gamma",
    "eta": "the continuation parameter eta",
    "s0": "the continuation cap S_0",
    "ell": "ell_Lambda (rho, delta, K, T)",
    "costs": "lambda^(L), lambda^(H), Lambda",
}

_COMMON = frozenset({"ell", "costs"})

#: the parts of an instance each policy reads (docs/design.md section 6 and each policy's docstring).
READS = {
    "tacc": frozenset(PARTS),
    "dnc": _COMMON | {"high", "low", "low_first", "bound", "static_bias", "gamma"},
    "mf-ucb": _COMMON | {"high", "low", "low_first", "static_bias", "gamma"},
    "lucb": _COMMON | {"high", "low", "low_first", "static_bias", "gamma"},
    "ucb": _COMMON | {"high"},
    "weak-fixed": _COMMON | {"low_first"},
    "low-improving": _COMMON | {"low", "low_first"},
    "rdfe": _COMMON | {"high", "low", "low_first", "bound", "static_bias"},
}

#: the relations, by key, with what each asserts.
RELATIONS = {
    "unread": "instances differing only in parts a policy does not read give it the same decisions",
    "relabel": "relabelling the arms permutes every per-arm count (deterministic rewards, no argmax tie)",
    "s0-zero": "TACC with S_0 = 0 makes the same run as DNC",
    "static": "MF-UCB makes the same run as DNC when B_k is constant",
    "scale": "costs and budget times 2^j: the same decisions, cost and regret times 2^j",
}

#: a runner makes one run with its trace: (problem, policy name, seed) -> RunRecord.
Runner = Callable[[object, str, int], RunRecord]

#: largest K x (T + S0 + 1) for which :func:`instance_parts` tabulates the low means and B_k.
_MAX_TABLE = 10**7


def default_runner(problem, policy: str, seed: int) -> RunRecord:
    """The fast engine with its trace (the engines make equal records; a test checks it)."""
    return run(problem, policy, seed, trace=True)


def reads(policy: str) -> frozenset:
    """The declared parts of ``policy``; an unknown policy is a ``TaccInputError`` on ``policy``."""
    policy_class(policy)
    return READS[policy]


@dataclass(frozen=True)
class RelationResult:
    """One relation checked on one policy, configuration and seed: ``holds`` True, False, or None (not
    applicable, ``detail`` says why; on False it names the first field that differs)."""

    relation: str
    policy: str
    config: str
    seed: int
    holds: bool | None
    detail: str = ""


def _fingerprint(x) -> bytes:
    return np.ascontiguousarray(np.asarray(x, dtype=float)).tobytes()


def instance_parts(problem, length: int | None = None) -> dict:
    """A fingerprint of every part of :data:`PARTS` for a problem: equal fingerprints, equal part.

    Low means and B_k are tabulated over the counts 1..``length`` (default T_Lambda + S_0 + 1, every count a run
    can reach or look at).
    """
    inst, K = problem.instance, problem.n_arms
    length = problem.horizon + problem.s0 + 1 if length is None else length
    if K * length > _MAX_TABLE:
        raise TaccInputError("horizon", problem.horizon, f"too large to tabulate every part ({K} arms)")
    n = np.arange(1, length + 1)
    low = np.stack([np.atleast_1d(inst.low.mean_low(k, n)) for k in range(K)])
    bound = np.stack([np.atleast_1d(inst.low.mismatch_bound(k, n)) for k in range(K)])
    return {
        "high": _fingerprint(inst.mu_high) + inst.noise.model.encode() + _fingerprint([inst.noise.sigma]),
        "low": _fingerprint(low[:, 1:]) + inst.noise.model.encode() + _fingerprint([inst.noise.sigma]),
        "low_first": _fingerprint(low[:, :1]) + inst.noise.model.encode() + _fingerprint([inst.noise.sigma]),
        "bound": _fingerprint(bound[:, 1:]),
        "static_bias": _fingerprint(problem.static_bias),
        "gamma": _fingerprint([problem.gamma, problem.n_gamma]),
        "eta": _fingerprint([problem.eta]),
        "s0": _fingerprint([problem.s0]),
        "ell": _fingerprint([problem.ell, K, problem.horizon]),
        "costs": _fingerprint([problem.cost_low, problem.cost_high, problem.budget]),
    }


def changed_parts(a, b, cache: dict | None = None) -> frozenset:
    """The parts of an instance (``high``, ``low``, ``bound``, ``gamma``, ``costs``, ...: the parts
    ``certify.READS`` names) in which two problems differ.

    ``cache``: a dict kept by the caller, so that comparing many pairs tabulates each problem once per length.
    """
    length = max(a.horizon + a.s0, b.horizon + b.s0) + 1

    def parts(p):
        if cache is None:
            return instance_parts(p, length)
        key = (id(p), length)
        if key not in cache:
            cache[key] = (p, instance_parts(p, length))     # p kept alive so its id is not reused
        return cache[key][1]

    pa, pb = parts(a), parts(b)
    return frozenset(k for k in PARTS if pa[k] != pb[k])


def decisions(rec: RunRecord) -> dict:
    """What a policy decided on a run: every query (the trace) and the counts it leaves."""
    if rec.trace is None:
        raise TaccInputError("trace", None, "the relation needs runs made with trace=True")
    return {"trace": rec.trace, "n_low": rec.n_low, "n_high": rec.n_high, "continuation": rec.continuation,
            "rounds": rec.rounds}


def _first_difference(a: dict, b: dict) -> str:
    for key in a:
        if a[key] != b[key]:
            if key == "trace":
                i = next((i for i, (x, y) in enumerate(zip(a[key], b[key], strict=False)) if x != y),
                         min(len(a[key]), len(b[key])))
                return f"trace differs first at round {i + 1}"
            return f"{key}: {a[key]} != {b[key]}"
    return ""


def _same_run(a: RunRecord, b: RunRecord, skip=("policy",)) -> str:
    """'' if the two records are equal outside ``skip``, else the first field that differs."""
    for name in RunRecord.__dataclass_fields__:
        if name not in skip and getattr(a, name) != getattr(b, name):
            if name == "trace":
                return _first_difference({"trace": a.trace}, {"trace": b.trace})
            return f"{name}: {getattr(a, name)} != {getattr(b, name)}"
    return ""


def _result(relation, policy, config, seed, diff: str) -> RelationResult:
    return RelationResult(relation, policy, config, seed, diff == "", diff or "equal")


# ---------------------------------------------------------------------------------------------------- unread
def unread_relation(config: Config, other: Config, *, seeds, policies=POLICIES,
                    runner: Runner = default_runner) -> list[RelationResult]:
    """``unread``: for every policy that reads none of the parts in which ``config`` and ``other`` differ, the
    same decisions on every seed (and, when mu^(H) is the same, the same regret). Policies that read a changed
    part are not judged (one not-applicable result each, naming the parts)."""
    pa, pb = make_problem(config), make_problem(other)
    changed = changed_parts(pa, pb)
    out = []
    for pol in policies:
        touched = sorted(reads(pol) & changed)
        if touched or not changed:
            why = f"reads the changed part(s) {', '.join(touched)}" if touched else "the instances are identical"
            out.append(RelationResult("unread", pol, config.name, -1, None, why))
            continue
        for seed in seeds:
            ra, rb = runner(pa, pol, seed), runner(pb, pol, seed)
            diff = _first_difference(decisions(ra), decisions(rb))
            if not diff and "high" not in changed and ra.regret != rb.regret:
                diff = f"regret: {ra.regret} != {rb.regret}"
            out.append(_result("unread", pol, config.name, seed,
                               f"{diff} (changed: {', '.join(sorted(changed))})" if diff else ""))
    return out


# ---------------------------------------------------------------------------------------------------- relabel
def relabel_config(config: Config, perm) -> Config:
    """The same instance with arm i of the result being arm ``perm[i]`` of ``config``.

    Needs explicit means (``mu_high``) and, for the decay models, explicit signs: drawn values are a function of
    the instance seed and the arm index, so they would not move with the arm.
    """
    inst = config.instance
    K = inst.n_arms
    p = [int(i) for i in perm]
    if sorted(p) != list(range(K)):
        raise TaccInputError("perm", perm, f"must be a permutation of 0..{K - 1}")
    if inst.mu_high is None:
        means = config_to_dict(config)["instance"]["means"]          # the table as a configuration writes it
        raise TaccInputError("instance.means", means, "relabelling needs explicit mu_high (these means are drawn "
                             "from a distribution)", shown=toml_value(means))
    low = inst.low
    if low.model in ("power_decay", "residual_decay", "checkpoint") and low.signs == "random":
        raise TaccInputError("instance.low.signs", low.signs, "relabelling needs explicit signs",
                             shown=toml_value(low.signs))

    def per_arm(xs):
        return tuple(xs[i] for i in p) if len(xs) == K else xs

    def rows(xs):   # the checkpoint gap is one row shared by every arm, or one row per arm
        return per_arm(xs) if len(xs) == K and all(isinstance(r, (tuple, list)) for r in xs) else xs

    new_low = replace(low, signs=low.signs if isinstance(low.signs, str) else per_arm(low.signs),
                      mean_low=per_arm(low.mean_low), certificate=per_arm(low.certificate),
                      values=per_arm(low.values), gap=rows(low.gap))
    return replace(config, name=f"{config.name}-relabelled",
                   instance=replace(inst, mu_high=per_arm(inst.mu_high), low=new_low))


def _deterministic(problem) -> str:
    """'' if every observation is a constant in {0, 1} (Bernoulli rewards), else why not."""
    if problem.noise != "bernoulli":
        return "observations are random (Gaussian noise): the reward table draws by arm index"
    parts = problem.instance
    n = np.arange(1, problem.horizon + 1)
    vals = [np.asarray(parts.mu_high)] + [np.atleast_1d(parts.low.mean_low(k, n)) for k in range(problem.n_arms)]
    if any(not np.all((v == 0.0) | (v == 1.0)) for v in vals):
        return "a mean lies strictly between 0 and 1: the Bernoulli draw depends on the arm index"
    return ""


def _tie_checked(policy):
    """Wrap a step-form index policy so that it records the first selection whose argmax is not unique."""
    if not hasattr(policy, "index"):
        raise TaccInputError("policy", policy.name, "relabelling is checked for argmax-index policies only")
    choose = policy.choose
    policy.first_tie = None

    def checked():
        idx = policy.index
        if policy.first_tie is None and int(np.count_nonzero(idx == idx.max())) > 1:
            policy.first_tie = policy.rounds + 1
        return choose()

    policy.choose = checked
    return policy


def relabel_relation(config: Config, perm, *, seeds, policies=("tacc", "dnc", "mf-ucb", "ucb", "weak-fixed",
                                                                "low-improving"),
                     policy_factory=None) -> list[RelationResult]:
    """``relabel``: per-arm counts, continuation pulls and regret shares of the relabelled run are those of the
    original run, permuted; the regret is equal.

    Judged on runs of the reference engine (the step form, so ties are visible) that are deterministic and have
    a unique argmax at every selection; other runs give a not-applicable result with the reason. RDFE and the
    LUCB-style rule are not index policies (RDFE walks its active set in arm order) and are not covered.
    ``policy_factory(problem, name)`` replaces the step-form policy (the mutant tests use it).
    """
    pa, pb = make_problem(config), make_problem(relabel_config(config, perm))
    why = _deterministic(pa)
    if not why and pa.n_arms * (pa.cost_low + pa.cost_high) > pa.budget:
        why = "the budget ends inside the start, whose order is the arm order"
    p = [int(i) for i in perm]
    out = []
    for pol in policies:
        if why:
            out.append(RelationResult("relabel", pol, config.name, -1, None, why))
            continue
        for seed in seeds:
            make = policy_factory or (lambda problem, name: make_policy(name, problem))
            checked = _tie_checked(make(pa, pol))
            ra = run_reference(pa, checked, seed)
            if checked.first_tie is not None:
                out.append(RelationResult("relabel", pol, config.name, seed, None,
                                          f"argmax tie at round {checked.first_tie}"))
                continue
            rb = run_reference(pb, make(pb, pol), seed)
            diff = ""
            for field in ("n_low", "n_high", "continuation", "regret_share"):
                want = tuple(getattr(ra, field)[i] for i in p)
                if getattr(rb, field) != want:
                    diff = f"{field}: {getattr(rb, field)} != permuted {want}"
                    break
            if not diff and (rb.regret != ra.regret or rb.rounds != ra.rounds):
                diff = f"regret {rb.regret} != {ra.regret} or rounds {rb.rounds} != {ra.rounds}"
            out.append(_result("relabel", pol, config.name, seed, diff))
    return out


# ---------------------------------------------------------------------------------------------------- s0 = 0, static
def s0_zero_relation(config: Config, *, seeds, runner: Runner = default_runner) -> list[RelationResult]:
    """``s0-zero``: with S_0 = 0, TACC's record equals DNC's in every field but the policy's name."""
    problem = make_problem(replace(config, params=replace(config.params, s0=0)))
    return [_result("s0-zero", "tacc", config.name, seed,
                    _same_run(runner(problem, "tacc", seed), runner(problem, "dnc", seed)))
            for seed in seeds]


def static_relation(config: Config, *, seeds, runner: Runner = default_runner) -> list[RelationResult]:
    """``static``: when B_k(n) = B_k(1) at every count the runs read (the engines' table), MF-UCB's record
    equals DNC's in every field but the policy's name; otherwise not applicable."""
    problem = make_problem(config)
    rows, _ = problem.bias_table
    if not np.all(rows == rows[:, :1]):
        return [RelationResult("static", "mf-ucb", config.name, -1, None, "B_k is not constant on this instance")]
    return [_result("static", "mf-ucb", config.name, seed,
                    _same_run(runner(problem, "mf-ucb", seed), runner(problem, "dnc", seed)))
            for seed in seeds]


# ---------------------------------------------------------------------------------------------------- scale
def _power_of_two(c) -> float:
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) or c <= 0 \
            or math.frexp(c)[0] != 0.5:
        raise TaccInputError("c", c, "must be a power of two (2^j), so that scaled costs are exact")
    return float(c)


def scale_config(config: Config, c: float) -> Config:
    """Both costs and the budget multiplied by c = 2^j."""
    c = _power_of_two(c)
    return replace(config, name=f"{config.name}-x{c:g}",
                   costs=replace(config.costs, low=config.costs.low * c, high=config.costs.high * c),
                   params=replace(config.params, budget=config.params.budget * c))


def scale_relation(config: Config, c: float, *, seeds, policies=POLICIES,
                   runner: Runner = default_runner) -> list[RelationResult]:
    """``scale``: the same decisions, and cost, regret, every regret share and checkpoint times c exactly."""
    c = _power_of_two(c)
    pa, pb = make_problem(config), make_problem(scale_config(config, c))
    out = []
    for pol in policies:
        for seed in seeds:
            ra, rb = runner(pa, pol, seed), runner(pb, pol, seed)
            diff = _first_difference(decisions(ra), decisions(rb))
            for field in ("cost", "regret", "regret_share", "checkpoints", "regret_at"):
                if diff:
                    break
                a, b = getattr(ra, field), getattr(rb, field)
                scaled = tuple(x * c for x in a) if isinstance(a, tuple) else a * c
                if b != scaled:
                    diff = f"{field}: {b} != {c:g} x {a}"
            out.append(_result("scale", pol, config.name, seed, diff))
    return out
