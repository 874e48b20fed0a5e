"""Mutation of every step by the same machinery: perturbed conclusions and dropped hypotheses.

Conclusion mutants, generated from the sympy conclusion: each numeric constant (not an exponent, not the -1 of a
subtraction) scaled by 1/2 and by 9/10; each non-strict inequality made strict (false at its boundary) and each
strict one made non-strict; each floor made a ceiling and each ceiling a floor; each Min made a Max and back;
each term of each sum dropped. A mutant that is REFUTED is *refused*: the step can fail. A step none of whose
mutants is refused is VACUOUS.

Hypothesis drops: the step re-decided without each premise in turn (each premise the paper states: a result it
cites, a definition, an assumption; a variable's domain is not dropped); a premise whose removal still leaves
the conclusion PROVED is *not needed*, one whose removal makes it REFUTED is *needed*. A step none of whose
changes (conclusion mutants or drops) is refused is VACUOUS.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy
from sympy.core.function import AppliedUndef

from proofs_checks._formula import text
from proofs_checks._inference import DOMAIN, MUTANT_TIMEOUT_MS, Inference, Premise, decide
from proofs_checks._result import Outcome

__all__ = ["Mutant", "MutationReport", "mutants", "mutate"]

_SCALES = (sympy.Rational(1, 2), sympy.Rational(9, 10))
_STRICT = {sympy.Le: sympy.Lt, sympy.Ge: sympy.Gt, sympy.Lt: sympy.Le, sympy.Gt: sympy.Ge}
_SWAP = {sympy.floor: sympy.ceiling, sympy.ceiling: sympy.floor, sympy.Min: sympy.Max, sympy.Max: sympy.Min}


@dataclass(frozen=True)
class Mutant:
    kind: str          # "constant", "strict", "non-strict", "floor/ceiling", "min/max", "term"
    description: str
    formula: object


def positions(expr, path=()):
    """Every node with its path; the arguments of an applied function (a count such as n + 1) are not mutated."""
    yield path, expr
    if isinstance(expr, sympy.Basic) and not isinstance(expr, AppliedUndef):
        for i, a in enumerate(expr.args):
            yield from positions(a, path + (i,))


def replaced(expr, path, new):
    """``expr`` with the node at ``path`` (as :func:`positions` gives it) replaced by ``new``."""
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = replaced(args[path[0]], path[1:], new)
    return expr.func(*args)


def parent_of(expr, path):
    """The node whose argument is the node at ``path`` (``path`` not empty)."""
    node = expr
    for i in path[:-1]:
        node = node.args[i]
    return node


def mutants(conclusion) -> list[Mutant]:
    """Every perturbed conclusion of the kinds above, each with a description a reader can follow."""
    out: list[Mutant] = []
    seen = {sympy.srepr(conclusion)}

    def add(kind, desc, f):
        key = sympy.srepr(f)
        if key not in seen:
            seen.add(key)
            out.append(Mutant(kind, desc, f))

    for path, node in positions(conclusion):
        parent = parent_of(conclusion, path) if path else None
        if isinstance(node, sympy.Number) and node != 0:
            if isinstance(parent, sympy.Pow) and path[-1] == 1:
                continue
            if isinstance(parent, sympy.Mul) and node == -1:
                continue
            for s in _SCALES:
                add("constant", f"constant {node} -> {node * s} in {text(parent) if parent is not None else node}",
                    replaced(conclusion, path, node * s))
        elif type(node) in _STRICT:
            new = _STRICT[type(node)](*node.args)
            kind = "strict" if type(node) in (sympy.Le, sympy.Ge) else "non-strict"
            add(kind, f"{text(node)} made {text(new)}", replaced(conclusion, path, new))
        elif type(node) in _SWAP:
            new = _SWAP[type(node)](*node.args)
            add("floor/ceiling" if type(node) in (sympy.floor, sympy.ceiling) else "min/max",
                f"{text(node)} -> {text(new)}", replaced(conclusion, path, new))
        if isinstance(node, sympy.Add) and len(node.args) >= 2:
            for i, a in enumerate(node.args):
                rest = sympy.Add(*(node.args[:i] + node.args[i + 1:]))
                add("term", f"term {text(a)} dropped from {text(node)}", replaced(conclusion, path, rest))
    return out


@dataclass(frozen=True)
class MutationReport:
    """For one PROVED step: how many conclusion mutants were refused (REFUTED), which survived (PROVED), which
    were undecided, and which premises were not needed."""

    total: int
    refused: int
    survived: tuple = ()          # descriptions of mutants still PROVED
    slack: tuple = ()             # the survivors the original conclusion does not imply (a stronger statement
                                  # still follows: the stated form is not the tightest)
    undecided: tuple = ()         # descriptions of mutants z3 could not decide in time
    unneeded: tuple = ()          # names of premises the conclusion does not need
    premises: int = 0             # premises dropped in turn
    needed: int = 0               # of them, how many drops were refused (the conclusion then fails)
    examples: dict = field(default_factory=dict)   # description -> counterexample, a few refused mutants

    @property
    def vacuous(self) -> bool:
        """No change of the step (a perturbed conclusion or a dropped premise) is refused."""
        return self.refused == 0 and self.needed == 0


def mutate(inf: Inference, *, timeout_ms: int = MUTANT_TIMEOUT_MS, hypotheses: bool = True) -> MutationReport:
    """Decide every conclusion mutant and every one-premise-dropped variant of a PROVED inference."""
    ms = mutants(inf.conclusion)
    refused, survived, slack, undecided, examples = 0, [], [], [], dict[str, dict | None]()
    dom = tuple(p for p in inf.premises if p.source == DOMAIN)
    for m in ms:
        r = decide(inf.with_conclusion(m.formula), timeout_ms=timeout_ms)
        if r.outcome is Outcome.REFUTED:
            refused += 1
            if len(examples) < 3:
                examples[m.description] = r.counterexample
        elif r.outcome is Outcome.PROVED:
            survived.append(m.description)
            if m.kind != "non-strict" and not _implied(dom, inf.conclusion, m.formula, timeout_ms):
                slack.append(m.description)
        else:
            undecided.append(m.description)
    unneeded, needed, dropped = [], 0, 0
    if hypotheses:
        for i, p in enumerate(inf.premises):
            if p.source == DOMAIN:   # a variable's range, not a hypothesis of the paper: not dropped
                continue
            dropped += 1
            o = decide(inf.without(i), timeout_ms=timeout_ms).outcome
            if o is Outcome.PROVED:
                unneeded.append(p.name)
            needed += o is Outcome.REFUTED
    return MutationReport(len(ms), refused, tuple(survived), tuple(slack), tuple(undecided), tuple(unneeded),
                          dropped, needed, examples)


def _implied(dom: tuple, original, mutant, timeout_ms: int) -> bool:
    """Whether the original conclusion alone (with the domain) implies the mutant: a weaker mutant's survival
    says nothing about slack."""
    inf = Inference(dom + (Premise("original", original, "the step's conclusion"),), mutant)
    return decide(inf, timeout_ms=timeout_ms).outcome is Outcome.PROVED
