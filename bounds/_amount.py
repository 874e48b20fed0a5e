"""Costs and budgets as exact numbers: how a configuration's decimals are read, and the integer units the budget
check of Algorithm 1 (``alg:adaptive-mf-mab``, line 14) counts in.

The paper's rule is exact: R(Lambda) sums over the queries t with C_t <= Lambda. A running floating-point sum
of costs such as 0.1 decides that inequality wrongly (ten costs of 0.1 sum to 0.9999999999999999), so a run
would stop a query early or make one query past Lambda. Here every cost and budget is read as the decimal
number written in the configuration (0.1 is exactly 1/10), and the engines count in integer units of
1 / denominator, the smallest common denominator of lambda^(L), lambda^(H) and Lambda.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from bounds import _validate as v
from bounds._errors import TaccInputError
from bounds._toml import toml_value

__all__ = ["exact_amount", "CostUnits", "cost_units"]

#: the largest integer the compiled loop may hold for a cumulative cost (int64, with room for one more price).
UNIT_LIMIT = 2**62


def exact_amount(field: str, value) -> Fraction:
    """A positive cost or budget as the exact decimal it was written as.

    A configuration's number arrives as a binary double; it is read as the shortest decimal that gives back the
    same double (``repr``). Every decimal with at most 15 significant digits is recovered exactly, so ``0.1``
    is 1/10, ``0.3`` is 3/10 and ``0.333`` is 333/1000 (not the nearest binary fractions). An int or a
    :class:`fractions.Fraction` is taken as it is.

    >>> exact_amount("costs.low", 0.1)
    Fraction(1, 10)
    """
    if isinstance(value, Fraction):
        if value <= 0:
            raise TaccInputError(field, value, "must be > 0")
        return value
    x = v.positive_real(field, value)
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(x))


@dataclass(frozen=True)
class CostUnits:
    """lambda^(L), lambda^(H) and Lambda as integers in units of 1 / ``denominator``.

    A query sequence with integer cost ``c`` (in units) satisfies C_t <= Lambda exactly when ``c <= budget``.
    """

    low: int
    high: int
    budget: int
    denominator: int

    def price(self, fidelity: int) -> int:
        """lambda^(m) in units (fidelity 0 is low, 1 is high)."""
        return self.low if fidelity == 0 else self.high

    def floor(self, amount) -> int:
        """floor(amount x denominator): a cumulative cost c in units exceeds ``amount`` exactly when
        c > floor(amount x denominator)."""
        return math.floor(exact_amount("checkpoint", amount) * self.denominator)

    def value(self, units: int) -> float:
        """A cost in units as a float (the exact rational, rounded once)."""
        return float(Fraction(units, self.denominator))


def _digits(n: int) -> str:
    """An integer for a message: whole up to 20 digits, else its power of ten (10**323 has 324 digits)."""
    text = str(n)
    return text if len(text) <= 20 else f"about {text[0]}.{text[1:3]}e+{len(text) - 1}, {len(text)} digits"


def _at_most(n: int) -> str:
    """The largest amount at most the whole number ``n`` that a configuration reads back as written, spelled as TOML
    (:func:`toml_value`): ``n`` itself up to 2**53; above it a number is read as a float (an integer too, rounded, as
    4611686018427387893 is to 2**62), so the largest float whose decimal reading (:func:`exact_amount`) is <= n.

    >>> _at_most(4611686018427387893)      # the float 2**62 - 512, read as 4611686018427387400
    '4.6116860184273874e+18'
    """
    if n <= 2**53:
        return _digits(n)
    x = float(n)
    while exact_amount("params.budget", x) > n:
        x = math.nextafter(x, 0.0)
    return toml_value(x)


def cost_units(cost_low, cost_high, budget, *, names: dict | None = None) -> CostUnits:
    """The common integer units of the budget check (see the module docstring).

    Refuses, naming the field, an instance whose exact accounting would not fit the compiled loop's 64-bit
    integers (a cost written with many decimal digits and a large budget), saying what would be accepted: the
    largest whole budget with these costs, and how many decimal places the amounts may have at this budget's size
    (a cost below that resolution can only be made larger).

    ``names`` maps ``costs.low``, ``costs.high`` and ``params.budget`` (a configuration's fields, the default) to the
    names the refusal uses instead (``simulate.Tacc.from_parameters``: ``cost_low``, ``cost_high``, ``budget``).

    >>> cost_units(0.1, 0.3, 1)
    CostUnits(low=1, high=3, budget=10, denominator=10)
    """
    if names:
        try:
            return cost_units(cost_low, cost_high, budget)
        except TaccInputError as exc:
            name = names.get(exc.field, exc.field)
            reason = exc.reason
            for key, alias in names.items():
                reason = reason.replace(key, alias)
            raise TaccInputError(name, exc.value, reason) from None
    amounts = {"costs.low": exact_amount("costs.low", cost_low), "costs.high": exact_amount("costs.high", cost_high),
               "params.budget": exact_amount("params.budget", budget)}
    d = math.lcm(*(a.denominator for a in amounts.values()))
    low, high, total = (int(a * d) for a in amounts.values())
    if total + max(low, high) >= UNIT_LIMIT:
        given = {"costs.low": cost_low, "costs.high": cost_high, "params.budget": budget}
        big = max(("costs.low", "costs.high"), key=lambda f: amounts[f])
        if amounts[big] + 1 >= UNIT_LIMIT:    # a cost no budget can pay in whole units: the cost is at fault
            raise TaccInputError(big, given[big], "exact cost accounting needs the budget plus a cost below 2**62 (in "
                                                  "whole units); accepted: a cost of at most "
                                                  + _at_most(UNIT_LIMIT - 2))
        field = max(amounts, key=lambda f: (amounts[f].denominator, f == "params.budget"))
        if d == 1:
            field = "params.budget"
        raise TaccInputError(field, given[field], _refusal(amounts, given, d))
    return CostUnits(low, high, total, d)


def _refusal(amounts: dict, given: dict, d: int) -> str:
    """Why :func:`cost_units` refuses, and what it would accept: the largest whole budget with these costs, and
    the decimal places the costs and budget may have at this budget (each amount that has more named; one below
    the resolution cannot be written with fewer digits, only made larger)."""
    budget = amounts["params.budget"]
    cost = max(amounts["costs.low"], amounts["costs.high"])
    d_costs = math.lcm(amounts["costs.low"].denominator, amounts["costs.high"].denominator)
    # a whole budget B keeps the costs' denominator: accepted exactly when B d_costs + cost d_costs < 2**62
    largest = (UNIT_LIMIT - 1 - int(cost * d_costs)) // d_costs
    # p decimal places: every amount a multiple of 10**-p, so D divides 10**p; accepted whichever way each amount
    # is rounded to p places when ceil(Lambda 10**p) + ceil(cost 10**p) < 2**62
    places = -1
    while math.ceil(budget * 10 ** (places + 1)) + math.ceil(cost * 10 ** (places + 1)) < UNIT_LIMIT:
        places += 1
    if d == 1:
        why = "exact cost accounting needs the budget plus a cost below 2**62 (the costs and budget are integers)"
    else:
        why = (f"exact cost accounting counts in units of 1/D, D = {_digits(d)}, the common denominator of the costs "
               f"and budget, and needs (Lambda + the larger cost) x D < 2**62")
    accepted = []
    if budget > largest:
        accepted.append(f"a budget of at most {_at_most(largest)} with these costs" if largest >= 1 else
                        f"no budget with these costs (their common denominator is {_digits(d_costs)})")
    if places < 0 and largest < 1:       # the budget is too large even in whole units, and the costs too fine
        whole = _at_most(UNIT_LIMIT - 1 - math.ceil(cost))
        accepted.append(f"a budget of at most {whole} with costs written as whole numbers")
    long = [f for f, a in amounts.items() if (a * 10**places).denominator != 1] if places >= 0 else []
    if long:
        unit, text = Fraction(1, 10**places), "1" if places == 0 else f"1e-{places}"
        fix = [f"{f} must be at least {text}" if amounts[f] < unit else f"write {f} with fewer digits" for f in long]
        accepted.append(f"at this budget's size, at most {places} decimal places"
                        + (" (whole numbers)" if places == 0 else "") + f": {', '.join(fix)}")
    return f"{why}; accepted: " + "; or ".join(accepted)
