"""The local pool's start rule: a short sweep runs in the parent and starts no worker, a long one starts the pool
within its first batches, ``start_pool="always"`` starts it with the first run; the records are the same."""

import pytest

import simulate._runner as runner
from simulate._pool import Pool
from bounds import load_config
from simulate import run_tasks, tasks_for
from simulate._runner import _WORKER_START_SECONDS, _StartRule


def _measured(rule, taken, to_run, timed_runs, seconds):
    """``rule`` after taking ``taken`` tasks (``to_run`` of them not cached) and timing ``timed_runs`` runs in
    ``seconds`` (after a group's first batch, which the rule leaves out)."""
    for i in range(taken):
        rule.taken(i >= to_run)
    rule.ran(1, 99.0, True)                # a group's first batch: the problem, the machine code; not counted
    rule.ran(timed_runs, seconds, False)
    return rule


def test_the_threshold_is_the_workers_start_over_the_share_they_save(monkeypatch):
    """R > C n / (n - 1): with 2 workers twice the start cost (exact, from the definition), never with one."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    assert _StartRule(2, False, None).threshold == 2 * _WORKER_START_SECONDS
    assert _StartRule(8, False, None).threshold == 2 * _WORKER_START_SECONDS     # at most the machine's cores
    assert _StartRule(1, False, None).threshold == float("inf")


@pytest.mark.parametrize("seconds,starts", [(0.4, False), (0.5, True)])
def test_projected_work_against_the_threshold(monkeypatch, seconds, starts):
    """1000 tasks, 100 taken (all to run), 90 runs timed in ``seconds``: R = 900 x seconds / 90 runs, 4 s (not
    over 2 x 2 s: the parent keeps running) or 5 s (over: the pool starts)."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _measured(_StartRule(2, False, 1000), 100, 100, 90, seconds)
    assert rule.projected() == pytest.approx(900 * seconds / 90)
    assert rule.start_now() is starts


def test_cached_tasks_count_as_no_work(monkeypatch):
    """Half the tasks taken were found in the cache: the runs still to do are projected at half (5 -> 2.5)."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _measured(_StartRule(2, False, 1000), 100, 50, 90, 0.5)
    assert rule.projected() == pytest.approx(2.5) and not rule.start_now()


def test_without_a_total_the_time_spent_decides(monkeypatch):
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _StartRule(2, False, None)
    rule.ran(1, 2.0, True)
    rule.ran(1, 1.9, False)
    assert not rule.start_now()              # 3.9 s spent, under 4 s
    rule.ran(1, 0.2, False)
    assert rule.start_now()


def test_one_short_timed_batch_is_no_measure(monkeypatch):
    """A second run that took 1.5 ms (lazy set-up) projects nothing: under 0.1 s timed, the time spent decides
    (here 1.5 ms: the parent keeps running); with the first batch's 99 s spent, the pool starts."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    rule = _StartRule(2, False, 25000)
    rule.taken(False)
    rule.ran(1, 0.0015, False)
    assert rule.projected() == pytest.approx(0.0015) and not rule.start_now()
    rule = _measured(_StartRule(2, False, 25000), 1, 1, 1, 0.0015)
    assert rule.projected() == pytest.approx(99.0015) and rule.start_now()


def test_nothing_measured_yet_starts_nothing_and_always_starts_at_once(monkeypatch):
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    assert not _StartRule(2, False, 10**9).start_now()
    assert _StartRule(2, True, 10**9).start_now()
    assert _StartRule(1, True, None).start_now()


@pytest.fixture
def starts(monkeypatch):
    """The pools started (their start is recorded, then done)."""
    seen = []
    real = Pool.start

    def start(self):
        if not self.started:
            seen.append(self)
        real(self)
    monkeypatch.setattr(Pool, "start", start)
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    return seen


@pytest.fixture
def sweep(config):
    return tasks_for([config(**{"params.budget": 4000}), load_config("llm-vanishing")], ["tacc", "ucb"], range(6))


def test_a_short_sweep_starts_no_worker(sweep, starts):
    # the serial sweep first: it compiles the engines if this process has not (a compilation counts as time spent
    # running, and after an edit of the engines it alone started the pool; the test failed when it ran first)
    serial = run_tasks(sweep)
    assert run_tasks(sweep, executor="processes", workers=2) == serial
    assert starts == []


def test_a_long_sweep_starts_the_pool_within_its_first_batches(sweep, starts, monkeypatch):
    """The same sweep when starting a worker costs nothing (the projected work exceeds any start cost): the pool
    starts after the parent's first batch, and the records are the same as in one process."""
    ran_here = []
    real = runner._StartRule.ran

    def counted(self, runs, seconds, first):
        ran_here.append(runs)
        real(self, runs, seconds, first)
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


def test_a_batch_whose_runs_could_take_long_starts_the_pool_when_workers_are_available(monkeypatch, config):
    """Horizon _POOL_ROUNDS (budget 4e6 at lambda_L = 1): kept in the parent; one round more: the pool starts
    for it, whatever the projection, with two workers; never with one (no core to hand it to)."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    at = tasks_for([config(**{"params.budget": runner._POOL_ROUNDS})], ["ucb"], [0])
    past = tasks_for([config(**{"params.budget": runner._POOL_ROUNDS + 1})], ["ucb"], [0])
    two, one = _StartRule(2, False, 1), _StartRule(1, False, 1)
    assert not two.long_batch(at) and two.long_batch(past)
    assert not one.long_batch(past)
    assert not two.start_now()                       # nothing projected: the horizon alone decides


def test_a_long_horizon_sweep_runs_on_the_workers_from_its_first_batch(monkeypatch, config):
    """With two workers, the first (and only) run of a horizon past _POOL_ROUNDS is made on a worker: the parent
    runs nothing (its own path refuses here), and the record is the serial one."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)
    tasks = tasks_for([config(**{"params.budget": runner._POOL_ROUNDS + 1})], ["ucb"], [0])
    serial = run_tasks(tasks)

    def refuse(*args):
        raise AssertionError("run in the parent")
    monkeypatch.setattr(runner, "_run_here", refuse)
    assert run_tasks(tasks, executor="processes", workers=2) == serial
