"""Public boundaries: what one package uses of another is public (re-exported by that package's ``__init__``).

A private module (``_x.py``) or a private name may be imported only inside its own package; tests may reach
private names (they test the implementation), the packages and the command line may not.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bounds", "simulate", "certify", "proofs_checks", "reports")


def cross_package_private_imports(source: str, own: str) -> list[str]:
    """Every import in ``source`` (a module of package ``own``) of another package's private module or name."""
    return [hit for package in PACKAGES if package != own for hit in private_imports_of(source, package)]


@pytest.mark.parametrize("source, found", [
    ("from certify._check import sample_configs", 1),
    ("import certify._search", 1),
    ("from bounds import _validate as v", 1),
    ("def f():\n    from proofs_checks._run import BASELINE", 1),
    ("from certify import sample_configs", 0),
    ("from reports.report._report import at_budget", 0),  # own package: allowed
    ("from . import _x", 0),
])
def test_the_scanner_finds_private_imports(source, found):
    assert len(cross_package_private_imports(source, "reports")) == found


def test_the_command_line_uses_only_public_names():
    found = {f.name: hits for f in sorted((ROOT / "reports" / "cli").glob("*.py"))
             if (hits := cross_package_private_imports(f.read_text(), "reports"))}
    assert found == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_no_package_reaches_into_another(package):
    found = {str(f.relative_to(ROOT)): hits for f in sorted((ROOT / package).rglob("*.py"))
             if (hits := cross_package_private_imports(f.read_text(), package))}
    assert found == {}


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_exists_and_is_documented(package):
    mod = importlib.import_module(package)
    assert mod.__doc__
    for name in getattr(mod, "__all__", ()):
        assert hasattr(mod, name), f"{package}.{name} is in __all__ but not defined"


def private_imports_of(source: str, package: str) -> list[str]:
    """Every import in ``source`` of a private module or name of ``package`` (dotted: ``reports.figures``)."""
    depth = package.count(".") + 1
    out = []
    for node in ast.walk(ast.parse(source)):
        modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                   else [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
        for module in modules:
            parts = module.split(".")
            if parts[:depth] != package.split("."):
                continue
            if any(p.startswith("_") for p in parts[depth:]):
                out.append(f"line {node.lineno}: {module}")
            elif isinstance(node, ast.ImportFrom):
                out += [f"line {node.lineno}: from {module} import {a.name}" for a in node.names
                        if a.name.startswith("_")]
    return out


@pytest.mark.parametrize("source, found", [
    ("from reports.figures._draw import save", 1),
    ("def f():\n    import reports.figures._pool as pool", 1),
    ("from reports.figures import _HOME", 1),
    ("from reports.figures import save", 0),
    ("from reports.figuresque._x import y", 0),
    ("from reports.tables import dumps", 0),
])
def test_the_scanner_finds_imports_of_a_subpackages_private_names(source, found):
    assert len(private_imports_of(source, "reports.figures")) == found


#: the subpackages of ``reports``: each one's modules are private to it, the rest of ``reports`` uses its public names
REPORTS_SUBPACKAGES = sorted(p.name for p in (ROOT / "reports").iterdir() if (p / "__init__.py").is_file())


@pytest.mark.parametrize("subpackage", REPORTS_SUBPACKAGES)
def test_no_module_of_reports_reaches_into_a_subpackage(subpackage):
    own = ROOT / "reports" / subpackage
    found = {str(f.relative_to(ROOT)): hits for f in sorted((ROOT / "reports").rglob("*.py"))
             if own not in f.parents and (hits := private_imports_of(f.read_text(), f"reports.{subpackage}"))}
    assert found == {}


def test_reports_keeps_no_private_module_of_its_own():
    """What the subpackages of ``reports`` share lives in public modules (``reports.tables``, ``reports.paths``,
    ...): a module ``reports._x`` would be a private name that a subpackage imports across subpackages."""
    assert sorted(p.name for p in (ROOT / "reports").glob("_*.py") if p.name != "__init__.py") == []


def _is_module(dotted: str) -> bool:
    path = ROOT / dotted.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def private_names_taken(source: str) -> list[str]:
    """Every private name (``_x``, not a module and not a dunder) that ``source`` takes from a module of the toolkit:
    ``from m import _x``, or ``m._x`` where ``m`` is a toolkit module it imported. A name one module takes from
    another is public there."""
    tree = ast.parse(source)
    modules: dict = {}        # local name -> the toolkit module it is bound to
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] in PACKAGES:
            for a in node.names:
                if _is_module(f"{node.module}.{a.name}"):
                    modules[a.asname or a.name] = f"{node.module}.{a.name}"
                elif a.name.startswith("_") and not a.name.startswith("__"):
                    out.append(f"line {node.lineno}: from {node.module} import {a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] in PACKAGES and a.asname:
                    modules[a.asname] = a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__") \
                and not _is_module(f"{modules[node.value.id]}.{node.attr}"):
            out.append(f"line {node.lineno}: {modules[node.value.id]}.{node.attr}")
    return out


@pytest.mark.parametrize("source, found", [
    ("from proofs_checks._mutate import _parent", 1),
    ("def f():\n    from simulate._runner import _Pool", 1),
    ("from reports.views import _continuation\n_continuation._window()", 1),
    ("import simulate._runner as runner\nrunner._problem(1)", 1),
    ("from proofs_checks._mutate import parent_of", 0),
    ("from bounds import _validate as v", 0),             # a private module of its own package: a module, no name
    ("from reports.views import _continuation\n_continuation.window_figure()", 0),
    ("from numba.core.caching import _CacheLocator", 0),  # another library's
    ("x.__doc__", 0),
])
def test_the_scanner_finds_private_names_taken(source, found):
    assert len(private_names_taken(source)) == found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_takes_a_private_name_of_another(package):
    found = {str(f.relative_to(ROOT)): hits for f in sorted((ROOT / package).rglob("*.py"))
             if (hits := private_names_taken(f.read_text()))}
    assert found == {}
