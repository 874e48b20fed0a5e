"""One entry point for a run, whichever engine makes it."""

from __future__ import annotations

from bounds import TaccInputError
from simulate._fast import run_fast
from simulate._record import RunRecord
from simulate._reference import run_reference

__all__ = ["ENGINES", "SEED_END", "check_seed", "run"]

#: engine names: ``fast`` (compiled) and ``reference`` (the step form, in Python). Both give equal records.
ENGINES = ("fast", "reference")
#: a seed is an int in [0, SEED_END) (the reward table hashes it as 64 bits; the engines carry it as an int64).
SEED_END = 2 ** 63


def check_seed(seed, name: str = "seed") -> int:
    """``seed`` if it is an int in [0, 2**63), else :class:`bounds.TaccInputError` naming ``name`` (the command
    line passes its option's name, ``--seed``)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_END:
        raise TaccInputError(name, seed, "must be an int in [0, 2**63)")
    return seed


def run(problem, policy: str, seed: int, *, engine: str = "fast", checkpoints=None, trace: bool = False,
        stop=None, rounds_bound: int | None = None) -> RunRecord:
    """Run ``policy`` on ``problem`` with the reward table of ``seed`` (a nonnegative int).

    Args:
        problem: a :class:`simulate.Problem` (``make_problem(config)``).
        policy: a name in :data:`simulate.POLICIES`.
        seed: the reward-table seed.
        engine: ``fast`` or ``reference``.
        checkpoints: budgets at which to record the regret so far (default: 16 evenly spaced).
        trace: keep (arm, fidelity) of every round (for small runs).
        stop: a flag (:func:`simulate.stop_flag`) another thread sets to end the run early: the run then raises
            :class:`simulate.RunStopped` and gives no record (the fast engine reads the flag every 65,536 rounds).
        rounds_bound: with ``trace``, a bound on the run's rounds: the fast engine allocates the trace from it
            instead of making a run that could pass 2^17 rounds twice to learn its length (a bound below the
            run's rounds costs that second run, never a different record).
    """
    check_seed(seed)
    if engine == "fast":
        return run_fast(problem, policy, seed, checkpoints=checkpoints, trace=trace, stop=stop,
                        rounds_bound=rounds_bound)
    if engine == "reference":
        return run_reference(problem, policy, seed, checkpoints=checkpoints, trace=trace, stop=stop)
    raise TaccInputError("engine", engine, f"must be one of {', '.join(ENGINES)}")
