"""The import structure has teeth: ``lint-imports`` with the contracts of pyproject.toml (the lint step's third
command) accepts the five packages as they are, and refuses a copy of them with one planted fault: a circle of
imports hidden inside a function, a circle through an import under ``TYPE_CHECKING``, a lower package importing
``reports``, ``certify`` and ``proofs_checks`` importing each other, ``proofs_checks`` importing ``simulate``, or a
private module imported from another package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bounds", "simulate", "certify", "proofs_checks", "reports")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint_imports(tmp_path: Path, plant: tuple[str, str] | None = None) -> subprocess.CompletedProcess:
    """``lint-imports`` run on a copy of the packages (and pyproject.toml) in ``tmp_path``, with ``plant`` (a module's
    path and the lines appended to it) added first."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    if plant is not None:
        path, lines = plant
        with open(tmp_path / path, "a") as f:
            f.write(lines)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)


def test_the_packages_as_they_are_keep_every_contract(tmp_path):
    r = _lint_imports(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Contracts: 4 kept, 0 broken." in r.stdout


@pytest.mark.parametrize("plant, broken", [
    # bounds._config imports bounds._spec: the circle closes inside a function
    (("bounds/_spec.py", "\n\ndef _planted():\n    from bounds._config import KEYS\n    return KEYS\n"),
     "no import circle inside a package"),
    # simulate._runner imports simulate._tasks: the circle closes through an annotation's import
    (("simulate/_tasks.py", "\n\nfrom typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
                            "    from simulate._runner import EXECUTORS\n"),
     "no import circle inside a package"),
    # reports.views is imported by reports.report: the subpackages circle
    (("reports/views/_runs.py", "\n\ndef _planted():\n    from reports.report import summarize_runs\n"
                                "    return summarize_runs\n"),
     "no import circle inside a package"),
    (("bounds/_horizon.py", "\n\ndef _planted():\n    import reports.tables\n    return reports.tables\n"),
     "reports over certify and proofs_checks, over simulate, over bounds"),
    (("certify/_check.py", "\n\ndef _planted():\n    import proofs_checks\n    return proofs_checks\n"),
     "reports over certify and proofs_checks, over simulate, over bounds"),
    (("proofs_checks/_facts.py", "\n\ndef _planted():\n    import simulate\n    return simulate\n"),
     "proofs_checks imports bounds, not simulate"),
    (("reports/tables.py", "\n\ndef _planted():\n    from certify._claims import CLAIMS\n    return CLAIMS\n"),
     "a private module is imported only inside its package"),
])
def test_a_planted_fault_breaks_its_contract(tmp_path, plant, broken):
    r = _lint_imports(tmp_path, plant)
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"{broken} BROKEN" in r.stdout, r.stdout
