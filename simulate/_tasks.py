"""The runs a sweep makes: a :class:`Task` per (configuration, policy, seed, checkpoints), and the seeds a
command line names (``--seeds``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, Sequence

from bounds import Config, TaccInputError
from simulate._cache import run_key
from simulate._engine import SEED_END
from simulate._problem import config_key
from simulate._registry import policy_class

__all__ = ["Task", "parse_seeds", "iter_tasks", "tasks_for"]


@dataclass(frozen=True)
class Task:
    """One run to make: a configuration, a policy name, a seed, and the regret checkpoints (None: default)."""

    config: Config
    policy: str
    seed: int
    checkpoints: tuple | None = None

    def key(self) -> str:
        return run_key(config_key(self.config), self.policy, self.seed, self.checkpoints)


def parse_seeds(text: str) -> range:
    """``A:B`` (seeds A..B-1) or ``N`` (seeds 0..N-1), in ASCII digits; anything else names the field ``seeds``
    (Python's ``int`` took ``5_0`` for 50, ``+5`` and other scripts' digits: a typo ran other seeds in silence)."""
    try:
        if not _SEEDS_TEXT.fullmatch(text):
            raise ValueError(text)
        if ":" in text:
            a, b = (int(x) for x in text.split(":"))
        else:
            a, b = 0, int(text)
    except ValueError:
        raise TaccInputError("seeds", text, "must be A:B (seeds A to B-1) or a count N") from None
    if ":" not in text and b < 1:
        raise TaccInputError("seeds", text, "a count N of seeds must be at least 1")
    if a < 0:
        raise TaccInputError("seeds", text, "seeds must be >= 0 (A:B runs seeds A to B-1, 0 <= A < B)")
    if b <= a:
        raise TaccInputError("seeds", text, "needs 0 <= A < B (seeds A to B-1)")
    if b > SEED_END or b - a >= SEED_END:        # a seed is an int in [0, 2**63); a range's length an index
        raise TaccInputError("seeds", text, "seeds must be below 2**63 (9223372036854775808), at most "
                                            "9223372036854775807 of them")
    return range(a, b)


#: what ``--seeds`` may be: N or A:B in ASCII digits (a negative A is refused by its own message)
_SEEDS_TEXT = re.compile(r"-?[0-9]+(:-?[0-9]+)?", re.ASCII)


def iter_tasks(configs: Sequence[Config], policies: Sequence[str], seeds, checkpoints=None) -> Iterator[Task]:
    """Every (configuration, policy, seed) combination, in that nesting order, made one at a time (``seeds`` may be
    a range of 10^8 seeds)."""
    for p in policies:
        policy_class(p)
    cps = None if checkpoints is None else tuple(float(c) for c in checkpoints)
    return (Task(c, p, int(s), cps) for c in configs for p in policies for s in seeds)


def tasks_for(configs: Sequence[Config], policies: Sequence[str], seeds, checkpoints=None) -> list[Task]:
    """:func:`iter_tasks` as a list."""
    return list(iter_tasks(configs, policies, seeds, checkpoints))
