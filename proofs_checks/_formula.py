"""One source per formula: a step's premises and conclusion are sympy expressions, and both the text a reader
sees and the goal given to z3 are generated from them here, so the quoted statement and the checked one cannot
differ.

Supported: symbols (``integer=True`` becomes a z3 Int, every other symbol a z3 Real), integers and rationals,
``+ * /``, integer powers, ``Abs``, ``Min``, ``Max``, ``floor``, ``ceiling``, ``Piecewise``, the six relations,
``And``, ``Or``, ``Not``, ``Implies``, applied undefined functions (z3 uninterpreted functions from the argument
sorts to the reals) and :class:`Forall` (a quantified premise). Anything else raises ``TypeError``: a formula
z3 is not given is never silently approximated.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy
import z3
from sympy.core.function import AppliedUndef

__all__ = ["Forall", "Imp", "to_z3", "text", "symbols", "free_symbols"]


@dataclass(frozen=True)
class Forall:
    """``for all variables: body`` (a premise over uninterpreted functions, e.g. a certificate on a window)."""

    variables: tuple
    body: object

    @property
    def free_symbols(self):
        return free_symbols(self.body) - set(self.variables)


@dataclass(frozen=True)
class Imp:
    """``antecedent => consequent`` where either side may be a :class:`Forall` (sympy's Implies takes only
    sympy booleans)."""

    antecedent: object
    consequent: object

    @property
    def free_symbols(self):
        return free_symbols(self.antecedent) | free_symbols(self.consequent)


def free_symbols(f) -> set:
    return set(f.free_symbols)


def symbols(names: str, *, integer: bool = False):
    """sympy symbols without sign assumptions (domains are premises, so sympy never decides a relation itself)."""
    return sympy.symbols(names, integer=True) if integer else sympy.symbols(names, real=True)


def text(f) -> str:
    """The formula as a reader sees it (sympy's printer; ``Forall`` as 'for all v: body')."""
    if isinstance(f, Forall):
        return f"for all {', '.join(map(str, f.variables))}: {text(f.body)}"
    if isinstance(f, Imp):
        return f"({text(f.antecedent)}) => ({text(f.consequent)})"
    if isinstance(f, sympy.And):
        return " and ".join(f"({text(a)})" if isinstance(a, (sympy.Or, sympy.Implies)) else text(a) for a in f.args)
    if isinstance(f, sympy.Implies):
        return f"({text(f.args[0])}) => ({text(f.args[1])})"
    if isinstance(f, sympy.Eq):
        return f"{sympy.sstr(f.lhs)} = {sympy.sstr(f.rhs)}"
    if isinstance(f, sympy.Ne):
        return f"{sympy.sstr(f.lhs)} != {sympy.sstr(f.rhs)}"
    return sympy.sstr(f)


class Z3Env:
    """The z3 constants and functions made for a formula's symbols, by name: one per name, so the premises and
    the goal decided together share them."""

    def __init__(self):
        self.vars: dict = {}
        self.funcs: dict = {}

    def var(self, s):
        if s.name not in self.vars:
            self.vars[s.name] = z3.Int(s.name) if s.is_integer else z3.Real(s.name)
        return self.vars[s.name]

    def func(self, f, args):
        key = str(f.func)
        if key not in self.funcs:
            sorts = [a.sort() for a in args]
            self.funcs[key] = z3.Function(key, *sorts, z3.RealSort())
        return self.funcs[key]


def _real(e):
    return z3.ToReal(e) if z3.is_int(e) else e


def to_z3(f, env: Z3Env | None = None):
    """The z3 term for a sympy formula (``env`` shares variables between the premises and the goal)."""
    env = env if env is not None else Z3Env()
    t = lambda x: to_z3(x, env)  # noqa: E731
    if isinstance(f, Forall):
        bound = [env.var(v) for v in f.variables]
        return z3.ForAll(bound, t(f.body))
    if isinstance(f, Imp):
        return z3.Implies(t(f.antecedent), t(f.consequent))
    if f is sympy.true or f is True:
        return z3.BoolVal(True)
    if f is sympy.false or f is False:
        return z3.BoolVal(False)
    if isinstance(f, sympy.Symbol):
        return env.var(f)
    if isinstance(f, sympy.Integer):
        return z3.IntVal(int(f))
    if isinstance(f, sympy.Rational):
        return z3.RealVal(f"{f.p}/{f.q}")
    if isinstance(f, sympy.Float):
        raise TypeError(f"a float constant {f} in a formula: write it as a Rational")
    if isinstance(f, sympy.Add):
        terms = [t(a) for a in f.args]
        if any(not z3.is_int(x) for x in terms):
            terms = [_real(x) for x in terms]
        return z3.Sum(terms)
    if isinstance(f, sympy.Mul):
        num, den = [], []
        for a in f.args:
            if isinstance(a, sympy.Pow) and a.exp.is_Integer and a.exp < 0:
                den.append(t(a.base ** (-a.exp)))
            elif isinstance(a, sympy.Rational) and not a.is_Integer:
                num.append(z3.IntVal(a.p))
                den.append(z3.IntVal(a.q))
            else:
                num.append(t(a))
        out = num[0] if num else z3.IntVal(1)
        for x in num[1:]:
            out = out * x
        if den:
            d = den[0]
            for x in den[1:]:
                d = d * x
            out = _real(out) / _real(d)
        return out
    if isinstance(f, sympy.Pow):
        if not f.exp.is_Integer:
            raise TypeError(f"non-integer power {f}: encode it through a defining premise")
        e = int(f.exp)
        base = t(f.base)
        if e == 0:
            return z3.IntVal(1)
        out = base
        for _ in range(abs(e) - 1):
            out = out * base
        return out if e > 0 else z3.RealVal(1) / _real(out)
    if isinstance(f, sympy.Abs):
        return z3.Abs(t(f.args[0]))
    if isinstance(f, (sympy.Min, sympy.Max)):
        args = [t(a) for a in f.args]
        if any(not z3.is_int(x) for x in args):
            args = [_real(x) for x in args]
        out = args[0]
        for x in args[1:]:
            out = z3.If(x < out, x, out) if isinstance(f, sympy.Min) else z3.If(x > out, x, out)
        return out
    if isinstance(f, sympy.floor):
        a = t(f.args[0])
        return a if z3.is_int(a) else z3.ToInt(a)
    if isinstance(f, sympy.ceiling):
        a = t(f.args[0])
        return a if z3.is_int(a) else -z3.ToInt(-a)
    if isinstance(f, sympy.Piecewise):
        *pieces, last = f.args
        out = t(last[0])
        for e, c in reversed(pieces):
            a = t(e)
            if z3.is_int(a) != z3.is_int(out):
                a, out = _real(a), _real(out)
            out = z3.If(t(c), a, out)
        return out
    if isinstance(f, sympy.core.relational.Relational):
        a, b = t(f.lhs), t(f.rhs)
        if z3.is_int(a) != z3.is_int(b):
            a, b = _real(a), _real(b)
        op = {sympy.Le: lambda: a <= b, sympy.Lt: lambda: a < b, sympy.Ge: lambda: a >= b,
              sympy.Gt: lambda: a > b, sympy.Eq: lambda: a == b, sympy.Ne: lambda: a != b}[type(f)]
        return op()
    if isinstance(f, sympy.And):
        return z3.And(*[t(a) for a in f.args])
    if isinstance(f, sympy.Or):
        return z3.Or(*[t(a) for a in f.args])
    if isinstance(f, sympy.Not):
        return z3.Not(t(f.args[0]))
    if isinstance(f, sympy.Implies):
        return z3.Implies(t(f.args[0]), t(f.args[1]))
    if isinstance(f, AppliedUndef):
        args = [t(a) for a in f.args]
        return env.func(f, args)(*args)
    raise TypeError(f"no z3 translation for {type(f).__name__}: {f}")
