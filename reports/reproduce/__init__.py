"""``tacc reproduce``: the paper's experiments as data (``EXPERIMENTS``: each an ``Experiment`` of ``Variant``\\ s,
the methods compared, the paper's printed numbers and its ``PaperClaim``\\ s), run on common seeds and set beside
the paper's numbers (``reproduce``, ``work``); the paper's printed numbers checked against each other
(``consistency``); and, for a claim not reproduced, where the regret comes from.

Each name is imported from its module when it is first used: ``tacc reproduce --help`` reads the experiments'
keys without importing the engines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports.lazy import lazy_exports

if TYPE_CHECKING:
    from reports.reproduce._consistency import LEVEL, Check, consistency, paper_number
    from reports.reproduce._paper import EXPERIMENTS, Experiment, PaperClaim, Variant, at_paper_seed_counts, experiment
    from reports.reproduce._plan import distinct_runs, work
    from reports.reproduce._reproduce import ExperimentResult, reproduce
    from reports.reproduce._variant import variant_config

__all__ = ["reproduce", "work", "ExperimentResult", "variant_config", "distinct_runs", "EXPERIMENTS", "Experiment",
           "Variant", "PaperClaim", "experiment", "at_paper_seed_counts", "consistency", "Check", "paper_number",
           "LEVEL"]

#: each public name and the module that defines it
_HOME = {
    **dict.fromkeys(("reproduce", "ExperimentResult"), "_reproduce"),
    **dict.fromkeys(("work", "distinct_runs"), "_plan"),
    "variant_config": "_variant",
    **dict.fromkeys(("EXPERIMENTS", "Experiment", "Variant", "PaperClaim", "experiment", "at_paper_seed_counts"),
                    "_paper"),
    **dict.fromkeys(("consistency", "Check", "paper_number", "LEVEL"), "_consistency"),
}

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
