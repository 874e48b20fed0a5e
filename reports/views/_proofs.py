"""``tacc proofs``: one row per proof step (result, mutants refused, hypotheses not needed), as a table and as
JSON (with the summary and the rho table); ``tacc proofs --coverage``: each statement of the paper with the rows
that check it."""

from __future__ import annotations

from reports.tables import jsonable, table


def _result(r) -> str:
    out = r.result.outcome.value
    if r.vacuous and r.mutated == "step":
        out = "VACUOUS"
    return out + (" (baseline)" if r.accepted else "")


def _mutants(r) -> str:
    m = r.mutation
    if m is None:
        return "-"
    s = f"{m.refused}/{m.total}" + (f"; hypotheses needed {m.needed}/{m.premises}" if m.premises else "")
    if m.undecided:
        s += f" ({len(m.undecided)} undecided)"
    return s + (" of the correction" if r.mutated == "correction" else "")


def _unneeded(r) -> str:
    m = r.mutation
    if m is None or r.mutated != "step" or not m.unneeded:
        return ""
    return "; ".join(f"{n}: {r.step.why_unneeded(n)}" for n in m.unneeded)


def undeclared_slack(r) -> tuple:
    """Surviving stronger mutants the step does not explain (a constant that could be smaller, a ceiling that
    could be a floor, ...): the stated conclusion changed, or a new slack."""
    if r.mutation is None or r.mutated != "step":
        return ()
    return tuple(d for d in r.mutation.slack if d not in r.step.slack)


def _detail(r) -> str:
    res = r.result
    parts = []
    if res.counterexample:
        c = ", ".join(f"{k} = {v}" for k, v in res.counterexample.items())
        parts.append(f"counterexample: {c}")
        if res.corrected:
            parts.append(f"corrected: {res.corrected} [{res.corrected_outcome.value}]")
    elif res.outcome.value != "PROVED":
        parts.append(res.detail)
    if r.mutation is not None and r.mutated == "step":
        slack = [f"{d} ({r.step.slack.get(d, 'UNDECLARED slack')})" for d in r.mutation.slack]
        if slack:
            parts.append("slack: " + "; ".join(slack))
    for x in r.tightened:
        refuted = f"; {x.refuted_below} refuted" if x.refuted_below is not None else ""
        if x.tightest:
            at = ", ".join(f"{k} = {v}" for k, v in x.witness.items())
            parts.append(f"{x.where}: {x.value} valid (paper {x.stated}{refuted}), the tightest: every stronger "
                         f"value fails at {at}")
        else:
            parts.append(f"{x.where}: {x.value} valid (paper {x.stated}{refuted}), sufficient: no witness that "
                         f"it is the tightest")
    if r.step.toolkit:
        parts.append(f"toolkit: {r.step.toolkit}")
    return "; ".join(parts)


def to_json(reports, radius=()) -> dict:
    """Every step (``steps``: one object per step, every cell whole), the ``summary`` printed under the table and
    the ``rho`` table of :func:`render_radius` (``radius``: ``proofs_checks.radius_rows()``)."""
    return {"steps": _steps_json(reports), "summary": summary(reports),
            "rho": [dict(zip(_RADIUS_KEYS, row, strict=True)) for row in radius]}


#: the JSON keys of a row of ``proofs_checks.radius_rows`` (the columns of :func:`render_radius`).
_RADIUS_KEYS = ("preset", "noise", "K", "T", "delta", "paper_reading", "paper_reading_valid_by", "toolkit",
                "least_subgaussian", "least_gaussian", "least_bernoulli")


def _steps_json(reports) -> list:
    out = []
    for r in reports:
        m = r.mutation
        out.append({
            "id": r.step.sid, "label": r.step.label, "tex": r.step.tex, "step": r.step.statement,
            "hypotheses": [{"name": p.name, "formula": p.text, "source": p.source}
                           for p in r.step.inference.premises],
            "method": r.step.method, "result": _result(r).split(" ")[0], "detail": r.result.detail,
            "counterexample": jsonable({k: (str(v) if not isinstance(v, (int, float, str)) else v)
                                        for k, v in (r.result.counterexample or {}).items()}) or None,
            "corrected": r.result.corrected,
            "corrected_result": None if r.result.corrected_outcome is None else r.result.corrected_outcome.value,
            "consistency": r.result.consistency, "note": r.step.note, "accepted_by_baseline": r.accepted,
            "mutation": None if m is None else {
                "of": r.mutated, "total": m.total, "refused": m.refused, "premises_dropped": m.premises,
                "needed": m.needed, "vacuous": m.vacuous, "survived": list(m.survived),
                "slack": {d: r.step.slack.get(d, "UNDECLARED") for d in m.slack}, "undecided": list(m.undecided),
                "unneeded_hypotheses": {n: r.step.why_unneeded(n) for n in m.unneeded},
                "refused_examples": jsonable({k: {a: str(b) for a, b in (v or {}).items()}
                                              for k, v in m.examples.items()})},
            "tightened_constants": [{"constant": x.where, "paper": str(x.stated), "valid": str(x.value),
                                     "refuted_below": None if x.refuted_below is None else str(x.refuted_below),
                                     "tightest": x.tightest,
                                     "witness": None if x.witness is None else {k: str(v) for k, v in
                                                                                x.witness.items()}}
                                    for x in r.tightened],
            "toolkit": r.step.toolkit, "seconds": r.seconds})
    return out


def summary(reports) -> dict:
    """The numbers of the lines under the table: outcomes, mutants refused, code comparisons, what fails."""
    proved = [r for r in reports if r.mutated == "step"]
    consistency = [r for r in reports if r.result.consistency]
    bad = failures(reports)
    return {"steps": len(reports),
            **{o: sum(r.result.outcome.value == o for r in reports) for o in ("PROVED", "REFUTED", "UNKNOWN")},
            "proved_mutated": len(proved), "proved_with_a_refused_mutant": sum(not r.vacuous for r in proved),
            "mutants_refused": sum(r.mutation.refused for r in proved),
            "mutants": sum(r.mutation.total for r in proved),
            "code_comparisons": len(consistency),
            "code_comparisons_agreeing": len(consistency) - len(bad["code disagrees"]),
            "failures": {k: v for k, v in bad.items() if v}, "pass": not any(bad.values())}


def failures(reports) -> dict:
    """What makes ``tacc proofs`` exit 1: new refuted steps, vacuous steps, unexplained premises or slack, code
    that disagrees with the checked expression."""
    return {
        "refuted (not in the baseline)": [r.step.sid for r in reports
                                          if r.result.outcome.value == "REFUTED" and not r.accepted],
        "VACUOUS": [r.step.sid for r in reports if r.vacuous and r.mutated == "step"],
        "unneeded hypothesis not explained": [f"{r.step.sid}: {', '.join(r.undeclared)}" for r in reports
                                              if r.undeclared],
        "slack not explained": [f"{r.step.sid}: {', '.join(undeclared_slack(r))}" for r in reports
                                if undeclared_slack(r)],
        "code disagrees": [r.step.sid for r in reports
                           if r.result.consistency and "DISAGREES" in r.result.consistency],
    }


#: widths of the long cells of ``tacc proofs``'s table without ``--wide``: statement, hypotheses not needed, detail.
_CELL_WIDTHS = (70, 60, 80)


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the last three being ``...`` when it was longer."""
    return text if len(text) <= width else text[:width - 3] + "..."


def render(reports, *, wide: bool = False) -> str:
    """What ``tacc proofs`` prints: one row per proof step with its result, statement and why (cut to the terminal
    unless ``wide``)."""
    rows, cut = [], False
    for r in reports:
        long: tuple[str, ...] = (r.step.statement, _unneeded(r), _detail(r))
        if not wide:
            cut = cut or any(len(t) > w for t, w in zip(long, _CELL_WIDTHS, strict=True))
            long = tuple(_cut(t, w) for t, w in zip(long, _CELL_WIDTHS, strict=True))
        rows.append((r.step.label, r.step.sid, long[0], r.step.method, _result(r), _mutants(r), long[1], long[2]))
    n = summary(reports)
    out = [table(["label", "step", "statement", "method", "result", "mutants refused", "hypotheses not needed",
                  "counterexample / corrected / slack"], rows),
           "",
           f"{n['steps']} steps: {n['PROVED']} PROVED, {n['REFUTED']} REFUTED, "
           f"{n['UNKNOWN']} UNKNOWN; {n['proved_with_a_refused_mutant']} of {n['proved_mutated']} PROVED steps have a "
           f"refused mutant ({n['mutants_refused']} of {n['mutants']} mutants refused); "
           f"{n['code_comparisons_agreeing']} of {n['code_comparisons']} code comparisons agree with "
           f"the checked expression"]
    if cut:
        out.append(f"long cells are cut at {', '.join(map(str, _CELL_WIDTHS))} characters (statement, hypotheses "
                   "not needed, counterexample / corrected / slack): --wide prints them in full, --json keeps them")
    out.append("PASS: no new refuted step, no vacuous step, every unneeded hypothesis and slack explained"
               if n["pass"] else "FAIL: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in n["failures"].items()))
    return "\n".join(out)


def render_radius(rows) -> str:
    """The radius constant of lem:ci per preset: the paper's reading, the toolkit's, the least certified per noise."""
    body = [(n, noise, K, T, f"{d:g}", f"{p:g}", valid, f"{tk:.6g}", f"{sg:.6g}", f"{g:.6g}", f"{b:.6g}")
            for n, noise, K, T, d, p, valid, tk, sg, g, b in rows]
    return "\n".join([
        "radius constant rho of lem:ci (least certified by the union bound, per noise model; bounds.rho_readings "
        "derives each)",
        table(["preset", "noise", "K", "T", "delta", "paper reading", "valid by (its noise)", "toolkit (rho = min)",
               "least: sub-Gaussian", "least: Gaussian exact", "least: Bernoulli (Hoeffding)"], body),
        "the toolkit's rho = \"min\" is the sub-Gaussian value with the noise's scale (sigma for Gaussian noise, "
        "1/2 for Bernoulli: the Hoeffding column)"])


def coverage_summary(rows) -> dict:
    """The counts of the line under ``tacc proofs --coverage``'s table (``rows`` from
    ``proofs_checks.coverage_rows``); ``pass``: no statement with neither a checking row nor a reason (else exit
    1)."""
    checked = sum(1 for r in rows if r[3] != "-")
    reason_only = sum(1 for r in rows if r[3] == "-" and r[4])
    neither = sum(1 for r in rows if r[3] == "-" and not r[4])
    return {"statements": len(rows), "checked": checked, "reason_only": reason_only, "neither": neither,
            "pass": neither == 0}


def coverage_json(rows, side=()) -> dict:
    """``tacc proofs --coverage --json``: the rows of the text table, every cell whole (``statements``: the line in
    the .tex, where, the statement, ``checked_by``: each row as the table prints it, ``step [RESULT]``, none when
    no row checks it, and the reason), the ``summary`` of :func:`coverage_summary`, and the ``side_conditions``
    (:func:`side_json` of ``side``, ``proofs_checks.side_outcomes()``)."""
    return {"statements": [{"line": line, "where": where, "statement": what,
                            "checked_by": [] if checked == "-" else checked.split(", "), "reason": reason}
                           for line, where, what, checked, reason in rows],
            "summary": coverage_summary(rows), "side_conditions": side_json(side),
            "side_summary": side_summary(side)}


def side_json(outcomes) -> list[dict]:
    """Each side condition of ``proofs_checks.side_outcomes()``: where, the setting, its status (consistent,
    contradicts, fixes nothing), the conditions met, contradicted (with the condition) and forced, what it
    implies, and the whole sentence the table prints."""
    return [{"line": sc.line, "where": sc.where, "setting": sc.setting, "status": o.status, "meets": list(o.holds),
             "contradicts": [{"condition": n, "why": t} for n, t in o.contradicts],
             "forces": [{"condition": n, "relation": t} for n, t in o.forces], "implies": list(o.consequences),
             "outcome": o.text}
            for sc, o in outcomes]


def side_summary(outcomes) -> dict:
    """The counts under the side-condition table: how many, consistent, contradicting, fixing nothing."""
    n = {k: sum(1 for _, o in outcomes if o.status == k) for k in ("consistent", "contradicts", "fixes nothing")}
    return {"side_conditions": len(outcomes), "consistent": n["consistent"], "contradicts": n["contradicts"],
            "fixes_nothing": n["fixes nothing"]}


def render_side(outcomes, *, wide: bool = False) -> str:
    """The side-condition table under ``tacc proofs --coverage``: each remark, corollary and experimental setting
    with its outcome against the standing assumptions and the algorithm's conditions."""
    body = [(f"l.{sc.line}", sc.where, sc.setting if wide else _cut(sc.setting, 60),
             o.text if wide else _cut(o.text, 100)) for sc, o in outcomes]
    n = side_summary(outcomes)
    return "\n".join([
        "side conditions: each remark, corollary and experimental setting against the standing assumptions and the "
        "algorithm's conditions (proofs_checks._side)",
        table(["tex", "where", "setting", "outcome"], body), "",
        f"{n['side_conditions']} side conditions: {n['consistent']} consistent, {n['contradicts']} contradict a "
        f"standing condition or a definition, {n['fixes_nothing']} fix nothing"])


def render_coverage(rows, *, wide: bool = False) -> str:
    """``rows`` from ``proofs_checks.coverage_rows``: (line, where, what, rows, reason)."""
    def cut(s, n):
        return s if wide else _cut(s, n)

    body = [(f"l.{line}", where, cut(what, 60), rows, cut(reason, 80 if not wide else 10**6))
            for line, where, what, rows, reason in rows]
    n = coverage_summary(rows)
    out = [table(["tex", "where", "statement", "checked by", "not checked / only partly: why"], body), "",
           f"{n['statements']} statements: {n['checked']} checked by at least one row, {n['reason_only']} with a "
           f"reason only, {n['neither']} with neither"]
    return "\n".join(out)
