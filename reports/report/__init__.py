"""``tacc report``: the bound-versus-empirical report of one instance (``make_report``: the runs over a sweep of
budgets, ``budget_sweep``, tallied as they come, ``SweepTally``; every claim judged; markdown, figures and JSON
written), the writer and the reader of its ``results.json`` (``results_json``, ``results_from_json``), and the
saved runs it and ``tacc runs`` read back (``saved_runs``, ``runs_by_budget``, ``summarize_runs``).

Each name is imported from its module when it is first used: ``tacc runs`` reads saved runs without importing
``certify`` or the figures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports.lazy import lazy_exports

if TYPE_CHECKING:
    from reports.report._budgets import at_budget, budget_sweep, default_config
    from reports.report._report import ReportResult, make_report
    from reports.report._results import results_from_json, results_json
    from reports.report._saved_runs import (TOML_FOLDER, runs_by_budget, saved_config, saved_runs, summarize_runs,
                                            write_config_files)
    from reports.report._sweep_tally import RecordStreams, SweepTally, identical_groups, record_digest

__all__ = ["make_report", "default_config", "budget_sweep", "ReportResult", "at_budget",
           "saved_runs", "saved_config", "runs_by_budget", "summarize_runs", "write_config_files", "TOML_FOLDER",
           "SweepTally", "RecordStreams", "record_digest", "identical_groups", "results_json", "results_from_json"]

#: each public name and the module that defines it
_HOME = {
    **dict.fromkeys(("make_report", "ReportResult"), "_report"),
    **dict.fromkeys(("default_config", "budget_sweep", "at_budget"), "_budgets"),
    **dict.fromkeys(("saved_runs", "saved_config", "runs_by_budget", "summarize_runs", "write_config_files",
                     "TOML_FOLDER"), "_saved_runs"),
    **dict.fromkeys(("SweepTally", "RecordStreams", "record_digest", "identical_groups"), "_sweep_tally"),
    **dict.fromkeys(("results_json", "results_from_json"), "_results"),
}

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
