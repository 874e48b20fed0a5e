"""The policies by command-line name (docs/design.md section 6)."""

from __future__ import annotations

from bounds import TaccInputError
from simulate._lucb import LucbStatic
from simulate._policy import Policy
from simulate._rdfe import Rdfe
from simulate._tacc import Dnc, MfUcb, Tacc
from simulate._ucb import LowImproving, Ucb, WeakFixed

__all__ = ["POLICIES", "policy_class", "make_policy"]

_CLASSES = {c.name: c for c in (Tacc, Dnc, MfUcb, Ucb, LucbStatic, WeakFixed, LowImproving, Rdfe)}

#: every policy name, in the order reports list them.
POLICIES = tuple(_CLASSES)


def policy_class(name: str) -> type[Policy]:
    """The step-form class of a policy name; an unknown name is a :class:`bounds.TaccInputError` on ``policy``."""
    try:
        return _CLASSES[name]
    except (KeyError, TypeError):
        raise TaccInputError("policy", name, f"must be one of {', '.join(POLICIES)}") from None


def make_policy(name: str, problem) -> Policy:
    """A fresh step-form policy with every threshold of ``problem``."""
    return policy_class(name).from_problem(problem)
