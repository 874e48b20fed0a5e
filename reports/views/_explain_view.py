"""``tacc explain``'s view: an explanation of one run (``reports.explain.explain``) as text, JSON and a timeline
figure; it computes nothing."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reports.views._arm_class import class_label
from reports.views._bounds import OPTIMAL_NO_COUNT_BOUND, tied_sentence
from reports.explain import Explanation
from reports.tables import fmt, fmt_apart, reason_of, table

__all__ = ["story", "to_json", "render", "timeline_figure"]


#: what a tied arm's N_H bound is (``tacc bounds``: prop:analysis-high-selection bounds suboptimal arms only).
_TIED_HIGH_BOUND = reason_of("high_count_bound", math.inf)
def _percent(fraction: float) -> str:
    """A share of the run's regret, as a percentage; "undefined" (0 / 0) when the run's regret is 0."""
    return "undefined" if math.isnan(fraction) else f"{100 * fraction:.1f}%"


def story(e: Explanation, k: int) -> str:
    """Arm k's story in one sentence."""
    a = e.arms[k]
    tacc = e.policy == "tacc"
    parts = [f"arm {k} ({a.run_class}{', tied with k*' if a.tied_with_best else ''}, gap {fmt(a.gap)})"]
    parts.append(f"reached N_gamma = {e.n_gamma} at round {a.threshold_round}" if a.threshold_round > 0
                 else f"never reached N_gamma = {e.n_gamma} (N_L = {a.n_low})")
    if a.continuation:
        first, last = a.continuation_rounds[0], a.continuation_rounds[-1]
        before, after = fmt_apart(a.bound_before, a.bound_after)
        parts.append(f"{a.continuation} continuation pull(s) in rounds {first}..{last} (window {a.window_pulls}) "
                     f"took B_k from {before} to {after} "
                     f"(-{fmt(a.bound_before - a.bound_after)}), at a cost of {a.continuation} low queries"
                     + (" and carried it to tau_k" if a.reached_tau_by_continuation else ""))
    elif a.window_pulls and a.threshold_round > 0 and tacc:     # only TACC makes them
        parts.append(f"no continuation pull although its window allows {a.window_pulls}")
    if a.gap > 0:
        if a.certified_round > 0:
            parts.append(f"certified by {a.certified_by} at round {a.certified_round}" if tacc else
                         f"its counts met TACC's certification by {a.certified_by} at round {a.certified_round}")
        else:
            parts.append("not certified by the theory's counts" if tacc
                         else "its counts never met TACC's certification")
    parts.append(f"last queried at round {a.last_round}" if a.last_round >= 0 else "never queried")
    if a.gap > 0:
        parts.append(f"N_H = {a.n_high} against the bound {fmt(a.high_bound)} (prop:analysis-high-selection)"
                     if tacc else f"N_H = {a.n_high} (TACC's bound {fmt(a.high_bound)}, "
                     f"prop:analysis-high-selection, is about TACC's runs, not {e.policy}'s)")
    else:
        parts.append(f"N_H = {a.n_high}, {_TIED_HIGH_BOUND}" if a.tied_with_best else f"N_H = {a.n_high}")
    parts.append("no share of the regret: the run's regret is 0" if math.isnan(a.regret_fraction)
                 else f"{_percent(a.regret_fraction)} of the regret")
    return "; ".join(parts) + "."




def _order(e: Explanation) -> list[int]:
    return sorted(range(len(e.arms)), key=lambda k: (-e.arms[k].regret_share, e.arms[k].gap, k))


def to_json(e: Explanation, max_arms: int | None = None) -> dict:
    """The explanation as JSON (every arm unless ``max_arms``); the per-round query lists are left out."""
    from reports.tables import jsonable
    order = _order(e)[:max_arms] if max_arms else range(len(e.arms))
    return {"config": e.config, "policy": e.policy, "seed": e.seed, "rounds": e.rounds, "cost": e.cost,
            "regret": e.regret, "n_gamma": e.n_gamma, "s0": e.s0, "rho": e.rho,
            "rho_valid_by": e.rho_reading, **({} if e.rho_reading else {"rho_valid_by_reason": _NO_READING}),
            "event_held": e.event_held,
            "event_rounding": e.event_rounding, "event_undecided": e.unfaithful or None,
            "arms": [_arm_json(e, k, jsonable(e.arms[k])) for k in order]}


#: why ``rho_valid_by`` is null: rho is below the least rho the union bound of lem:ci certifies by both readings.
_NO_READING = ("rho is below the least rho the union bound of lem:ci certifies by both readings (tacc bounds: rho_min, "
               "rho_min_exact_tail): the confidence event is not guaranteed")


def _arm_json(e: Explanation, k: int, d: dict) -> dict:
    """Arm k's JSON: a tied arm's null N_H bound says what ``tacc bounds`` says (no bound at Delta_k = 0), not
    that the bound is +infinity."""
    if e.arms[k].tied_with_best:
        d["high_bound_reason"] = _TIED_HIGH_BOUND
    elif e.arms[k].gap == 0:            # k^*: no count bound (the table's "-"), not a bound of 0
        d["high_bound"] = None
        d["high_bound_reason"] = OPTIMAL_NO_COUNT_BOUND
    return dict(d, story=story(e, k))


def render(e: Explanation, max_arms: int = 40) -> str:
    """A header, one table row per arm (largest regret share first) and each arm's story."""
    order = _order(e)
    head = (f"tacc explain: {e.config}, policy {e.policy}, seed {e.seed}: {e.rounds} rounds, cost {fmt(e.cost)}, "
            f"regret {fmt(e.regret)}; N_gamma = {e.n_gamma}, S0 = {e.s0}, rho = {fmt(e.rho)}; confidence event "
            f"(lem:ci) {_event_words(e)}")
    rows = []
    for k in order[:max_arms]:
        s = e.arms[k]
        cont = (f"{s.continuation} (r{s.continuation_rounds[0]}..{s.continuation_rounds[-1]})" if s.continuation
                else "0")
        rows.append((k, fmt(s.gap), class_label(s.prior_class, s.tied_with_best), s.run_class,
                     s.tau, s.threshold_round, cont, s.window_pulls,
                     fmt(s.bound_before - s.bound_after) if s.continuation else "-",
                     s.certified_round, s.certified_by.split(" ")[0], s.last_round, s.n_high,
                     s.high_bound if s.gap > 0 else "-",
                     f"{fmt(s.regret_share)} ({_percent(s.regret_fraction)})" if not math.isnan(s.regret_fraction)
                     else f"{fmt(s.regret_share)} (share undefined: regret 0)"))
    tacc = e.policy == "tacc"
    out = [head, "", "per arm, largest regret share first (rounds count from 1, -1 = never):",
           table(["arm", "gap", "class", "after run", "tau", "N_gamma at round", "continuation", "window",
                  "B_k decrease", "certified at", "by", "last query", "N_H",
                  "N_H bound" if tacc else "TACC's N_H bound", "regret share"], rows), ""]
    if not tacc:
        out += [f"{e.policy} is not TACC: the classes, the continuation window, the certification and the N_H bound "
                f"are TACC's (thm:analysis-main-regret), what TACC's rules make of these counts; they do not bound "
                f"{e.policy}'s runs.", ""]
    tied = [k for k in range(len(e.arms)) if e.arms[k].tied_with_best]
    if tied:
        best = next(k for k in range(len(e.arms)) if e.arms[k].gap == 0 and not e.arms[k].tied_with_best)
        out += [tied_sentence(tied, best), ""]
    out += [story(e, k) for k in order[:max_arms]]
    if len(order) > max_arms:
        out.append(f"... {len(order) - max_arms} more arms (--max-arms, or --json).")
    return "\n".join(out)


def _timeline_arms(e: Explanation, max_arms: int) -> tuple[list[int], str]:
    """The arms the timeline draws (largest regret share first, k* included) and the sentence saying which, when
    arms are left out (empty when every arm is drawn)."""
    order = _order(e)
    if len(order) <= max_arms:
        return order, ""
    best = next((k for k in order if e.arms[k].gap == 0 and not e.arms[k].tied_with_best), None)
    shown = order[:max_arms]
    if best is None or best in shown:
        rule = f"the {max_arms} with the largest regret shares" + ("" if best is None else f" (k* = {best} among them)")
    else:
        shown = shown[:max_arms - 1] + [best]
        rule = f"the {max_arms - 1} with the largest regret shares, and k* = {best} (bottom row)"
    return shown, f"{max_arms} of {len(order)} arms drawn: {rule}; {len(order) - max_arms} left out"


def timeline_figure(e: Explanation, max_arms: int = 20):
    """A compact timeline: one row per arm (largest regret share on top), low and high queries by round,
    continuation pulls, the round N_gamma was reached and the certification round. Of more than ``max_arms`` arms
    it draws those with the largest regret shares and k* (in the bottom row when its share, 0, did not place it
    among them), and the title says so and how many are left out."""
    from reports.figures import new_figure
    order, note = _timeline_arms(e, max_arms)
    fig, ax = new_figure(7.0, 0.45 * len(order) + 1.6)
    for row, k in enumerate(reversed(order)):
        s = e.arms[k]
        lows, highs = np.asarray(e.low_rounds[k]), np.asarray(e.high_rounds[k])
        ax.scatter(lows, np.full(lows.size, row + 0.12), s=3, marker="|", color="C0", alpha=0.5,
                   label="low query" if row == 0 else None)
        ax.scatter(highs, np.full(highs.size, row - 0.12), s=6, marker="|", color="C3",
                   label="high query" if row == 0 else None)
        if s.continuation_rounds:
            cr = np.asarray(s.continuation_rounds)
            ax.scatter(cr, np.full(cr.size, row + 0.12), s=18, marker="o", facecolors="none", edgecolors="C2",
                       label="continuation pull")
        if s.threshold_round > 0:
            ax.plot([s.threshold_round] * 2, [row - 0.35, row + 0.35], color="k", lw=1,
                    label="N_gamma reached")
        if s.certified_round > 0:
            ax.scatter([s.certified_round], [row], marker="*", s=60, color="C1", zorder=3, label="certified")
    ax.set_yticks(range(len(order)))
    ax.set_yticklabels([f"{k} ({e.arms[k].run_class})" for k in reversed(order)])
    ax.set_xlabel("round")
    title = f"{e.config}: {e.policy}, seed {e.seed}, regret {fmt(e.regret)}"
    if note:
        import textwrap
        ax.set_title(f"{title}\n{textwrap.fill(note, 90)}", fontsize=9)
    else:
        ax.set_title(title)
    handles, labels = ax.get_legend_handles_labels()
    seen: dict[str, Any] = {}
    for h, lab in zip(handles, labels, strict=True):
        seen.setdefault(lab, h)
    # right of the axes, where nothing else is drawn (below them, at a fixed fraction of the axes' height, it covered
    # the x-axis label of a figure of few arms); the tight layout makes room for it
    ax.legend(seen.values(), seen.keys(), fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax.locator_params(axis="x", nbins=6)     # round numbers of six digits stay apart in the narrower axes
    ax.grid(True, axis="x", alpha=0.3)
    return fig


def _event_words(e: Explanation) -> str:
    if not e.event_held:
        return "FAILED: the theory does not speak for this run"
    if e.event_rounding:
        return ("held, decided exactly; the engines' float check reported a failure that was rounding: the run's float "
                "sums, which the policy's indices use, are off by more than the radius, so it is not the exact "
                "algorithm's run")
    if e.unfaithful:
        return (f"held as far as the float check sees, which is not far enough here: {e.unfaithful}; a failure may "
                f"go unseen (tacc check calls the claims that need the event UNDECIDED here)")
    return "held"
