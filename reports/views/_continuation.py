"""The continuation window (``bounds.continuation_of``) as JSON, a sentence and a per-arm table.

Used by ``tacc bounds`` and by the instance section of ``tacc report``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from bounds import Continuation
from reports.views._arm_class import class_label
from reports.tables import fmt, fmt_apart, reason_of, table

__all__ = ["to_record", "summary", "render", "window_figure"]

LABEL = "eq:fidelity-selection"


#: what an empty window means (``window_reason`` beside its JSON null).
EMPTY_WINDOW = "empty: the continuation test passes at no low count from N_gamma (0 pulls)"


def to_record(c: Continuation, columns: bool = False) -> dict:
    """Every number of the continuation diagnostics, with its meaning; ``arms`` is a list of one mapping per arm,
    or with ``columns`` the strict columns of ``arm_columns`` (``tacc bounds --json``)."""
    w = c.window
    return {
        "label": LABEL,
        "meaning": "low counts at which TACC's continuation test B_k(N) - B_k(N_gamma + S0) >= 2 eta gamma passes "
                   "after the threshold (N = N_gamma + A_k)",
        "n_gamma": w.n_gamma, "s0": w.s0, "threshold_2_eta_gamma": w.threshold, "horizon": w.horizon,
        "reachable": w.reachable, "can_fire": w.can_fire, "rho": c.rho, "rho_min": c.rho_min,
        "rho_least_certified": c.rho_min if c.rho_least is None else c.rho_least,
        "rho_max": c.instance_rho_max,
        **({} if c.instance_rho_max_reason is None else     # continuation fires at no rho: no largest rho, not 0
           {"rho_max": None, "rho_max_reason": c.instance_rho_max_reason}),
        "fires_only_below_rho_min": c.fires_only_below_rho_min,
        "summary": summary(c),
        "arms": arm_columns(c) if columns else [_arm(c, k) for k in range(len(w.pulls))],
    }


def arm_columns(c: Continuation) -> dict:
    """The per-arm numbers of :func:`to_record` as strict JSON columns (entry k is arm k): ``window`` is
    ``[first, last]`` or null (arms with the same number of pulls share one list), an infinite ``tau`` is null,
    and beside each column holding nulls ``<key>_reason`` maps each reason to the arms it explains."""
    w = c.window
    K = len(w.pulls)
    tau = list(w.tau)
    inf = np.flatnonzero(np.asarray(tau, dtype=float) == math.inf).tolist()
    for k in inf:
        tau[k] = None
    # one [first, last] list per number of pulls, shared by the arms with that number (10^5 arms, few numbers)
    window_of = {p: [w.n_gamma, w.n_gamma + p - 1] if p else None for p in set(w.pulls)}
    windows = list(map(window_of.__getitem__, w.pulls))
    empty = [k for k, p in enumerate(w.pulls) if not p] if 0 in window_of else []
    out: dict[str, Any] = {"arm": list(range(K)), "tau": tau}
    if inf:
        out["tau_reason"] = {reason_of("tau", math.inf): inf}
    out.update({"gain_at_n_gamma": list(w.gain), "pulls": list(w.pulls), "window": windows})
    if empty:
        out["window_reason"] = {EMPTY_WINDOW: empty}
    out.update({"reaches_tau": list(w.reaches_tau), "last_count": list(c.last_count), "rho_max": list(c.rho_max)})
    # an arm's last count and rho_max where they do not apply (no count passes the test: they were 0): null, each
    # reason beside its column
    last = np.asarray(c.last_count, dtype=np.int64)
    rho = np.asarray(c.rho_max, dtype=float)
    for key, none in (("last_count", last == 0), ("rho_max", rho <= 0)):
        at = np.flatnonzero(none).tolist()
        if not at:
            continue
        col = list(out[key])
        reasons: dict = {}
        for k in at:
            col[k] = None
            reasons.setdefault(c.rho_max_reason(k) if key == "rho_max" else c.no_count_reason, []).append(k)
        out[key] = col
        out[f"{key}_reason"] = reasons
    return out


def _arm(c: Continuation, k: int) -> dict:
    w = c.window
    win = w.window(k)
    out = {"arm": k, "tau": w.tau[k], "gain_at_n_gamma": w.gain[k], "pulls": w.pulls[k],
           "window": list(win) if win else None, "reaches_tau": w.reaches_tau[k],
           "last_count": c.last_count[k], "rho_max": c.rho_max[k]}
    if out["window"] is None:
        out["window_reason"] = EMPTY_WINDOW
    if c.last_count[k] == 0:
        out.update(last_count=None, last_count_reason=c.no_count_reason)
    if (why := c.rho_max_reason(k)) is not None:
        out.update(rho_max=None, rho_max_reason=why)
    return out


def summary(c: Continuation) -> str:
    """Why continuation fires or not on this instance, with the numbers (one or two sentences), and whether the
    window was cut at the horizon (S0 > T)."""
    text = _summary(c)
    w = c.window
    if w.cut:
        text += (f" The window was cut at the horizon: S0 = {w.s0} exceeds T = {w.horizon} and no run meets a state "
                 f"A_k >= T, so the test was evaluated at the states below T only ({w.horizon} pulls means it passes "
                 f"at every state a run can meet).")
    return text


def _summary(c: Continuation) -> str:
    w = c.window
    K = len(w.pulls)
    if w.s0 == 0:
        return "Continuation cannot fire: S0 = 0 (line 9 of alg:adaptive-mf-mab needs A_k < S0)."
    n_max = max(c.last_count)
    if n_max:
        k_max = c.rho_max.index(c.instance_rho_max)          # the first arm of the largest rho_max (no NaN)
        where = (f"It can fire at some arm only while N_gamma <= {n_max}, that is for rho <= {fmt(c.instance_rho_max)} "
                 f"(arm {k_max})")
        if c.fires_only_below_rho_min:
            least = c.rho_min if c.rho_least is None else c.rho_least
            where += (f", below rho_min = {fmt(c.rho_min)}"
                      + (f" and below {fmt(least)}, the least rho the union bound certifies by the noise's exact tail"
                         if least != c.rho_min else "")
                      + ", where lem:ci is not guaranteed")
        where += "."
    else:
        where = f"It cannot fire at any rho: no count up to T - 1 = {w.horizon - 1} passes the test."
    if not w.reachable:
        return (f"Continuation cannot fire at rho = {fmt(c.rho)}: N_gamma = {w.n_gamma} is not below the horizon "
                f"T = {w.horizon}. {where}")
    if not w.can_fire:
        k = int(np.argmax(w.gain))                             # the first arm of the largest gain
        return (f"Continuation cannot fire at rho = {fmt(c.rho)}: at N_gamma = {w.n_gamma} the largest gain "
                f"B_k(N_gamma) - B_k(N_gamma + S0) is {fmt(w.gain[k])} (arm {k}), below 2 eta gamma = "
                f"{fmt(w.threshold)}. {where}")
    firing = np.flatnonzero(np.asarray(w.pulls) > 0)
    reach = np.flatnonzero(np.asarray(w.reaches_tau, dtype=bool)).tolist()
    text = (f"Continuation can fire at rho = {fmt(c.rho)} on {len(firing)} of {K} arms, at most "
            f"{max(w.pulls)} pull(s) each (low counts from N_gamma = {w.n_gamma}). {where}")
    if reach:
        text += (f" On {len(reach)} arm(s) ({', '.join(map(str, reach[:10]))}{', ...' if len(reach) > 10 else ''}) the "
                 f"window reaches tau_k: continuation alone can certify them (C^d).")
    else:
        text += " On no arm does the window reach tau_k, so continuation certifies no arm by itself."
    return text


def render(c: Continuation, classes=None, order=None, max_arms: int = 40, tied=()) -> str:
    """The sentence and a per-arm table (arms in ``order``, at most ``max_arms``; the arms in ``tied``, tied with
    k^*, marked as the per-arm table of ``tacc bounds`` marks them). Where N_gamma >= T no low count reaches the
    window, which the window column says ("not below T") beside the counts where the test passes."""
    w = c.window
    order = list(range(len(w.pulls))) if order is None else list(order)
    rows = []
    for k in order[:max_arms]:
        win = w.window(k)
        rows.append((k, class_label(classes[k], k in tied) if classes is not None else "", w.tau[k],
                     ("empty" if not win else f"{win[0]}..{win[1]}" if w.reachable
                      else f"{win[0]}..{win[1]}, not below T"), w.pulls[k], fmt(w.gain[k]),
                     "yes" if w.reaches_tau[k] else "no", c.last_count[k] or "-",
                     "-" if c.rho_max_reason(k) else fmt(c.rho_max[k])))
    # no count passes the test: no last count and no largest rho ("-", the sentence says why), not 0
    rho, rho_min = fmt_apart(c.rho, c.rho_min)          # one ulp apart they printed alike
    exact_tail = ("" if c.rho_least is None or c.rho_least == c.rho_min
                  else f"; {fmt_apart(c.rho, c.rho_least)[1]} by the noise's exact tail")
    head = (f"continuation window ({LABEL}): N_gamma = {w.n_gamma}, S0 = {w.s0}, 2 eta gamma = {fmt(w.threshold)}, "
            f"rho = {rho} (rho_min {rho_min}{exact_tail}), largest rho at which it can fire: "
            f"{'none' if c.instance_rho_max_reason else fmt(c.instance_rho_max)}")
    out = [head, summary(c),
           table(["arm", "class", "tau", "window", "pulls", "gain at N_gamma", "reaches tau", "last count", "rho max"],
                 rows)]
    if len(order) > max_arms:
        out.append(f"... {len(order) - max_arms} more arms in the JSON output.")
    return "\n".join(out)


def window_figure(c: Continuation, classes=None, order=None, max_arms: int | None = None, gaps=None):
    """Per arm, the continuation window (the low counts at which continuation fires) drawn against N_gamma, the
    cap N_gamma + S0 and tau_k (a marker at the edge when tau_k is off the axis or infinite).

    At most ``max_arms`` arms are drawn (``reports.figures.MAX_ARMS`` by default): with ``gaps`` the ones with the
    smallest gaps (k* among them, ``reports.figures.arms_shown``), else the first of ``order``; the title says how
    many are left out."""
    from reports.figures import MAX_ARMS, arms_shown, new_figure, shown_note
    w = c.window
    max_arms = MAX_ARMS if max_arms is None else max_arms
    order = list(range(len(w.pulls))) if order is None else list(order)
    n_total = len(order)
    if gaps is not None:
        order = arms_shown(gaps, among=order, limit=max_arms)
        note = shown_note(len(order), n_total)
    else:
        order = order[:max_arms]
        note = (f"{len(order)} of {n_total} arms drawn: the first {len(order)}; {n_total - len(order)} left out"
                if len(order) < n_total else "")
    # counts are >= 0: the axis started at -10 with N_gamma = 1, S0 = 10
    lo, hi = max(w.n_gamma - max(w.s0, 1) - 1, 0), w.n_gamma + 2 * max(w.s0, 1) + 1
    fig, ax = new_figure(6.4, 0.32 * len(order) + 1.8)
    ax.axvline(w.n_gamma - 0.5, color="k", lw=1, label="N_gamma")
    ax.axvline(w.n_gamma + w.s0 - 0.5, color="grey", lw=1, ls="--", label="N_gamma + S0 (cap)")
    labelled = set()

    def once(name):
        if name in labelled:
            return None
        labelled.add(name)
        return name

    for row, k in enumerate(reversed(order)):
        if w.pulls[k]:
            ax.barh(row, w.pulls[k], left=w.n_gamma - 0.5, height=0.6, color="C2", alpha=0.7,
                    label=once("window (continuation fires)"))
        t = w.tau[k]
        if t != math.inf and lo <= t <= hi:
            ax.plot([t], [row], marker="D", color="C3", ls="none", label=once("tau_k"))
        else:
            edge = lo if t != math.inf and t < lo else hi
            # a few points inside the axes: placed on the edge, the spine ran through the label
            ax.annotate(f"tau={'inf' if t == math.inf else t}", (edge, row), fontsize=6, va="center",
                        ha="left" if edge == lo else "right", color="C3", textcoords="offset points",
                        xytext=(3 if edge == lo else -3, 0))
    ax.set_xlim(lo, hi)
    ax.set_ylim(-0.7, len(order) - 0.3)       # room above the top row for its tau label
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels([f"{k}" + (f" ({classes[k].value})" if classes is not None else "") for k in reversed(order)],
                       fontsize=7)
    ax.set_xlabel("low-fidelity count N_L")
    ax.set_title(f"continuation window (eq:fidelity-selection), rho = {fmt(c.rho)}; fires up to rho = "
                 f"{fmt(c.instance_rho_max)}" + (f"\n{note}" if note else ""), fontsize=9)
    # below the x label: half an inch (36 points) under the axes whatever their height (a fraction of the axes'
    # height left inches of blank at 30 rows, and at 2 rows, whose axes are shorter than the rows' share of the
    # figure, it covered the x label)
    from matplotlib.transforms import offset_copy
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2,
              bbox_transform=offset_copy(ax.transAxes, fig=fig, y=-36, units="points"))
    ax.grid(True, axis="x", alpha=0.3)
    return fig
