"""Property tests with teeth: on every generated instance and seed where the confidence event held and the claim's
assumptions hold, no claim about TACC, DNC, MF-UCB or RDFE is VIOLATED, except the findings the repository accepts
in ``certify/baseline.json`` (the gate's baseline; any profile, ``deep`` included).

Not vacuous: every asserted example and every arm class seen is counted; a test fails if a class (A, C^d, C^u, B)
never occurred, if continuation or high-fidelity confirmation never happened, or if too few examples were asserted.
The counts are printed in pytest's summary. Generation is stratified (``targeted_configs``: one regime per
mechanism) and steered with ``hypothesis.target`` toward C^d arms.

Every search runs once per module, in a fixture (:func:`searched`), whatever test asks first: each test reads its
own search's outcome and the statistics of all of them, so any test passes or fails alone as in the whole file,
in any order.
"""

from collections import Counter

import pytest
from hypothesis import given, settings, target
from hypothesis import strategies as st

from bounds import ArmClass
from certify import BASELINE, ClaimContext, Verdict, accepted, check_assumptions, claims_for, judge, load_baseline
from certify.strategies import configs, targeted_configs
from simulate import make_problem, run

#: the whole file is in the slow part of the suite (``-m "not slow"`` leaves it out)
pytestmark = pytest.mark.slow

#: the findings the repository accepts, the same baseline ``tacc check --baseline repo`` uses.
ACCEPTED = load_baseline(BASELINE)
EXAMPLES = max(50, settings.default.max_examples)
#: one stratum per mechanism: low-fidelity certification and C^u (decay), continuation to C^d (outlier),
#: high-fidelity confirmation (confirm), and anything (generic).
STRATA = {
    "decay": targeted_configs(regimes=("decay",)),
    "outlier": targeted_configs(regimes=("outlier",)),
    "confirm": targeted_configs(regimes=("confirm",)),
    "generic": configs(budget=st.integers(200, 3000)),
}


POLICIES = ("tacc", "dnc", "mf-ucb", "rdfe")


def assert_no_new_violation(verdicts, config, seed, baseline=ACCEPTED, stats: Counter | None = None):
    """No VIOLATED verdict the baseline does not accept (the gate's mechanism, ``certify.accepted``): a finding
    the repository accepts (``certify/baseline.json``) is counted in ``stats``, a new one fails."""
    for v in verdicts:
        if v.verdict is Verdict.VIOLATED:
            assert accepted(baseline, v.claim, config.name), ("new finding", v.claim, v.label, v.worst, config, seed)
            if stats is not None:
                stats[f"accepted finding {v.claim}"] += 1


def _assert_no_violation(policy, config, seed, stats: Counter):
    problem = make_problem(config)
    ctx = ClaimContext(problem, check_assumptions(problem))
    rec = run(problem, policy, seed)
    verdicts = [judge(c, ctx, rec) for c in claims_for(policy)]
    assert_no_new_violation(verdicts, config, seed, stats=stats)
    for c, v in zip(claims_for(policy), verdicts, strict=True):
        stats[f"asserted {c.key}"] += v.verdict is Verdict.HOLDS
    # event held, every assumption held (a claim with nothing to measure on the run asserts nothing, and blocks nothing)
    asserted = all(v.verdict in (Verdict.HOLDS, Verdict.NOTHING_TO_MEASURE) for v in verdicts)
    stats[f"examples fully asserted ({policy})"] += asserted
    return ctx, rec, asserted


def search(stratum: str, policy: str, stats: Counter) -> None:
    """The property search of ``policy`` on ``stratum``'s instances: raises on a new VIOLATED verdict (hypothesis
    shrinks it first); what it asserted and saw is added to ``stats``."""
    @settings(max_examples=EXAMPLES)
    @given(data=st.data(), seed=st.integers(0, 2**30))
    def examples(data, seed):
        config = data.draw(STRATA[stratum], label="config")
        ctx, rec, asserted = _assert_no_violation(policy, config, seed, stats)
        if policy == "tacc" and asserted:
            refined = ctx.refined(rec)
            for k in ctx.suboptimal:
                stats[f"class {refined[k].value}"] += 1
            stats["runs with continuation"] += sum(rec.continuation) > 0
            stats["runs with high-fidelity confirmation"] += any(rec.n_high[k] > 1 for k in ctx.suboptimal)
            for cls in (ArmClass.C_D, ArmClass.C_U):
                target(float(sum(c is cls for c in refined)), label=f"{cls.value} arms")
    examples()


@pytest.fixture(scope="module")
def searched() -> tuple[Counter, dict]:
    """Every search of the file, run once: the statistics of all of them, and each one's failure (None: passed)."""
    stats: Counter = Counter()
    failures: dict = {}
    for policy in POLICIES:
        for stratum in STRATA:
            try:
                search(stratum, policy, stats)
                failures[stratum, policy] = None
            except Exception as exc:         # a new finding (AssertionError) or anything the search raised
                failures[stratum, policy] = exc
    return stats, failures


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("stratum", STRATA)
def test_no_claim_violated_on_the_event(stratum, policy, searched):
    failure = searched[1][stratum, policy]
    if failure is not None:
        raise failure


def not_vacuous(stats: Counter) -> None:
    """The searches asserted something: every arm class occurred, continuation and high-fidelity confirmation
    happened, and each policy had at least :data:`EXAMPLES` examples fully asserted."""
    for cls in ("A", "B", "C^d", "C^u"):
        assert stats[f"class {cls}"] > 0, f"class {cls} never occurred: {dict(stats)}"
    assert stats["runs with continuation"] > 0 and stats["runs with high-fidelity confirmation"] > 0
    for policy in POLICIES:
        assert stats[f"examples fully asserted ({policy})"] >= EXAMPLES, dict(stats)


def test_the_search_was_not_vacuous(request, searched):
    stats = searched[0]
    request.config._tacc_property_stats = dict(stats)
    if hasattr(request.config, "workeroutput"):  # a pytest-xdist worker: the summary is printed by the controller
        request.config.workeroutput["tacc_property_stats"] = dict(stats)
    not_vacuous(stats)


def test_the_vacuity_check_fails_when_a_class_or_a_policy_is_missing(searched):
    """The statistics are the fixture's own, whatever ran before: without one class, or with one policy's
    examples short, the check fails."""
    stats = searched[0]
    not_vacuous(stats)
    for key in ("class C^d", "runs with continuation", "examples fully asserted (rdfe)"):
        with pytest.raises(AssertionError):
            not_vacuous(stats - Counter({key: stats[key]}))


#: the accepted finding as the deep profile found it: a gap of 3.4 > 2 (targeted decay stratum, RDFE); also
#: tests/reports/cli/test_report.py's tacc report --baseline case.
WIDE_GAP = """
name = "targeted-decay"
[instance]
mu_high = [-2.9, 0.5]
seed = 0
noise = { model = "gaussian", sigma = 0.2 }
[instance.low]
model = "power_decay"
zeta = 1.0
r = 0.5
signs = [1, 1]
[costs]
low = 1.0
high = 5.0
[params]
budget = 679.0
delta = 0.1
rho = 0.02135785
gamma = 0.2
eta = 0.0001
s0 = 5
"""


def _rdfe_verdicts():
    import tomllib

    from bounds import parse_config
    config = parse_config(tomllib.loads(WIDE_GAP))
    problem = make_problem(config)
    ctx = ClaimContext(problem, check_assumptions(problem))
    rec = run(problem, "rdfe", 523228462)
    return config, [judge(c, ctx, rec) for c in claims_for("rdfe")]


def test_every_refutation_a_claim_cites_is_refuted_by_tacc_proofs():
    """A claim's reason names proof steps (``Claim.refuted_by``): each is a step of ``tacc proofs`` that is
    REFUTED, and its condition is met or not by an instance as its witness says."""
    from proofs_checks import STEPS, run_steps
    from certify import CLAIMS
    cited = {r.step for c in CLAIMS for r in c.refuted_by}
    assert cited == {"rdfe-thm.terminal-vs-quarter"}
    reports = {r.step.sid: r for r in run_steps([s for s in STEPS if s.sid in cited], mutate_steps=False)}
    assert {i: r.result.outcome.value for i, r in reports.items()} == {i: "REFUTED" for i in cited}
    import tomllib

    from bounds import parse_config
    from certify import claim

    def context(text):
        problem = make_problem(parse_config(tomllib.loads(text)))
        return ClaimContext(problem, check_assumptions(problem))

    (refutation,) = claim("rdfe-theorem-as-stated").refuted_by
    assert refutation.witness(context(WIDE_GAP)) == "Delta_0 = 3.4 > 2"
    small = context(WIDE_GAP.replace("mu_high = [-2.9, 0.5]", "mu_high = [0.4, 0.5]"))
    assert refutation.witness(small) is None
    assert refutation.explain(small).endswith("which this instance does not meet")


def test_an_accepted_finding_is_accepted_and_a_new_one_fails():
    """The deep profile's finding (thm:app-rdfe-regret as stated, a gap above 2) passes through the
    repository's baseline; the same verdict without the baseline, or on another claim, fails."""
    config, verdicts = _rdfe_verdicts()
    bad = [v for v in verdicts if v.verdict is Verdict.VIOLATED]
    assert [v.claim for v in bad] == ["rdfe-theorem-as-stated"]
    # the verdict's own reason, baseline or not: the inequality, and the proof step that refutes the statement
    assert bad[0].reason.startswith("R = ") and " > " in bad[0].reason
    assert ("tacc proofs refutes the statement as written (step rdfe-thm.terminal-vs-quarter) when a gap "
            "Delta_k > 2") in bad[0].reason and bad[0].reason.endswith("here Delta_0 = 3.4 > 2")
    assert_no_new_violation(verdicts, config, 523228462)                       # accepted by the repository
    with pytest.raises(AssertionError, match="new finding"):
        assert_no_new_violation(verdicts, config, 523228462, baseline=set())
    from dataclasses import replace
    renamed = [replace(v, claim="rdfe-theorem") if v.verdict is Verdict.VIOLATED else v for v in verdicts]
    with pytest.raises(AssertionError, match="new finding"):
        assert_no_new_violation(renamed, config, 523228462)
