"""Searches with hypothesis: counterexamples to mutants and evidence about which assumptions the results really
need. Both shrink what they find to a small instance, printed as a configuration."""

from __future__ import annotations

from dataclasses import dataclass

from bounds import dump_config
from certify._assumptions import check_assumptions
from certify._draws import seed_only_draws
from certify._claims import claims_for
from certify._context import ClaimContext
from certify._measurement import Measurement
from certify._verdict import Verdict, judge
from simulate import make_problem, run

__all__ = ["Evidence", "assumption_evidence", "search"]


def _settings(max_examples: int):
    from hypothesis import HealthCheck, Phase, settings
    return settings(max_examples=max_examples, database=None, derandomize=True, deadline=None,
                    suppress_health_check=list(HealthCheck), phases=(Phase.generate, Phase.target, Phase.shrink))


def search(strategy, condition, max_examples: int):
    """The smallest (config, seed) drawn from ``strategy`` x seeds for which ``condition(config, seed)`` returns a
    truthy value, shrunk by hypothesis; None if none was found in ``max_examples`` examples.

    Returns (config, seed, value) with ``value`` what ``condition`` returned on the shrunk example. Hypothesis is
    imported here, not with ``certify``: a command that judges runs without searching (``tacc report``) does not pay
    for it.
    """
    from hypothesis import find
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    try:
        with seed_only_draws():
            cfg, seed = find(st.tuples(strategy, st.integers(0, 2**16)), lambda x: bool(condition(*x)),
                             settings=_settings(max_examples))
    except NoSuchExample:
        return None
    return cfg, seed, condition(cfg, seed)


@dataclass(frozen=True)
class Evidence:
    """What breaking one assumption did: a claim exceeded on a run where the event held and every other
    assumption held (with the shrunk configuration and seed), or nothing in ``examples`` tries."""

    assumption: str
    policy: str
    examples: int
    found: bool
    claim: str | None = None
    label: str | None = None
    seed: int | None = None
    config_toml: str | None = None
    worst: Measurement | None = None

    def describe(self) -> str:
        if not self.found:
            return (f"{self.assumption}: none found in {self.examples} examples ({self.policy}): no claim was "
                    f"exceeded when only this assumption was broken")
        assert self.worst is not None  # found: the measurement that exceeded its bound
        return (f"{self.assumption}: breaking it lets {self.claim} ({self.label}) be exceeded on {self.policy}, "
                f"seed {self.seed}: {self.worst.what} = {self.worst.empirical:g} > {self.worst.bound:g}")


def _exceeded_when_broken(assumption: str, policy: str):
    def condition(config, seed):
        problem = make_problem(config)
        assumptions = check_assumptions(problem)
        if assumptions[assumption].held:
            return None
        ctx = ClaimContext(problem, assumptions)
        rec = run(problem, policy, seed)
        if not rec.event_held:
            return None
        for c in claims_for(policy):
            if assumption not in c.assumptions or ctx.failed(tuple(a for a in c.assumptions if a != assumption)):
                continue
            v = judge(c, ctx, rec)
            if v.verdict is Verdict.NOT_APPLICABLE and v.worst is not None and v.worst.exceeded:
                return v
        return None
    return condition


def assumption_evidence(assumption: str, *, policy: str = "tacc", max_examples: int = 100) -> Evidence:
    """Search instances that break ``assumption`` (``certify.strategies.broken_configs``) for a run on which a claim
    needing it is exceeded although the event held and every other assumption held."""
    from certify.strategies import broken_configs
    hit = search(broken_configs(assumption), _exceeded_when_broken(assumption, policy), max_examples)
    if hit is None:
        return Evidence(assumption, policy, max_examples, False)
    cfg, seed, v = hit
    return Evidence(assumption, policy, max_examples, True, v.claim, v.label, seed, dump_config(cfg), v.worst)
