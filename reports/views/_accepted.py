"""The VIOLATED verdicts a baseline (``--baseline``) accepted, with its reasons: one entry per (claim, configuration),
as ``tacc report`` (its conclusion, ``report.md``, ``results.json``) and ``tacc check``'s text say them."""

from __future__ import annotations

__all__ = ["NO_REASON", "accepted_findings", "accepted_lines"]

#: what is said of an accepted finding whose baseline entry gives no "why".
NO_REASON = "the baseline gives no reason"


def accepted_findings(reproducers) -> list[dict]:
    """The VIOLATED verdicts the baseline accepted, one entry per (claim, configuration) with the baseline's reason
    (``why``) and the number of verdicts, in the order first met."""
    out: dict = {}
    for r in reproducers:
        if r.accepted:
            entry = out.setdefault((r.claim, r.config), {"claim": r.claim, "label": r.label, "config": r.config,
                                                         "why": r.why, "verdicts": 0})
            entry["verdicts"] += 1
    return list(out.values())


def accepted_lines(accepted: list[dict]) -> list[str]:
    """One line per entry of :func:`accepted_findings`: ``CLAIM (LABEL) on CONFIG, N verdict(s): WHY``."""
    return [f"{a['claim']} ({a['label']}) on {a['config']}, {a['verdicts']} verdict(s): {a['why'] or NO_REASON}"
            for a in accepted]
