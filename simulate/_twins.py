"""Runs made once for two policies: DNC's run on a seed is TACC's when TACC made no continuation pull.

DNC is TACC without the continuation branch (``simulate._tacc``, docs/design.md section 6): the two make the same
choice every round except where TACC's continuation test passes (line 9 of ``alg:adaptive-mf-mab``). A TACC run that
never took that branch (every A_k = 0) made DNC's choice every round, and the observations are a pure function of
(seed, arm, fidelity, count) (``simulate._rewards``), so DNC's run on the same configuration, seed and checkpoints
queries the same arms at the same fidelities and sees the same values: every count, sum, cost, regret, checkpoint,
event check and trace is the same, and its record is TACC's with its policy's name. A TACC run that did continue
tells nothing of DNC's, which is then made (``tests/simulate/test_twins.py`` compares both ways on runs that continue
and runs that do not).
"""

from __future__ import annotations

from dataclasses import replace

from simulate._record import RunRecord

__all__ = ["TWIN_OF", "TWINNED", "batch_group", "from_twin", "twins_together", "place"]

#: policy -> the policy whose run on the same configuration, seed and checkpoints may be its own (:func:`from_twin`).
TWIN_OF = {"dnc": "tacc"}
#: the policies whose runs may be another's (``TWIN_OF``'s values).
TWINNED = frozenset(TWIN_OF.values())


def batch_group(policy: str) -> str:
    """The policy whose batches ``policy``'s runs join (its twin's, so a run and its twin's can meet in one batch)."""
    return TWIN_OF.get(policy, policy)


def place(task) -> tuple:
    """Where a run and its twin's meet, besides their configuration: (seed, checkpoints as a tuple or None; a task
    built by hand may hold them in a list)."""
    cps = task.checkpoints
    return task.seed, None if cps is None else tuple(cps)


def from_twin(policy: str, twin: RunRecord) -> RunRecord | None:
    """``policy``'s record on the configuration, seed and checkpoints of ``twin`` (a record of ``TWIN_OF[policy]``
    there) when it is provably the same run (module docstring), else None (the run must be made)."""
    if TWIN_OF.get(policy) != twin.policy or any(twin.continuation):
        return None
    return replace(twin, policy=policy)


def twins_together(tasks: list) -> list:
    """The same tasks (``simulate.Task``), each one whose policy has a twin (``TWIN_OF``) moved to right after its
    twin's task on the same configuration, seed and checkpoints when that comes first (the rest in their order), so
    the runner's batches hold both and make the pair's run once where they can (``simulate.iter_runs``)."""
    from simulate._problem import config_key
    keys: dict = {}                     # id(configuration) -> (the configuration, its key)

    def key(config) -> str:
        hit = keys.get(id(config))
        if hit is None:
            hit = keys[id(config)] = (config, config_key(config))
        return hit[1]

    firsts: dict = {}
    for t in tasks:
        if t.policy in TWINNED:
            firsts.setdefault((key(t.config), t.policy, *place(t)), t)
    after: dict = {}                    # id(twin's task) -> the tasks that follow it
    moved = set()
    seen = set()
    for t in tasks:
        seen.add(id(t))
        if t.policy not in TWIN_OF:
            continue
        twin = firsts.get((key(t.config), TWIN_OF[t.policy], *place(t)))
        if twin is not None and id(twin) in seen and twin is not t:
            after.setdefault(id(twin), []).append(t)
            moved.add(id(t))
    out = []
    for t in tasks:
        if id(t) not in moved:
            out.append(t)
            out.extend(after.get(id(t), ()))
    return out

