"""proofs_checks: every proof step of the paper encoded as the paper's inference and checked by z3 or exact
evaluation (imports only ``bounds``).

Each step's premises (with the result, definition or assumption each comes from) and conclusion are sympy
formulas; the text a reader sees and the goal z3 is given are generated from them. A step is PROVED, REFUTED
(with a counterexample, the corrected statement and the corrected statement's own result) or UNKNOWN (with the
reason). Every PROVED step is mutated (:func:`mutate`): a step none of whose mutants is refused is
VACUOUS. ``COVERAGE`` maps the paper's displayed statements to the steps that check them.
``BASELINE`` is the path of the repository's baseline of the paper's current
findings (``tacc proofs --baseline repo``).
"""

from proofs_checks import (_corollary, _definitions, _facts, _improvement, _lem_ci, _low_query, _rdfe, _selection,
                           _theorem)
from proofs_checks._coverage import COVERAGE, Statement, coverage_rows
from proofs_checks._inference import Inference, Premise, decide
from proofs_checks._mutate import MutationReport, mutants, mutate
from proofs_checks._radius import least_rho_gaussian, least_rho_subgaussian, radius_rows
from proofs_checks._result import Outcome, StepResult
from proofs_checks._run import BASELINE, StepReport, load_baseline, run_steps
from proofs_checks._side import SIDE_CONDITIONS, STANDING, SideCondition, SideOutcome, side_outcome, side_outcomes
from proofs_checks._step import Step

#: every step, in the paper's order.
STEPS = (_lem_ci.STEPS + _selection.STEPS + _low_query.STEPS + _theorem.STEPS + _corollary.STEPS
         + _improvement.STEPS + _rdfe.STEPS + _facts.STEPS + _definitions.STEPS)
if len({s.sid for s in STEPS}) != len(STEPS):
    raise RuntimeError("duplicate proof step ids")
__all__ = ["BASELINE", "STEPS", "COVERAGE", "Statement", "coverage_rows", "Inference", "Premise", "decide",
           "MutationReport",
           "mutants", "mutate", "least_rho_gaussian", "least_rho_subgaussian", "radius_rows", "Outcome", "Step",
           "StepResult", "StepReport", "run_steps", "load_baseline", "SIDE_CONDITIONS", "STANDING", "SideCondition",
           "SideOutcome", "side_outcome", "side_outcomes"]
