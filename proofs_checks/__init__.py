"""proofs_checks: every proof step of the paper checked by sympy or z3 (imports only ``bounds``).

Each step quotes the paper's formula and label, states its hypotheses and method, and comes out PROVED,
REFUTED (with a counterexample, the corrected statement and the corrected statement's own result) or UNKNOWN
(with the reason). Steps with a counterpart in ``bounds`` also compare the code with the checked expression.
``BASELINE`` is the path of the repository's baseline of the paper's current findings (``tacc proofs --baseline
repo``).
"""

from proofs_checks import _corollary, _facts, _improvement, _lem_ci, _low_query, _rdfe, _selection, _theorem
from proofs_checks._run import BASELINE, StepReport, load_baseline, run_steps
from proofs_checks._step import Outcome, Step, StepResult
from proofs_checks._teeth import PERTURBED

#: every step, in the paper's order.
STEPS = (_lem_ci.STEPS + _selection.STEPS + _low_query.STEPS + _theorem.STEPS + _corollary.STEPS
         + _improvement.STEPS + _rdfe.STEPS + _facts.STEPS)
if len({s.sid for s in STEPS}) != len(STEPS):
    raise RuntimeError("duplicate proof step ids")
__all__ = ["BASELINE", "STEPS", "PERTURBED", "Outcome", "Step", "StepResult", "StepReport", "run_steps", "load_baseline"]
