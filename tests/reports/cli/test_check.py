"""``tacc check`` (``reports/cli/check.py``): the claims gate, its exit statuses, its JUnit file, its baseline and
its reproducers."""

import pytest

from reports.cli import main
from tests.reports.cli._helpers import _config, _one_line, tacc


def test_check_passes_and_writes_junit(tmp_path, capsys):
    junit = tmp_path / "j.xml"
    assert main(["check", "llm-residual", "--seeds", "3", "--evidence", "0", "--junit", str(junit),
                 "--reproducers", str(tmp_path / "rep")]) == 0
    out = capsys.readouterr().out
    assert "PASS: no new violation" in out and "thm:analysis-main-regret" in out
    xml = junit.read_text()
    assert "<testsuite" in xml and 'failures="0"' in xml and "thm:analysis-main-regret.theorem" in xml


def test_check_exits_1_on_a_violation_and_0_once_accepted(tmp_path, monkeypatch, capsys):
    from dataclasses import replace

    import certify._check as check_module
    from certify import claim
    from certify._measurement import Measurement

    bad = replace(claim("high-count"), measure=lambda ctx, rec: [Measurement("N_H", 0, 1, arm=1)])
    real = check_module.claims_for
    monkeypatch.setattr(check_module, "claims_for",
                        lambda p: tuple(bad if c.key == "high-count" else c for c in real(p)))
    args = ["check", "llm-vanishing", "--seeds", "2", "--policy", "tacc", "--evidence", "0",
            "--reproducers", str(tmp_path / "rep"), "--junit", str(tmp_path / "j.xml")]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "[NEW] high-count" in out and "FAIL: 2 new violation(s)" in out
    assert 'failures="1"' in (tmp_path / "j.xml").read_text()
    base = tmp_path / "base.json"
    base.write_text('[{"claim": "high-count", "config": "llm-vanishing"}]')
    assert main(args + ["--baseline", str(base)]) == 0


@pytest.mark.parametrize("args,field", [(["--policy", "nope"], "tacc check: error: argument --policy"),
                                        (["--random", "-1"], "tacc check: error: argument --random"),
                                        (["--baseline", "/no/such.json"], "tacc: error: --baseline = "),
                                        (["--seeds", "x"], "tacc: error: --seeds = ")])
def test_check_bad_input_exits_2(args, field, capsys):
    assert main(["check", "llm-residual", "--evidence", "0", *args]) == 2
    assert capsys.readouterr().err.startswith(field)


def test_check_writes_no_state_into_the_working_directory(tmp_path):
    r = tacc(["check", "llm-residual", "--seeds", "1", "--policy", "tacc", "--evidence", "2", "--no-progress"],
             tmp_path)
    assert r.returncode == 0, r.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, reason", [
    (["check", "llm-residual", "--seeds", "2", "--junit", "-"], "must name a file"),
    (["check", "llm-residual", "--seeds", "2", "--json", "o.json", "--junit", "o.json"], "is the file --json writes"),
    (["check", "llm-residual", "--seeds", "2", "--json", "o.json", "--junit", "./o.json"], "is the file --json writes"),
])
def test_a_junit_path_that_is_not_its_own_file_exits_2(tmp_path, args, reason):
    """``--junit -`` wrote a file named "-"; ``--json o1.json --junit o1.json`` wrote the JSON, then the JUnit XML
    over it, exit 0: now one line naming --junit, exit 2, nothing written."""
    before = sorted(tmp_path.iterdir())
    r = tacc(args, tmp_path)
    _one_line(r, 2, "--junit", reason)
    assert sorted(tmp_path.iterdir()) == before


def test_the_printed_reproducer_command_reruns_the_violation(tmp_path):
    """The command a reproducer prints, pasted as printed, reads the reproducer in ./tacc-check-reproducers/ and would
    write it there again: refused as an output over an input (exit 2) after the fix for that; the same bytes written
    again are no overwrite, so it reruns the violation (exit 1)."""
    import re
    import shlex
    wide = "\n".join(['name = "wide"', "[instance]", "mu_high = [3.0, 0.5, 0.0]", "[instance.low]",
                      'model = "power_decay"', "zeta = 0.2", "r = 0.5", "[costs]", "low = 1.0", "high = 10.0",
                      "[params]", "budget = 20000", "delta = 0.05", 'rho = "min"', "gamma = 0.063", "eta = 1e-4",
                      "s0 = 10"])
    (tmp_path / "wide.toml").write_text(wide + "\n")
    first = tacc(["check", "wide.toml", "--policy", "rdfe", "--seeds", "0:1", "--evidence", "0"], tmp_path)
    assert first.returncode == 1, first.stderr
    command = re.search(r"(tacc check tacc-check-reproducers/\S+ --policy rdfe --seeds \S+ --evidence 0)",
                        first.stdout)[1]
    again = tacc(shlex.split(command)[1:], tmp_path)
    assert again.returncode == 1, again.stderr


def test_a_refused_configuration_among_several_names_its_file(tmp_path, monkeypatch, capsys):
    """``tacc check c1.toml bad.toml``: the one line names bad.toml (it named the key and value only, which of the
    files left unsaid); given alone, the file is the one given."""
    monkeypatch.chdir(tmp_path)
    _config(tmp_path, "bad", "gamma = 0.1", "gamma = -0.1")
    assert main(["check", "llm-residual", "bad.toml", "--seeds", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tacc: error: params.gamma = -0.1: ") and err.endswith(" (in bad.toml)\n")
    assert err.count("\n") == 1
    assert main(["check", "bad.toml", "--seeds", "2"]) == 2
    assert "(in bad.toml)" not in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == [tmp_path / "bad.toml"]
