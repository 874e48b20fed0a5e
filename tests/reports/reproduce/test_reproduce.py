"""``tacc reproduce --quick``: every experiment runs and writes its claims table."""

import importlib
import json

import pytest

from bounds import TaccInputError, load_config
from reports.reproduce import EXPERIMENTS, experiment
from reports.figures import MAX_ARMS, arms_shown
from reports.figures import FigureWriter
from reports.reproduce._reproduce import _slug, reproduce
from reports.reproduce import variant_config
from reports.tables import fmt
from simulate import config_key


@pytest.mark.slow
@pytest.mark.parametrize("exp", EXPERIMENTS, ids=lambda e: e.key)
def test_quick_reproduction_writes_its_claims_table(exp, tmp_path, monkeypatch):
    drawn = {}
    draw = FigureWriter.draw

    def record(self, builder, name, *args, **kwargs):
        drawn[name] = (builder, args, kwargs)
        return draw(self, builder, name, *args, **kwargs)

    monkeypatch.setattr(FigureWriter, "draw", record)
    r, = reproduce([exp.key], quick=True, out_dir=tmp_path, executor="serial")
    md = (tmp_path / f"{exp.key}.md").read_text()
    assert "## The paper's claims" in md and "## Parameters the paper does not state" in md
    assert len(r.claims) == len(exp.claims) and all(isinstance(ok, bool) for _, ok, _ in r.claims)
    data = json.loads((tmp_path / f"{exp.key}.json").read_text())
    assert data["quick"] and len(data["rho_sensitivity"]) == 2 * len(exp.methods)    # --quick: one variant
    assert {x["rho_scale"] for x in data["rho_sensitivity"]} == {1.0, min(s for s in exp.rho_scales if s > 1)}
    assert "## Consistency of the paper's numbers" in md and "## Why (computed" in md
    for c in data["claims"]:        # every claim is marked on the sweep; one not reproduced is explained
        assert c["explanation"] and "sweep" in c["explanation"][-1]
        assert c["reproduced"] or any("mean regret" in e for e in c["explanation"])
    assert all(c["consistent"] in (True, False, None) for c in data["consistency"])
    assert (tmp_path / "figures" / f"{exp.key}_rho.png").stat().st_size > 1000
    assert (tmp_path / "README.md").is_file()
    # the budget sequence stated is the one run: under --quick the last budgets, named
    seq, = (x["value"] for x in data["choices"] if x["parameter"] == "budget sequence")
    if len(data["budgets"]) < len(exp.budget_fractions):
        assert seq.startswith(", ".join(fmt(b) for b in data["budgets"]) + " (--quick: the last 2 of ")
        assert any(line.startswith("budget sequence ") and seq in line for line in md.splitlines())
    # the regret figures: ticked at the budgets run, every method drawn or named in an identical-runs label
    for v in exp.variants:
        builder, args, kwargs = drawn[f"{exp.key}_{_slug(v.name)}_regret"]
        assert kwargs["ticks_at_budgets"]
        ax = _build(builder, args, kwargs).axes[0]
        assert [t.get_text() for t in ax.get_xticklabels()] == [f"{b:g}" for b in data["budgets"]]
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        named = {m for t in legend for m in t.split(" (")[0].split(" = ")}
        assert named >= set(exp.methods)
        for g in kwargs["identical"]:
            assert f"{' = '.join(g)} (identical runs)" in legend
        if exp.key == "set-b":              # TACC and DNC: the same regret on both seeds at both budgets (their runs
            assert "tacc = dnc (equal regret)" in legend        # differ by continuation pulls on arms of gap 0)
    # the continuation windows: the arms with the smallest gaps, k* among them, the rule said
    for v in exp.variants:
        builder, args, kwargs = drawn[f"{exp.key}_{_slug(v.name)}_continuation"]
        ax = _build(builder, args, kwargs).axes[0]
        gaps = kwargs["gaps"]
        rows = [int(t.get_text().split()[0]) for t in ax.get_yticklabels()]
        assert gaps.index(0.0) in rows and sorted(rows) == arms_shown(gaps)
        if len(gaps) > MAX_ARMS:
            assert f"the {MAX_ARMS} with the smallest gaps" in ax.get_title()


def _build(builder, args, kwargs):
    module, name = builder.split(":")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


def test_every_budget_sequence_stated_has_as_many_budgets_as_run():
    """Decay ran Lambda / 4 and Lambda while its table said Lambda / 16, / 8, / 4, / 2, Lambda."""
    for exp in EXPERIMENTS:
        seq, = (v for p, v, _ in exp.choices if p == "budget sequence")
        stated = seq.split(" (")[0].split(", ")
        assert "..." in stated or len(stated) == len(exp.budget_fractions), (exp.key, seq)


def test_variant_overrides_apply():
    exp = next(e for e in EXPERIMENTS if e.key == "llm-residual")
    c = variant_config(exp, exp.variants[0], budget=8000)
    assert c.costs.high == 200.0 and c.params.budget == 8000.0
    assert c.instance == load_config("llm-residual").instance


def test_unknown_experiment_names_the_field(tmp_path):
    with pytest.raises(TaccInputError) as e:
        reproduce(["set-c"], out_dir=tmp_path)
    assert e.value.field == "experiment"


def _llm_tasks(policy, budget=2000.0, seeds=(0, 1)):
    from simulate import tasks_for
    exp = next(e for e in EXPERIMENTS if e.key == "llm-residual")
    return tasks_for([variant_config(exp, v, budget=budget) for v in exp.variants], [policy], list(seeds))


@pytest.mark.parametrize("policy", ["weak-fixed", "low-improving"])
def test_a_low_only_policy_is_run_once_across_costs_high_and_the_shared_run_is_its_own(policy):
    from simulate import run_tasks
    from reports.reproduce._plan import Shared
    tasks = _llm_tasks(policy)
    shared = Shared()
    keys = shared.keys(tasks)
    assert keys[0::2] == [keys[0]] * 3 and keys[1::2] == [keys[1]] * 3     # one run per seed for the 3 variants
    assert len(shared.guards) == 2                                          # the first seed of the 2 other variants
    real = run_tasks(tasks)                                                 # what running every task gives
    done = dict(zip((t.key() for t in shared.order), run_tasks(shared.order), strict=True))
    assert [done[k] for k in keys] == real
    shared.check(done)
    assert not shared.guards


def test_a_policy_that_queries_the_high_fidelity_is_not_shared_across_costs_high():
    from reports.reproduce._plan import Shared
    for policy in ("tacc", "ucb", "mf-ucb", "dnc"):
        shared = Shared()
        keys = shared.keys(_llm_tasks(policy))
        assert len(set(keys)) == 6 and not shared.guards


def test_a_shared_run_that_differs_stops_the_reproduction():
    from dataclasses import replace

    from simulate import run_tasks
    from reports.reproduce._plan import Shared
    shared = Shared()
    shared.keys(_llm_tasks("weak-fixed"))
    done = dict(zip((t.key() for t in shared.order), run_tasks(shared.order), strict=True))
    real, _, _ = shared.guards[0]
    done[real] = replace(done[real], regret=done[real].regret + 1)          # as if lambda_H had moved the run
    with pytest.raises(RuntimeError, match="costs.high"):
        shared.check(done)


@pytest.mark.parametrize("exp", EXPERIMENTS, ids=lambda e: e.key)
def test_the_sweeps_row_at_rho_min_is_the_variants_own_runs(exp):
    """At rho / rho_min = 1 the sweep runs the variant's own configuration at the final budget (rho "min"), so its
    runs are the variant's on the sweep's seeds, made once; the other scales are distinct configurations."""
    from reports.reproduce._plan import Shared, plan_of
    plan = plan_of(exp, seeds=list(range(exp.seeds)), quick=False)
    own = {v: plan.configs[(v, plan.budgets[-1])] for v in plan.swept}
    for (s, v), c in zip(plan.sweep_keys, plan.sens_cfgs, strict=True):
        assert (c.params.rho == "min") is (s == 1)
        assert (config_key(c) == config_key(own[v])) is (s == 1)
        # named apart, so that tacc runs never pools two points of the sweep
        assert c.name == (own[v].name if s == 1 else f"{exp.key} [{v}, rho = {s:g} rho_min]")
    shared = Shared()
    main, sweep = shared.keys(plan.tasks_in(plan.seeds)), shared.keys(plan.sweep_tasks_in(plan.seeds))
    per = list(zip(plan.sweep_keys, _per_config(sweep, plan), strict=True))
    at_one = {k for (s, _), ks in per if s == 1 for k in ks}
    others = {k for (s, _), ks in per if s != 1 for k in ks}
    assert at_one and at_one <= set(main) and not others & set(main)


def _per_config(keys, plan):
    n = len(plan.exp.methods) * len(plan.sens_seeds)
    return [keys[i:i + n] for i in range(0, len(keys), n)]


@pytest.mark.parametrize(("kwargs", "start"), [({}, "always"), ({"quick": True}, "auto"), ({"seeds": 3}, "auto")])
def test_the_paper_reproduction_starts_its_workers_with_the_first_run(kwargs, start, tmp_path, monkeypatch):
    """At the paper's seed counts (minutes of CPU) the workers start with the first run; a --quick or --seeds
    reproduction leaves it to the runner's start rule (a short one then starts none)."""
    import reports.reproduce._reproduce as rp
    seen = {}

    class Seen(Exception):
        pass

    def fake(tasks, **kw):
        seen.update(kw)
        raise Seen

    monkeypatch.setattr(rp, "iter_runs", fake)
    with pytest.raises(Seen):
        rp.reproduce(["set-b"], out_dir=tmp_path, executor="processes", **kwargs)
    assert seen["start_pool"] == start


def test_event_failures_are_decided_exactly():
    """The event-failure counts of the sweep and the diagnostics read the exact decision: a failure the float
    check reported and the exact sums confirm counts, one they do not confirm (rounding) does not, a run the float
    check did not flag held."""
    from dataclasses import replace

    from reports.reproduce._common_seeds import MethodSums
    from reports.reproduce._experiment_tally import ExperimentTally
    from reports.reproduce._plan import plan_of
    from simulate import Violation, make_problem, run
    exp = next(e for e in EXPERIMENTS if e.key == "llm-residual")
    low = make_problem(variant_config(exp, exp.variants[1], budget=128000.0, rho=0.026))
    real = next(r for r in (run(low, "tacc", s) for s in range(20)) if not r.event_held)
    ok = make_problem(variant_config(exp, exp.variants[1], budget=8000.0))
    held = run(ok, "tacc", 0)
    assert held.event_held
    rounding = replace(held, event_held=False, violation=Violation(0, "L", 1))      # as a rounding flag would read
    config = {id(real): low.config, id(held): ok.config, id(rounding): ok.config}
    tally = ExperimentTally(plan_of(exp, seeds=range(2), quick=True))
    assert [tally.off_event(config[id(r)], r) for r in (real, held, rounding)] == [True, False, False]
    sums = MethodSums.of([real, held, rounding], lambda r: tally.off_event(config[id(r)], r))
    assert sums.diagnostics()["event_failures"] == 1


def test_an_exact_tie_for_the_lowest_regret_is_said_to_be_one():
    """TACC and DNC often make identical runs: their equal means are "lowest: tacc = dnc, tied", not "lowest: tacc";
    the claim that TACC is lowest holds on a tie that includes it, not on one without it."""
    from types import SimpleNamespace

    from reports.reproduce import PaperClaim
    from reports.reproduce._reproduce import _claim
    c = PaperClaim("TACC has the lowest final mean regret", "best", ("v", ("tacc", "dnc", "ucb")))

    def final(**means):
        return {"v": {m: SimpleNamespace(mean=x) for m, x in means.items()}}
    assert _claim(c, final(tacc=3.0, dnc=3.0, ucb=5.0), {}, {}, None, 0) == (True, "lowest: tacc = dnc, tied (3)")
    assert _claim(c, final(tacc=4.0, dnc=3.0, ucb=3.0), {}, {}, None, 0) == (False, "lowest: dnc = ucb, tied (3)")
    assert _claim(c, final(tacc=2.0, dnc=3.0, ucb=5.0), {}, {}, None, 0) == (True, "lowest: tacc (2); TACC 2")


def test_an_experiment_named_twice_runs_once():
    """`tacc reproduce set-a set-a` (or `all set-b`) runs the experiment once, writing its page once."""
    from reports.reproduce._plan import selected
    assert [e.key for e in selected(["set-a", "set-a"], None)] == ["set-a"]
    assert [e.key for e in selected(["all", "set-b"], None)] == [e.key for e in EXPERIMENTS]


@pytest.mark.slow
def test_each_experiment_is_analysed_and_written_once_its_last_run_is_counted(tmp_path, monkeypatch):
    """Each experiment's analysis runs as soon as its last run is counted, before the next experiment's runs are
    collected, and its files are written then; the index lists every experiment, in order."""
    import reports.reproduce._reproduce as rp
    where, collected = [], []
    real_run, real_iter = rp._run_experiment, rp.iter_runs

    def run_experiment(plan, *args, **kwargs):
        where.append((plan.exp.key, len(collected), sorted(p.name for p in tmp_path.glob("*.md"))))
        return real_run(plan, *args, **kwargs)

    def iter_runs(tasks, **kw):
        for r in real_iter(tasks, **kw):
            collected.append(r)
            yield r

    monkeypatch.setattr(rp, "_run_experiment", run_experiment)
    monkeypatch.setattr(rp, "iter_runs", iter_runs)
    results = rp.reproduce(["set-b", "decay"], seeds=2, out_dir=tmp_path, executor="serial")
    assert [r.key for r in results] == ["set-b", "decay"]
    (b, b_runs, b_files), (d, d_runs, d_files) = where
    assert (b, d) == ("set-b", "decay") and b_files == [] and d_files == ["set-b.md"]
    assert 0 < b_runs < d_runs == len(collected)      # set-b analysed before decay's runs were collected
    assert all((tmp_path / f"{k}.md").is_file() and (tmp_path / f"{k}.json").is_file() for k in ("set-b", "decay"))
    assert "[decay](decay.md)" in (tmp_path / "README.md").read_text()


def test_an_error_in_an_analysis_stops_the_reproduction_with_that_error(tmp_path, monkeypatch):
    import reports.reproduce._reproduce as rp

    class Broken(Exception):
        pass

    def run_experiment(plan, *args, **kwargs):
        raise Broken(plan.exp.key)

    monkeypatch.setattr(rp, "_run_experiment", run_experiment)
    with pytest.raises(Broken, match="set-b"):
        rp.reproduce(["set-b", "decay"], seeds=2, out_dir=tmp_path, executor="serial")
    assert not (tmp_path / "set-b.md").exists() and not (tmp_path / "README.md").exists()


def test_a_closed_figure_writer_refuses_work(tmp_path):
    """A figure writer used after it was closed refuses, and starts no helper process that nothing would end."""
    figures = FigureWriter(tmp_path, process=False)
    figures.close()
    with pytest.raises(RuntimeError, match="closed"):
        figures.draw("reports.figures:tightness", "t", {}, title="t")
    with pytest.raises(RuntimeError, match="closed"):
        figures.call("builtins:len", [])


@pytest.mark.parametrize(("executor", "workers", "scheduler", "said"), [
    ("serial", None, None, "serial, in this process"), ("processes", None, None, "processes, all workers"),
    ("processes", 3, None, "processes, 3 workers"), ("dask", None, "tcp://h:8786", "the cluster at tcp://h:8786")])
def test_the_index_says_where_the_runs_were_made(executor, workers, scheduler, said):
    """The index says how the runs were made: a serial reproduction's never says "(serial, all workers)"."""
    from reports.reproduce._reproduce import _how_run
    assert said in _how_run(executor, workers, scheduler)


@pytest.mark.slow
def test_a_serial_reproductions_index_names_no_workers(tmp_path):
    reproduce(["set-b"], seeds=2, out_dir=tmp_path, executor="serial")
    assert "(serial, in this process)" in (tmp_path / "README.md").read_text()


def _without_times(folder):
    """Every page and result of a reproduction, the seconds it took left out."""
    import re
    out = {}
    for f in sorted(folder.glob("*.json")):
        res = json.loads(f.read_text())
        res.pop("seconds")
        out[f.name] = res
    for f in sorted(folder.glob("*.md")):
        out[f.name] = re.sub(r"\d+ s\b", "N s", f.read_text())
    return out


@pytest.mark.slow
def test_a_reproduction_in_blocks_of_seeds_writes_what_one_block_writes(tmp_path, monkeypatch):
    """Seeds beyond one block (``SEED_BLOCK``) are made block by block, each block's runs paired and let go: the
    same pages, numbers and explanations as in one block (blocks of 2 of 7 seeds here, the last of one seed, the rho
    sweep on the first 3; the
    LLM experiment's runs shared across costs.high and their guards included), and the runner is told how many
    runs it makes (the progress bar's total and the pool's start rule)."""
    import reports.reproduce._plan as plan_module
    import reports.reproduce._reproduce as rp
    real_iter = rp.iter_runs
    told, made = [], []

    def iter_runs(tasks, **kw):
        told.append(kw["total"])
        made.append(0)
        for r in real_iter(tasks, **kw):
            made[-1] += 1
            yield r

    monkeypatch.setattr(rp, "iter_runs", iter_runs)
    for module in (rp, plan_module):                                        # the sweep over two blocks
        monkeypatch.setattr(module, "sweep_seeds", lambda n: min(n, 3))
    keys, cache = ["set-b", "llm-residual"], tmp_path / "runs"
    rp.reproduce(keys, seeds=7, out_dir=tmp_path / "one", executor="serial", cache=cache)
    monkeypatch.setattr(rp, "SEED_BLOCK", 2)
    rp.reproduce(keys, seeds=7, out_dir=tmp_path / "blocks", executor="serial", cache=cache)
    assert told == made and made[0] == made[1]             # the guards' runs in the first block only
    one, blocks = _without_times(tmp_path / "one"), _without_times(tmp_path / "blocks")
    assert one.keys() == blocks.keys() and len(one) == 5
    for name in one:
        assert one[name] == blocks[name], name


@pytest.mark.slow
def test_a_reproduction_holds_memory_independent_of_the_seeds(tmp_path, monkeypatch):
    """What a reproduction holds does not grow with its runs: over 1,000 seeds of Set A in blocks of 64, what is held
    (tracemalloc's current size) when the block of seeds 896 to 959 starts is within a small margin of what was held
    when the block of seeds 320 to 383 started, 14,400 runs before (both blocks' seeds above 256, which Python does
    not cache as small ints), while holding even a pointer to each run would grow it by 115 KB (a list of the
    regrets kept by the tally fails this test: the margin is half that). Its runs are counted as they come (running
    sums, digests, each seed's runs paired once every method's has come) and let go, block by block. Measured within
    one reproduction: caches filled by its first block (problems, keys) are then full. The runs come from a pool of
    real records (the runner is replaced: it streams anyway)."""
    import gc
    import tracemalloc
    from dataclasses import replace

    import reports.reproduce._reproduce as rp
    from simulate import config_key, run_tasks
    monkeypatch.setattr(rp, "SEED_BLOCK", 64)
    plan = rp.plan_of(experiment("set-a"), seeds=range(4), quick=False)
    tasks = plan.tasks_in(range(4)) + plan.sweep_tasks_in(range(4))
    pool = {}
    for t, r in zip(tasks, run_tasks(tasks), strict=True):
        pool[config_key(t.config), t.policy, t.seed] = r
    held: dict = {}

    def fake_iter_runs(tasks, **_):
        for t in tasks:
            if t.seed in (320, 896) and t.seed not in held:
                gc.collect()           # what is held, not cyclic garbage the collector has yet to reach
                held[t.seed] = tracemalloc.get_traced_memory()[0]
            yield replace(pool[config_key(t.config), t.policy, t.seed % 4], seed=t.seed)

    monkeypatch.setattr(rp, "iter_runs", fake_iter_runs)
    tracemalloc.start()
    try:
        rp.reproduce(["set-a"], seeds=1000, out_dir=tmp_path, executor="serial")
    finally:
        tracemalloc.stop()
    assert held[896] - held[320] < 0.5 * 14400 * 8, held
    res = json.loads((tmp_path / "set-a.json").read_text())
    (variant,) = res["final"]
    assert res["seeds"] == 1000 and res["final"][variant]["tacc"]["n"] == 1000


def test_a_misspelled_experiment_gets_a_did_you_mean():
    from reports.reproduce._plan import selected
    with pytest.raises(TaccInputError, match=r"one of set-a, .*checkpoint \(did you mean set-b\?\)$"):
        selected(["sett-b"], None)
    with pytest.raises(TaccInputError, match=r"checkpoint$"):             # nothing near: no guess
        selected(["zzz"], None)
