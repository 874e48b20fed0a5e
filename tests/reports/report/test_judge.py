"""The report's tally and judgement stage on a handful of records, without the command line or figures: every run
counted at its budget and policy, the runs at the full budget judged exactly as ``certify.check`` judges them, and
the lead policy's counts announced once they are all counted, before any other policy's at the full budget."""


from bounds import analyze
from certify import check
from reports.report import at_budget, default_config
from reports.report._judge import tally_and_judge
from reports.report._sweep_tally import SweepTally
from simulate import make_problem, run_tasks, tasks_for

BUDGETS = (1000.0, 4000.0)
POLICIES = ("tacc", "ucb", "dnc")
SEEDS = range(3)


def _stage(tmp_path, lead_counted=None):
    """The stage run on the default instance's runs at two budgets; ``lead_counted(tally)`` is called when the stage
    says the lead policy's runs are counted."""
    configs = [at_budget(default_config(), b) for b in BUDGETS]
    records = run_tasks(tasks_for(configs, POLICIES, SEEDS))
    problem, analysis = make_problem(configs[-1]), analyze(configs[-1])
    arms = [k for k in range(problem.n_arms) if k != problem.instance.best_arm]
    tally = SweepTally(problem, analysis, BUDGETS, POLICIES, "tacc", arms)
    told = None if lead_counted is None else (lambda: lead_counted(tally))
    cert = tally_and_judge(tally, configs[-1], iter(records), budgets=BUDGETS, policies=POLICIES, seeds=SEEDS,
                           reproducer_dir=tmp_path / "reproducers", confirm=True, lead_counted=told)
    return configs, records, tally, cert


def test_every_run_is_counted_and_the_full_budget_judged_as_check_judges_it(tmp_path):
    configs, records, tally, cert = _stage(tmp_path)
    assert dict(tally.runs) == {(b, p): len(SEEDS) for b in BUDGETS for p in POLICIES}
    full = records[len(POLICIES) * len(SEEDS):]                       # the runs at the last budget
    alone = check([configs[-1]], policies=POLICIES, seeds=SEEDS, records=iter(full),
                  reproducer_dir=tmp_path / "alone", keep="violated")
    assert cert.summaries == alone.summaries
    assert cert.ok == alone.ok
    judged = {s.key: sum(s.counts.values()) for s in cert.summaries}
    assert judged["theorem"] == len(SEEDS)                              # tacc's runs at the full budget only


def test_the_lead_policys_counts_are_announced_once_when_complete(tmp_path):
    seen = []
    _stage(tmp_path, lambda tally: seen.append((tally.runs[BUDGETS[-1], "tacc"], tally.runs[BUDGETS[-1], "ucb"])))
    assert seen == [(len(SEEDS), 0)]
