"""Work and memory estimates (reports.estimate): upper bounds that hold when measured, and the refusals."""

import tracemalloc
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bounds import TaccInputError, cost_units, horizon, load_config, parse_config
from bounds._config import config_to_dict, dump_config
from certify.strategies import configs
from reports.estimate import (BASE_BYTES, LONG_SECONDS, NS_PER_WINDOW_STATE, TRACE_BYTES_PER_ROUND, estimate,
                               rounds_bound)
from simulate import POLICIES, make_problem, run, run_tasks, tasks_for


def _with(config, **params):
    return replace(config, params=replace(config.params, **params))


def _arms(n):
    d = config_to_dict(load_config("set-a"))
    d["instance"].pop("mu_high", None)
    d["instance"]["means"] = {"distribution": "uniform", "low": 0.1, "high": 0.9, "n_arms": n}
    return parse_config(d, f"{n} arms")


@pytest.mark.parametrize("config", [_with(_arms(400), budget=8_000.0), _with(load_config("checkpoint"),
                                                                                   budget=8_000.0)])
def test_memory_estimate_bounds_the_measured_peak(config):
    """Building the problem and one TACC run allocate less than the estimate (tracemalloc peak). The loop is
    compiled (or loaded) first, on a copy of the configuration (new objects, so nothing built for it is shared):
    numba's compiler allocates hundreds of MB once per process, which is not memory of a run (without this the test
    failed on an empty numba cache)."""
    run(make_problem(parse_config(config_to_dict(config), "copy")), "tacc", 0)
    tracemalloc.start()
    try:
        problem = make_problem(config)
        _ = problem.bias_table, problem.schedule  # built on first access: part of building the problem
        run(problem, "tacc", 0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    est = estimate([config], ["tacc"], 1)
    assert peak <= est.memory_bytes, (peak, est.memory_bytes)
    assert est.memory_bytes - BASE_BYTES <= 20 * peak  # an upper bound, but not a vacuous one


def test_refusal_names_the_configuration_and_the_estimate():
    big = _with(load_config("set-a"), s0=10**12)
    with pytest.raises(TaccInputError) as e:
        estimate([big], ["tacc"], 1).refuse_if_too_large()
    assert e.value.field == "config" and "TiB" in str(e.value) and "1,000,000,077,377 values" in str(e.value)
    estimate([load_config("set-a")], ["tacc"], 1).refuse_if_too_large()  # the preset fits
    with pytest.raises(TaccInputError):  # and a limit below its estimate refuses it: the check can fail
        estimate([load_config("set-a")], ["tacc"], 1).refuse_if_too_large(limit=1)


def test_time_bound_scales_with_runs_and_budget():
    c = load_config("llm-residual")
    # the continuation window's scan, once per configuration in the command's process: S0 = 128 states, one B_k
    # (residual decay)
    window = 128 * NS_PER_WINDOW_STATE * 1e-9
    one = estimate([c], ["tacc"], 1)
    ucb = estimate([c], ["ucb"], 1)
    assert estimate([c], ["tacc", "ucb"], 10).seconds - window == pytest.approx(
        10 * (one.seconds - window + ucb.seconds - window))
    assert estimate([c], ["tacc"], 10, workers=2).seconds - window == pytest.approx(5 * (one.seconds - window))
    assert not one.long and estimate([_with(c, budget=1e12)], ["tacc"], 1).long
    # K = 4, N_gamma = 14023, S0 = 128: 4 (N_gamma + S0) low queries (cost 1), then (128000 - 56604) // 500 high
    assert one.rounds_per_run == 4 * (14023 + 128) + (128_000 - 4 * (14023 + 128)) // 500 and LONG_SECONDS > 0
    assert ucb.rounds_per_run == 128_000 // 500 and estimate([c], ["weak-fixed"], 1).rounds_per_run == 128_000


def test_time_bound_counts_the_continuation_window_scan():
    """``tacc bounds`` runs nothing but scans min(S0, T) states of the continuation window per distinct B_k: with
    S0 = 10^11 and a test every state passes that takes about an hour, so the estimate counts the scan and the
    command announces it. One B_k under the decay models, one per arm for a table."""
    c = _with(load_config("set-a"), budget=1e13, s0=10**11, eta=1e-12)
    est = estimate([c], [], 0, tables=False)
    assert est.seconds == pytest.approx(10**11 * NS_PER_WINDOW_STATE * 1e-9) and est.long
    assert not estimate([load_config("set-a")], [], 0, tables=False).long      # S0 = 10: nothing to announce
    table = load_config("checkpoint")                                           # five arms, a table model
    assert estimate([table], [], 0, tables=False).seconds == pytest.approx(
        5 * min(table.params.s0, horizon(table.params.budget, table.costs.low)) * NS_PER_WINDOW_STATE * 1e-9)


# ------------------------------------------------------------------------------------------- rounds bound
def test_most_queries_exact_values():
    """The most queries the budget pays for under caps (hand-computed), the cheaper fidelity first."""
    from reports.estimate import _most_queries
    u = cost_units(1.0, 10.0, 100.0)
    assert _most_queries(u, None, None) == 100             # 100 low queries
    assert _most_queries(u, 30, None) == 30 + 7            # 30 low, (100 - 30) // 10 high
    assert _most_queries(u, 0, None) == 10 and _most_queries(u, None, 0) == 100
    assert _most_queries(u, 30, 2) == 32 and _most_queries(u, 0, 0) == 0
    assert _most_queries(cost_units(0.1, 0.3, 2.3), 5, None) == 5 + 6    # exact decimals: 2.3 - 0.5 = 1.8 = 6 x 0.3


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(budget=st.integers(40, 1500)), seed=st.integers(0, 3))
def test_rounds_bound_is_never_below_a_runs_rounds(config, seed):
    """For every policy, the bound is at least the rounds of a run (and at most the horizon); each policy's low
    count per arm is within its cap; UCB, Weak-Fixed and Low-Improving stop only on the budget, so for them the
    bound is exact."""
    from reports.estimate import _LOW_PER_ARM
    problem = make_problem(config)
    for policy in POLICIES:
        rec = run(problem, policy, seed)
        bound = rounds_bound(config, policy)
        assert rec.rounds <= bound <= problem.horizon, (policy, rec.rounds, bound)
        if policy in _LOW_PER_ARM:
            assert max(rec.n_low) <= _LOW_PER_ARM[policy](problem.n_gamma, problem.s0), policy
        if policy in ("ucb", "weak-fixed", "low-improving"):
            assert rec.rounds == bound, policy


def test_low_caps_are_reached():
    """The caps are attained, so a cap one lower would be below what a run did: TACC's N_gamma + S0 low queries
    per arm (lines 7 and 9 of Algorithm 1: the best arm reaches N_gamma and gets all S0 = 2 continuation pulls) and
    DNC's N_gamma (an instance found by the strategy ``certify.strategies.configs``)."""
    from reports.estimate import _LOW_PER_ARM
    config = parse_config({
        "name": "cap", "costs": {"low": 1.0, "high": 2.0},
        "instance": {"mu_high": [0.213, 0.727], "seed": 1, "noise": {"model": "gaussian", "sigma": 0.5},
                     "low": {"model": "power_decay", "zeta": 0.369, "r": 0.619, "signs": [-1, 1]}},
        "params": {"budget": 635.0, "delta": 0.05, "rho": 0.05, "gamma": 0.05, "eta": 0.0001, "s0": 2}})
    problem = make_problem(config)
    for policy in ("tacc", "dnc"):
        rec = run(problem, policy, 0)
        assert max(rec.n_low) == _LOW_PER_ARM[policy](problem.n_gamma, problem.s0), policy
    assert problem.s0 == 2 and max(run(problem, "tacc", 0).continuation) == 2


def _user_config(tmp_path, **changes):
    """The documented example configuration with some keys changed (what a user reading only the docs writes)."""
    import tomllib

    from tests.readme_blocks import page_blocks
    (text,) = [b for lang, b in page_blocks() if lang == "toml" and tomllib.loads(b)["name"] == "example"]
    lines = []
    for line in text.splitlines():
        key = line.split("=", 1)[0].strip()
        lines.append(f"{key} = {changes.pop(key)}" if key in changes and "=" in line else line)
    assert not changes
    path = tmp_path / "user.toml"
    path.write_text("\n".join(lines) + "\n")
    return load_config(path)


def test_explain_of_a_tiny_low_cost_is_accepted_and_its_trace_fits_the_estimate(tmp_path):
    """tiny.toml (lambda_L = 1e-9, horizon 10^14): explain is accepted for a TACC run of 72,556 rounds, not refused
    as "needs about 728 TiB": the estimate bounds the rounds by TACC's algorithm, and the measured peak of the
    traced run told arm by arm (tracemalloc) is below it."""
    from reports.explain import explain
    tiny = _user_config(tmp_path, mu_high="[0.5, 0.499999999, 0.4]", low="1e-9", delta="1e-12")
    est = estimate([tiny], ["tacc"], 1, workers=1, trace=True)
    est.refuse_if_too_large(limit=1 << 30)                 # under 1 GiB, on any machine
    assert horizon(tiny.params.budget, tiny.costs.low) == 10**14 and est.rounds_per_run < 200_000
    explain(parse_config(config_to_dict(tiny), "copy"))    # compiled (or loaded) first, as above
    tracemalloc.start()
    try:
        e = explain(tiny)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.rounds == 72_556 <= est.rounds_per_run and peak <= est.memory_bytes, (peak, est.memory_bytes)
    assert TRACE_BYTES_PER_ROUND * e.rounds <= 8 * peak     # the per-round allowance is not a vacuous one
    for p in ("weak-fixed", "low-improving", "rdfe"):       # no better bound than the horizon: still refused
        with pytest.raises(TaccInputError):
            estimate([tiny], [p], 1, workers=1, trace=True).refuse_if_too_large(limit=1 << 30)


@pytest.mark.parametrize("argv, what", [(["reproduce", "set-a", "--quick"], "tacc reproduce"),
                                        (["reproduce", "all"], "tacc reproduce"),
                                        (["bench", "--quick"], "tacc bench")])
def test_reproduce_and_bench_announce_their_work_before_it_starts(argv, what, tmp_path, monkeypatch, capsys):
    """Long work is announced on standard error before it starts (here every work counts as long), with the
    estimate: reproduce from its experiments' runs, bench from the runs it times. They printed nothing before."""
    import reports.bench as bench
    import reports.estimate as est
    import reports.reproduce as reproduce
    import reports.reproduce._reproduce as rep
    from reports.cli import main

    started = []

    def stub(*a, **kw):
        started.append(capsys.readouterr().err)        # what was printed before the work began
        return {} if "quick" in kw and not a else []

    monkeypatch.setattr(est, "LONG_SECONDS", 0.0)
    monkeypatch.setattr(rep, "reproduce", stub)
    monkeypatch.setattr(bench, "run_bench", lambda **kw: stub(**kw) or {})
    monkeypatch.setattr(bench, "render", lambda res: "")
    assert main([*argv, "--out", str(tmp_path / "o")]) == 0
    assert started and started[0].startswith(f"{what}") and "runs" in started[0] and "time at most" in started[0]
    exp = reproduce.experiment("set-a")
    full = reproduce.work(["set-a"])[0]                      # every variant at every budget, the paper's seeds
    assert len(full[0]) == len(exp.variants) * len(exp.budget_fractions) and full[2] == exp.seeds == 10


def test_reproduce_estimate_counts_every_run_it_makes():
    from reports.estimate import combined
    from reports.reproduce import work
    groups = work(["set-a"], seeds=3, quick=True)
    e = combined([estimate(c, m, n) for c, m, n in groups])
    (configs, methods, n), (sens, _, n_sens) = groups
    assert n == n_sens == 3 and e.runs == (len(configs) + len(sens)) * len(methods) * 3


def test_the_runs_a_sweep_keeps_fit_the_estimate_and_a_huge_seed_count_is_refused(tmp_path, capsys):
    """A command that keeps every run (as ``simulate.run_tasks`` does) must not be estimated at "memory about 32.1
    MiB" for `tacc report --seeds 9223372036854775807` on two arms, which grows past 6.5 GB. The memory a sweep held
    whole gains per added run (tracemalloc peaks at two seed counts, the same process) is within the
    estimate's kept bytes, and not a vacuous bound; a command that keeps its runs is refused such a seed count
    before any run (exit 2, nothing written)."""
    from reports import cli
    from reports.estimate import KEPT_BYTES_PER_ARM_RUN, KEPT_BYTES_PER_RUN
    from reports.report import budget_sweep
    d = config_to_dict(load_config("set-a"))
    d["instance"].pop("means", None)
    d["instance"]["mu_high"], d["params"]["budget"] = [0.9, 0.5], 2000
    cfg = parse_config(d, "two")
    at = [replace(cfg, params=replace(cfg.params, budget=b)) for b in budget_sweep(2000.0)]
    run_tasks(tasks_for(at, POLICIES[:5], range(2)))                     # compile, import
    peaks = {}
    for seeds in (20, 120):
        tracemalloc.start()
        try:
            kept = run_tasks(tasks_for(at, POLICIES[:5], range(seeds)))
            peaks[seeds] = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert len(kept) == 25 * seeds
    runs = 100 * 5 * 5                                     # 100 more seeds x 5 policies x 5 budgets
    per_run = (peaks[120] - peaks[20]) / runs
    assert per_run <= KEPT_BYTES_PER_RUN + 2 * KEPT_BYTES_PER_ARM_RUN, per_run
    assert per_run >= (KEPT_BYTES_PER_RUN + 2 * KEPT_BYTES_PER_ARM_RUN) / 20, per_run    # not a vacuous bound
    path = tmp_path / "two.toml"
    path.write_text(dump_config(cfg))
    capsys.readouterr()
    assert cli.main(["check", str(path), "--seeds", "9223372036854775807", "--reproducers", str(tmp_path / "big")]) == 2
    assert "of memory, more than this machine's" in capsys.readouterr().err
    assert not (tmp_path / "big").exists()


def test_memory_of_groups_held_together_is_their_sum():
    """`tacc reproduce` analyses one experiment (two groups) while the next one's runs are made: its estimate's
    memory is the largest total of four consecutive groups, not the largest group."""
    from reports.estimate import combined
    from reports.reproduce import work
    es = [estimate(c, m, n, kept=True) for c, m, n in work(["set-a", "set-b", "decay"], seeds=3, quick=True)]
    sizes = [e.memory_bytes for e in es]
    assert combined(es).memory_bytes == max(sizes)
    assert combined(es, at_once=4).memory_bytes == max(sum(sizes[i:i + 4]) for i in range(len(sizes) - 3))
    assert combined(es, at_once=99).memory_bytes == sum(sizes)
    assert combined(es, at_once=4).runs == combined(es).runs == sum(e.runs for e in es)


def test_more_workers_than_memory_holds_are_refused_naming_workers(tmp_path, capsys, monkeypatch):
    """`--workers 99999` started that many processes (each holds the engines and numba, about 170 MB measured) and
    stalled the machine: refused before any process starts, exit 2, one line naming --workers."""
    import multiprocessing

    import pytest

    from bounds import TaccInputError
    from reports.estimate import WORKER_BYTES, refuse_too_many_workers
    from reports.cli import main
    refuse_too_many_workers(10, limit=10 * WORKER_BYTES)
    with pytest.raises(TaccInputError) as e:
        refuse_too_many_workers(11, limit=10 * WORKER_BYTES)
    assert e.value.field == "--workers" and "at most 10 workers" in str(e.value)
    monkeypatch.chdir(tmp_path)
    for argv in (["simulate", "set-a", "--policy", "tacc", "--executor", "processes"], ["report"],
                 ["reproduce"], ["check", "--executor", "dask"]):
        assert main([*argv, "--workers", "99999"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "--workers = 99999: each worker process holds at least" in err[0], err
    assert not multiprocessing.active_children() and not list(tmp_path.iterdir())


def test_bench_takes_workers(tmp_path, monkeypatch):
    """`tacc bench --workers 2` runs with two workers (bench has no --executor to read)."""
    import reports.bench as bench
    from reports.cli import main
    seen = {}
    monkeypatch.setattr(bench, "run_bench", lambda **kw: seen.update(kw) or {})
    monkeypatch.setattr(bench, "render", lambda res: "")
    assert main(["bench", "--quick", "--workers", "2", "--out", str(tmp_path / "b")]) == 0
    assert seen["workers"] == 2


@pytest.mark.parametrize("argv, kept", [(["check", "set-a"], True),
                                        (["check", "set-a", "--verdicts", "violated"], False),
                                        (["report", "--seeds", "2"], False),
                                        (["simulate", "set-a", "--policy", "tacc"], False)])
def test_a_streamed_check_or_report_is_not_counted_as_keeping_its_runs(argv, kept, monkeypatch, tmp_path):
    """``tacc check --verdicts violated``, ``tacc report`` and ``tacc simulate`` stream their runs: the estimate
    holds nothing per run for them; ``tacc check`` with every verdict kept does."""
    from reports.cli import main

    class Planned(BaseException):        # not an Exception: the command line would take it as an internal error
        pass

    seen = {}

    def plan(*args, **kwargs):
        seen["kept"] = kwargs.get("kept", False)
        raise Planned

    monkeypatch.setattr(f"reports.cli.{argv[0]}.plan", plan)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(Planned):
        main(argv)
    assert seen == {"kept": kept}


def test_check_json_and_arms_in_the_estimate_of_kept_runs():
    """``tacc check --json`` with every verdict kept builds them all as JSON first (about 15 KB a run measured, 4 KB
    counted before: a check needing four times the machine's memory was accepted); a verdict's size does not depend
    on the arms, a kept run's does."""
    from bounds import load_config
    from reports.estimate import JSON_BYTES_PER_RUN, KEPT_BYTES_PER_ARM_RUN, estimate
    c = load_config("set-b")                                   # 500 arms
    base = estimate([c], ["tacc"], 1000, kept=True)
    as_json = estimate([c], ["tacc"], 1000, kept=True, kept_json=True)
    verdicts = estimate([c], ["tacc"], 1000, kept=True, kept_per_arm=False)
    assert as_json.memory_bytes - base.memory_bytes == 1000 * JSON_BYTES_PER_RUN
    assert base.memory_bytes - verdicts.memory_bytes == 1000 * 500 * KEPT_BYTES_PER_ARM_RUN
    assert estimate([c], ["tacc"], 1000, kept_json=True).memory_bytes == estimate([c], ["tacc"], 1000).memory_bytes
