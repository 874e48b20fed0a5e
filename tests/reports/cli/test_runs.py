"""``tacc runs`` (``reports/cli/runs.py``): its options (``--out`` with ``--to``)."""

import pytest
from tests.reports.cli._helpers import _config, _one_line, tacc


def test_runs_out_without_to_is_refused_naming_both(tmp_path):
    """`tacc runs DIR --out X` without --to printed the summary, exit 0, and wrote nothing to X: the option the user
    gave was ignored in silence. Refused before any work (exit 2, one line naming --out and --to, X not made); with
    --to it writes there as before."""
    cache = tmp_path / "cache"
    assert tacc(["simulate", _config(tmp_path, "ok"), "--policy", "tacc", "--seeds", "2", "--cache", str(cache)],
                tmp_path).returncode == 0
    out = tmp_path / "tables"
    line = _one_line(tacc(["runs", str(cache), "--out", str(out)], tmp_path), 2, "--out", str(out), "--to")
    assert line.startswith(f"tacc: error: --out = '{out}': ") and not out.exists()
    r = tacc(["runs", str(cache), "--out", str(out), "--to", "csv"], tmp_path)
    assert r.returncode == 0 and (out / "runs.csv").is_file()
    r = tacc(["runs", str(cache)], tmp_path)                  # no --out, no --to: the summary, nothing written
    assert r.returncode == 0 and not (tmp_path / "tacc-runs").exists()


@pytest.mark.slow
def test_tables_are_not_written_over_the_tables_they_are_read_from(tmp_path):
    """`tacc runs T --to csv --out T` rewrote the tables it was reading, exit 0: refused before any work (exit 2, one
    line naming --out), every file as it was; a folder inside T is another folder and is written."""
    cache = tmp_path / "cache"
    assert tacc(["simulate", _config(tmp_path, "ok"), "--policy", "tacc", "--seeds", "2", "--cache", str(cache)],
                tmp_path).returncode == 0
    tables = tmp_path / "tables"
    assert tacc(["runs", str(cache), "--to", "csv", "--out", str(tables)], tmp_path).returncode == 0
    before = {p: p.read_bytes() for p in tables.rglob("*") if p.is_file()}
    line = _one_line(tacc(["runs", str(tables), "--to", "csv", "--out", str(tables)], tmp_path), 2, "--out",
                     "is the folder dir reads")
    assert line.startswith(f"tacc: error: --out = '{tables}': ")
    assert {p: p.read_bytes() for p in tables.rglob("*") if p.is_file()} == before
    r = tacc(["runs", str(tables), "--to", "csv", "--out", str(tables / "again")], tmp_path)
    assert r.returncode == 0 and (tables / "again" / "runs.csv").is_file()
