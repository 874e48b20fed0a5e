"""What each command prints or writes, rendered from results computed elsewhere: ``tacc bounds`` (``render_bounds``,
``bounds_json``), ``tacc check`` (``render_check``, ``check_json``, ``junit``), ``tacc simulate``
(``SimulateSummary``, ``render_simulate``, ``simulate_json``), ``tacc proofs`` (``render_proofs``,
``proofs_json``, the coverage), ``tacc explain`` (``render_explanation``, ``explanation_json``,
``timeline_figure``), ``tacc runs`` (``RunsSummary``, ``render_runs``), the continuation window
(``render_continuation``, ``continuation_record``, ``window_figure``), and the lines about accepted findings
(``accepted_lines``).

Several views define ``render`` and ``to_json``; the package names each after its command. Each name is imported
from its module when it is first used: ``tacc bounds`` imports neither the engines nor ``certify``'s gate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports.lazy import lazy_exports

if TYPE_CHECKING:
    from reports.views._accepted import NO_REASON, AcceptedFinding, accepted_findings, accepted_lines
    from reports.views._bounds import rdfe_infinite_arms, sum_reason, tied_sentence
    from reports.views._bounds import render as render_bounds
    from reports.views._bounds import to_json as bounds_json
    from reports.views._check import junit, passed, verdict_table
    from reports.views._check import render as render_check
    from reports.views._check import to_json as check_json
    from reports.views._continuation import render as render_continuation
    from reports.views._continuation import summary as continuation_summary
    from reports.views._continuation import to_record as continuation_record
    from reports.views._continuation import window_figure
    from reports.views._explain_view import render as render_explanation
    from reports.views._explain_view import timeline_figure
    from reports.views._explain_view import to_json as explanation_json
    from reports.views._proofs import (coverage_json, coverage_summary, failures, render_coverage, render_radius,
                                       render_side, side_json)
    from reports.views._proofs import render as render_proofs
    from reports.views._proofs import to_json as proofs_json
    from reports.views._runs import UNKNOWN, EventFailures, RunsRow, RunsSummary
    from reports.views._runs import render as render_runs
    from reports.views._simulate import MAX_JSON_RUNS, SimulateSummary, check_json_size
    from reports.views._simulate import render as render_simulate
    from reports.views._simulate import to_json as simulate_json

__all__ = ["render_bounds", "bounds_json", "rdfe_infinite_arms", "sum_reason", "tied_sentence",
           "render_check", "check_json", "junit", "passed", "verdict_table",
           "render_simulate", "simulate_json", "SimulateSummary", "check_json_size", "MAX_JSON_RUNS",
           "render_proofs", "proofs_json", "coverage_json", "coverage_summary", "failures", "render_coverage",
           "render_radius", "render_side", "side_json",
           "render_explanation", "explanation_json", "timeline_figure",
           "render_runs", "RunsSummary", "RunsRow", "EventFailures", "UNKNOWN",
           "render_continuation", "continuation_record", "continuation_summary", "window_figure",
           "NO_REASON", "AcceptedFinding", "accepted_findings", "accepted_lines"]

#: each public name and where it is defined: its module, and its name there after a colon when that differs
_HOME = {
    "render_bounds": "_bounds:render", "bounds_json": "_bounds:to_json",
    **dict.fromkeys(("rdfe_infinite_arms", "sum_reason", "tied_sentence"), "_bounds"),
    "render_check": "_check:render", "check_json": "_check:to_json",
    **dict.fromkeys(("junit", "passed", "verdict_table"), "_check"),
    "render_simulate": "_simulate:render", "simulate_json": "_simulate:to_json",
    **dict.fromkeys(("SimulateSummary", "check_json_size", "MAX_JSON_RUNS"), "_simulate"),
    "render_proofs": "_proofs:render", "proofs_json": "_proofs:to_json",
    **dict.fromkeys(("coverage_json", "coverage_summary", "failures", "render_coverage", "render_radius",
                     "render_side", "side_json"), "_proofs"),
    "render_explanation": "_explain_view:render", "explanation_json": "_explain_view:to_json",
    "timeline_figure": "_explain_view",
    "render_runs": "_runs:render",
    **dict.fromkeys(("RunsSummary", "RunsRow", "EventFailures", "UNKNOWN"), "_runs"),
    "render_continuation": "_continuation:render", "continuation_record": "_continuation:to_record",
    "continuation_summary": "_continuation:summary", "window_figure": "_continuation",
    **dict.fromkeys(("NO_REASON", "AcceptedFinding", "accepted_findings", "accepted_lines"), "_accepted"),
}

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
