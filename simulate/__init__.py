"""simulate: instances, the policies of docs/design.md section 6 in step form, a reference and a fast engine, a runner.

Everything a policy compares against comes from ``bounds`` through :class:`Problem`; observations come from the
reward table of docs/design.md section 4 (a pure function of (seed, k, m, n)).

Driving a policy with a real judge: ``Tacc.from_parameters`` (thresholds from the instance-free parameters,
through ``bounds``), ``Tacc.recommend`` (the arm to output with its interval), :class:`TaccStateError` for calls
out of order; ``make_problem(model, ...)`` simulates a low-fidelity model written in Python.

Tables (with the ``tables`` extra: pandas, pyarrow): ``records_frame`` (one row per run and per (run, arm)),
``save_frames``/``load_frames`` (Parquet or CSV), ``frame_records`` (the records back, equal), ``load_runs`` (a
cache folder or saved tables).
"""

from simulate._asktell import Recommendation, Thresholds, recommend, thresholds
from simulate._cache import CACHE_ENTRIES, CacheMismatchWarning, RunCache, check_cache_folder, run_key
from simulate._group_read import add_group_read
from simulate._children import starting_children
from simulate._certificate import TabulatedBound, bound_from_certificate, check_mismatch_bound
from simulate._engine import ENGINES, SEED_END, check_seed, run
from simulate._errors import RunStopped, TaccStateError, stop_flag
from simulate._fast import run_fast
from simulate._fingerprint import code_fingerprint, fingerprint_of
from simulate._frame import (ARM_COLUMNS, DAMAGED_COLUMNS, FORMATS, INDEX_COLUMNS, RUN_COLUMNS, RunFrames,
                             config_id, describe_damaged, frame_records, load_frames, load_runs, records_frame,
                             save_frames)
from simulate._lucb import LucbStatic
from simulate._policy import HIGH, LOW, Action, Policy
from simulate._pool import connect
from simulate._model_problem import make_problem, problem_from_model
from simulate._problem import Problem, config_key
from simulate._rdfe import Rdfe, RdfeOracle, RdfePhase
from simulate._record import FIDELITY_NAMES, RunRecord, Violation, default_checkpoints, regret_shares
from simulate._reference import run_reference
from simulate._runner import EXECUTORS, iter_runs, run_tasks
from simulate._registry import POLICIES, make_policy, policy_class
from simulate._rewards import RewardTable
from simulate._schedule import MeanSchedule, mean_schedule
from simulate._tacc import Dnc, MfUcb, Tacc
from simulate._tasks import Task, iter_tasks, parse_seeds, tasks_for
from simulate._ucb import LowImproving, SingleFidelityUcb, Ucb, WeakFixed

__all__ = [
    "RunCache", "CACHE_ENTRIES", "CacheMismatchWarning", "check_cache_folder", "run_key", "EXECUTORS", "Task",
    "connect", "iter_runs", "iter_tasks", "parse_seeds", "run_tasks", "tasks_for",
    "ENGINES", "SEED_END", "check_seed", "run", "RunStopped", "stop_flag",
    "run_fast", "LucbStatic", "HIGH", "LOW", "Action", "Policy", "Problem", "config_key", "make_problem",
    "Rdfe", "RdfeOracle", "RdfePhase", "RunRecord", "Violation", "FIDELITY_NAMES", "default_checkpoints",
    "regret_shares",
    "run_reference", "POLICIES", "make_policy", "policy_class", "RewardTable", "MeanSchedule", "mean_schedule",
    "Dnc", "MfUcb", "Tacc", "LowImproving", "SingleFidelityUcb", "Ucb", "WeakFixed", "Recommendation", "Thresholds",
    "recommend", "thresholds", "TabulatedBound", "bound_from_certificate", "check_mismatch_bound", "TaccStateError",
    "problem_from_model", "ARM_COLUMNS", "RUN_COLUMNS", "FORMATS", "RunFrames", "config_id", "frame_records",
    "load_frames", "load_runs", "describe_damaged", "DAMAGED_COLUMNS", "INDEX_COLUMNS",
    "records_frame", "save_frames", "code_fingerprint", "fingerprint_of", "starting_children",
    "add_group_read",
]
