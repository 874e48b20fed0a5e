"""What every command prints, recorded: ``--help``, its text and ``--json`` output on one configuration, and a few bad
inputs, each through the installed console script, compared with ``tests/reports/data/cli_record.json``.

A change to the command line that changes any output, file written or exit status fails here; an intended change is
recorded again with ``python -m tests.reports.test_cli_record --update`` and reviewed in the diff. Timing figures,
the temporary and repository folders and cache file names are masked (:func:`_masked`).
"""

import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

from reports.cli import COMMANDS
from tests.reports.cli._helpers import tacc

_RECORD = Path(__file__).parent / "data" / "cli_record.json"
_ROOT = Path(__file__).parents[2]
_CONFIG = str(_ROOT / "reports" / "data" / "default.toml")
#: an instance with an arm tied with the best (``TIED`` in a case's arguments)
_TIED = str(Path(__file__).parent / "data" / "tied.toml")

#: name -> (arguments, files the command writes whose text is recorded); ``CONFIG`` is the default report's instance.
#: The ``report-*`` cases pin the report's ``report.md`` and ``results.json``: on the default instance, on one with a
#: tie for the best arm, and rebuilt from saved runs (``--from``).
CASES: dict[str, tuple[list[str], list[str]]] = {
    "top-help": (["--help"], []),
    "version-missing-command": ([], []),
    "unknown-command": (["bound", "CONFIG"], []),
    **{f"{c}-help": ([c, "--help"], []) for c in COMMANDS},
    "bounds-text": (["bounds", "CONFIG"], []),
    "bounds-json": (["bounds", "CONFIG", "--json", "b.json"], ["b.json"]),
    "bounds-preset-max-arms": (["bounds", "set-b", "--max-arms", "3"], []),
    "bounds-missing-file": (["bounds", "nowhere.toml"], []),
    "bounds-bad-max-arms": (["bounds", "CONFIG", "--max-arms", "0"], []),
    "simulate-text": (["simulate", "CONFIG", "--policy", "tacc", "--seeds", "0:3", "--executor", "serial"], []),
    "simulate-json": (["simulate", "CONFIG", "--policy", "rdfe", "--seeds", "0:2", "--executor", "serial",
                       "--json", "s.json"], ["s.json"]),
    "simulate-unknown-policy": (["simulate", "CONFIG", "--policy", "tac"], []),
    "simulate-bad-seeds": (["simulate", "CONFIG", "--policy", "tacc", "--seeds", "5:2"], []),
    "simulate-bad-workers": (["simulate", "CONFIG", "--policy", "tacc", "--workers", "0"], []),
    "check-text": (["check", "CONFIG", "--seeds", "0:3", "--executor", "serial"], []),
    "check-json": (["check", "CONFIG", "--seeds", "0:2", "--executor", "serial", "--json", "c.json"],
                   ["c.json"]),
    "check-junit": (["check", "CONFIG", "--seeds", "0:2", "--executor", "serial", "--junit", "c.xml"],
                    ["c.xml"]),
    "check-missing-baseline": (["check", "CONFIG", "--seeds", "0:2", "--baseline", "none.json"], []),
    "check-bad-random": (["check", "--random", "-1"], []),
    "proofs-bad-baseline": (["proofs", "--baseline", "none.json"], []),
    "report-text": (["report", "--seeds", "0:2", "--executor", "serial", "--cache", "cache", "--out", "rep",
                     "&&", "runs", "cache", "&&", "runs", "cache", "--to", "csv", "--out", "tables"],
                    ["rep/report.md", "rep/results.json"]),
    "report-default": (["report", "--seeds", "0:20", "--executor", "serial", "--out", "rep"],
                       ["rep/report.md", "rep/results.json"]),
    "report-tied": (["report", "TIED", "--seeds", "0:10", "--executor", "serial", "--out", "rep"],
                    ["rep/report.md", "rep/results.json"]),
    "report-from": (["report", "--seeds", "0:10", "--executor", "serial", "--cache", "cache", "--out", "rep", "&&",
                     "report", "--from", "cache", "--out", "again"], ["again/report.md", "again/results.json"]),
    "report-bad-seeds": (["report", "--seeds", "x"], []),
    "runs-missing": (["runs", "nowhere"], []),
    "reproduce-unknown": (["reproduce", "set-c"], []),
    "reproduce-bad-seeds": (["reproduce", "set-a", "--seeds", "1"], []),
    "explain-text": (["explain", "CONFIG", "--seed", "1"], []),
    "explain-json": (["explain", "CONFIG", "--policy", "dnc", "--json", "e.json"], ["e.json"]),
    "explain-bad-seed": (["explain", "CONFIG", "--seed", "-3"], []),
    "bench-bad-workers": (["bench", "--workers", "0"], []),
    "bench-bad-python": (["bench", "--smpy-python", "/nowhere/python"], []),
}

# timing figures ("4 s", "0.31 s", "12 ms"), which change from run to run, and hex digests (cache file names)
_TIMING = re.compile(r"\b\d+(?:\.\d+)? ?(?:s|ms|seconds?)\b")
_CACHE_NAME = re.compile(r"\b(?=[0-9e]*[abcdf])[0-9a-f]{16,64}\b")


def _masked(text: str, tmp: str) -> str:
    """``text`` with the temporary folder, the repository's folder (where CONFIG lies), timing figures and cache file
    names (hex digests) replaced by tokens."""
    text = text.replace(os.path.realpath(tmp), "<tmp>").replace(tmp, "<tmp>")
    text = text.replace(str(_ROOT.resolve()), "<repo>").replace(str(_ROOT), "<repo>")
    text = _CACHE_NAME.sub("<hex>", text)
    return _TIMING.sub("<time>", text)


def _run(args: list[str], tmp: str) -> list[dict]:
    """Each command of ``args`` (commands separated by ``&&``) run by the console script in ``tmp``: its exit status,
    masked stdout and stderr."""
    env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}
    env.pop("TACC_DEBUG", None)
    out, cmd = [], []
    for a in [*args, "&&"]:
        if a != "&&":
            cmd.append({"CONFIG": _CONFIG, "TIED": _TIED}.get(a, a))
            continue
        p = tacc(cmd, tmp, env=env)
        out.append({"exit": p.returncode, "stdout": _masked(p.stdout, tmp), "stderr": _masked(p.stderr, tmp)})
        cmd = []
    return out


def record(name: str) -> dict:
    """The recorded form of case ``name``: every command's exit status and output, and each listed file's text."""
    args, files = CASES[name]
    with tempfile.TemporaryDirectory() as tmp:
        runs = _run(args, tmp)
        written = {f: _masked((Path(tmp) / f).read_text(), tmp) if (Path(tmp) / f).exists() else None
                   for f in files}
        if name == "report-text":
            written["(files)"] = sorted(_masked(str(p.relative_to(tmp)), tmp) for p in Path(tmp).rglob("*"))
    return {"runs": runs, "files": written}


@pytest.mark.slow
@pytest.mark.parametrize("name", CASES)
def test_output_as_recorded(name):
    recorded = json.loads(_RECORD.read_text())
    assert name in recorded, f"{name} not recorded: python -m tests.reports.test_cli_record --update"
    assert record(name) == recorded[name]


def test_every_recorded_case_is_run():
    assert set(json.loads(_RECORD.read_text())) == set(CASES)


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        sys.exit("usage: python -m tests.reports.test_cli_record --update")
    _RECORD.parent.mkdir(exist_ok=True)
    _RECORD.write_text(json.dumps({n: record(n) for n in CASES}, indent=1, sort_keys=True) + "\n")
