"""``tacc report`` (``reports/cli/report.py``): on a Dask scheduler, and its --baseline as ``tacc check`` reads it."""

import pytest
import json

from reports.cli import main
from tests.certify.test_properties import WIDE_GAP  # the accepted finding rdfe-theorem-as-stated


@pytest.mark.slow
def test_report_command_on_the_default_on_a_dask_scheduler(tmp_path, capsys):
    """``tacc report`` takes --scheduler and --cache as the other commands that make runs do (it had neither: with
    ``--executor dask`` only a local cluster): its runs are made by that scheduler's worker (a scheduler in this
    process, started in a fraction of a second) and kept in the cache folder, not in OUT/runs."""
    import distributed

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster:
        (worker,) = cluster.workers.values()
        assert main(["report", "--seeds", "3", "--out", str(tmp_path / "r"), "--executor", "dask", "--scheduler",
                     cluster.scheduler_address, "--cache", str(tmp_path / "c"), "--no-progress"]) == 0
        assert worker.state.executed_count > 0
    out = capsys.readouterr().out
    assert "report written to" in out and "No claim of the paper was VIOLATED" in out
    assert (tmp_path / "r" / "report.md").is_file() and (tmp_path / "r" / "results.json").is_file()
    assert (tmp_path / "c" / "runs.sqlite").is_file() and not (tmp_path / "r" / "runs").exists()


def test_report_baseline_accepts_what_check_accepts_and_says_why(tmp_path, capsys):
    """`tacc report CONFIG` exited 1 on the repository's accepted finding, which `tacc check CONFIG --baseline repo`
    passes: with the same --baseline it exits 0 and says which VIOLATED verdicts the baseline accepted and why (its
    reason); without it, the same verdict is new (exit 1) and the report says how to accept known findings."""
    from certify import BASELINE

    why = json.loads(BASELINE.read_text())[0]["why"]
    config = tmp_path / "wide.toml"
    config.write_text(WIDE_GAP)
    seeds = ["--seeds", "523228462:523228463", "--executor", "serial"]
    assert main(["check", str(config), "--policy", "rdfe", *seeds, "--evidence", "0", "--baseline", "repo",
                 "--reproducers", str(tmp_path / "rep")]) == 0
    assert "[accepted by the baseline] rdfe-theorem-as-stated" in capsys.readouterr().out
    out = tmp_path / "report"
    assert main(["report", str(config), *seeds, "--out", str(out), "--baseline", "repo"]) == 0
    printed = capsys.readouterr().out
    conclusion = next(line for line in printed.splitlines() if "VIOLATED verdict(s)" in line)
    assert ("1 accepted by the baseline (rdfe-theorem-as-stated (thm:app-rdfe-regret) on targeted-decay, 1 verdict(s), "
            f"because {why.rstrip('.')}); 0 new") in conclusion
    md = (out / "report.md").read_text()
    assert "- [accepted by the baseline] rdfe-theorem-as-stated (thm:app-rdfe-regret), rdfe, seed 523228462" in md
    assert f"- rdfe-theorem-as-stated (thm:app-rdfe-regret) on targeted-decay, 1 verdict(s): {why}" in md
    cert = json.loads((out / "results.json").read_text())["certificate"]
    assert cert["ok"] and cert["baseline"] and [v["why"] for v in cert["violations"]] == [why]
    assert cert["accepted"] == [{"claim": "rdfe-theorem-as-stated", "label": "thm:app-rdfe-regret",
                                 "config": "targeted-decay", "why": why, "verdicts": 1}]
    # the same runs, without the baseline: a new finding, and the report says how known findings are accepted
    assert main(["report", str(config), *seeds, "--out", str(out)]) == 1
    printed = capsys.readouterr().out
    assert "1 VIOLATED verdict(s), every one new (no --baseline was given: `--baseline repo`" in printed
    assert "- [NEW] rdfe-theorem-as-stated" in (out / "report.md").read_text()
    # a baseline of your own, as tacc check reads it: an entry without a reason says so
    own = tmp_path / "own.json"
    own.write_text('[{"claim": "rdfe-theorem-as-stated", "config": "targeted-decay"}]')
    assert main(["report", str(config), *seeds, "--out", str(out), "--baseline", str(own)]) == 0
    assert "because the baseline gives no reason); 0 new" in capsys.readouterr().out
    # rebuilt from the saved runs, the baseline is read the same way
    assert main(["report", "--from", str(out / "runs"), "--out", str(tmp_path / "again"), "--baseline", "repo"]) == 0
