"""``tacc bounds``: the quantities of ``bounds.analyze`` as a readable table and as labelled JSON (each per-arm
quantity's label, meaning and unit stated once, its values a column)."""

from __future__ import annotations

import itertools
import math
import operator
from collections import Counter
from typing import Any

import numpy as np

from bounds import (RDFE_ZERO_GAP, TIED_LEFT_OUT, TIED_TERM, Analysis, ArmClass, continuation_cap_holds,
                    continuation_of, first_round_paid)
from reports.views import _continuation
from reports.views._arm_class import class_label
from reports.tables import dumps, finite_numbers, fmt, fmt_apart, fmt_apart_all, jsonable, reason_of, table


#: every per-arm quantity of ``tacc bounds``: JSON key -> (paper label, meaning, unit). The JSON states each once,
#: in ``fields``, and gives the values as columns in ``arms`` (entry i of every column is arm ``arms["arm"][i]``).
ARM_FIELDS = {
    "arm": ("sec:problem", "arm index k", "index"),
    "mu_high": ("sec:problem", "mu_k^(H), the arm's high-fidelity mean", "reward"),
    "gap": ("sec:problem", "Delta_k = mu^* - mu_k^(H)", "reward"),
    "static_bias": ("rem:evolving_vs_static", "zeta_k = B_k(1), MF-UCB's bias", "reward"),
    "tau": ("eq:analysis-cert-time", "tau_k(gamma), low-fidelity certification time", "low-fidelity queries"),
    "class": ("eq:analysis-arm-partition", "A / B / C (C^d or C^u only after a run)", "class name"),
    "tied_with_best": ("sec:problem", "Delta_k = 0 and k != k^*: class B, tied with k^* (as tacc explain says)",
                       "true / false"),
    "low_count_bound": ("prop:analysis-low-query-bound", "N_k^(L) <= N_gamma + S0 + 1", "low-fidelity queries"),
    "high_count_bound": ("prop:analysis-high-selection", "N_k^(H) <= 1 + ceil(4 ell / Delta_k^2)",
                         "high-fidelity queries"),
    "theorem_term": ("thm:analysis-main-regret", "arm's term, C counted in H", "regret (gap x cost)"),
    "theorem_term_if_cd": ("thm:analysis-main-regret", "arm's term if a C arm is in C^d", "regret (gap x cost)"),
    "corollary_explicit": ("cor:analysis-main-regret-order", "the theorem's term after the proof's substitutions",
                           "regret (gap x cost)"),
    "static_minus_adaptive": ("prop:analysis-regret-improvement",
                              "Delta_k [lambda_H ceil(4 ell/Delta^2) - lambda_L S0], for C arms",
                              "regret (gap x cost)"),
    "rdfe_low_cost": ("app:benchmark-rdfe", "c_k^(L)(Delta_k / 4)", "cost"),
    "rdfe_high_cost": ("app:benchmark-rdfe", "c^(H)(Delta_k / 4)", "cost"),
    "rdfe_oracle_cost": ("app:benchmark-rdfe", "c_k^*(Delta_k / 4)", "cost"),
    "rdfe_phase_index": ("ass:app-rdfe-dyadic", "r_k = min{r : 2^-r <= Delta_k/2}", "phase index"),
    "rdfe_dyadic_constant": ("ass:app-rdfe-dyadic", "smallest C_dyad", "ratio"),
}


def arm_columns(a: Analysis, arms=None) -> dict:
    """Every per-arm quantity of :data:`ARM_FIELDS` as a list over ``arms`` (default: every arm, in index order),
    as computed: an infinite value is ``inf``, a class is its ``ArmClass``, the static-versus-adaptive
    difference is None for an arm outside C (``prop:analysis-regret-improvement`` does not state it), and k^*'s
    count bounds are None (:data:`OPTIMAL_NO_COUNT_BOUND`; they were 0 beside its thousands of queries)."""
    inst = a.instance
    ks = range(inst.n_arms) if arms is None else list(arms)

    def pick(xs) -> list:
        return list(xs) if arms is None else [xs[k] for k in ks]

    def pick_array(xs) -> list:
        return (xs if arms is None else xs[list(ks)]).tolist()

    best, low = inst.best_arm, a.low_count_bound
    cmp = a.comparison
    return {
        "arm": list(ks),
        "mu_high": pick_array(inst.mu_high),
        "gap": pick_array(inst.gaps),
        "static_bias": pick_array(inst.low.static_biases()),
        "tau": pick(a.tau),
        "class": pick(a.classes),
        "tied_with_best": (pick_array((inst.gaps == 0) & (np.arange(inst.n_arms) != best))),
        "low_count_bound": [None if k == best else low for k in ks] if arms is not None else
                           [low] * best + [None] * (best < inst.n_arms) + [low] * (inst.n_arms - best - 1),
        "high_count_bound": [None if k == best else x for k, x in zip(ks, pick(a.high_count_bound), strict=True)],
        "theorem_term": pick(a.theorem.terms),
        "theorem_term_if_cd": pick(a.theorem_if_all_cd.terms),
        "corollary_explicit": pick(a.corollary.explicit),
        "static_minus_adaptive": _where(pick(cmp.difference), pick(cmp.applies)),
        "rdfe_low_cost": pick(a.rdfe_low_cost),
        "rdfe_high_cost": pick(a.rdfe_high_cost),
        "rdfe_oracle_cost": pick(a.rdfe.paper_cost),
        "rdfe_phase_index": pick(a.rdfe.phase_index),
        "rdfe_dyadic_constant": pick(a.rdfe.dyadic_constant),
    }


def _where(values: list, stated: list) -> list:
    """``values[i]`` where ``stated[i]``, else None (the objects themselves, picked in vector calls)."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    out[~np.asarray(stated, dtype=bool)] = None
    return out.tolist()


def _strict_columns(a: Analysis, cols: dict) -> dict:
    """The columns as strict JSON: a class by its name, every null (an infinite or undefined number, a quantity
    not stated) beside its column's ``<key>_reason``, a mapping from each reason to the arms it explains."""
    out: dict[str, Any] = {}
    arm = cols["arm"]
    arm_set = set(arm)
    taken = term_conventions(a)
    for key, col in cols.items():
        if key == "class":
            out[key] = list(map(_VALUE, col))             # the enum's value, read without its property (10^5 arms)
            continue
        reasons: dict = {}
        unstated = None                                  # k^*'s None in a count bound (arm_columns)
        if key in _COUNT_BOUNDS and a.instance.best_arm in arm:
            unstated = arm.index(a.instance.best_arm)
            col = col[:unstated] + [0] + col[unstated + 1:]
        if key == "static_minus_adaptive":
            values, reasons = col, _by_class_not_stated(col, cols["class"], arm)
        elif finite_numbers(col):
            values = col
        else:
            bad = np.flatnonzero(~np.isfinite(np.asarray(col, dtype=float))).tolist()
            values = list(col)
            for i in bad:
                reasons.setdefault(reason_of(key, float(col[i])), []).append(arm[i])
                values[i] = None
        if unstated is not None:
            values = list(values)
            values[unstated] = None
            reasons = {OPTIMAL_NO_COUNT_BOUND: [arm[unstated]], **reasons}
        out[key] = values
        for why, ks in taken.get(key, {}).items():      # a value taken by convention (0 x inf as 0)
            if shown := [k for k in ks if k in arm_set]:
                reasons[why] = shown
        if reasons:
            out[f"{key}_reason"] = reasons
    return out


def _paper_form(q: dict, a: Analysis) -> dict:
    """The RDFE bound in the statement's form: where a gap exceeds 2 it is not a bound (``tacc proofs`` refutes the
    statement there, step rdfe-thm.terminal-vs-quarter), and its reason says so, naming the arm."""
    gaps = a.instance.gaps
    above = [k for k, ok in enumerate(a.rdfe.paper_form_valid) if not ok]      # the arms whose gap is above 2
    if above and "value_reason" not in q:
        k = max(above, key=gaps.__getitem__)
        gap = fmt(float(gaps[k]))
        q = dict(q, value_reason=f"not a bound on this instance: Delta_{k} = {gap} > 2, where tacc "
                                 f"proofs refutes the statement's form (step rdfe-thm.terminal-vs-quarter); "
                                 f"rdfe_bound is the corrected one")
    return q


def term_conventions(a: Analysis) -> dict:
    """{column: {reason: arms}}: the per-arm values taken by a stated convention, not computed as written (an arm
    tied with k^* in H: its theorem term 0 x inf taken as 0, its corollary terms left out; RDFE's costs at
    Delta_k = 0, k^* included)."""
    out: dict = {}
    zero_gap = np.flatnonzero(np.asarray(a.instance.gaps) == 0).tolist()        # k^* and the arms tied with it
    for key, arms, why in (("theorem_term", a.theorem.conventions, TIED_TERM),
                           ("theorem_term_if_cd", a.theorem_if_all_cd.conventions, TIED_TERM),
                           ("corollary_explicit", a.corollary.left_out, TIED_LEFT_OUT),
                           ("rdfe_low_cost", zero_gap, RDFE_ZERO_GAP), ("rdfe_high_cost", zero_gap, RDFE_ZERO_GAP),
                           ("rdfe_oracle_cost", zero_gap, RDFE_ZERO_GAP)):
        if arms:
            out[key] = {why: list(arms)}
    return out


def sum_reason(arms, why: str) -> str:
    """Why a total is what it is when terms were taken by convention: the arms and the convention."""
    return f"arm(s) {', '.join(map(str, arms))}: {why}"


#: the count-bound columns, None for k^* (:func:`arm_columns`).
_COUNT_BOUNDS = ("low_count_bound", "high_count_bound")
#: why the count bounds of k^* are null in the JSON ("-" in the table).
OPTIMAL_NO_COUNT_BOUND = ("not stated for k^* (the optimal arm): thm:analysis-main-regret and "
                          "prop:analysis-high-selection bound the counts of suboptimal arms (Delta_k > 0); k^*'s "
                          "queries cost no regret")

_VALUE = operator.attrgetter("_value_")


def _by_class_not_stated(col: list, classes: list, arm: list) -> dict:
    """Each reason a null of ``col`` (the static-versus-adaptive difference) is not stated, its arm's class's
    (:func:`_not_stated`), mapped to those arms in arm order, the reasons in the order of their first arm: the
    arms grouped in vector calls (members by identity: an enum member hashes in Python)."""
    members = list(ArmClass)
    code_of = {id(c): i for i, c in enumerate(members)}
    null = np.fromiter(map(operator.is_, col, itertools.repeat(None)), dtype=bool, count=len(col))
    at = np.flatnonzero(null)
    if not at.size:
        return {}
    codes = np.fromiter(map(code_of.__getitem__, map(id, classes)), dtype=np.int64, count=len(classes))[at]
    arms = np.asarray(arm, dtype=np.int64)[at]
    present, first = np.unique(codes, return_index=True)
    return {_not_stated(members[c]): arms[codes == c].tolist() for c in present[np.argsort(first)].tolist()}


def to_record(a: Analysis, continuation=None) -> dict:
    """Every quantity with its paper label (the JSON of ``tacc bounds``), as strict JSON values: the instance's
    quantities each with ``value``, ``label`` and ``meaning``; the per-arm quantities' labels, meanings and units
    once in ``fields`` and their values as columns in ``arms``, as is the continuation window's per-arm part.
    ``continuation`` is ``bounds.continuation_of(a)`` when already computed."""
    c = continuation or continuation_of(a)
    cont = _continuation.to_record(c, columns=True)
    cont_arms = cont.pop("arms")
    return dict(jsonable(_scalars(a)),
                fields={k: {"label": lab, "meaning": m, "unit": u} for k, (lab, m, u) in ARM_FIELDS.items()},
                arms=_strict_columns(a, arm_columns(a)),
                continuation=dict(jsonable(cont), arms=cont_arms))


def to_json(a: Analysis, continuation=None) -> str:
    """``to_record`` as strict JSON text, one line per column."""
    return dumps(to_record(a, continuation), depth=2, converted=True)


def _scalars(a: Analysis) -> dict:
    """The record's parts that do not grow with the number of arms: configuration, quantities, assumptions."""
    cfg, inst = a.config, a.instance
    p, c = cfg.params, cfg.costs

    def q(value, label, meaning, name=None, taken=((), "")):
        """A labelled quantity; a value that is not finite gets ``value_reason`` beside its JSON null, saying what
        it means for the quantity ``name``; a sum with terms taken by convention (``taken``: the arms and the
        convention) gets it beside its value, naming them."""
        out = {"value": value, "label": label, "meaning": meaning}
        reason = reason_of(name, value)
        if reason is None and taken[0]:
            reason = sum_reason(*taken)
        return out if reason is None else dict(out, value_reason=reason)

    def rdfe(value, meaning, name):
        """An RDFE total; when infinite, its reason names the arms whose cost makes it so (or the overflow)."""
        out = q(value, "thm:app-rdfe-regret", meaning, name)
        return dict(out, value_reason=rdfe_infinite_arms(a, name)) if value == math.inf else out

    by_id = {id(c): c._value_ for c in ArmClass}
    counts = {by_id[i]: n for i, n in Counter(map(id, a.classes)).items()}     # 10^5 members counted in C
    reading = a.rho_readings.reading(a.rho)          # which reading of lem:ci's radius makes rho valid, if any
    return {
        "name": cfg.name,
        "source": cfg.source,
        "instance": {"n_arms": inst.n_arms, "best_arm": inst.best_arm, "mu_star": inst.mu_star,
                     "seed": inst.seed, "noise": {"model": inst.noise.model, "sigma": inst.noise.sigma},
                     "low": inst.low.describe()},
        "costs": {"low": c.low, "high": c.high},
        "params": {"budget": p.budget, "delta": p.delta, "rho": p.rho, "gamma": p.gamma, "eta": p.eta, "s0": p.s0},
        "quantities": {
            "horizon": q(a.horizon, "sec:problem", "T_Lambda = ceil(Lambda / lambda_L)"),
            "rho": q(a.rho, "subsec:confidence-bounds", "radius constant used"),
            "rho_min": q(a.rho_min, "lem:ci", "smallest rho for which the union bound gives 1 - delta "
                         "(sub-Gaussian)"),
            "rho_min_exact_tail": q(a.rho_readings.exact, "lem:ci", f"the same by the noise's exact tail "
                                    f"({a.rho_readings.exact_name})"),
            "ell": q(a.ell, "sec:theory", "ell = rho log(2 K T / delta)"),
            "n_gamma": q(a.n_gamma, "sec:theory", "N_gamma = min{n >= 1 : G(n) < gamma}"),
            "low_count_bound": q(a.low_count_bound, "prop:analysis-low-query-bound", "N_gamma + S0 + 1"),
            "class_counts": q(dict(counts), "eq:analysis-arm-partition", "arms per class"),
            "theorem_total": q(a.theorem.total, "thm:analysis-main-regret",
                               "bound on R(Lambda) before any run (every C arm counted in H)",
                               taken=(a.theorem.conventions, TIED_TERM)),
            "theorem_total_if_all_cd": q(a.theorem_if_all_cd.total, "thm:analysis-main-regret",
                                         "the bound if every C arm ends in C^d",
                                         taken=(a.theorem_if_all_cd.conventions, TIED_TERM)),
            "corollary_order_total": q(a.corollary.order_total, "cor:analysis-main-regret-order",
                                       "lambda_L sum Delta log T / gamma^2 + lambda_H sum_H log T / Delta",
                                       taken=(a.corollary.left_out, TIED_LEFT_OUT)),
            "corollary_explicit_total": q(a.corollary.explicit_total, "cor:analysis-main-regret-order",
                                          "the theorem's total after the proof's substitutions",
                                          taken=(a.corollary.left_out, TIED_LEFT_OUT)),
            "corollary_constant": q(a.corollary.ratio, "cor:analysis-main-regret-order",
                                    "explicit total / order total: the constant hidden in O(.)",
                                    "corollary_constant"),
            "rdfe_c1": q(a.rdfe.c1, "thm:app-rdfe-regret", "C_1 = max_k smallest C_dyad"),
            "rdfe_c2": q(a.rdfe.c2, "thm:app-rdfe-regret", "C_2 = max_k Delta_k (covers the warm start)"),
            "rdfe_bound": rdfe(a.rdfe.total, "C1 sum Delta c*(min(Delta/4, 1/2)) + C2 K (lambda_L + lambda_H)",
                               "rdfe_bound"),
            "rdfe_bound_paper_form": _paper_form(rdfe(a.rdfe.paper_total, "the statement's form, c*(Delta/4); valid "
                                                      "when every gap < 2", "rdfe_bound_paper_form"), a),
            "rdfe_bound_phase_sum": rdfe(a.rdfe.phase_sum_total,
                                         "sum Delta (sum_{r<=r_k} c*(eps_r) + lambda_L + lambda_H)",
                                         "rdfe_bound_phase_sum"),
        },
        "assumptions": {
            "s0_cost": dict(q(continuation_cap_holds(p.s0, c.low, c.high), "thm:analysis-main-regret",
                              "S0 lambda_L <= lambda_H"),
                            check="cap:S0"),
            "rho_valid": dict(q(reading is not None, "lem:ci", "rho >= the least rho the union bound certifies on "
                                "this noise, by "
                                + (f"the {reading}" if reading else "neither reading")), check="lem:ci:rho",
                              reading=reading),
            "first_round_covered": dict(q(first_round_paid(inst.n_arms, c.low, c.high, p.budget),
                                          "alg:adaptive-mf-mab", "K (lambda_L + lambda_H) <= Lambda"),
                                        check="alg:start"),
            "noise_scale": dict(q(inst.noise.subgaussian_scale <= 1.0, "sec:problem",
                                  "noise 1-sub-Gaussian: sigma <= 1 (Bernoulli: 1/2)"), check="sec:problem:noise"),
            "rdfe_dyadic": dict(q(math.isfinite(a.rdfe.c1), "ass:app-rdfe-dyadic",
                                  "every arm's smallest C_dyad finite (the C_dyad column; rdfe_c1 their max)"),
                                check="ass:app-rdfe-dyadic"),
            **{key: {"value": None, "label": label, "meaning": meaning, "check": label,
                     "value_reason": NOT_CHECKED.format(label=label)} for key, label, meaning in _NOT_CHECKED},
        },
    }


#: the assumptions ``tacc bounds`` does not decide (``tacc check`` does, exactly, at every count): key, label,
#: statement. Their JSON value is null with :data:`NOT_CHECKED` as the reason, "not checked" in the table.
_NOT_CHECKED = (
    ("plugin", "ass:plugin", "U_k nondecreasing and sum_{tau<=n} |mu_k^(L)(tau) - mu_k^(H)| <= U_k(n)"),
    ("mono_cert", "ass:mono-cert", "Delta_k^(L)(n) >= 2 gamma, once reached, holds up to N_gamma + S0"),
)
NOT_CHECKED = ("not checked by tacc bounds: tacc check CONFIG decides {label} exactly; the bounds above assume it "
               "holds")


def assumption_rows(assumptions: dict) -> list[tuple]:
    """The assumption table's rows: held, FAILED or "not checked" (never a yes for an assumption not decided)."""
    return [(k, "not checked" if v["value"] is None else "held" if v["value"] else "FAILED", v["label"],
             v["meaning"]) for k, v in assumptions.items()]


def tied_sentence(tied: list, best: int) -> str:
    """What an arm tied with k^* is, in the paper's terms: one sentence naming the tied arms."""
    arms = ", ".join(map(str, tied))
    return (f"Tied with k* = {best} (gap 0): arm(s) {arms}. The paper takes one k* in the argmax (sec:problem; "
            f"here the lowest index) and partitions every other arm (eq:analysis-arm-partition): a tied arm has "
            f"Delta_k^(L)(n) <= 0 < 2 gamma, so tau_k = inf and its class is B; prop:analysis-low-query-bound covers "
            f"it, prop:analysis-high-selection gives no N_H bound at Delta_k = 0, and its pulls cost no regret.")


def rdfe_cost_reason(a: Analysis, k: int) -> str:
    """Why arm ``k``'s oracle cost c_k^*(Delta_k / 4) is infinite: the reason of each of its two costs that is
    infinite (both are: c^* is their minimum)."""
    parts = [reason_of(key, math.inf) or key for key, c in (("rdfe_low_cost", a.rdfe_low_cost[k]),
                                                      ("rdfe_high_cost", a.rdfe_high_cost[k])) if math.isinf(c)]
    return " and ".join(parts) if parts else reason_of("rdfe_oracle_cost", math.inf) or "infinite"


#: per RDFE total, the per-arm cost it sums (a field of ``bounds.RdfeBound``) and how that cost is written.
_RDFE_TOTAL_COSTS = {"rdfe_bound": ("corrected_cost", "c_k^*(min(Delta_k / 4, 1/2))"),
                     "rdfe_bound_paper_form": ("paper_cost", "c_k^*(Delta_k / 4)"),
                     "rdfe_bound_phase_sum": ("phase_costs_sum", "c_k^*(eps_r) of a phase r <= r_k")}


def rdfe_infinite_arms(a: Analysis, key: str, limit: int = 5) -> str:
    """Why the RDFE total ``key`` (``rdfe_bound``, ``rdfe_bound_paper_form``, ``rdfe_bound_phase_sum``) is
    infinite, by arm: each arm (the first ``limit``) whose cost in that total is infinite, with why. The per-arm
    table's c*(D/4) is the paper form's cost only: with a gap above 2 the implemented bound takes eps = 1/2
    instead, and the phase-sum bound every phase's eps_r = 2^-r down to r_k, so those can be infinite where c*(D/4)
    is not: the arms are named from the total's own costs, never by pointing to lines of that table."""
    field, written = _RDFE_TOTAL_COSTS[key]
    costs = getattr(a.rdfe, field)
    arms = [k for k, c in enumerate(costs) if math.isinf(c)]
    if not arms:
        return (f"infinite (thm:app-rdfe-regret): every arm's oracle cost {written} is finite, and the sum "
                f"overflows the floats (above about 1.8e308)")
    parts = []
    for k in arms[:limit]:
        gap = float(a.instance.gaps[k])
        if math.isinf(a.rdfe.paper_cost[k]):
            why = rdfe_cost_reason(a, k)
        else:
            r = fmt(a.rdfe.phase_index[k])
            at = ("at eps = 1/2 (its gap is above 2)" if field == "corrected_cost" else
                  f"at its last phase r_k = {r}, eps = 2^-{r}")
            why = (f"{at} both certification costs are infinite: no count n <= 2**53 has G(n) <= eps / 8 at the "
                   f"high fidelity, nor G(n) + B_k(n) <= eps / 8 at the low one (c*(D/4) is finite)")
        parts.append(f"arm {k} (gap {fmt(gap)}): {why}")
    more = f"; and {len(arms) - limit} more arm(s)" if len(arms) > limit else ""
    return (f"infinite (thm:app-rdfe-regret): the oracle cost {written} is infinite on {len(arms)} arm(s): "
            + "; ".join(parts) + more)


def _not_stated(c: ArmClass) -> str:
    """Why the static-versus-adaptive difference of an arm of class ``c`` (outside C) is null."""
    kind = "an optimal arm" if c is ArmClass.OPTIMAL else f"an arm of class {c.value}"
    return f"not stated for {kind}: prop:analysis-regret-improvement compares the rules on C arms"


def _reason_line(key: str, q: dict) -> str:
    """``key = value: reason`` of a quantity that is not finite; a reason that starts with the value's own word
    ("undefined: 0 / 0, ...") is not preceded by it again."""
    shown, reason = fmt(q["value"]), q["value_reason"]
    return f"{key} = {reason}" if reason.startswith(shown + ":") else f"{key} = {shown}: {reason}"


def render(a: Analysis, max_arms: int = 40, continuation=None) -> str:
    """The human-readable view: the scalar quantities, then a per-arm table (best arm and suboptimal arms);
    ``continuation`` is ``bounds.continuation_of(a)`` when already computed."""
    cont = continuation or continuation_of(a)
    n_arms = a.instance.n_arms
    gaps = a.instance.gaps
    order = np.lexsort((np.arange(n_arms), gaps)).tolist()     # smallest gaps first, ties by arm index
    shown = order[:max_arms]
    rec = _scalars(a)
    out = [f"tacc bounds: {rec['name']} ({rec['source']})",
           f"K = {rec['instance']['n_arms']}, k* = {rec['instance']['best_arm']}, "
           f"mu* = {fmt(rec['instance']['mu_star'])}, "
           f"low model = {rec['instance']['low']['model']}, noise = {rec['instance']['noise']['model']}", ""]
    # rho and rho_min with the digits that tell them apart (one ulp apart they printed alike beside rho_valid FAILED)
    apart = dict(zip(("rho", "rho_min"), fmt_apart(a.rho, a.rho_min), strict=True))
    qrows = [(k, apart[k] if k in apart else fmt(v["value"]) if not isinstance(v["value"], dict) else
              ", ".join(f"{c}: {n}" for c, n in sorted(v["value"].items())), v["label"], v["meaning"])
             for k, v in rec["quantities"].items()]
    out.append(table(["quantity", "value", "label", "meaning"], qrows))
    # an infinite or undefined quantity with its reason (the JSON's value_reason): never a bare inf
    out += [_reason_line(k, v) for k, v in rec["quantities"].items() if "value_reason" in v]
    out.append("")
    out.append("assumptions: tacc bounds decides the parameter ones and C_dyad; ass:plugin and ass:mono-cert (the "
               "low-fidelity model's) only tacc check CONFIG decides: every bound above assumes they hold")
    out.append(table(["assumption", "status", "label", "condition"], assumption_rows(rec["assumptions"])))
    out.append("")
    col = arm_columns(a, shown)
    best = a.instance.best_arm
    tied = [k for k, t in zip(col["arm"], col["tied_with_best"], strict=True) if t]
    col["class"] = [class_label(c, k in tied) for k, c in zip(col["arm"], col["class"], strict=True)]
    # means with the digits that tell them apart: at mu_high = [1e12, 0.999999e12] both read 1.000e+12 beside a gap of
    # 1.000e+06
    col["mu_high"] = fmt_apart_all([float(m) for m in col["mu_high"]])
    names = ("arm", "mu_high", "gap", "tau", "class", "low_count_bound", "high_count_bound", "theorem_term",
             "static_minus_adaptive", "rdfe_oracle_cost", "rdfe_dyadic_constant")
    col["static_minus_adaptive"] = ["-" if x is None else x for x in col["static_minus_adaptive"]]
    # as in the JSON: k^* has no count bound (None), an arm tied with it (Delta_k = 0) no high-count bound, not an
    # infinite one
    col["low_count_bound"] = ["-" if x is None else x for x in col["low_count_bound"]]
    col["high_count_bound"] = ["-" if x is None or g == 0 else x
                               for g, x in zip(col["gap"], col["high_count_bound"], strict=True)]
    rows = list(zip(*(col[n] for n in names), strict=True))
    out.append("per arm (smallest gaps first): tau = eq:analysis-cert-time, class = eq:analysis-arm-partition, "
               "N_L/N_H bounds = prop:analysis-low-query-bound / prop:analysis-high-selection, "
               "term = thm:analysis-main-regret, static-adapt = prop:analysis-regret-improvement, "
               "c*(D/4), C_dyad = app:benchmark-rdfe")
    out.append(table(["arm", "mu_high", "gap", "tau", "class", "N_L bound", "N_H bound", "term",
                      "static-adapt", "c*(D/4)", "C_dyad"], rows))
    if len(order) > max_arms:
        out.append(f"... {len(order) - max_arms} more arms in the JSON output (--json PATH).")
    if tied:
        out.append(tied_sentence(tied, best))
    if conv := [k for k in a.theorem.conventions if k in shown]:
        out.append(f"term of {sum_reason(conv, TIED_TERM)}")
    if tied:
        out.append(f"c*(D/4) of {sum_reason([best, *tied], RDFE_ZERO_GAP)}")
    out += [f"arm {k}: c*(D/4) = inf: {rdfe_cost_reason(a, k)}" for k in shown if math.isinf(a.rdfe.paper_cost[k])]
    out += ["", _continuation.render(cont, a.classes, order, max_arms, tied=tied)]
    return "\n".join(out)
