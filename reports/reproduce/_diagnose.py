"""Why a claim of the reproduction comes out as it does: explanations computed from the runs'
diagnostics, never written by hand.

For a claim that is not reproduced, and for every pair of methods with equal regret on most seeds, the sentences
are built from the numbers: where each method's regret comes from (by fidelity and by arm, with the arm's class
of ``eq:analysis-arm-partition`` and its gap), where TACC's continuation pulls went and what they cost, the
continuation window at the rho used (``bounds.continuation_of``), on how many seeds two methods made identical
runs, and the rho values of the sweep at which the claim would reproduce, with the confidence event's failure
frequency there.
"""

from __future__ import annotations

import math

from reports.reproduce._common_seeds import CommonSeeds, MethodSums
from reports.tables import fmt

__all__ = ["regret_sources", "continuation_use", "equal_pairs", "explain_claim", "claim_methods", "sweep_marks"]

def regret_sources(sums: MethodSums, gaps, cost_low: float, cost_high: float, classes) -> dict:
    """Mean regret of one method's runs (``sums``, per arm) split by fidelity (Delta_k lambda N_k) and by arm (mean
    share, class, gap)."""
    g = [float(x) for x in gaps]
    n = sums.n
    low_sums, high_sums = sums.low.total(), sums.high.total()
    low = math.fsum(gk * nk for gk, nk in zip(g, low_sums, strict=True)) / n * cost_low
    high = math.fsum(gk * nk for gk, nk in zip(g, high_sums, strict=True)) / n * cost_high
    arms = [{"arm": k, "class": classes[k].value, "gap": g[k], "share": float(sums.share[k]) / n,
             "low": low_sums[k] / n, "high": high_sums[k] / n} for k in range(len(g))]
    return {"regret": sums.summary().mean, "low": low, "high": high, "high_queries": sums.high_calls / n,
            "arms": arms}


def _sources_sentence(method: str, s: dict, cost_high: float) -> str:
    top = sorted((a for a in s["arms"] if a["share"] > 0), key=lambda a: -a["share"])[:2]
    where = "; ".join(f"arm {a['arm']} ({a['class']}, gap {fmt(a['gap'])}) {fmt(a['share'])} from "
                      f"{fmt(a['low'])} low and {fmt(a['high'])} high queries" for a in top)
    return (f"{method}'s mean regret {fmt(s['regret'])} = {fmt(s['high'])} from high-fidelity queries "
            f"({fmt(s['high_queries'])} per run at lambda_H = {fmt(cost_high)}) + {fmt(s['low'])} from low-fidelity "
            f"queries" + (f"; largest shares: {where}" if where else "; no arm with a positive gap was queried"))


def continuation_use(sums: MethodSums, gaps, cost_low: float, classes) -> dict:
    """Where TACC's continuation pulls went (``sums``: its runs, per arm): per arm the mean pulls, on how many runs,
    and their regret lambda_L Delta_k A_k."""
    n = sums.n
    pulls, runs = sums.cont.total(), sums.cont_runs.total()
    g = [float(x) for x in gaps]
    arms = [{"arm": k, "class": classes[k].value, "gap": g[k], "pulls": pulls[k] / n, "seeds": runs[k],
             "regret": cost_low * g[k] * (pulls[k] / n)} for k in range(len(g)) if pulls[k]]
    return {"total": sums.continuation / n, "regret": math.fsum(x["regret"] for x in arms), "arms": arms,
            "seeds": n}


def _continuation_sentence(use: dict, window_sentence: str) -> str:
    if not use["arms"]:
        return f"TACC made no continuation pull on any of {use['seeds']} seeds. {window_sentence}"
    where = "; ".join(f"arm {x['arm']} ({x['class']}, gap {fmt(x['gap'])}): {fmt(x['pulls'])} per run on {x['seeds']} "
                      f"of {use['seeds']} seeds" for x in use["arms"])
    return (f"TACC's continuation pulls ({fmt(use['total'])} per run) went to {where}; their own regret is "
            f"lambda_L x gap x pulls = {fmt(use['regret'])} per run. {window_sentence}")


def equal_pairs(runs: CommonSeeds) -> list[tuple]:
    """Pairs of methods whose regret is exactly equal on more than half of the common seeds (a surprising
    equality): (m1, m2, identical runs, equal regret, seeds)."""
    ms = runs.methods
    out = []
    for i, m in enumerate(ms):
        for q in ms[i + 1:]:
            same, equal, n = runs.identical(m, q)
            if 2 * equal > n:
                out.append((m, q, same, equal, n))
    return out


def equality_sentence(m, q, same, equal, n, use: dict | None) -> str:
    text = (f"{m} and {q} made identical runs (every query and count equal) on {same} of {n} seeds and ended with "
            f"exactly the same regret on {equal} of {n}")
    if use is not None and "tacc" in (m, q) and "dnc" in (m, q) and not use["arms"]:
        text += "; TACC made no continuation pull, and without one it makes DNC's decisions"
    elif use is not None and "tacc" in (m, q) and "dnc" in (m, q):
        free = sum(x["pulls"] for x in use["arms"] if x["gap"] == 0)
        text += (f"; TACC differs from DNC only by its continuation pulls, {fmt(use['total'])} per run, of which "
                 f"{fmt(free)} on arms with gap 0, which cost no regret")
    return text + "."


def claim_methods(claim) -> tuple:
    """The methods a claim compares (TACC first)."""
    k, a = claim.kind, claim.args
    if k == "best":
        return tuple(a[1])
    if k in ("paired_below", "paired_mean_below", "paired_above"):
        return ("tacc", a[1])
    if k == "continuation_bounded":
        return ("tacc",)
    if k == "decreasing":
        return (a[0],)
    if k == "close_to":
        return (a[1],)
    if k == "below":
        return (a[1], a[2])
    raise ValueError(k)


def sweep_marks(claim, outcomes: list) -> str:
    """``outcomes``: per rho scale (scale, reproduced or None if not swept, event-failure frequency of the claim's
    methods, worst) -> the sentence marking where the claim would reproduce."""
    swept = [o for o in outcomes if o[1] is not None]
    if not swept:
        return "The rho sweep does not cover this claim's setting."
    yes = [o for o in swept if o[1]]
    marks = ", ".join(f"{fmt(s)} ({'reproduced' if ok else 'not'}; event failed in {f:.0%} of the runs"
                      f"{'' if f == 0 else ' of ' + w})" for s, ok, f, w in swept)
    head = (f"It would reproduce at rho / rho_min = {', '.join(fmt(o[0]) for o in yes)}" if yes else
            "It reproduces at no rho of the sweep")
    return f"{head}; sweep: {marks}."


def explain_claim(claim, *, runs: CommonSeeds, gaps, costs: tuple, classes, window_sentence: str,
                  marks: str) -> list[str]:
    """The computed explanation of one claim: ``runs`` are the methods' final-budget runs of the claim's setting
    (per arm, compared); ``costs`` = (lambda_L, lambda_H)."""
    cl, ch = costs
    methods = [m for m in claim_methods(claim) if m in runs.sums]
    out = []
    if claim.kind == "best":
        means = {m: runs.sums[m].summary().mean for m in methods}
        best = min(means, key=means.__getitem__)
        methods = ["tacc", best] if best != "tacc" else ["tacc"]
    for m in methods:
        out.append(_sources_sentence(m, regret_sources(runs.sums[m], gaps, cl, ch, classes), ch) + ".")
    use = None
    if "tacc" in methods:                   # continuation is TACC's: said only where the claim compares TACC
        use = continuation_use(runs.sums["tacc"], gaps, cl, classes)
        out.append(_continuation_sentence(use, window_sentence))
    for i, m in enumerate(methods):
        for q in methods[i + 1:]:
            same, equal, n = runs.identical(m, q)
            if same or equal:
                out.append(equality_sentence(m, q, same, equal, n, use))
    out.append(marks)
    return out
