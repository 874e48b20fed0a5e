"""The work of a command estimated before it starts (``reports.estimate``): what cannot fit in memory refused,
what is long announced, with how it resumes."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

__all__ = ["plan", "resume_hint", "NO_CACHE_HINT"]

#: how a command that keeps no runs resumes unless given ``--cache``
NO_CACHE_HINT = "with --cache DIR, finished runs are kept and the same command resumes"


def resume_hint(cache: str | None, kept_in=None) -> str:
    """How an interrupted command resumes: its runs kept in ``cache`` (``--cache``), else in ``kept_in`` (the
    folder a command keeps its runs in without ``--cache``), else :data:`NO_CACHE_HINT`."""
    if cache:
        return f"finished runs are kept in {cache}, so the same command resumes"
    if kept_in is not None:
        return f"finished runs are kept in {kept_in}, so the same command resumes"
    return NO_CACHE_HINT


def plan(configs, policies, n_seeds: int, *, what: str, workers: int | None, progress: bool, resume: str,
         engine: str = "fast", budgets_per_config: int = 1, groups: Sequence = (), trace: bool = False,
         at_once: int = 1, kept: bool = False, kept_json: bool = False, kept_per_arm: bool = True,
         seeds: str | None = None, less_memory: str | None = None) -> bool:
    """Estimate the work before it starts; refuse what cannot fit in memory, announce what is long. ``groups``:
    more (configurations, policies, seeds, engine) groups made one after the other (added up), ``at_once`` of them
    held in memory together (``reports.estimate.combined``). ``kept``: the command keeps every run for its
    analysis (``kept_json``: with its JSON; ``kept_per_arm``: with per-arm results); ``seeds``: the ``--seeds``
    given, named when the runs kept are what does not fit; ``less_memory``: how the command runs in less.

    Returns whether progress should be shown (always for long work, so nothing runs silently for hours)."""
    from bounds import TaccInputError
    from reports.estimate import announce, combined, estimate, machine_memory, size_text

    workers = workers or os.cpu_count() or 1

    def planned(keep: bool):
        return combined([estimate(configs, policies, n_seeds, budgets_per_config=budgets_per_config, workers=workers,
                                  engine=engine, trace=trace, kept=keep, kept_json=keep and kept_json,
                                  kept_per_arm=kept_per_arm)]
                        + [estimate(c, p, n, workers=workers, engine=e, kept=keep) for c, p, n, e in groups],
                        at_once=at_once)

    est = planned(kept)
    if kept and seeds and est.memory_bytes > machine_memory() and planned(False).memory_bytes <= machine_memory():
        # what does not fit is the runs kept, not a configuration: named by --seeds
        raise TaccInputError("--seeds", seeds, f"{est.runs:,} runs, kept for the analysis, need about "
                             f"{size_text(est.memory_bytes)} of memory, more than this machine's "
                             f"{size_text(machine_memory())} (run fewer seeds"
                             + (f"; {less_memory})" if less_memory else ")"))
    est.refuse_if_too_large(hint=less_memory if kept else None)
    _check_drawn_gaps(configs)
    if est.long:
        print(announce(est, what, resume=resume), file=sys.stderr)
    return progress and (sys.stderr.isatty() or est.long)


def _check_drawn_gaps(configs) -> None:
    """Drawn means (``instance.means``) with a gap whose confirmation count leaves the floats, refused before any
    work (``bounds.check_gaps``; listed means are refused when the file is read): once the memory check has passed,
    as drawing them allocates K floats."""
    from bounds import build_instance, check_gaps
    for c in configs:
        if c.instance.mu_high is None:
            check_gaps(c, build_instance(c.instance).mu_high)
