"""What ``tacc report`` says, written from its results: the conclusions (printed, and at the top of report.md) and
report.md itself, with the sentences and notes beside its tables. It computes no number of its own beyond the
shares and percentages it shows."""

from __future__ import annotations

import math
from collections.abc import Sequence

from certify import CLAIMS, LEM_CI, ClaimSummary
from reports.figures import off_event_note, undecided_note
from reports.report import _metamorphic
from reports.report._results import TIED_NO_BOUND, ArmRow, CertificateRecord, ReportResults, TheoremRow
from reports.report._rdfe_phases import no_phase_footnote, no_phase_sentence, regret_cell_note
from reports.tables import fmt, fmt_apart_all, table
from reports.views import NO_REASON, accepted_lines, continuation_summary, tied_sentence, verdict_table

__all__ = ["conclusions", "markdown", "FROM_SAVED_NOTE", "METAMORPHIC_NOT_RUN"]


def _regret_row(res: ReportResults, i: int) -> list:
    """The regret table's row of budget ``i``: each policy's mean regret +- its standard error, then the bounds,
    the means and bounds printed apart (``fmt_apart_all``: a regret and a bound of 1.200e+06 both); RDFE's cell
    says in how many runs it completed no phase (``alg:app-rdfe``), if any."""
    means = [res.regret[pol][i].mean for pol in res.policies]
    texts = fmt_apart_all(means + [v[i] for v in res.bounds_by_budget.values()])
    rows = res.rdfe_no_phase                                # one per budget when RDFE ran
    note = {"rdfe": regret_cell_note(rows[i])} if rows else {}
    return ([fmt(res.budgets[i])] + [f"{t} +- {fmt(res.regret[pol][i].se)}{note.get(pol, '')}"
                                     for t, pol in zip(texts, res.policies, strict=False)]
            + [str(t) for t in texts[len(means):]])          # left-aligned, as the cells beside them


#: claims whose bound is a number to approach (not a zero count or a structural "at most the first query").
_QUANTITATIVE = ("low-count", "high-count", "theorem", "theorem-arms", "theorem-dnc", "theorem-static", "rdfe-width",
                 "rdfe-cost", "rdfe-theorem", "rdfe-theorem-phase-sum", "rdfe-theorem-as-stated", "control-ucb")


#: where a conclusion about VIOLATED verdicts points: the conclusions are printed on the terminal too, where nothing
#: is "below" them.
_VIOLATIONS_PLACE = "the section Violations of report.md (reproducers in the reproducers folder beside it)"


def _violations_sentence(viol: int, cert: CertificateRecord) -> str:
    """The conclusion about the VIOLATED verdicts: how many, which the baseline accepted and why, how many are new."""
    accepted = cert.accepted
    if not accepted:
        hint = "" if cert.baseline else (" (no --baseline was given: `--baseline repo` accepts the repository's "
                                            "known findings, as `tacc check` does)")
        return (f"{viol} VIOLATED verdict(s), every one new{hint}: see {_VIOLATIONS_PLACE}; each has a "
                f"reproducer.")
    n_accepted = sum(a.verdicts for a in accepted)
    which = "; ".join(f"{a.claim} ({a.label}) on {a.config}, {a.verdicts} verdict(s), because "
                      f"{(a.why or NO_REASON).rstrip('.')}" for a in accepted)
    return (f"{viol} VIOLATED verdict(s): {n_accepted} accepted by the baseline ({which}); {viol - n_accepted} new. "
            f"See {_VIOLATIONS_PLACE}; each has a reproducer.")


def _ratio(c: ClaimSummary) -> float:
    """A claim's largest ratio empirical / bound over its asserted runs (a number: the claims that have none are
    said apart)."""
    return math.nan if c.max_ratio is None else c.max_ratio


def conclusions(res: ReportResults) -> list[str]:
    out = []
    cert = res.certificate
    viol = sum(c.counts["VIOLATED"] for c in cert.claims)
    runs = res.runs_at_full_budget
    if viol == 0:
        n = res.n_seeds
        out.append(f"No claim of the paper was VIOLATED: 0 VIOLATED verdicts over {runs} runs at the full budget "
                   f"({n} seed{'s' * (n != 1)} x {len(res.policies)} policies)." + _not_judged(cert))
    else:
        out.append(_violations_sentence(viol, cert) + _not_judged(cert))
    failed = [k for k, a in res.assumptions.items() if not a.held]
    if failed:
        judged = {c.key for c in cert.claims}
        needing = [c.key for c in (*CLAIMS, LEM_CI) if c.key in judged and set(c.assumptions) & set(failed)]
        if needing:
            out.append(f"Assumption(s) {', '.join(failed)} fail on this instance, so the claims that need them "
                       f"({', '.join(needing)}) are NOT_APPLICABLE; their bound and empirical values are still shown.")
        else:
            out.append(f"Assumption(s) {', '.join(failed)} fail on this instance; no claim judged here needs them, "
                       f"so every claim is judged as usual.")
    else:
        out.append("Every assumption the claims need holds on this instance.")
    if res.budgets_left_out:                       # said where the terminal shows it too
        out.append(_left_out_note(res).strip())
    asserted = [c for c in cert.claims if c.key in _QUANTITATIVE and isinstance(c.max_ratio, float)
                and math.isfinite(c.max_ratio) and c.counts["HOLDS"] > 0]
    # no number: none judged, 0 / 0 on every run (NaN), or (vacuous) every bound infinite
    undefined = [c.key for c in cert.claims if c.key in _QUANTITATIVE
                 and (c.max_ratio is None or not math.isfinite(c.max_ratio))
                 and c.counts["HOLDS"] > 0 and not c.vacuous]
    if asserted:
        tight = max(asserted, key=_ratio)
        loose = min(asserted, key=_ratio)
        if _ratio(tight) == 0:           # no run reaches any of them (rho = 1e-300): said so, not "0.0%"
            out.append(f"The runs reach none of the quantitative bound{'s' * (len(asserted) > 1)} judged "
                       f"({', '.join(c.key for c in asserted)}): their value is 0 on every run (0% of the bound).")
        elif len(asserted) == 1:
            out.append(f"The one quantitative bound judged is {tight.key} ({tight.label}): runs reach "
                       f"{_pct(_ratio(tight))} of it.")
        elif _ratio(tight) == _ratio(loose):
            out.append(f"Every quantitative bound judged ({', '.join(c.key for c in asserted)}) is reached to "
                       f"the same {_pct(_ratio(tight))} by the runs.")
        else:
            # class-A and class-Cd bound N^(H) by the first round's one query, which every run makes when the
            # budget covers the first round (alg:start): their ratio is then 1 by construction, so they are named
            # apart; one decimal, so 0.9988 is not shown as 100%
            first = [c for c in cert.claims if c.key in ("class-A", "class-Cd") and c.counts["HOLDS"] > 0]
            besides = (f"Besides {_and(c.key for c in first)} (at most the first round's one high-fidelity "
                       f"query, {_first_query(res, first)}), the" if first else "The")
            out.append(f"{besides} tightest bound is {tight.key} ({tight.label}): runs reach "
                       f"{_pct(_ratio(tight))} of it. The loosest is {loose.key} ({loose.label}) at "
                       f"{_pct(_ratio(loose))}.")
    if undefined:
        out.append(f"How tight {_and(undefined)} {'is' if len(undefined) == 1 else 'are'} is undefined: bound and "
                   f"empirical value are both 0 on every run where {'it was' if len(undefined) == 1 else 'they were'}"
                   f" judged (0 / 0).")
    for x in res.vacuous:
        out.append(f"{_and(x.claims)} ({x.label}) {'holds' if len(x.claims) == 1 else 'hold'} only "
                   f"vacuously (HOLDS on {x.runs} run(s), bound infinite: vacuous), so no tightness is stated for "
                   f"{'it' if len(x.claims) == 1 else 'them'}: {x.reason}")
    th = res.theorem
    if th and th.bound_prior == 0 and th.bound_all_cd == 0:
        out.append(f"At the full budget TACC's mean regret is {fmt(th.tacc_mean)} and the theorem's bound is 0 "
                   f"in both forms: no arm has a positive gap, so every query is free of regret.")
    elif th:
        mean, prior, all_cd = fmt_apart_all([th.tacc_mean, th.bound_prior, th.bound_all_cd])
        out.append(f"At the full budget TACC's mean regret is {mean}, "
                   f"{_share(th.tacc_mean, th.bound_prior)} the theorem's bound with every C arm in H "
                   f"({prior}) and {_share(th.tacc_mean, th.bound_all_cd)} its "
                   f"smallest form, every C arm in C^d ({all_cd})." + _outside_theorem(cert, th)
                   + (f" Both forms take the term of {th.bound_reason}." if th.bound_reason else ""))
    rows = res.rdfe_no_phase                                # one per budget when RDFE ran
    rdfe = rows and no_phase_sentence(rows, {q: res.regret[q][-1].mean for q in res.policies})
    if rdfe:
        out.append(rdfe)
    for names in res.identical_runs:
        out.append(f"{_and(names)} made identical runs on every seed at every budget (their run records are equal "
                   f"apart from the policy's name): their numbers are the same and the figure draws them as one "
                   f"line, labelled {' = '.join(names)}.")
    out += [x.text for x in res.non_monotone_bounds]
    cls = res.classes_after_run
    if cls:
        parts = ", ".join(f"{k}: {v}" for k, v in sorted(cls.items()))
        out.append(f"Arm classes over TACC's runs (arm-runs): {parts}.")
    floats = res.float_sums
    unfaithful = not floats.faithful
    out.append(_event_sentence(res.event, res.delta, _lem_ci_fails(res.assumptions), undecided=unfaithful))
    rounding = _rounding_sentence(res.event)
    if rounding:
        out.append(rounding)
    if unfaithful:
        out.append(f"At these magnitudes {floats.bound}: a run's float sums, which the policies' indices "
                   f"use, are not the exact algorithm's, so the claims that need the confidence event are UNDECIDED "
                   f"on every run (rounding) and lem:ci is not decided HOLDS (certify.float_sums_faithful).")
    return out


def _not_judged(cert: CertificateRecord) -> str:
    """How many verdicts the runs left unjudged: OFF_EVENT (the confidence event of lem:ci failed on the run, so a
    claim that needs it states nothing there) and UNDECIDED, over every claim; empty when there is none. A count of
    0 VIOLATED says nothing of those runs."""
    counts = {v: sum(c.counts[v] for c in cert.claims) for v in ("OFF_EVENT", "UNDECIDED")}
    if not any(counts.values()):
        return ""
    parts = []
    if counts["OFF_EVENT"]:
        parts.append(f"{counts['OFF_EVENT']} OFF_EVENT (the confidence event of lem:ci failed on the run)")
    if counts["UNDECIDED"]:
        parts.append(f"{counts['UNDECIDED']} UNDECIDED")
    total = sum(sum(c.counts.values()) for c in cert.claims)
    return (f" {sum(counts.values())} of the {total} verdicts were not judged: {_and(parts)}; a claim states nothing "
            f"about those runs, so they are no evidence for it either way.")


def _first_query(res: ReportResults, first: list) -> str:
    """Whether the runs make the first round's one high-fidelity query that class-A and class-Cd allow: every run
    does when the budget covers the first round (alg:start of alg:adaptive-mf-mab); otherwise some or none do."""
    start = res.assumptions.get("alg:start")
    if start is None or start.held:
        return "which every run makes"
    made = "no run makes" if all(c.max_ratio == 0 for c in first) else "not every run makes"
    return f"which {made} here: the budget does not cover the first round (alg:start fails: {start.detail})"


def _lem_ci_fails(assumptions: dict) -> list[tuple[str, str]]:
    """The assumptions of lem:ci that fail on the instance, as (label, detail): lem:ci does not apply when any
    does (its verdicts NOT_APPLICABLE)."""
    return [(a.label, a.detail) for k, a in assumptions.items() if k in LEM_CI.assumptions and not a.held]


def _outside_theorem(cert: CertificateRecord, th: TheoremRow) -> str:
    """What the comparison of TACC's mean regret with the theorem's bound leaves out: how many of the runs it
    averages are outside the theorem (the claim ``theorem``'s verdicts on them: OFF_EVENT, the confidence event of
    lem:ci failed; NOT_APPLICABLE, an assumption fails; UNDECIDED), so an excess is not read as a counterexample.
    Empty when the theorem was asserted on every run."""
    claim = next((c for c in cert.claims if c.key == "theorem"), None)
    if claim is None:
        return ""
    counts = claim.counts
    runs = sum(counts.values())
    outside = {v: counts[v] for v in ("OFF_EVENT", "NOT_APPLICABLE", "UNDECIDED") if counts[v]}
    if not outside:
        return ""
    parts = []
    if "OFF_EVENT" in outside:
        parts.append(f"{outside['OFF_EVENT']} OFF_EVENT (the confidence event of lem:ci failed on the run)")
    if "NOT_APPLICABLE" in outside:
        parts.append(f"{outside['NOT_APPLICABLE']} NOT_APPLICABLE (an assumption of the theorem fails on the "
                     f"instance)")
    if "UNDECIDED" in outside:
        parts.append(f"{outside['UNDECIDED']} UNDECIDED")
    n_out = sum(outside.values())
    which = f"All {runs}" if n_out == runs else f"{n_out} of the {runs}"
    text = (f" {which} of TACC's runs this mean averages are outside thm:analysis-main-regret, which states "
            f"nothing about them: {_and(parts)}")
    excess = th.tacc_mean > min(th.bound_prior, th.bound_all_cd)
    if n_out == runs:
        return text + (", so the excess over the bound is no counterexample to the theorem." if excess else ".")
    asserted = counts["HOLDS"] + counts["VIOLATED"]
    return (text + f"; on the other {asserted} the theorem HOLDS on {counts['HOLDS']} and is VIOLATED on "
            f"{counts['VIOLATED']}" + (" (the excess of the mean comes from the runs outside it)."
                                       if excess and not counts["VIOLATED"] else "."))


def _and(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _pct(x: float, digits: int = 1) -> str:
    """100 x as a percentage with ``digits`` decimals; a positive share too small for them keeps two significant
    digits (1.2e-03%, not 0.0%); a share that is not 1 gets the decimals that keep it from reading 100% (99.998%)."""
    p = 100 * x
    while p != 100 and digits < 15 and float(f"{p:.{digits}f}") == 100:
        digits += 1
    return f"{p:.{digits}f}%" if p == 0 or round(p, digits) != 0 else f"{p:.2g}%"


def _share(value: float, bound: float) -> str:
    """'x% of' a bound, in words when the bound is 0 or infinite (a percentage would be undefined)."""
    if bound == 0:
        return "exactly at (both 0)" if value == 0 else "above (the bound is 0)"
    if math.isinf(bound):
        return "0% of (the bound is infinite)"
    return f"{_pct(value / bound)} of"


def _event_sentence(event: dict, delta: float, lem_ci_fails: Sequence[tuple[str, str]] = (), *,
                    undecided: bool = False) -> str:
    """The event-failure sentence; "the most of any policy" only when one policy has strictly the most. With an
    assumption of lem:ci failing (``lem_ci_fails``, as (label, detail)) the frequency is neither consistent with
    nor above the lemma: the lemma does not apply. With the runs' float sums not the exact algorithm's
    (``undecided``: ``certify.float_sums_faithful`` false at these magnitudes) it is neither either: lem:ci is
    UNDECIDED on every run (rounding), as the report's later sentence on the float sums says."""
    ev = list(event.values())
    worst = max(ev, key=lambda e: e.frequency)
    verdict = "consistent with the lemma" if worst.frequency <= delta else "above the lemma"
    if undecided:
        verdict = ("lem:ci is undecided here (rounding: at these magnitudes the runs' float sums are not the exact "
                   "algorithm's, certify.float_sums_faithful), so this frequency is no test of it")
    if lem_ci_fails:
        many = len(lem_ci_fails) > 1
        which = _and(f"{label} ({detail})" for label, detail in lem_ci_fails)
        verdict = (f"lem:ci does not apply (its assumption{'s' if many else ''} {which} fail{'' if many else 's'}: "
                   f"NOT_APPLICABLE), so this frequency is no test of it")
    tied = [e.policy for e in ev if e.frequency == worst.frequency]
    if len(ev) > 1 and len(tied) == len(ev):
        return (f"The confidence event of lem:ci failed equally often for every policy: {worst.failures} of "
                f"{worst.runs} runs each, frequency {fmt(worst.frequency)} against delta = {delta}: {verdict}.")
    most = "" if len(ev) == 1 else (" (the most of any policy)" if len(tied) == 1 else
                                    f" (tied with {_and(tied[1:])} for the most)")
    return (f"The confidence event of lem:ci failed on {worst.failures} of {worst.runs} runs of "
            f"{worst.policy}{most}, frequency {fmt(worst.frequency)} against delta = {delta}: {verdict}.")


def _rounding_sentence(event: dict) -> str | None:
    """What the engines' float check reported as event failures that the exact check does not confirm (the float
    running sums' rounding, on large means), or None when there was none."""
    ev = [e for e in event.values() if e.rounding]
    if not ev:
        return None
    per = _and([f"{e.rounding} of {e.runs} runs of {e.policy}" for e in ev])
    return (f"The engines' float check of the confidence event reported failures that the exact sums of the "
            f"observations do not confirm ({per}): the float running sums' rounding, not a deviation. lem:ci is judged "
            f"on the exact decision; on those runs the float sums the policies' indices use are off by more than the "
            f"radius too, so the claims that need the event are UNDECIDED there (rounding), not judged.")


def _seed_free_note(res: ReportResults) -> list[str]:
    """The regret table's footnote on each +- 0 that is a policy making the same queries on every seed."""
    out = []
    for x in res.seed_free:
        at = _and([fmt(b) for b in x.budgets])
        line = (f"+- 0: {x.policy} made the same queries on all {x.seeds} seeds at budget(s) {at} (equal "
                f"N_k^(L) and N_k^(H) per arm), and its regret is a function of these counts.")
        if x.policy == "rdfe":
            line += (" RDFE's plan is deterministic: each active arm is queried to a stopping count that depends "
                     "on G, B_k and eps_r only (`alg:app-rdfe`); the rewards decide only which arms survive a "
                     "completed phase, and " + ("the budget ran out before any phase was completed."
                                                 if not x.phase_completed else
                                                 "every completed phase kept the same arms on every seed."
                                                 if x.same_survivors else
                                                 "the completed phases kept different arms on some seeds without "
                                                 "changing any count."))
        out += ["", line]
    return out


def _no_phase_note(res: ReportResults) -> list[str]:
    """The regret table's footnote on RDFE's cells marked "no phase" (runs that completed no phase of
    ``alg:app-rdfe``), when there is one."""
    note = no_phase_footnote(res.rdfe_no_phase)
    return ["", note] if note else []


#: what a report rebuilt from saved runs says about its VIOLATED verdicts (it makes no run, so it confirms none).
FROM_SAVED_NOTE = (" This report was rebuilt from saved runs (`--from`): its VIOLATED verdicts are judged on those runs"
                   " and not confirmed on a fresh run; `tacc report` without `--from` (or `tacc check`) confirms them.")


#: why a report rebuilt from saved runs has no metamorphic relations (``results.json``'s ``metamorphic_reason``)
METAMORPHIC_NOT_RUN = ("this report was rebuilt from saved runs (`--from`), and the relations need fresh paired runs "
                       "of altered instances; `tacc report` without `--from` runs them")


def _count_row(x: ArmRow) -> tuple:
    """One arm's row of the counts table: an arm tied with k^* says so in its class and N_H bound cells."""
    low = fmt_apart_all([x.low_bound, x.low_mean, x.low_max])
    high = fmt_apart_all([x.high_bound, x.high_mean, x.high_max])
    if x.tied_with_best:
        return (x.arm, f"{x.arm_class} (tied with k*)", x.tau, x.gap, *low, TIED_NO_BOUND, *high[1:])
    return (x.arm, x.arm_class, x.tau, x.gap, *low, *high)


def _tied_note(res: ReportResults) -> list[str]:
    """The lines saying what a tied optimal arm is (``tacc bounds``'s sentence), when the instance has one."""
    tied = [x.arm for x in res.arms if x.tied_with_best]
    return ["", tied_sentence(tied, res.instance.best_arm)] if tied else []


def _left_out_note(res: ReportResults) -> str:
    """The sentence on the budgets of the sweep left out (``report_budgets``), if any, and on the full budget when it
    does not pay for the first round either: it is run all the same, and the sentence says so."""
    out = res.budgets_left_out
    if not out:
        return ""
    start = res.assumptions.get("alg:start")
    full = (f"; the full budget {fmt(res.budgets[-1])} is below it too and is run all the same (alg:start fails, "
            f"{start.detail})" if start is not None and not start.held else "")
    return (f" The sweep's {_and([fmt(b) for b in out])} {'is' if len(out) == 1 else 'are'} left out: below the cost "
            f"of the first round of Algorithm 1, K (lambda^(L) + lambda^(H)) (alg:start), no run could query every "
            f"arm{full}.")


def markdown(res: ReportResults, files: list, cert) -> str:
    p, inst = res.parameters, res.instance
    lines = [f"# Bound-versus-empirical report: {res.config}", "",
             f"Source: `{res.source}`. {res.n_seeds} seeds, policies {', '.join(res.policies)}; "
             f"budgets {', '.join(fmt(b) for b in res.budgets)} (separate runs per budget)."
             + _left_out_note(res), "",
             "## What to conclude", ""]
    lines += [f"- {c}" for c in res.conclusions]
    lines += ["", "## Instance and parameters", "",
              table(["quantity", "value"], [("K", inst.n_arms), ("best arm k*", inst.best_arm),
                                            ("low-fidelity model", inst.low_model), ("noise", inst.noise),
                                            ("T_Lambda", p.horizon),
                                            ("rho (least certified: sub-Gaussian; noise's exact tail)",
                                             f"{fmt(p.rho)} ({fmt(p.rho_min)}; {fmt(p.rho_min_exact_tail)})"),
                                            ("ell_Lambda", p.ell), ("N_gamma", p.n_gamma), ("gamma", p.gamma),
                                            ("eta", p.eta), ("S0", p.s0),
                                            ("costs (low, high)", f"{fmt(p.cost_low)}, {fmt(p.cost_high)}")]),
              "", f"Continuation window (`eq:fidelity-selection`): {continuation_summary(res.continuation)}",
              "", "![continuation window](figures/continuation_window.png)",
              "", "## Assumptions", "",
              table(["label", "held", "statement", "detail"],
                    [(k, "yes" if a.held else "NO", a.statement, a.detail) for k, a in res.assumptions.items()]),
              "", "## Counts against their bounds (TACC, full budget)", "",
              "Bounds: `prop:analysis-low-query-bound` (N_L <= N_gamma + S0 + 1) and `prop:analysis-high-selection` "
              "(N_H <= 1 + ceil(4 ell / Delta^2)); mean and max over seeds.", "",
              table(["arm", "class", "tau", "gap", "N_L bound", "N_L mean", "N_L max", "N_H bound", "N_H mean",
                     "N_H max"], [_count_row(x) for x in res.arms]),
              *_tied_note(res),
              "", "The figures draw every seed's count (points) and its spread (box) per arm against the bound (bar), "
              "the runs in which a C arm was in C^d apart from those in which it was in C^u.",
              *off_event_note(res.counts_off_event), *undecided_note(res.counts_undecided), "",
              "![low-fidelity counts](figures/low_counts.png)", "",
              "![high-fidelity counts](figures/high_counts.png)", "",
              "## Regret against budget", "",
              table(["budget"] + res.policies + list(res.bounds_by_budget),
                    [_regret_row(res, i) for i in range(len(res.budgets))]),
              *_seed_free_note(res),
              *_no_phase_note(res),
              "", "![regret against budget](figures/regret_vs_budget.png)", "",
              "## Tightness and verdicts (full budget)", "",
              "ratio = empirical / bound, largest over asserted runs (HOLDS or VIOLATED) and over all runs that "
              "measured something; undefined: 0 / 0 on every such run; -: no such run."
              + ("" if res.metamorphic is not None else FROM_SAVED_NOTE),
              "",
              verdict_table(cert.summaries),
              "", "![tightness per claim](figures/tightness.png)",
              "", "## Metamorphic relations (full budget, first seeds)", "",
              *(_metamorphic.markdown(res.metamorphic) if res.metamorphic is not None else
                [f"Not run: {METAMORPHIC_NOT_RUN}."]),
              "", "## Confidence event (lem:ci)", "",
              table(["policy", "runs", "event failed", "frequency", "delta"],
                    [(e.policy, e.runs, e.failures, e.frequency, res.delta) for e in res.event.values()]), ""]
    if cert.reproducers:
        lines += ["## Violations", ""] + [f"- [{'accepted by the baseline' if r.accepted else 'NEW'}] {r.claim} "
                                          f"({r.label}), {r.policy}, seed {r.seed}: `{r.command}`"
                                          for r in cert.reproducers] + [""]
        accepted = res.certificate.accepted
        if accepted:
            lines += ["Accepted by the baseline (`--baseline`), with its reason:", ""]
            lines += [f"- {line}" for line in accepted_lines(accepted)] + [""]
    lines += ["## Files", "", "- `results.json`: every number above", "- figures (PNG and PDF): "
              + ", ".join(f"`figures/{f}`" for f in files), ""]
    return "\n".join(lines)
