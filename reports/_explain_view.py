"""``tacc explain``: one run told arm by arm as the theory sees it.

For each arm: its class (``eq:analysis-arm-partition``, C split into C^d / C^u by the run,
``eq:app-analysis-Cdet``), the round at which its low count reached N_gamma, the continuation pulls (rounds, the
mismatch bound they bought, whether they carried it to tau_k), when it was certified and by which fidelity, its
high-fidelity count against ``prop:analysis-high-selection`` and its share of the regret.

Everything is read from the run record and its trace (the engine's decisions); the theory's counts come from
``bounds``. A continuation pull is, by ``eq:fidelity-selection``, a low query made at N^(L) >= N_gamma by TACC;
the count found in the trace is checked against the record's A_k.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bounds import TaccInputError, analyze, confirmation_count, continuation_window, refine_partition
from certify import event_failure, float_sums_faithful
from reports._arm_class import class_label
from reports._bounds_view import OPTIMAL_NO_COUNT_BOUND, tied_sentence
from reports._estimate import rounds_bound
from reports._tables import fmt, fmt_apart, reason_of, table
from simulate import HIGH, LOW, make_problem, run

__all__ = ["ArmStory", "Explanation", "explain", "to_json", "render", "timeline_figure"]


@dataclass(frozen=True)
class ArmStory:
    """One arm's run. Rounds count from 1 (the start included); -1 means never."""

    arm: int
    gap: float
    prior_class: str
    run_class: str
    tau: float
    n_low: int
    n_high: int
    threshold_round: int
    continuation: int
    continuation_rounds: tuple
    window_pulls: int
    bound_before: float | None
    bound_after: float | None
    reached_tau_by_continuation: bool
    certified_round: int
    certified_by: str
    last_round: int
    high_bound: float
    high_in_window: int
    regret_share: float
    regret_fraction: float
    tied_with_best: bool = False    # Delta_k = 0 but not k^*: class B, tau_k = inf, no N_H bound (as ``tacc bounds``)


#: what a tied arm's N_H bound is (``tacc bounds``: prop:analysis-high-selection bounds suboptimal arms only).
_TIED_HIGH_BOUND = reason_of("high_count_bound", math.inf)
#: the certification cell of an arm tied with k^*: tau_k = inf and no confirmation count at Delta_k = 0.
_TIED_CERTIFIED = "- (tied with k*: gap 0, never certified, tau_k = inf)"


def _percent(fraction: float) -> str:
    """A share of the run's regret, as a percentage; "undefined" (0 / 0) when the run's regret is 0."""
    return "undefined" if math.isnan(fraction) else f"{100 * fraction:.1f}%"


@dataclass(frozen=True)
class Explanation:
    config: str
    policy: str
    seed: int
    rounds: int
    cost: float
    regret: float
    n_gamma: int
    s0: int
    rho: float
    event_held: bool                  # decided exactly (certify.event_failure)
    event_rounding: bool              # the engines' float check reported a failure the exact sums do not confirm
    arms: tuple
    low_rounds: tuple          # per arm, the rounds of its low queries (for the figure)
    high_rounds: tuple
    unfaithful: str = ""       # certify.float_sums_faithful's bound when the float sums can leave the radius unseen
    rho_reading: str | None = None    # the reading of lem:ci's radius that makes rho valid (bounds.rho_readings)

    def story(self, k: int) -> str:
        """Arm k's story in one sentence."""
        a = self.arms[k]
        tacc = self.policy == "tacc"
        parts = [f"arm {k} ({a.run_class}{', tied with k*' if a.tied_with_best else ''}, gap {fmt(a.gap)})"]
        parts.append(f"reached N_gamma = {self.n_gamma} at round {a.threshold_round}" if a.threshold_round > 0
                     else f"never reached N_gamma = {self.n_gamma} (N_L = {a.n_low})")
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
                         f"prop:analysis-high-selection, is about TACC's runs, not {self.policy}'s)")
        else:
            parts.append(f"N_H = {a.n_high}, {_TIED_HIGH_BOUND}" if a.tied_with_best else f"N_H = {a.n_high}")
        parts.append("no share of the regret: the run's regret is 0" if math.isnan(a.regret_fraction)
                     else f"{_percent(a.regret_fraction)} of the regret")
        return "; ".join(parts) + "."


def _rounds_where(mask: np.ndarray) -> np.ndarray:
    return np.flatnonzero(mask) + 1


def explain(config, policy: str = "tacc", seed: int = 0, *, engine: str = "fast") -> Explanation:
    """Run ``policy`` on ``config`` with seed ``seed`` (trace kept) and tell each arm's story."""
    a = analyze(config)
    problem = make_problem(config)
    # the trace allocated from the policy's rounds bound: the run is made once (a run that could pass 2^17 rounds
    # was first made untraced to learn its length)
    rec = run(problem, policy, seed, engine=engine, trace=True, rounds_bound=rounds_bound(config, policy))
    p = config.params
    K = problem.n_arms
    window = continuation_window(a.instance.low, n_gamma=a.n_gamma, s0=p.s0, eta=p.eta, gamma=p.gamma,
                                 horizon=a.horizon, tau=a.tau)
    after = refine_partition(a.classes, a.tau, rec.facts())
    tr = np.asarray(rec.trace, dtype=np.int64).reshape(-1, 2)
    arms_col, fid_col = tr[:, 0], tr[:, 1]
    start = 2 * K if policy not in ("ucb", "weak-fixed", "low-improving") else K
    model = a.instance.low
    stories, lows, highs = [], [], []
    for k in range(K):
        mine = arms_col == k
        low_mask, high_mask = mine & (fid_col == LOW), mine & (fid_col == HIGH)
        low_r, high_r = _rounds_where(low_mask), _rounds_where(high_mask)
        lows.append(tuple(low_r.tolist()))
        highs.append(tuple(high_r.tolist()))
        # the low count before each of the arm's low queries is 0, 1, 2, ...
        thr = int(low_r[a.n_gamma - 1]) if low_r.size >= a.n_gamma else -1
        if policy == "tacc":
            cont = low_r[a.n_gamma:]
            cont = cont[cont > start]
        else:
            cont = low_r[:0]
        if cont.size != rec.continuation[k]:
            raise TaccInputError("trace", policy, f"arm {k}: {cont.size} continuation pulls in the trace, "
                                                  f"{rec.continuation[k]} in the record")
        b_before = b_after = None
        if rec.continuation[k]:
            b_before = float(model.mismatch_bound(k, a.n_gamma))
            b_after = float(model.mismatch_bound(k, a.n_gamma + int(rec.continuation[k])))
        tau = a.tau[k]
        reached_by_cont = bool(rec.continuation[k] and tau != math.inf
                               and a.n_gamma < tau <= a.n_gamma + rec.continuation[k])
        # certification as the theory sees it: at low fidelity once N_L >= max(tau_k, N_gamma) (Delta^(L) >= 2 gamma
        # with G(N_L) < gamma), at high fidelity once N_H >= ceil(4 ell / Delta^2) (2 G(N_H) <= Delta)
        gap = float(a.instance.gaps[k])
        cert_low = cert_high = -1
        if tau != math.inf and low_r.size >= max(tau, a.n_gamma):
            cert_low = int(low_r[max(int(tau), a.n_gamma) - 1])
        conf = confirmation_count(a.ell, gap) if gap > 0 else math.inf
        if conf != math.inf and high_r.size >= conf:
            cert_high = int(high_r[int(conf) - 1])
        tied = gap == 0 and k != a.instance.best_arm
        if tied:
            cert_round, cert_by = -1, _TIED_CERTIFIED
        elif gap == 0:
            cert_round, cert_by = -1, "- (best arm)"
        elif cert_low > 0 and (cert_high < 0 or cert_low <= cert_high):
            cert_round, cert_by = cert_low, "L (N_L >= max(tau_k, N_gamma))"
        elif cert_high > 0:
            cert_round, cert_by = cert_high, "H (N_H >= ceil(4 ell / Delta^2))"
        else:
            cert_round, cert_by = -1, "-"
        stories.append(ArmStory(
            arm=k, gap=gap, prior_class=a.classes[k].value, run_class=after[k].value, tau=tau,
            n_low=rec.n_low[k], n_high=rec.n_high[k], threshold_round=thr, continuation=rec.continuation[k],
            continuation_rounds=tuple(cont.tolist()), window_pulls=window.pulls[k], bound_before=b_before,
            bound_after=b_after, reached_tau_by_continuation=reached_by_cont, certified_round=cert_round,
            certified_by=cert_by, last_round=int(max(low_r.max(initial=0), high_r.max(initial=0))) or -1,
            high_bound=a.high_count_bound[k], high_in_window=rec.high_in_window[k],
            regret_share=rec.regret_share[k],
            regret_fraction=rec.regret_share[k] / rec.regret if rec.regret > 0 else math.nan,   # 0 / 0: undefined
            tied_with_best=tied))
    held = rec.event_held or event_failure(problem, rec) is None    # a float failure decided exactly
    faithful, bound = float_sums_faithful(problem)
    return Explanation(config=config.name, policy=policy, seed=seed, rounds=rec.rounds, cost=rec.cost,
                       regret=rec.regret, n_gamma=a.n_gamma, s0=p.s0, rho=a.rho, event_held=held,
                       event_rounding=held and not rec.event_held,
                       arms=tuple(stories), low_rounds=tuple(lows), high_rounds=tuple(highs),
                       unfaithful="" if faithful else bound, rho_reading=a.rho_readings.reading(a.rho))


def _order(e: Explanation) -> list[int]:
    return sorted(range(len(e.arms)), key=lambda k: (-e.arms[k].regret_share, e.arms[k].gap, k))


def to_json(e: Explanation, max_arms: int | None = None) -> dict:
    """The explanation as JSON (every arm unless ``max_arms``); the per-round query lists are left out."""
    from reports._tables import jsonable
    order = _order(e)[:max_arms] if max_arms else range(len(e.arms))
    return {"config": e.config, "policy": e.policy, "seed": e.seed, "rounds": e.rounds, "cost": e.cost,
            "regret": e.regret, "n_gamma": e.n_gamma, "s0": e.s0, "rho": e.rho,
            "rho_valid_by": e.rho_reading, **({} if e.rho_reading else {"rho_valid_by_reason": _NO_READING}),
            "event_held": e.event_held,
            "event_rounding": e.event_rounding, "event_undecided": e.unfaithful or None,
            "arms": [_arm_json(e, k, jsonable(e.arms[k])) for k in order]}


#: why ``rho_valid_by`` is null: rho is below the least valid rho of lem:ci by both readings.
_NO_READING = ("rho is below the least valid rho of lem:ci by both readings (tacc bounds: rho_min, "
               "rho_min_exact_tail): the confidence event is not guaranteed")


def _arm_json(e: Explanation, k: int, d: dict) -> dict:
    """Arm k's JSON: a tied arm's null N_H bound says what ``tacc bounds`` says (no bound at Delta_k = 0), not
    that the bound is +infinity."""
    if e.arms[k].tied_with_best:
        d["high_bound_reason"] = _TIED_HIGH_BOUND
    elif e.arms[k].gap == 0:            # k^*: no count bound (the table's "-"), not a bound of 0
        d["high_bound"] = None
        d["high_bound_reason"] = OPTIMAL_NO_COUNT_BOUND
    return dict(d, story=e.story(k))


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
    out += [e.story(k) for k in order[:max_arms]]
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
    from reports._figures import new_figure
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
