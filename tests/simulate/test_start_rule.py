"""The local pool's start rule: a short sweep runs in the parent and starts no worker, a long one starts the pool
within its first batches, ``start_pool="always"`` starts it with the first run; the records are the same."""

import pytest

import simulate._runner as runner
from bounds import load_config
from simulate import run_tasks, tasks_for
from simulate._runner import _WORKER_START_SECONDS, _StartRule, _units_of


def _measured(rule, units_taken, units_run, timed_units, seconds):
    """``rule`` after taking tasks of ``units_taken`` rounds (``units_run`` of them not cached) and timing
    ``timed_units`` rounds in ``seconds`` (after a group's first batch, which the rule leaves out)."""
    task = object()
    rule.taken(task, False, units_run)
    rule.taken(task, True, units_taken - units_run)
    rule.ran(1, 99.0, True)                # a group's first batch: the problem, the machine code; not counted
    rule.ran(timed_units, seconds, False)
    return rule


def test_the_threshold_is_the_workers_start_over_the_share_they_save():
    """R > C n / (n - 1): with 2 workers twice the start cost (exact, from the definition)."""
    assert _StartRule(2, False, None, None).threshold == pytest.approx(2 * _WORKER_START_SECONDS, rel=0, abs=0)
    assert _StartRule(1, False, None, None).threshold == float("inf")          # one worker never pays


@pytest.mark.parametrize("seconds,starts", [(0.4, False), (0.5, True)])
def test_projected_work_against_the_threshold(monkeypatch, seconds, starts):
    """1000 rounds in the sweep, 100 taken (all to run), 90 timed in ``seconds``: R = 900 x seconds / 90 seconds,
    4 s (not over 2 x 2 s: the parent keeps running) or 5 s (over: the pool starts)."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _measured(_StartRule(2, False, None, 1000), 100, 100, 90, seconds)
    assert rule.projected() == pytest.approx(900 * seconds / 90)
    assert rule.start_now() is starts


def test_cached_tasks_count_as_no_work(monkeypatch):
    """Half the rounds taken were found in the cache: the rounds still to do are projected at half (5 -> 2.5)."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _measured(_StartRule(2, False, None, 1000), 100, 50, 90, 0.5)
    assert rule.projected() == pytest.approx(2.5) and not rule.start_now()


def test_a_total_count_projects_by_the_mean_rounds_per_task(monkeypatch):
    """Without the sequence, 10 tasks of 100 rounds taken out of 100: 90 x 100 rounds left at 0.001 s each."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _StartRule(2, False, 100, None)
    for _ in range(10):
        rule.taken(object(), False, 100)
    rule.ran(1, 99.0, True)
    rule.ran(900, 0.9, False)
    assert rule.projected() == pytest.approx(9.0) and rule.start_now()


def test_one_short_timed_batch_is_no_measure(monkeypatch):
    """A second run that took 1.5 ms (lazy set-up) projects nothing: under 0.1 s timed, the time spent decides."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _measured(_StartRule(2, False, None, 10**9), 1, 1, 1, 0.0015)
    assert rule.projected() == pytest.approx(99.0015)      # the spent time (the first batch's 99 s included)
    rule = _StartRule(2, False, None, 10**9)
    rule.taken(object(), False, 1)
    rule.ran(1, 0.0015, False)
    assert rule.projected() == pytest.approx(0.0015) and not rule.start_now()


def test_without_a_total_the_time_spent_decides(monkeypatch):
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _StartRule(2, False, None, None)
    rule.ran(1, 2.0, True)
    rule.ran(1, 1.9, False)
    assert not rule.start_now()              # 3.9 s spent, under 4 s
    rule.ran(1, 0.2, False)
    assert rule.start_now()


def test_before_a_batch_is_timed_the_time_spent_decides(monkeypatch):
    """Only groups' first batches so far (a compilation after an install: seconds each): their time counts."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _StartRule(2, False, None, 10**9)
    rule.ran(1, 3.0, True)
    assert not rule.start_now()
    rule.ran(1, 1.5, True)
    assert rule.projected() == 4.5 and rule.start_now()


def test_nothing_measured_yet_starts_nothing_and_always_starts_at_once(monkeypatch):
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    assert not _StartRule(2, False, None, 10**9).start_now()
    assert _StartRule(2, True, None, 10**9).start_now()
    assert _StartRule(1, True, None, None).start_now()


def test_units_of_is_the_horizons_of_the_tasks():
    a, b = load_config("set-a"), load_config("llm-residual")
    tasks = tasks_for([a, b], ["tacc", "ucb"], range(3))
    assert _units_of(tasks) == 6 * runner._horizon_of(a) + 6 * runner._horizon_of(b)
    assert runner._horizon_of(b) == runner.horizon(b.params.budget, b.costs.low)


@pytest.fixture
def starts(monkeypatch):
    """The pools started (their start is recorded, then done)."""
    seen = []
    real = runner._Pool.start

    def start(self):
        if not self.started:
            seen.append(self)
        real(self)
    monkeypatch.setattr(runner._Pool, "start", start)
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    return seen


@pytest.fixture
def sweep(config):
    return tasks_for([config(**{"params.budget": 4000}), load_config("llm-vanishing")], ["tacc", "ucb"], range(6))


def test_a_short_sweep_starts_no_worker(sweep, starts):
    assert run_tasks(sweep, executor="processes", workers=2) == run_tasks(sweep)
    assert starts == []


def test_a_long_sweep_starts_the_pool_within_its_first_batches(sweep, starts, monkeypatch):
    """The same sweep when starting a worker costs nothing (the projected work exceeds any start cost): the pool
    starts after the parent's first batch, and the records are the same as in one process."""
    ran_here = []
    real = runner._StartRule.ran

    def counted(self, rounds, seconds, first):
        ran_here.append(rounds)
        real(self, rounds, seconds, first)
    monkeypatch.setattr(runner, "_WORKER_START_SECONDS", 0.0)
    serial = run_tasks(sweep)
    monkeypatch.setattr(runner._StartRule, "ran", counted)
    assert run_tasks(sweep, executor="processes", workers=2) == serial
    assert len(starts) == 1 and len(ran_here) == 1


def test_one_worker_never_starts_a_pool(sweep, starts, monkeypatch):
    monkeypatch.setattr(runner, "_WORKER_START_SECONDS", 0.0)
    assert run_tasks(sweep, executor="processes", workers=1) == run_tasks(sweep)
    assert starts == []


def test_start_pool_always_runs_on_the_workers(sweep, starts):
    assert run_tasks(sweep[:3], executor="processes", workers=2, start_pool="always") == run_tasks(sweep[:3])
    assert len(starts) == 1
