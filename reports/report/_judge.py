"""The report's tally and judgement stage: every run of the sweep counted (``SweepTally``) and those at the full budget
judged (``certify.check``), both as the runs stream past once, in memory independent of the seeds."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from certify import Certificate, check
from reports.report._sweep_tally import SweepTally

__all__ = ["tally_and_judge"]


def tally_and_judge(tally: SweepTally, final_config, records: Iterable, *, budgets: Sequence[float],
                    policies: Sequence[str], seeds, reproducer_dir: Path, confirm: bool, baseline=None,
                    lead_counted: Callable[[], None] | None = None) -> Certificate:
    """Count every record of ``records`` in ``tally`` and judge those at the full budget (the last of ``budgets``,
    ``final_config``) with ``certify.check``; the certificate (``keep="violated"``: the VIOLATED verdicts and
    ``lem:ci``'s kept, every verdict counted).

    ``records`` come in the sweep's order: budgets, then policies, then seeds. ``confirm``: VIOLATED verdicts are
    confirmed on a fresh run (not for saved runs). ``lead_counted`` is called once, as soon as the lead policy's runs
    at the full budget are all counted (the report draws its count figures then, while the rest is judged)."""
    full, lead = budgets[-1], tally.lead

    def full_budget_runs():
        told = lead_counted is None
        keys = ((b, p) for b in budgets for p in policies for _ in range(len(seeds)))
        for (b, p), r in zip(keys, records, strict=True):
            if not told and b == full and p != lead and tally.lead_runs():
                lead_counted()
                told = True
            tally.add(b, p, r)
            if b == full:
                yield r
        if not told:
            lead_counted()

    return check([final_config], policies=policies, seeds=seeds, reproducer_dir=reproducer_dir,
                 records=full_budget_runs(), confirm_violations=confirm, baseline=baseline, keep="violated")
