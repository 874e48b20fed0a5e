"""Coverage of the paper: each displayed equation or inequality of the appendix proofs, the definitions that
carry conventions, the remarks, and the quantitative modelling statements of the experiments, with the steps
that check it or the reason none does. Locations are line numbers of the paper's .tex (tacc-paper.tex)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Statement", "COVERAGE", "coverage_rows", "APPENDIX_PROOFS"]

#: the line ranges of the appendix that hold proofs (app:proofs through the proof of thm:app-rdfe-regret).
APPENDIX_PROOFS = (643, 1582)


@dataclass(frozen=True)
class Statement:
    """One statement of the paper: ``line`` (its display's first line in the .tex), ``where`` (label or
    context), ``what`` (the statement in words), ``rows`` (step ids checking it), ``reason`` (why no row)."""

    line: int
    where: str
    what: str
    rows: tuple = ()
    reason: str = ""


def _s(line, where, what, *rows, reason=""):
    return Statement(line, where, what, tuple(rows), reason)


_PROB = ("probability: concentration of adaptively collected samples is not given to z3 or sympy (UNKNOWN row "
         "lem-ci.concentration); the arithmetic around it is checked")

#: each displayed statement of the paper (its label and line) with the proof steps that check it, or why none.
COVERAGE = (
    # definitions and conventions, main text
    _s(120, "sec:problem", "T_Lambda = ceil(Lambda / lambda_L) upper bounds the number of queries", "def.horizon"),
    _s(123, "sec:problem", "R(Lambda) = sum_{t: C_t <= Lambda} lambda^(m_t) (mu* - mu_{I_t})",
       "theorem.decomposition"),
    _s(140, "ass:plugin", "sum_{tau<=n} |mu_L(tau) - mu_H| <= U_k(n)", "lem-ci.plugin-chain"),
    _s(149, "eq:improvingbound", "|bar mu_L(n) - mu_H| <= U_k(n)/n <= B_k(n); B_k(n) = sup_{s>=n} U_k(s)/s",
       "lem-ci.plugin-chain", "fact.B-nonincreasing"),
    _s(166, "rem:evolving_vs_static", "a static bias bound |mu_L - mu_H| <= zeta_k is the special case U_k(n) = "
       "n zeta_k", reason="a remark relating models; the frozen model's certificate (fact.cert-table) is this case",
       ),
    _s(175, "eq:effective-low-gap", "Delta^(L)(n) = mu* - bar mu_L(n) - B_k(n)", "low-selection.chain"),
    _s(195, "subsec:confidence-bounds", "G(n) = sqrt(rho log(2KT/delta)/n), n >= 1; rad^(L) = G + B_k, "
       "rad^(H) = G", "low-selection.chain", "high-selection.chain", "high-selection.count"),
    _s(206, "eq:fidelity-confidence-bounds", "UCB/LCB = mu_hat +- rad", "low-selection.chain",
       "high-selection.chain"),
    _s(230, "eq:arm-score", "UCB_k = min_m UCB^(m)_k, I_t in argmax", "low-selection.necessary"),
    _s(246, "eq:continuation-gain", "V(s) = B(N) - B(N + s), 1 <= s <= S_0", "fact.continuation-in-s"),
    _s(254, "eq:fidelity-selection", "m_t = L if G >= gamma or [A < S_0 and exists s <= S_0 - A: V(s) >= 2 eta "
       "gamma]; H otherwise", "low-query.pre-threshold", "low-query.total", "fact.continuation-in-s"),
    _s(271, "eq:fidelity-selection", "S_0 lambda_L <= lambda_H: a continuation block costs at most one high "
       "query", "alg.continuation-block"),
    _s(279, "alg:adaptive-mf-mab", "the first round: one query per arm per fidelity, C = K (lambda_L + lambda_H)",
       "theorem.A-term", "low-query.pre-count"),
    _s(291, "alg:adaptive-mf-mab", "the last query: break when C + lambda^(m_t) > Lambda (the budget is never "
       "exceeded)", "def.horizon"),
    _s(310, "sec:theory", "ell = rho log(2KT/delta); N_gamma = min{n >= 1 : G(n) < gamma}",
       "low-query.pre-threshold", "cor.n-gamma-upper", "cor.n-gamma-substitution"),
    _s(324, "eq:analysis-cert-time", "tau_k(gamma) = inf{n >= 1 : Delta^(L)(n) >= 2 gamma}, inf if empty",
       "low-query.class-A", "low-query.class-Cd"),
    _s(338, "eq:analysis-arm-partition", "A, B, C partition the suboptimal arms", "def.partition"),
    _s(386, "ass:mono-cert", "the certificate, once reached within the window, holds to N_gamma + S_0",
       "low-query.class-A", "low-query.class-Cd"),
    _s(406, "eq:analysis-main-regret", "the theorem's bound", "theorem.sum"),
    _s(440, "cor:analysis-main-regret-order", "substituting N_gamma = ceil(ell / gamma^2)",
       "cor.n-gamma-substitution"),
    _s(444, "eq:analysis-main-regret-order", "R = O(lambda_L sum Delta/gamma^2 log T + lambda_H sum_H log T / "
       "Delta)", "cor.low-term", "cor.high-term", "cor.log-factor", "cor.absorb-start"),
    _s(467, "rem:analysis-mf-comparison", "unit costs: T_Lambda is order-equivalent to Lambda; the same O() form",
       "def.horizon", "cor.absorb-start",
       reason=""),
    # appendix: lem:ci
    _s(659, "lem:ci", "mu_H in [LCB^(L), UCB^(L)] and [LCB^(H), UCB^(H)] on E, P(E) >= 1 - delta",
       "lem-ci.combine", "lem-ci.union-bound", "lem-ci.two-fidelities", "lem-ci.concentration"),
    _s(678, "app:proofs", "ell, G, N_gamma recalled", "low-query.pre-threshold", "cor.n-gamma-upper"),
    _s(690, "app:proof-lem-ci", "|mu_hat_H - mu_H| <= G(N_H) w.p. >= 1 - delta/2", "lem-ci.union-bound",
       "lem-ci.concentration", reason=_PROB),
    _s(700, "app:proof-lem-ci", "bar mu_L(n) = (1/n) sum mu_L(tau)", "lem-ci.triangle"),
    _s(707, "app:proof-lem-ci", "mu_hat_L - mu_H = (mu_hat_L - bar mu_L) + (bar mu_L - mu_H)",
       "lem-ci.decomposition"),
    _s(720, "app:proof-lem-ci", "|mu_hat_L - bar mu_L(N)| <= G(N) w.p. >= 1 - delta/2", "lem-ci.union-bound",
       "lem-ci.concentration", reason=_PROB),
    _s(730, "app:proof-lem-ci", "|bar mu_L(n) - mu_H| <= (1/n) sum |.| <= U_k(n)/n <= B_k(n)", "lem-ci.triangle",
       "lem-ci.plugin-chain"),
    _s(746, "app:proof-lem-ci", "|mu_hat_L - mu_H| <= G + B", "lem-ci.combine"),
    # selection propositions
    _s(779, "eq:analysis-high-query-bound", "N^(H) <= 1 + ceil(4 ell / Delta^2)", "high-selection.total"),
    _s(794, "app:proof-prop-low-selection", "I_t in argmax UCB_j, UCB_j = min_m UCB^(m)_j",
       "low-selection.necessary"),
    _s(800, "app:proof-prop-low-selection", "UCB_k >= UCB_{k*}", "low-selection.necessary"),
    _s(805, "app:proof-prop-low-selection", "UCB^(L)_{k*} >= mu*, UCB^(H)_{k*} >= mu*", "low-selection.necessary"),
    _s(811, "app:proof-prop-low-selection", "UCB_{k*} = min(.) >= mu*", "low-selection.necessary"),
    _s(819, "app:proof-prop-low-selection", "UCB_k >= mu*", "low-selection.necessary"),
    _s(824, "app:proof-prop-low-selection", "UCB^(L)_k >= mu*", "low-selection.necessary"),
    _s(828, "app:proof-prop-low-selection", "UCB^(L) = mu_hat_L + G + B", "low-selection.chain"),
    _s(838, "app:proof-prop-low-selection", "mu_hat_L <= bar mu_L + G on E", "low-selection.chain"),
    _s(846, "app:proof-prop-low-selection", "mu* <= UCB^(L) <= bar mu_L + 2G + B", "low-selection.chain"),
    _s(858, "app:proof-prop-low-selection", "2G >= mu* - bar mu_L - B = Delta^(L)", "low-selection.chain"),
    _s(866, "app:proof-prop-low-selection", "G < gamma and Delta^(L) >= 2 gamma", "low-selection.consequence"),
    _s(872, "app:proof-prop-low-selection", "2G < 2 gamma <= Delta^(L)", "low-selection.consequence"),
    _s(887, "app:proof-prop-high-selection", "UCB_k >= mu*", "high-selection.chain"),
    _s(891, "app:proof-prop-high-selection", "UCB_k = min(UCB^(L), UCB^(H))", "high-selection.chain"),
    _s(895, "app:proof-prop-high-selection", "UCB^(H) >= mu*", "high-selection.chain"),
    _s(899, "app:proof-prop-high-selection", "UCB^(H) = mu_hat_H + G", "high-selection.chain"),
    _s(907, "app:proof-prop-high-selection", "mu_hat_H <= mu_H + G on E", "high-selection.chain"),
    _s(915, "app:proof-prop-high-selection", "mu* <= UCB^(H) <= mu_H + 2G", "high-selection.chain"),
    _s(925, "app:proof-prop-high-selection", "2G >= Delta_k", "high-selection.chain"),
    _s(929, "app:proof-prop-high-selection", "G(n) = sqrt(ell / n)", "high-selection.count"),
    _s(933, "app:proof-prop-high-selection", "n <= 4 ell / Delta^2", "high-selection.count"),
    _s(941, "app:proof-prop-high-selection", "N^(H) <= 1 + ceil(4 ell / Delta^2)", "high-selection.total"),
    _s(954, "eq:app-analysis-hit-time", "T^tau_k = inf{t : N_L >= tau_k}; a query at T_Lambda reaching tau_k has "
       "hitting time T_Lambda + 1", "def.hit-time"),
    _s(967, "eq:app-analysis-Cdet", "C^d: T^tau <= T + 1 and no high query while N_gamma <= N_L < tau",
       "theorem.Cd-term", "low-query.class-Cd"),
    # low-query bound
    _s(1000, "eq:analysis-low-query-bound", "N^(L) <= N_gamma + S_0 + 1", "low-query.total"),
    _s(1019, "prop:analysis-low-query-bound (proof)", "G(N) >= gamma => N < N_gamma; at most N_gamma + 1 "
       "pre-threshold pulls", "low-query.pre-threshold", "low-query.pre-count"),
    _s(1025, "prop:analysis-low-query-bound (proof)", "N^(L) <= N_gamma + S_0 + 1", "low-query.total"),
    _s(1029, "prop:analysis-low-query-bound (i)", "A arms certified at the crossing", "low-query.class-A"),
    _s(1038, "prop:analysis-low-query-bound (ii)", "C^d arms certified at tau_k", "low-query.class-Cd"),
    # theorem
    _s(1062, "app:proof-thm-tacc-regret", "R = sum_k Delta_k [lambda_L N_L + lambda_H N_H]",
       "theorem.decomposition"),
    _s(1081, "app:proof-thm-tacc-regret", "k in A: R_k <= Delta [lambda_L (N_gamma + 1) + lambda_H]",
       "theorem.A-term"),
    _s(1096, "app:proof-thm-tacc-regret", "k in C^d: R_k <= Delta [lambda_L (N_gamma + S_0 + 1) + lambda_H]",
       "theorem.Cd-term"),
    _s(1110, "app:proof-thm-tacc-regret", "k in H: the two count bounds", "theorem.H-term"),
    _s(1120, "app:proof-thm-tacc-regret", "k in H: R_k <= ...", "theorem.H-term"),
    _s(1135, "app:proof-thm-tacc-regret", "the sum over the classes", "theorem.sum"),
    # corollary
    _s(1176, "app:proof-regret-Corollary", "N_gamma <= 1 + ell / gamma^2", "cor.n-gamma-upper"),
    _s(1178, "app:proof-regret-Corollary", "low term O(lambda_L Delta (ell/gamma^2 + S_0 + 1))", "cor.low-term"),
    _s(1187, "app:proof-regret-Corollary", "A u C^d: only the initialization cost (absorbed)", "cor.absorb-start"),
    _s(1190, "app:proof-regret-Corollary", "Delta lambda_H (1 + ceil(4 ell/Delta^2)) = O(lambda_H ell / Delta) + "
       "O(lambda_H Delta)", "cor.high-term"),
    _s(1202, "app:proof-regret-Corollary", "ell = rho log(2KT/delta) = O(log T)", "cor.log-factor"),
    # improvement
    _s(1209, "eq:regret_compare", "R_static - R_adapt >= Delta [lambda_H ceil(.) - lambda_L S_0]",
       "improvement.difference"),
    _s(1223, "prop:analysis-regret-improvement", "S_0 lambda_L <= lambda_H and ceil >= 2 => strictly smaller",
       "improvement.strict"),
    _s(1238, "prop:analysis-regret-improvement (proof)", "static bound", "improvement.static-bound"),
    _s(1257, "prop:analysis-regret-improvement (proof)", "adaptive bound", "theorem.Cd-term"),
    _s(1266, "prop:analysis-regret-improvement (proof)", "subtracting the two upper bounds",
       "improvement.difference"),
    # RDFE
    _s(1299, "app:benchmark-rdfe", "c^(L)(eps) = lambda_L min{n : G + B <= eps/8}", "rdfe.oracle-monotone",
       "rdfe-cost.phase"),
    _s(1309, "app:benchmark-rdfe", "c^(H)(eps) = lambda_H min{n : G <= eps/8}", "rdfe.oracle-monotone",
       "rdfe-cost.phase"),
    _s(1320, "app:benchmark-rdfe", "c^*(eps) = min(c^(L), c^(H)), min of the empty set = +inf", "rdfe-cost.phase"),
    _s(1330, "app:benchmark-rdfe", "eps_r = 2^-r, r = 1, 2, ... (the first phase has eps_1 = 1/2)",
       "rdfe-thm.terminal-vs-quarter"),
    _s(1414, "app:benchmark-rdfe", "Delta Lambda_{k,r}, := 0 when k is not active", "rdfe-thm.phase-sum"),
    _s(1423, "lem:app-rdfe-phase-width", "mu in [LCB, UCB] and UCB - LCB <= eps_r/4", "rdfe-width.stopping"),
    _s(1429, "lem:app-rdfe-phase-width", "LCB >= mu - eps/4, UCB <= mu + eps/4", "rdfe-width.consequence"),
    _s(1439, "lem:app-rdfe-phase-width (proof)", "G + B <= eps/8 (low)", "rdfe-width.stopping"),
    _s(1444, "lem:app-rdfe-phase-width (proof)", "G <= eps/8 (high)", "rdfe-width.stopping"),
    _s(1457, "lem:app-rdfe-elim (proof)", "UCB_k <= mu_k + eps/4", "rdfe-elim.chain"),
    _s(1461, "lem:app-rdfe-elim (proof)", "LCB_{k*} >= mu* - eps/4", "rdfe-elim.chain"),
    _s(1465, "lem:app-rdfe-elim (proof)", "LCB_{hat k} >= LCB_{k*} >= mu* - eps/4", "rdfe-elim.chain",
       "rdfe-elim.optimal-survives"),
    _s(1469, "lem:app-rdfe-elim (proof)", "LCB_{hat k} - eps/4 >= mu* - eps/2", "rdfe-elim.chain"),
    _s(1473, "lem:app-rdfe-elim (proof)", "UCB_k <= ... < LCB_{hat k} - eps/4", "rdfe-elim.chain"),
    _s(1492, "lem:app-rdfe-phase-cost", "Delta Lambda_{k,r} <= c^*(eps_r)", "rdfe-cost.phase"),
    _s(1501, "lem:app-rdfe-phase-cost (proof)", "G + B <= eps/8 (the phase's stopping rule)", "rdfe-cost.phase"),
    _s(1515, "ass:app-rdfe-dyadic", "sum_{r<=r_k} c^*(eps_r) <= C_dyad c^*(eps_{r_k}); r_k = min{r : eps_r <= "
       "Delta/2}", "rdfe-thm.sum",
       reason="an assumption: its smallest constant per arm, C_dyad = the sum over the terminal cost (the "
              "inequality with equality), is computed by bounds and checked per instance "
              "by `tacc check` (ass:app-rdfe-dyadic)"),
    _s(1540, "thm:app-rdfe-regret", "R <= C_1 sum Delta c^*(Delta/4) + C_2 K (lambda_L + lambda_H)",
       "rdfe-thm.sum", "rdfe-thm.terminal-vs-quarter", "rdfe-thm.warm-start"),
    _s(1552, "thm:app-rdfe-regret (proof)", "r_k = min{r : eps_r <= Delta_k/2}", "rdfe-thm.eliminated-by-rk"),
    _s(1557, "thm:app-rdfe-regret (proof)", "cost bounded by sum_{r<=r_k} Delta Lambda_{k,r}",
       "rdfe-thm.eliminated-by-rk", "rdfe-thm.phase-sum"),
    _s(1561, "thm:app-rdfe-regret (proof)", "sum Delta Lambda <= sum c^*(eps_r)", "rdfe-thm.phase-sum"),
    _s(1567, "thm:app-rdfe-regret (proof)", "sum c^*(eps_r) <= C c^*(Delta/4)", "rdfe-thm.terminal-vs-quarter",
       "rdfe.oracle-monotone"),
    _s(1574, "thm:app-rdfe-regret (proof)", "R_k <= C Delta c^*(Delta/4); warm start lower order", "rdfe-thm.sum",
       "rdfe-thm.warm-start"),
    # experiments: quantitative modelling statements
    _s(492, "subsec:syn", "Set A/B: power decay with signs s_k, B_k(n) = O(n^-r)", "fact.cert-power-decay",
       "fact.power-B-exact", "fact.power-rate"),
    _s(528, "eq:llm-residual-bias-model", "mu_L(n) = mu_H + b_k + a_k (n + n0)^-r with a valid bound",
       "fact.cert-residual-decay"),
    _s(1592, "app:synthetic-sensitivity", "B_k(n) = O(n^-r): larger r, faster improvement", "fact.power-rate"),
    _s(1611, "eq:app-llm-high-verifier", "Y^(H) = 1{correct}, mu_H = E[Y^(H)] (Bernoulli rewards in [0, 1])",
       reason="a modelling definition: Bernoulli rewards are 1/2-sub-Gaussian, used by the radius constant "
              "(proofs_checks.least_rho)"),
    _s(1656, "eq:app-llm-controlled-weak-judge", "the controlled weak judge (residual decay)",
       "fact.cert-residual-decay"),
    _s(1664, "app:llm-task-protocol", "means clipped to [0, 1] before sampling", "fact.clip-contraction"),
    _s(1785, "eq:app-llm-pure-decay-model", "mu_L(n) = mu_H + a_k (n + n0)^-r (b = 0)", "fact.cert-residual-decay"),
    _s(1930, "app:llm-empirical-bandit", "checkpoint profile capped at q_max, not monotone", "fact.cert-table"),
)


def coverage_rows(results: dict | None = None) -> list[tuple]:
    """(line, where, what, rows with their outcomes, reason) per statement in the paper's order; ``results``
    maps step id -> outcome text (the rows without outcomes when None)."""
    out = []
    for s in sorted(COVERAGE, key=lambda s: s.line):
        rows = ", ".join(f"{r} [{results[r]}]" if results and r in results else r for r in s.rows)
        out.append((s.line, s.where, s.what, rows or "-", s.reason))
    return out
