"""The consistency of the paper's reported numbers with each other.

The values the paper reports (``reports.reproduce._paper``: final-budget tables, paired differences, repeated tables,
published means) are checked against each other, never against our runs. Every check is a :class:`Check`: the
relation, the paper's numbers, consistent or not, and why, decided

- exactly (``fractions``) where the relation is an identity, each printed number standing for the interval of
  half a unit of its last digit (3277.7 is [3277.65, 3277.75]);
- with a stated error where it is statistical: a 95% interval's quantile lies between the normal 1.96 and
  Student's t with n - 1 degrees of freedom (the paper does not say which it used), and an equality in
  distribution of two means is judged by a two-sided normal test at family-wise level 5% (Bonferroni over the
  equalities of the table).

Relations: a paired mean difference equals the difference of the table's means (same runs, same seeds); a paired
t-interval is symmetric about its mean; the paired standard error lies between |se_a - se_b| and se_a + se_b (a
correlation in [-1, 1]); a mean and standard error over n seeds are possible for a regret in [0, Lambda max_k
Delta_k] (Bhatia-Davis: the variance is at most m (M - m)); a policy that reads none of the parts in which two
settings differ (``certify.READS``) has the same regret distribution in both; a seed-free regret of a policy that
queries only the low fidelity is Lambda / lambda_L times a published gap; a table repeated elsewhere carries the same
numbers; each qualitative claim follows from the paper's own numbers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

__all__ = ["Check", "consistency", "paper_number", "LEVEL"]

#: the family-wise level of the statistical checks (equalities in distribution), stated in every such check.
LEVEL = Fraction(5, 100)


def paper_number(x) -> tuple[Fraction, Fraction]:
    """A printed number as (value, half a unit of its last digit): 3277.7 -> (32777/10, 1/20)."""
    d = Decimal(str(x))
    return Fraction(d), Fraction(1, 2) * Fraction(10) ** int(d.as_tuple().exponent)


@dataclass(frozen=True)
class Check:
    """One relation between the paper's numbers: ``consistent`` True, False, or None (not decidable: ``why``)."""

    relation: str
    numbers: str
    consistent: bool | None
    why: str


def _q(x: Fraction) -> str:
    return f"{float(x):.6g}"


def _quantiles(n: int) -> tuple[float, float]:
    """The 95% two-sided quantile, between the normal and Student's t(n - 1), widened by one part in 10^12."""
    from scipy.special import ndtri, stdtrit   # scipy.stats' norm.ppf and t.ppf, to the bit, without its import
    z, t = float(ndtri(0.975)), float(stdtrit(n - 1, 0.975))
    return z * (1 - 1e-12), t * (1 + 1e-12)


def _paired_checks(exp, n: int) -> list[Check]:
    from scipy.special import stdtrit
    out = []
    qlo, qhi = _quantiles(n)
    for v, rows in exp.paper_paired.items():
        table = exp.paper_table.get(v, {})
        for b, (d, lo, hi) in rows.items():
            (dv, dh), (lv, lh), (hv, hh) = paper_number(d), paper_number(lo), paper_number(hi)
            nums = f"{v}: TACC - {b} = {d} [{lo}, {hi}]"
            # symmetric t-interval
            mid, slack = (lv + hv) / 2, (lh + hh) / 2 + dh
            ok = abs(mid - dv) <= slack
            out.append(Check("the paired 95% interval is symmetric about its mean", nums, ok,
                             f"midpoint {_q(mid)}, mean {d}: they differ by {_q(abs(mid - dv))}, "
                             f"{'within' if ok else 'beyond'} the rounding {_q(slack)}"))
            if "tacc" not in table or b not in table:
                continue
            (ta, tah), (sa, sah) = map(paper_number, table["tacc"])
            (tb, tbh), (sb, sbh) = map(paper_number, table[b])
            diff, slack = ta - tb, tah + tbh + dh
            ok = abs(diff - dv) <= slack
            out.append(Check("a paired mean difference equals the difference of the table's means (same runs)",
                             f"{nums}; table TACC {table['tacc'][0]}, {b} {table[b][0]}", ok,
                             f"table difference {_q(diff)} against paired {d}: off by {_q(abs(diff - dv))}, "
                             f"{'within' if ok else 'beyond'} the rounding {_q(slack)}"))
            # the paired standard error against the two standard errors
            half_lo, half_hi = (hv - lv) / 2 - (lh + hh) / 2, (hv - lv) / 2 + (lh + hh) / 2
            sd_lo, sd_hi = float(half_lo) / qhi, float(half_hi) / qlo
            lo_allowed = float(abs(sa - sb) - sah - sbh)
            hi_allowed = float(sa + sb + sah + sbh)
            ok = sd_hi >= lo_allowed and sd_lo <= hi_allowed
            sd = float((hv - lv) / 2) / float(stdtrit(n - 1, 0.975))
            corr = (float(sa) ** 2 + float(sb) ** 2 - sd ** 2) / (2 * float(sa) * float(sb)) if sa and sb else math.nan
            out.append(Check("the paired standard error lies between |se_a - se_b| and se_a + se_b (correlation in "
                             "[-1, 1])", f"{nums}; se TACC {table['tacc'][1]}, {b} {table[b][1]}", ok,
                             f"interval half-width / quantile (1.96 to t({n - 1})) gives se_d in [{sd_lo:.6g}, "
                             f"{sd_hi:.6g}]; allowed [{max(lo_allowed, 0):.6g}, {hi_allowed:.6g}]; implied "
                             f"correlation {corr:.3g}"))
    return out


def _range_checks(exp, n: int, problem) -> list[Check]:
    """A mean and standard error over n seeds against a regret in [0, Lambda max_k Delta_k]."""
    out = []
    budget = Fraction(problem.budget)
    best = max(paper_number(m) for m in exp.paper_means) if exp.paper_means else None
    for v, rows in exp.paper_table.items():
        for m, (mean, se) in rows.items():
            (mv, mh), (sv, sh) = paper_number(mean), paper_number(se)
            nums = f"{v}: {m} {mean} +- {se}, n = {n}"
            if best is None:
                out.append(Check("a mean and its standard error are possible for the regret's range", nums, None,
                                 "the paper publishes no arm means for this experiment"))
                continue
            top = budget * (best[0] + best[1])      # Delta_max <= mu_max (means >= 0); regret <= Lambda Delta_max
            # variance s^2 = n se^2 <= n / (n - 1) m (M - m)  <=>  M >= m + (n - 1) se^2 / m
            m_lo, s_lo = max(mv - mh, Fraction(0)), max(sv - sh, Fraction(0))
            if m_lo == 0:
                need = Fraction(0) if s_lo == 0 else None
            else:
                need = m_lo + (n - 1) * s_lo ** 2 / m_lo
            ok = need is not None and mv - mh <= top and need <= top
            gap = "" if need is None else f"; it needs an arm with gap >= {_q(need / budget)}"
            out.append(Check("a mean and its standard error are possible for a regret in [0, Lambda max_k Delta_k] "
                             "(Bhatia-Davis)", nums, ok,
                             f"the spread needs a largest regret M >= {_q(need) if need is not None else 'inf'}"
                             f"{gap}; Lambda x the best published mean = {_q(top)}"))
    return out


def _cells(experiments):
    for e in experiments:
        for v, rows in e.paper_table.items():
            for m, ms in rows.items():
                yield e, v, m, ms


def _invariance_checks(exp, experiments, problems, n_of) -> list[Check]:
    """Equal regret distributions where a policy reads none of the parts in which two settings differ."""
    from certify import READS, changed_parts
    pairs = []
    mine = [c for c in _cells(experiments) if c[0].key == exp.key]
    every = list(_cells(experiments))
    seen: set = set()
    cache: dict = {}
    for a in mine:
        for b in every:
            if a[2] != b[2] or (a[0].key, a[1]) == (b[0].key, b[1]):
                continue
            key = frozenset([(a[0].key, a[1], a[2]), (b[0].key, b[1], b[2])])
            if key in seen:
                continue
            seen.add(key)
            pa, pb = problems[a[0].key, a[1]], problems[b[0].key, b[1]]
            changed = set(changed_parts(pa, pb, cache))
            if not changed:
                continue
            reads = READS.get(a[2], frozenset())
            if ("costs" in changed and "high" not in reads and pa.cost_low == pb.cost_low
                    and pa.budget == pb.budget):
                changed.discard("costs")        # no high query: lambda_H enters neither its decisions nor its regret
            if changed & reads:
                continue
            pairs.append((a, b, sorted(changed)))
    if not pairs:
        return []
    from scipy.special import ndtri           # imported when needed (0.27 s, before the workers could start)
    z = float(ndtri(1 - float(LEVEL) / (2 * len(pairs))))
    out = []
    for a, b, parts in pairs:
        (ma, mah), (sa, sah) = map(paper_number, a[3])
        (mb, mbh), (sb, sbh) = map(paper_number, b[3])
        where = lambda c: c[1] if c[0].key == exp.key else f"{c[0].key} {c[1]}"  # noqa: E731
        nums = f"{a[2]}: {where(a)} {a[3][0]} +- {a[3][1]}; {where(b)} {b[3][0]} +- {b[3][1]}"
        d = abs(ma - mb) - mah - mbh
        se = math.hypot(float(sa + sah), float(sb + sbh))
        if se == 0:
            ok = d <= 0
            why = f"both seed-free; they differ by {_q(max(d, Fraction(0)))} beyond rounding"
        else:
            score = max(float(d), 0.0) / se
            ok = score <= z
            differ = ", ".join(parts) or "lambda_H only, and it makes no high query"
            why = (f"{a[2]} reads none of the parts that differ ({differ}); "
                   f"the means differ by "
                   f"{_q(abs(ma - mb))} = {score:.3g} combined standard errors, against {z:.3g} (two-sided normal "
                   f"test, family-wise level {float(LEVEL):g} over {len(pairs)} equalities; common seeds would "
                   f"make the runs identical)")
        out.append(Check("a policy that reads none of the parts in which two settings differ has the same regret "
                         "distribution in both", nums, ok, why))
    return out


def _seed_free_checks(exp, problems) -> list[Check]:
    """A seed-free (standard error 0) regret of a low-only policy is Lambda / lambda_L x a published gap."""
    from certify import READS
    out: list[Check] = []
    if len(exp.paper_means) < 2:
        return out
    means = [paper_number(m) for m in exp.paper_means]
    best = max(means)
    for v, rows in exp.paper_table.items():
        p = problems[exp.key, v]
        for m, (mean, se) in rows.items():
            if se != 0 or "high" in READS.get(m, frozenset({"high"})):
                continue
            mv, mh = paper_number(mean)
            scale = Fraction(p.budget) / Fraction(p.cost_low)
            hits = []
            for k, (x, xh) in enumerate(means):
                lo, hi = scale * (best[0] - best[1] - x - xh), scale * (best[0] + best[1] - x + xh)
                if lo <= mv + mh and mv - mh <= hi and x != best[0]:
                    hits.append(f"published arm {k} (gap {_q(best[0] - x)}: Lambda / lambda_L x gap in "
                                f"[{_q(lo)}, {_q(hi)}])")
            out.append(Check("a seed-free regret of a low-only policy is Lambda / lambda_L times one published gap",
                             f"{v}: {m} {mean} +- {se}; published means {', '.join(map(str, exp.paper_means))}",
                             bool(hits), "; ".join(hits) if hits else
                             f"no published gap times {_q(scale)} reaches {mean}"))
    return out


def _repeated_checks(exp) -> list[Check]:
    out = []
    for label, rows in exp.paper_repeated.items():
        for v, cells in rows.items():
            for m, (mean, se) in cells.items():
                other = exp.paper_table.get(v, {}).get(m)
                if other is None:
                    continue
                ok = paper_number(mean)[0] == paper_number(other[0])[0] and paper_number(se)[0] == \
                    paper_number(other[1])[0]
                out.append(Check("a table repeated elsewhere in the paper carries the same numbers",
                                 f"{v}, {m}: {label} {mean} +- {se}; main table {other[0]} +- {other[1]}", ok,
                                 "equal as printed" if ok else "the printed numbers differ"))
    return out


def _claim_checks(exp) -> list[Check]:
    """Each qualitative claim of the paper against the paper's own numbers."""
    out = []
    for c in exp.claims:
        kind, args = c.kind, c.args
        ok, why = None, "the paper prints no number this claim can be read from"
        if kind == "best" and args[0] in exp.paper_table:
            rows = exp.paper_table[args[0]]
            have = [m for m in args[1] if m in rows]
            if "tacc" in rows and len(have) > 1:
                lowest = min(have, key=lambda m: paper_number(rows[m][0])[0])
                ok = lowest == "tacc"
                why = f"lowest printed mean: {lowest} ({rows[lowest][0]})" + (
                    f"; not printed: {', '.join(m for m in args[1] if m not in rows)}" if len(have) < len(args[1])
                    else "")
        elif kind in ("paired_below", "paired_mean_below", "paired_above") and \
                args[1] in exp.paper_paired.get(args[0], {}):
            d, lo, hi = exp.paper_paired[args[0]][args[1]]
            ok = hi < 0 if kind == "paired_below" else d < 0 if kind == "paired_mean_below" else lo > 0
            why = f"printed TACC - {args[1]} = {d} [{lo}, {hi}]"
        elif kind == "close_to" and args[1] in exp.paper_table.get(args[0], {}):
            mean, se = exp.paper_table[args[0]][args[1]]
            ok = abs(mean - args[2]) <= args[3] * args[2] and se <= 0.01 * args[2]
            why = f"printed {mean} +- {se}"
        out.append(Check(f"the claim follows from the paper's numbers: {c.text}", "", ok, why))
    return out


def consistency(exp, *, experiments=None, problems=None) -> list[Check]:
    """Every check of the paper's numbers of ``exp`` (against each other and against ``experiments``' tables).

    ``problems`` maps (experiment key, variant name) to the ``simulate.Problem`` at the full budget (built from the
    experiment definitions when not given).
    """
    from reports.reproduce._paper import EXPERIMENTS
    experiments = EXPERIMENTS if experiments is None else experiments
    checks = _claim_checks(exp) + _repeated_checks(exp) + _paired_checks(exp, exp.seeds)
    if not exp.paper_table:             # the remaining relations read the final-budget table
        return checks
    if problems is None:
        problems = problems_of([e for e in experiments if e.key == exp.key or e.paper_table])
    first = problems[exp.key, exp.variants[0].name]
    return (checks + _range_checks(exp, exp.seeds, first) + _seed_free_checks(exp, problems)
            + _invariance_checks(exp, [e for e in experiments if e.paper_table], problems, None))


def problems_of(experiments) -> dict:
    """(experiment key, variant name) -> the problem at the experiment's full budget."""
    from reports.reproduce._variant import variant_config
    from simulate import make_problem
    return {(e.key, v.name): make_problem(variant_config(e, v)) for e in experiments for v in e.variants}
