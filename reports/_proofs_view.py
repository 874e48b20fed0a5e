"""``tacc proofs``: one row per proof step, as a table and as JSON."""

from __future__ import annotations

from reports._tables import jsonable, table


def _cex(r) -> str:
    res = r.result
    if res.counterexample:
        c = ", ".join(f"{k} = {v}" for k, v in res.counterexample.items() if k != "z3")
        return f"counterexample: {c}; corrected: {res.corrected} [{res.corrected_outcome.value}]"
    return res.detail if res.outcome.value != "PROVED" else ""


def to_json(reports) -> list:
    return [{"id": r.step.sid, "label": r.step.label, "step": r.step.statement, "hypotheses": r.step.hypotheses,
             "method": r.step.method, "result": r.result.outcome.value, "detail": r.result.detail,
             "counterexample": jsonable({k: (str(v) if not isinstance(v, (int, float, str)) else v)
                                         for k, v in (r.result.counterexample or {}).items()}) or None,
             "corrected": r.result.corrected,
             "corrected_result": None if r.result.corrected_outcome is None else r.result.corrected_outcome.value,
             "consistency": r.result.consistency, "accepted_by_baseline": r.accepted, "seconds": r.seconds}
            for r in reports]


def render(reports, *, wide: bool = False) -> str:
    rows = []
    for r in reports:
        res = r.result.outcome.value + (" (baseline)" if r.accepted else "")
        step_text = r.step.statement if wide or len(r.step.statement) <= 70 else r.step.statement[:67] + "..."
        rows.append((r.step.label, r.step.sid, step_text, r.step.method, res, _cex(r)))
    counts = {o: sum(r.result.outcome.value == o for r in reports) for o in ("PROVED", "REFUTED", "UNKNOWN")}
    new = [r for r in reports if r.result.outcome.value == "REFUTED" and not r.accepted]
    consistency = [r for r in reports if r.result.consistency]
    bad = [r for r in consistency if "DISAGREES" in r.result.consistency]
    out = [table(["label", "step", "statement", "method", "result", "counterexample / corrected statement"], rows),
           "",
           f"{len(reports)} steps: {counts['PROVED']} PROVED, {counts['REFUTED']} REFUTED, "
           f"{counts['UNKNOWN']} UNKNOWN; "
           f"{len(consistency) - len(bad)} of {len(consistency)} code comparisons agree with the checked expression",
           "PASS: no new refuted step" if not new else f"FAIL: {len(new)} refuted step(s) not in the baseline: "
                                                       + ", ".join(r.step.sid for r in new)]
    out += [f"  {r.step.sid}: {r.result.consistency}" for r in bad]
    return "\n".join(out)
