"""The VIOLATED verdicts a baseline (``--baseline``) accepted, with its reasons: one entry per (claim, configuration),
as ``tacc report`` (its conclusion, ``report.md``, ``results.json``) and ``tacc check``'s text say them."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_REASON", "AcceptedFinding", "accepted_findings", "accepted_lines"]

#: what is said of an accepted finding whose baseline entry gives no "why".
NO_REASON = "the baseline gives no reason"


@dataclass(frozen=True)
class AcceptedFinding:
    """The VIOLATED verdicts of one claim on one configuration that a baseline accepted: how many, and the
    baseline's reason (``why``; empty when it gives none)."""

    claim: str
    label: str
    config: str
    why: str
    verdicts: int


def accepted_findings(reproducers) -> list[AcceptedFinding]:
    """The VIOLATED verdicts the baseline accepted, one entry per (claim, configuration) with the baseline's reason
    and the number of verdicts, in the order first met."""
    count: dict = {}
    first: dict = {}
    for r in reproducers:
        if r.accepted:
            key = (r.claim, r.config)
            first.setdefault(key, r)
            count[key] = count.get(key, 0) + 1
    return [AcceptedFinding(r.claim, r.label, r.config, r.why, count[key]) for key, r in first.items()]


def accepted_lines(accepted: list[AcceptedFinding]) -> list[str]:
    """One line per entry of :func:`accepted_findings`: ``CLAIM (LABEL) on CONFIG, N verdict(s): WHY``."""
    return [f"{a.claim} ({a.label}) on {a.config}, {a.verdicts} verdict(s): {a.why or NO_REASON}" for a in accepted]
