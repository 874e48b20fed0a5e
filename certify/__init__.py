"""certify: the paper's assumptions as checks, its results as claims, verdicts of claims on runs, the gate.

Vocabulary (docs/design.md section 7): a claim on a run is HOLDS, VIOLATED (event held, every assumption held, the bound
exceeded), OFF_EVENT (the confidence event failed on the run) or NOT_APPLICABLE (an assumption of the claim
fails on the instance). Hypothesis strategies for property tests are in :mod:`certify.strategies`.
"""

from certify._assumptions import ASSUMPTIONS, AssumptionResult, check_assumptions
from certify._check import DEFAULT_POLICIES, Certificate, ClaimSummary, Reproducer, check, load_baseline
from certify._claims import CLAIMS, LEM_CI, Claim, ClaimContext, Measurement, claim, claims_for, ucb_count_bound
from certify._verdict import LEM_CI_ALPHA, RunVerdict, Verdict, judge, judge_lem_ci

__all__ = [
    "ASSUMPTIONS", "AssumptionResult", "check_assumptions", "DEFAULT_POLICIES", "Certificate", "ClaimSummary",
    "Reproducer", "check", "load_baseline", "CLAIMS", "LEM_CI", "Claim", "ClaimContext", "Measurement", "claim",
    "claims_for", "ucb_count_bound", "LEM_CI_ALPHA", "RunVerdict", "Verdict", "judge", "judge_lem_ci",
]
