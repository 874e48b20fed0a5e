"""``tacc proofs`` (``reports/cli/proofs.py``): the steps' table, its exit status and baseline, the coverage table."""

import pytest
import json

from reports.cli import main


@pytest.mark.slow
def test_proofs_table_and_exit_status(tmp_path, capsys, monkeypatch):
    assert main(["proofs", "--baseline", "repo", "--json", str(tmp_path / "p.json")]) == 0
    out = capsys.readouterr().out
    assert "cor.n-gamma-substitution" in out and "REFUTED (baseline)" in out and "PASS:" in out
    assert "hypotheses needed" in out and "premises" not in out      # one word, as the column and the README say
    doc = json.loads((tmp_path / "p.json").read_text())
    rows, n = doc["steps"], doc["summary"]
    assert {r["result"] for r in rows} == {"PROVED", "REFUTED", "UNKNOWN"}
    # the summary and the rho table printed under the table are in the JSON too, with the same numbers
    assert n["steps"] == len(rows) and n["pass"] and not n["failures"]
    assert (f"{n['steps']} steps: {n['PROVED']} PROVED, {n['REFUTED']} REFUTED, {n['UNKNOWN']} UNKNOWN; "
            f"{n['proved_with_a_refused_mutant']} of {n['proved_mutated']} PROVED steps have a refused mutant "
            f"({n['mutants_refused']} of {n['mutants']} mutants refused)") in out
    assert n["REFUTED"] == sum(r["result"] == "REFUTED" for r in rows)
    from proofs_checks import radius_rows
    assert [r["preset"] for r in doc["rho"]] == [r[0] for r in radius_rows()] and all(
        f"{r['toolkit']:.6g}" in out for r in doc["rho"])
    assert all(r["accepted_by_baseline"] for r in rows if r["result"] == "REFUTED")
    assert all(r["mutation"]["refused"] + r["mutation"]["needed"] > 0 for r in rows if r["result"] == "PROVED")
    # the exit status on a subset of the steps (every step takes a minute of wall time on this machine)
    import proofs_checks
    monkeypatch.setattr(proofs_checks, "STEPS", tuple(s for s in proofs_checks.STEPS
                                                      if s.sid in ("cor.n-gamma-substitution", "cor.absorb-start",
                                                                   "high-selection.count")))
    assert main(["proofs", "--json", str(tmp_path / "f.json")]) == 1    # the paper's findings are refuted steps
    assert "FAIL: refuted (not in the baseline): cor.n-gamma-substitution, cor.absorb-start" in capsys.readouterr().out
    n = json.loads((tmp_path / "f.json").read_text())["summary"]
    assert not n["pass"] and n["failures"] == {"refuted (not in the baseline)": ["cor.n-gamma-substitution",
                                                                                   "cor.absorb-start"]}
    partial = tmp_path / "b.json"
    partial.write_text('["cor.n-gamma-substitution"]')
    assert main(["proofs", "--baseline", str(partial)]) == 1


def test_proofs_table_cuts_long_cells_unless_wide(capsys, monkeypatch):
    import proofs_checks
    monkeypatch.setattr(proofs_checks, "STEPS", tuple(s for s in proofs_checks.STEPS
                                                      if s.sid in ("cor.n-gamma-substitution", "lem-ci.triangle")))
    main(["proofs"])
    short = capsys.readouterr().out
    main(["proofs", "--wide"])
    wide = capsys.readouterr().out
    width = max(map(len, short.splitlines()))
    assert width < max(map(len, wide.splitlines()))                 # a cell was cut ...
    assert "--wide prints them in full" in short and "--wide prints them in full" not in wide
    assert width <= 400                                             # ... and the table fits the cut widths


def test_proofs_coverage(capsys):
    assert main(["proofs", "--coverage"]) == 0
    out = capsys.readouterr().out
    assert "l.941" in out and "high-selection.total [PROVED]" in out and "0 with neither" in out


def test_proofs_coverage_as_json_is_the_table_s_rows(tmp_path, capsys, monkeypatch):
    """--coverage --json PATH wrote nothing and --json - printed the text table: now the table's rows and counts as
    JSON (to PATH beside the printed table, or alone on standard output), and a statement neither checked nor
    explained turns the summary's pass false and the exit status 1."""
    import proofs_checks
    monkeypatch.setattr(proofs_checks, "STEPS", tuple(s for s in proofs_checks.STEPS
                                                      if s.sid in ("high-selection.total", "lem-ci.triangle")))
    assert main(["proofs", "--coverage", "--json", str(tmp_path / "pc.json")]) == 0
    table = capsys.readouterr().out
    got = json.loads((tmp_path / "pc.json").read_text())
    assert "l.941" in table and f"{len(got['statements'])} statements:" in table
    (row,) = [r for r in got["statements"] if r["line"] == 941]
    assert "high-selection.total [PROVED]" in row["checked_by"] and "high-selection.total [PROVED]" in table
    assert got["summary"] == {"statements": len(got["statements"]), "checked": got["summary"]["checked"],
                              "reason_only": len(got["statements"]) - got["summary"]["checked"], "neither": 0,
                              "pass": True}
    assert main(["proofs", "--coverage", "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == got              # JSON alone on standard output
    rows = proofs_checks.coverage_rows()
    monkeypatch.setattr(proofs_checks, "coverage_rows", lambda results: rows + [(1, "sec:x", "new", "-", "")])
    assert main(["proofs", "--coverage", "--json", "-"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["summary"]["neither"] == 1 and not out["summary"]["pass"]
    assert out["statements"][-1] == {"line": 1, "where": "sec:x", "statement": "new", "checked_by": [], "reason": ""}


def test_proofs_bad_baseline_exits_2(tmp_path, capsys):
    bad = tmp_path / "b.json"
    bad.write_text("{}")
    assert main(["proofs", "--baseline", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("tacc: error: --baseline = ")
