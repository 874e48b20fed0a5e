"""Why a claim of the reproduction comes out as it does (issue 15, item 2): explanations computed from the runs'
diagnostics, never written by hand.

For a claim that is not reproduced, and for every pair of methods with equal regret on most seeds, the sentences
are built from the numbers: where each method's regret comes from (by fidelity and by arm, with the arm's class
of ``eq:analysis-arm-partition`` and its gap), where TACC's continuation pulls went and what they cost, the
continuation window at the rho used (``bounds.continuation_of``), on how many seeds two methods made identical
runs, and the rho values of the sweep at which the claim would reproduce, with the confidence event's failure
frequency there.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from reports._tables import fmt
from simulate import RunRecord

__all__ = ["regret_sources", "continuation_use", "identical_seeds", "equal_pairs", "explain_claim",
           "claim_methods", "sweep_marks"]

#: the fields of a run record that make a run, every one but the policy's name.
_RUN_FIELDS = tuple(f.name for f in fields(RunRecord) if f.compare and f.name != "policy")


def regret_sources(records, gaps, cost_low: float, cost_high: float, classes) -> dict:
    """Mean regret over ``records`` split by fidelity (Delta_k lambda N_k) and by arm (mean share, class, gap)."""
    g = np.asarray(gaps, dtype=float)
    nl = np.array([r.n_low for r in records], dtype=float)
    nh = np.array([r.n_high for r in records], dtype=float)
    low = float((nl * g).sum(axis=1).mean() * cost_low)
    high = float((nh * g).sum(axis=1).mean() * cost_high)
    arms = [{"arm": k, "class": classes[k].value, "gap": float(g[k]), "share": float(np.mean([r.regret_share[k]
                                                                                               for r in records])),
             "low": float(nl[:, k].mean()), "high": float(nh[:, k].mean())} for k in range(len(g))]
    return {"regret": float(np.mean([r.regret for r in records])), "low": low, "high": high,
            "high_queries": float(nh.sum(axis=1).mean()), "arms": arms}


def _sources_sentence(method: str, s: dict, cost_high: float) -> str:
    top = sorted((a for a in s["arms"] if a["share"] > 0), key=lambda a: -a["share"])[:2]
    where = "; ".join(f"arm {a['arm']} ({a['class']}, gap {fmt(a['gap'])}) {fmt(a['share'])} from "
                      f"{fmt(a['low'])} low and {fmt(a['high'])} high queries" for a in top)
    return (f"{method}'s mean regret {fmt(s['regret'])} = {fmt(s['high'])} from high-fidelity queries "
            f"({fmt(s['high_queries'])} per run at lambda_H = {fmt(cost_high)}) + {fmt(s['low'])} from low-fidelity "
            f"queries" + (f"; largest shares: {where}" if where else "; no arm with a positive gap was queried"))


def continuation_use(records, gaps, cost_low: float, classes) -> dict:
    """Where TACC's continuation pulls went: per arm the mean pulls, on how many seeds, and their regret
    lambda_L Delta_k A_k."""
    a = np.array([r.continuation for r in records], dtype=float)
    g = np.asarray(gaps, dtype=float)
    arms = [{"arm": k, "class": classes[k].value, "gap": float(g[k]), "pulls": float(a[:, k].mean()),
             "seeds": int((a[:, k] > 0).sum()), "regret": float(cost_low * g[k] * a[:, k].mean())}
            for k in range(len(g)) if a[:, k].any()]
    return {"total": float(a.sum(axis=1).mean()), "regret": float(sum(x["regret"] for x in arms)), "arms": arms,
            "seeds": len(records)}


def _continuation_sentence(use: dict, window_sentence: str) -> str:
    if not use["arms"]:
        return f"TACC made no continuation pull on any of {use['seeds']} seeds. {window_sentence}"
    where = "; ".join(f"arm {x['arm']} ({x['class']}, gap {fmt(x['gap'])}): {fmt(x['pulls'])} per run on {x['seeds']} "
                      f"of {use['seeds']} seeds" for x in use["arms"])
    return (f"TACC's continuation pulls ({fmt(use['total'])} per run) went to {where}; their own regret is "
            f"lambda_L x gap x pulls = {fmt(use['regret'])} per run. {window_sentence}")


def _same_run(x, y) -> bool:
    """Whether two run records are equal apart from the policy's name (field by field as the records' own ``==``
    compares them, without copying either)."""
    return all((u := getattr(x, f)) is (w := getattr(y, f)) or u == w for f in _RUN_FIELDS)


def identical_seeds(a, b) -> tuple[int, int, int]:
    """(seeds with identical runs apart from the policy's name, seeds with exactly equal regret, seeds)."""
    same = sum(_same_run(x, y) for x, y in zip(a, b, strict=True))
    equal = sum(x.regret == y.regret for x, y in zip(a, b, strict=True))
    return same, equal, len(a)


def equal_pairs(records_by_method: dict) -> list[tuple]:
    """Pairs of methods whose regret is exactly equal on more than half of the common seeds (a surprising
    equality): (m1, m2, identical runs, equal regret, seeds)."""
    ms = list(records_by_method)
    out = []
    for i, m in enumerate(ms):
        for q in ms[i + 1:]:
            same, equal, n = identical_seeds(records_by_method[m], records_by_method[q])
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


def explain_claim(claim, *, records: dict, gaps, costs: tuple, classes, window_sentence: str, marks: str) -> list[str]:
    """The computed explanation of one claim: ``records`` maps each method to its final-budget records of the
    claim's setting; ``costs`` = (lambda_L, lambda_H)."""
    cl, ch = costs
    methods = [m for m in claim_methods(claim) if m in records]
    out = []
    if claim.kind == "best":
        means = {m: float(np.mean([r.regret for r in records[m]])) for m in methods}
        best = min(means, key=means.__getitem__)
        methods = ["tacc", best] if best != "tacc" else ["tacc"]
    for m in methods:
        out.append(_sources_sentence(m, regret_sources(records[m], gaps, cl, ch, classes), ch) + ".")
    use = None
    if "tacc" in methods:                   # continuation is TACC's: said only where the claim compares TACC
        use = continuation_use(records["tacc"], gaps, cl, classes)
        out.append(_continuation_sentence(use, window_sentence))
    for i, m in enumerate(methods):
        for q in methods[i + 1:]:
            same, equal, n = identical_seeds(records[m], records[q])
            if same or equal:
                out.append(equality_sentence(m, q, same, equal, n, use))
    out.append(marks)
    return out
