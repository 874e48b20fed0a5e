"""certify: the paper's assumptions as checks, its results as claims, verdicts of claims on runs, the gate.

Vocabulary: a claim on a run is HOLDS, VIOLATED (event held, every assumption held, the bound exceeded beyond
the error bound of the comparison, confirmed on a fresh run), OFF_EVENT (the confidence event failed on the
run), NOT_APPLICABLE (an assumption of the claim fails on the instance), UNDECIDED (an assumption or the
comparison lies inside its error bound) or NOTHING_TO_MEASURE (the run has nothing the claim bounds, for example
no arm of its class: not evidence either way). Hypothesis strategies for property tests are in
:mod:`certify.strategies`.

Public beyond the verdicts: ``sample_configs`` (the gate's generated configurations) and ``assumption_evidence``
(the search for what breaking one assumption does), both used by ``tacc check``; the metamorphic relations
(``READS``, ``RELATIONS``, the ``*_relation`` checks and their ``default_runner``), used by ``tacc report``.
"""

from certify._assumptions import ASSUMPTIONS, AssumptionResult, check_assumptions
from certify._check import (BASELINE, DEFAULT_POLICIES, Certificate, ClaimSummary, IntegrityError, NotJudged,
                            KEEP, Reproducer, VACUOUS_RATIO, accepted, check, file_stem, load_baseline, reproducer_path,
                            sample_configs, unique_names)
from certify._event import Z_MAX, event_failure, event_failures, float_sums_faithful
from certify._claims import CLAIMS, LEM_CI, Claim, Refutation, claim, claims_for
from certify._context import ClaimContext, ucb_count_bound
from certify._histogram import MAX_DISTINCT, MAX_POINTS, Histogram
from certify._measurement import UNDEFINED_RATIO, Measurement
from certify._metamorphic import (READS, RELATIONS, RelationResult, changed_parts, default_runner, relabel_relation,
                                  s0_zero_relation, scale_relation, static_relation, unread_relation)
from certify._search import Evidence, assumption_evidence
from certify._tally import Cell, Tally
from certify._verdict import (LEM_CI_ALPHA, RunVerdict, Verdict, judge, judge_lem_ci, judge_lem_ci_counts,
                              violation_reason)

__all__ = [
    "ASSUMPTIONS", "AssumptionResult", "check_assumptions", "DEFAULT_POLICIES", "Certificate", "ClaimSummary",
    "Reproducer", "VACUOUS_RATIO", "check", "load_baseline", "BASELINE", "IntegrityError", "NotJudged", "accepted",
    "sample_configs", "reproducer_path", "unique_names", "file_stem", "KEEP", "Cell", "Tally", "judge_lem_ci_counts",
    "Histogram", "MAX_DISTINCT", "MAX_POINTS",
    "Evidence", "assumption_evidence", "CLAIMS", "LEM_CI", "UNDEFINED_RATIO", "Claim", "ClaimContext", "Measurement",
    "Refutation", "claim",
    "READS", "RELATIONS", "RelationResult", "changed_parts", "default_runner", "relabel_relation", "s0_zero_relation",
    "scale_relation", "static_relation", "unread_relation",
    "claims_for", "ucb_count_bound", "LEM_CI_ALPHA", "RunVerdict", "Verdict", "judge", "judge_lem_ci",
    "violation_reason",
    "event_failure", "event_failures", "float_sums_faithful", "Z_MAX",
]
