"""``tacc check``: the certificate as tables, JSON and JUnit XML."""

from __future__ import annotations

from xml.etree import ElementTree as ET

from certify import ASSUMPTIONS, VACUOUS_RATIO, Certificate, Verdict
from reports.views._accepted import accepted_findings, accepted_lines
from reports.tables import Ratio, jsonable, table


#: the legend of the ratio columns: what ``undefined`` and ``-`` mean there.
RATIO_LEGEND = "ratio = empirical / bound; undefined: 0 / 0 on every such run; -: no such run"


def _ratio(x):
    """A ratio for the table: one that is not 1 never prints as 1 (None, not stated, stays None)."""
    return x if x is None else Ratio(x)


def _ratio_cell(x, reason):
    """A ratio column's cell: the ratio, or ``vacuous (bound inf)`` when every asserted run's bound is infinite."""
    return "vacuous (bound inf)" if x is None and reason == VACUOUS_RATIO else _ratio(x)


def _count_cell(s, verdict: str):
    """A verdict count; a HOLDS count with vacuous runs (every bound infinite) says how many: ``5 (5 vacuous:
    bound inf)``, never a bare HOLDS."""
    n = s.counts[verdict]
    vac = getattr(s, "vacuous", 0)
    return f"{n} ({vac} vacuous: bound inf)" if verdict == "HOLDS" and vac else n


def verdict_table(summaries, all_runs: bool = True) -> str:
    """One row per claim: its verdict counts (every verdict of ``certify.Verdict``; HOLDS with how many of them
    are vacuous, the bound infinite) and the largest ratio over asserted runs that are not vacuous (and, with
    ``all_runs``, over every run that measured something)."""
    verdicts = [x.value for x in Verdict]
    rows = [(s.key, s.label, *(_count_cell(s, x) for x in verdicts), _ratio_cell(s.max_ratio, s.max_ratio_reason),
             *((_ratio_cell(s.max_ratio_all, s.max_ratio_all_reason),) if all_runs else ()))
            for s in summaries]
    return table(["claim", "label", *verdicts, "max ratio", *(("max ratio (all runs)",) if all_runs else ())], rows)


def passed(cert: Certificate, strict: bool = False) -> bool:
    """The gate's decision: no new violation, and with ``strict`` no measurable claim judged on no run (what the exit
    status, the last line, ``ok`` in the JSON and the JUnit failures all say)."""
    return cert.ok and not (strict and cert.strict_failures)


def to_json(cert: Certificate, evidence=(), strict: bool = False) -> dict:
    """The certificate as JSON: ``ok`` is the gate's decision (:func:`passed`, ``--strict`` included), ``strict``
    whether it was asked, ``strict_failures`` the claims it fails on (with or without it)."""
    return {
        "ok": passed(cert, strict), "strict": strict,
        "strict_failures": [nj.claim for nj in cert.strict_failures],
        "configs": list(cert.configs), "policies": list(cert.policies), "seeds": list(cert.seeds),
        "assumptions": {name: {k: {"statement": ASSUMPTIONS[k], "held": r.held, "status": r.status, "detail": r.detail,
                                   "witness": r.witness} for k, r in res.items()}
                        for name, res in cert.assumptions.items()},
        "claims": [jsonable(s) for s in cert.summaries],
        "violations": [jsonable(r) for r in cert.reproducers],
        "integrity_errors": [dict(jsonable(e), description=e.describe()) for e in cert.integrity_errors],
        "judged_pairs": cert.judged_pairs, "run_pairs": cert.run_pairs,
        "not_judged": [jsonable(nj) for nj in cert.not_judged],
        "evidence": [{"assumption": e.assumption, "policy": e.policy, "examples": e.examples, "found": e.found,
                      "claim": e.claim, "label": e.label, "seed": e.seed, "config": e.config_toml,
                      "description": e.describe()} for e in evidence],
        "verdicts_kept": cert.verdicts_kept,
        "verdicts": [jsonable(v) for v in cert.verdicts],
    }


def judged_lines(cert: Certificate) -> list:
    """The gate's first lines: how many (claim, run) pairs were judged, and every claim judged on no run with
    the assumptions (and witnesses) or other reasons that excluded it."""
    out = [f"judged: {cert.judged_pairs} of {cert.run_pairs} (claim, run) pairs (HOLDS or VIOLATED on something "
           f"measured); {len(cert.not_judged)} claim(s) judged on no run" + (":" if cert.not_judged else "")]
    counts = {s.key: s.counts for s in cert.summaries}
    for nj in cert.not_judged:
        out.append(f"  {nj.claim} ({nj.label}), {nj.runs} verdict(s){_not_judged_tag(nj, counts[nj.claim])}:")
        out += [f"    {r}" for r in nj.reasons]
    return out


def _not_judged_tag(nj, counts) -> str:
    """The tail of a not-judged claim's header, agreeing with the lines under it: ``nothing to measure`` when every
    verdict is NOTHING_TO_MEASURE; when no run had anything the claim bounds but another verdict came first (a
    failed assumption: NOT_APPLICABLE), that, without the verdict's name (the header said "nothing to measure" over
    NOT_APPLICABLE lines); nothing when some run had something it bounds (``--strict`` fails on it)."""
    if nj.measurable:
        return ""
    if counts[Verdict.NOTHING_TO_MEASURE.value] == nj.runs:
        return ", nothing to measure"
    return ", no run had anything it bounds"


def render(cert: Certificate, evidence=(), max_configs: int = 12, strict: bool = False) -> str:
    """What ``tacc check`` prints: the runs judged, the assumptions by configuration (at most ``max_configs``), each
    claim's verdicts, the violations with the command that reruns each, the evidence about assumptions, and the
    verdict of the gate (``strict``: as ``--strict`` decides)."""
    out = [f"tacc check: {len(cert.configs)} configuration(s) x {len(cert.policies)} policies "
           f"({', '.join(cert.policies)}) x {len(cert.seeds)} seeds"]
    out += judged_lines(cert)
    if cert.integrity_errors:
        out += ["", "CACHE INTEGRITY ERROR: VIOLATED verdicts a rerun from scratch did not confirm (not findings):"]
        out += [f"  {e.describe()}" for e in cert.integrity_errors]
    keys = list(ASSUMPTIONS)
    rows = [(name, *(res[k].status for k in keys))
            for name, res in list(cert.assumptions.items())[:max_configs]]
    out += ["", "assumptions (" + ", ".join(f"{k}: {ASSUMPTIONS[k]}" for k in keys[:0]) + "by configuration)",
            table(["configuration", *keys], rows)]
    for name, res in list(cert.assumptions.items())[:max_configs]:      # lem:ci judged under the exact tail
        rho = res.get("lem:ci:rho")
        if rho is not None and rho.held and rho.values.get("exact_tail_only"):
            out.append(f"lem:ci:rho on {name}: {rho.detail}; lem:ci and the claims on its event are judged under "
                       f"the {rho.values['reading']}")
    if len(cert.assumptions) > max_configs:
        failed = sum(not all(r.held for r in res.values()) for res in cert.assumptions.values())
        out.append(f"... {len(cert.assumptions) - max_configs} more; {failed} configuration(s) in all with a "
                   f"failed assumption (details in --json)")
    out += ["", f"certificate (verdicts per run; lem:ci per configuration and policy; {RATIO_LEGEND})",
            verdict_table(cert.summaries)]
    if cert.reproducers:
        out += ["", "violations (rerun with the command):"]
        for r in cert.reproducers:
            tag = "accepted by the baseline" if r.accepted else "NEW"
            out.append(f"  [{tag}] {r.claim} ({r.label}) on {r.config}, {r.policy}, seed {r.seed}: {r.command}")
            if r.reason:
                out.append(f"      {r.reason}")
        accepted = accepted_findings(cert.reproducers)
        if accepted:
            out += ["", "accepted by the baseline (--baseline), with its reason:"]
            out += [f"  {line}" for line in accepted_lines(accepted)]
    if evidence:
        out += ["", "evidence about assumptions (instances breaking one assumption, the others intact):"]
        out += [f"  {e.describe()}" for e in evidence]
    if cert.integrity_errors:
        verdict = f"ERROR: {len(cert.integrity_errors)} stored run(s) not reproduced (exit 3)"
    elif not cert.ok:
        verdict = f"FAIL: {len(cert.new_violations)} new violation(s)"
    elif not passed(cert, strict):
        verdict = (f"FAIL (--strict): judged on no run although measurable: "
                   f"{', '.join(nj.claim for nj in cert.strict_failures)}")
    else:
        verdict = "PASS: no new violation"
    out += ["", verdict]
    return "\n".join(out)


def junit(cert: Certificate, strict: bool = False) -> str:
    """JUnit XML: one test case per (claim, configuration, policy); VIOLATED not accepted -> failure, no run
    judged (every run OFF_EVENT, NOT_APPLICABLE, UNDECIDED or NOTHING_TO_MEASURE) -> skipped, except with
    ``strict`` a case of a claim ``--strict`` fails on whose runs had something it bounds -> failure."""
    accepted = {(r.claim, r.config) for r in cert.reproducers if r.accepted}
    strict_claims = {nj.claim for nj in cert.strict_failures} if strict else set()
    violated: dict = {}                   # every VIOLATED verdict is kept, whatever cert.verdicts_kept
    for v in cert.verdicts:
        if v.verdict is Verdict.VIOLATED:
            violated.setdefault((v.claim, v.config, v.policy), []).append(v)
    cells = cert.tally.cells if cert.tally is not None else {}
    suite = ET.Element("testsuite", name="tacc check", tests=str(len(cells)))
    failures = skipped = 0
    for (claim, config, policy), cell in cells.items():
        case = ET.SubElement(suite, "testcase", classname=f"{cell.label}.{claim}", name=f"{config}[{policy}]")
        bad = violated.get((claim, config, policy), []) if (claim, config) not in accepted else []
        if bad:
            failures += 1
            first = bad[0]
            at = "all seeds" if first.seed is None else f"seed {first.seed}"
            ET.SubElement(case, "failure", message=f"{len(bad)} run(s) VIOLATED; {at}: {first.reason}")
        elif not cell.judged and claim in strict_claims and cell.measurable:
            failures += 1
            ET.SubElement(case, "failure", message="--strict: judged on no run although a run had something it "
                                                   "bounds: " + "; ".join(cell.why()))
        elif not cell.judged:
            skipped += 1
            # the verdicts, then why, as the text output says it: the failed assumption with its witness, the
            # off-event runs, the undecided comparison
            ET.SubElement(case, "skipped", message=", ".join(sorted(k for k, n in cell.counts.items() if n)) + ": "
                          + "; ".join(cell.why()))
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    return ET.tostring(suite, encoding="unicode")
