"""``tacc bounds``: the quantities of ``bounds.analyze`` as a readable table and as labelled JSON."""

from __future__ import annotations

from collections import Counter

from bounds import Analysis, ArmClass, continuation_of
from reports import _continuation_view
from reports._tables import fmt, reason_of, table


def to_record(a: Analysis, continuation=None, arms=None) -> dict:
    """Every quantity with its paper label beside it (the JSON of ``tacc bounds``); ``continuation`` is
    ``bounds.continuation_of(a)`` when already computed; ``arms`` (default: every arm, in index order) are the
    arms whose entries the record lists (the table shows a few of 10^5)."""
    cfg, inst = a.config, a.instance
    p, c = cfg.params, cfg.costs

    def q(value, label, meaning, name=None, reason=None):
        """A labelled quantity; a value that is None or not finite gets ``value_reason`` beside its JSON null,
        saying what it means for the quantity ``name``."""
        out = {"value": value, "label": label, "meaning": meaning}
        reason = reason if value is None else reason_of(name, value)
        return out if reason is None else dict(out, value_reason=reason)

    gaps, mu, best = inst.gaps.tolist(), inst.mu_high.tolist(), inst.best_arm    # once: each is O(K)
    zeta = inst.low.static_biases().tolist()
    rows = []
    for k in (range(inst.n_arms) if arms is None else arms):
        rows.append({
            "arm": k,
            "mu_high": mu[k],
            "gap": q(gaps[k], "sec:problem", "Delta_k = mu^* - mu_k^(H)"),
            "static_bias": q(zeta[k], "rem:evolving_vs_static", "zeta_k = B_k(1), MF-UCB's bias"),
            "tau": q(a.tau[k], "eq:analysis-cert-time", "tau_k(gamma), low-fidelity certification time", "tau"),
            "class": q(a.classes[k], "eq:analysis-arm-partition", "A / B / C (C^d or C^u only after a run)"),
            "low_count_bound": q(0 if k == best else a.low_count_bound, "prop:analysis-low-query-bound",
                                 "N_k^(L) <= N_gamma + S0 + 1"),
            "high_count_bound": q(a.high_count_bound[k], "prop:analysis-high-selection",
                                  "N_k^(H) <= 1 + ceil(4 ell / Delta_k^2)", "high_count_bound"),
            "theorem_term": q(a.theorem.terms[k], "thm:analysis-main-regret", "arm's term, C counted in H"),
            "theorem_term_if_cd": q(a.theorem_if_all_cd.terms[k], "thm:analysis-main-regret",
                                    "arm's term if a C arm is in C^d"),
            "corollary_explicit": q(a.corollary.explicit[k], "cor:analysis-main-regret-order",
                                    "the theorem's term after the proof's substitutions"),
            "static_minus_adaptive": q(a.comparison.difference[k] if a.comparison.applies[k] else None,
                                       "prop:analysis-regret-improvement",
                                       "Delta_k [lambda_H ceil(4 ell/Delta^2) - lambda_L S0], for C arms",
                                       reason=f"not stated for {_arm_kind(a.classes[k])}: "
                                              f"prop:analysis-regret-improvement compares the rules on C arms"),
            "rdfe_low_cost": q(a.rdfe_low_cost[k], "app:benchmark-rdfe", "c_k^(L)(Delta_k / 4)"),
            "rdfe_high_cost": q(a.rdfe_high_cost[k], "app:benchmark-rdfe", "c^(H)(Delta_k / 4)"),
            "rdfe_oracle_cost": q(a.rdfe.paper_cost[k], "app:benchmark-rdfe", "c_k^*(Delta_k / 4)"),
            "rdfe_phase_index": q(a.rdfe.phase_index[k], "ass:app-rdfe-dyadic", "r_k = min{r : 2^-r <= Delta_k/2}",
                                  "rdfe_phase_index"),
            "rdfe_dyadic_constant": q(a.rdfe.dyadic_constant[k], "ass:app-rdfe-dyadic", "smallest C_dyad"),
        })
    counts = Counter(x.value for x in a.classes)
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
            "rho_min": q(a.rho_min, "lem:ci", "smallest rho for which the union bound gives 1 - delta"),
            "ell": q(a.ell, "sec:theory", "ell = rho log(2 K T / delta)"),
            "n_gamma": q(a.n_gamma, "sec:theory", "N_gamma = min{n >= 1 : G(n) < gamma}"),
            "low_count_bound": q(a.low_count_bound, "prop:analysis-low-query-bound", "N_gamma + S0 + 1"),
            "class_counts": q(dict(counts), "eq:analysis-arm-partition", "arms per class"),
            "theorem_total": q(a.theorem.total, "thm:analysis-main-regret",
                               "bound on R(Lambda) before any run (every C arm counted in H)"),
            "theorem_total_if_all_cd": q(a.theorem_if_all_cd.total, "thm:analysis-main-regret",
                                         "the bound if every C arm ends in C^d"),
            "corollary_order_total": q(a.corollary.order_total, "cor:analysis-main-regret-order",
                                       "lambda_L sum Delta log T / gamma^2 + lambda_H sum_H log T / Delta"),
            "corollary_explicit_total": q(a.corollary.explicit_total, "cor:analysis-main-regret-order",
                                          "the theorem's total after the proof's substitutions"),
            "corollary_constant": q(a.corollary.ratio, "cor:analysis-main-regret-order",
                                    "explicit total / order total: the constant hidden in O(.)",
                                    "corollary_constant"),
            "rdfe_c1": q(a.rdfe.c1, "thm:app-rdfe-regret", "C_1 = max_k smallest C_dyad"),
            "rdfe_c2": q(a.rdfe.c2, "thm:app-rdfe-regret", "C_2 = max_k Delta_k (covers the warm start)"),
            "rdfe_bound": q(a.rdfe.total, "thm:app-rdfe-regret",
                            "C1 sum Delta c*(min(Delta/4, 1/2)) + C2 K (lambda_L + lambda_H)"),
            "rdfe_bound_paper_form": q(a.rdfe.paper_total, "thm:app-rdfe-regret",
                                       "the statement's form, c*(Delta/4); valid when every gap < 2"),
            "rdfe_bound_sharp": q(a.rdfe.sharp_total, "thm:app-rdfe-regret",
                                  "sum Delta (sum_{r<=r_k} c*(eps_r) + lambda_L + lambda_H)"),
        },
        "assumptions": {
            "s0_cost": q(p.s0 * c.low <= c.high, "thm:analysis-main-regret", "S0 lambda_L <= lambda_H"),
            "rho_valid": q(a.rho >= a.rho_min, "lem:ci", "rho >= rho_min for this noise"),
            "first_round_covered": q(inst.n_arms * (c.low + c.high) <= p.budget, "alg:adaptive-mf-mab",
                                     "K (lambda_L + lambda_H) <= Lambda"),
        },
        "arms": rows,
        "continuation": _continuation_view.to_record(continuation or continuation_of(a)),
    }


def _arm_kind(c: ArmClass) -> str:
    return "an optimal arm" if c is ArmClass.OPTIMAL else f"an arm of class {c.value}"


def render(a: Analysis, max_arms: int = 40, continuation=None) -> str:
    """The human-readable view: the scalar quantities, then a per-arm table (best arm and suboptimal arms);
    ``continuation`` is ``bounds.continuation_of(a)`` when already computed."""
    cont = continuation or continuation_of(a)
    gaps = a.instance.gaps.tolist()
    order = sorted(range(a.instance.n_arms), key=lambda k: (gaps[k], k))
    shown = order[:max_arms]
    rec = to_record(a, cont, arms=shown)
    by_arm = {r["arm"]: r for r in rec["arms"]}
    out = [f"tacc bounds: {rec['name']} ({rec['source']})",
           f"K = {rec['instance']['n_arms']}, k* = {rec['instance']['best_arm']}, "
           f"mu* = {fmt(rec['instance']['mu_star'])}, "
           f"low model = {rec['instance']['low']['model']}, noise = {rec['instance']['noise']['model']}", ""]
    qrows = [(k, fmt(v["value"]) if not isinstance(v["value"], dict) else
              ", ".join(f"{c}: {n}" for c, n in sorted(v["value"].items())), v["label"], v["meaning"])
             for k, v in rec["quantities"].items()]
    out.append(table(["quantity", "value", "label", "meaning"], qrows))
    out.append("")
    out.append(table(["assumption", "holds", "label", "condition"],
                     [(k, v["value"], v["label"], v["meaning"]) for k, v in rec["assumptions"].items()]))
    out.append("")
    rows = []
    for k in shown:
        r = by_arm[k]
        rows.append((k, r["mu_high"], r["gap"]["value"], r["tau"]["value"], r["class"]["value"],
                     r["low_count_bound"]["value"], r["high_count_bound"]["value"], r["theorem_term"]["value"],
                     r["static_minus_adaptive"]["value"] if r["static_minus_adaptive"]["value"] is not None else "-",
                     r["rdfe_oracle_cost"]["value"], r["rdfe_dyadic_constant"]["value"]))
    out.append("per arm (smallest gaps first): tau = eq:analysis-cert-time, class = eq:analysis-arm-partition, "
               "N_L/N_H bounds = prop:analysis-low-query-bound / prop:analysis-high-selection, "
               "term = thm:analysis-main-regret, static-adapt = prop:analysis-regret-improvement, "
               "c*(D/4), C_dyad = app:benchmark-rdfe")
    out.append(table(["arm", "mu_high", "gap", "tau", "class", "N_L bound", "N_H bound", "term",
                      "static-adapt", "c*(D/4)", "C_dyad"], rows))
    if len(order) > max_arms:
        out.append(f"... {len(order) - max_arms} more arms in the JSON output (--json PATH).")
    out += ["", _continuation_view.render(cont, a.classes, order, max_arms)]
    return "\n".join(out)
