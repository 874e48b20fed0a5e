"""The type and lint gate has teeth: ``ruff check`` and ``mypy`` with the project's configuration in
pyproject.toml accept a module of the repository as it is and refuse it with one injected lint or type error;
``.ci/run`` runs the README's lint line after the tests and refuses a README without one; the packages are typed."""

import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"
PACKAGES = ("bounds", "simulate", "certify", "proofs_checks", "reports")
MODULE = ROOT / "bounds" / "_dyadic.py"  # small, imports only the standard library: mypy checks it in seconds

TYPE_ERROR = '''

def _injected(num: int, shift: int) -> int:
    return float_at_least(num, shift)
'''
LINT_ERROR = '''

def _injected(xs: list, ys: list) -> list:
    return list(zip(xs, ys))
'''


def _copy(tmp_path: Path, name: str, extra: str = "") -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(MODULE.read_text() + extra)
    return path


def _ruff(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--config", str(CONFIG), str(path)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def _mypy(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(CONFIG), *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_ruff_accepts_the_module_and_refuses_an_injected_lint_error(tmp_path):
    clean, broken = _ruff(_copy(tmp_path, "clean")), _ruff(_copy(tmp_path, "lint_error", LINT_ERROR))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert broken.returncode == 1 and "B905" in broken.stdout, broken.stdout + broken.stderr  # zip without strict=
    # the rule comes from pyproject.toml: ruff's own default selection leaves flake8-bugbear out
    default = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--isolated",
                              str(tmp_path / "lint_error.py")], capture_output=True, text=True, timeout=120)
    assert "B905" not in default.stdout


def test_mypy_accepts_the_module_and_refuses_an_injected_type_error(tmp_path):
    # the module as it is, and with the lint error (no type error: each tool guards its own kind)
    clean = _mypy(_copy(tmp_path, "clean"), _copy(tmp_path, "lint_error", LINT_ERROR))
    broken = _mypy(_copy(tmp_path, "type_error", TYPE_ERROR))
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert broken.returncode == 1 and "type_error.py:" in broken.stdout and "[return-value]" in broken.stdout, \
        broken.stdout + broken.stderr


def test_ci_refuses_a_readme_without_a_lint_line(tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci" / "run", tmp_path / ".ci" / "run")
    text = (ROOT / "README.md").read_text()
    (tmp_path / "README.md").write_text(text)
    ok = subprocess.run(["bash", str(tmp_path / ".ci" / "run"), "--dry-run"], capture_output=True, text=True)
    assert ok.returncode == 0 and "\nlint: .venv/bin/ruff check" in ok.stdout, ok.stderr
    (tmp_path / "README.md").write_text("\n".join(line for line in text.splitlines()
                                                  if not line.endswith("# lint")))
    r = subprocess.run(["bash", str(tmp_path / ".ci" / "run"), "--dry-run"], capture_output=True, text=True)
    assert r.returncode == 2 and "'# lint'" in r.stderr, r.stdout + r.stderr


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_is_typed_and_ships_py_typed(package):
    """PEP 561: ``py.typed`` is package data of every package; a wheel install has it in site-packages."""
    setuptools = tomllib.loads(CONFIG.read_text())["tool"]["setuptools"]
    assert sorted(p for p in setuptools["packages"] if "." not in p) == sorted(PACKAGES)
    # every subpackage is listed too: a wheel without it fails to import (reports.cli, the console script's)
    subpackages = {".".join(d.relative_to(ROOT).parts) for d in (ROOT / package).rglob("*")
                   if (d / "__init__.py").is_file()}
    assert subpackages <= set(setuptools["packages"]), subpackages - set(setuptools["packages"])
    assert "py.typed" in setuptools["package-data"][package] and (ROOT / package / "py.typed").is_file()
    files = {str(f) for f in metadata.files("tacc") or ()}
    if any(f.endswith(".pth") or "__editable__" in f for f in files):
        pytest.skip("an editable install: its RECORD lists no package file (CI installs the wheel)")
    assert f"{package}/py.typed" in files
