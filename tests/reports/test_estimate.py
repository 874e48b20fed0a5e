"""Work and memory estimates (reports._estimate): upper bounds that hold when measured, and the refusals."""

import tracemalloc
from dataclasses import replace

import pytest

from bounds import TaccInputError, load_config, parse_config
from bounds._config import config_to_dict
from reports._estimate import BASE_BYTES, LONG_SECONDS, estimate
from simulate import make_problem, run


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
    one = estimate([c], ["tacc"], 1)
    assert estimate([c], ["tacc", "ucb"], 10).seconds == pytest.approx(20 * one.seconds)
    assert estimate([c], ["tacc"], 10, workers=2).seconds == pytest.approx(5 * one.seconds)
    assert not one.long and estimate([_with(c, budget=1e12)], ["tacc"], 1).long
    assert one.rounds_per_run == 128_000 and LONG_SECONDS > 0


@pytest.mark.parametrize("argv, what", [(["reproduce", "set-a", "--quick"], "tacc reproduce"),
                                        (["reproduce", "all"], "tacc reproduce"),
                                        (["bench", "--quick"], "tacc bench")])
def test_reproduce_and_bench_announce_their_work_before_it_starts(argv, what, tmp_path, monkeypatch, capsys):
    """Long work is announced on standard error before it starts (here every work counts as long), with the
    estimate: reproduce from its experiments' runs, bench from the runs it times. They printed nothing before."""
    import reports._bench as bench
    import reports._estimate as est
    import reports._reproduce as rep
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
    exp = rep.experiment("set-a")
    full = rep.work(["set-a"])[0]                      # every variant at every budget, the paper's seeds
    assert len(full[0]) == len(exp.variants) * len(exp.budget_fractions) and full[2] == exp.seeds == 10


def test_reproduce_estimate_counts_every_run_it_makes():
    from reports._estimate import combined
    from reports._reproduce import work
    groups = work(["set-a"], seeds=3, quick=True)
    e = combined([estimate(c, m, n) for c, m, n in groups])
    (configs, methods, n), (sens, _, n_sens) = groups
    assert n == n_sens == 3 and e.runs == (len(configs) + len(sens)) * len(methods) * 3
