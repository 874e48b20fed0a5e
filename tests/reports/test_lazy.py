"""``reports.lazy``: a package whose public names are imported at first use gives each name of its ``__all__`` (and
only those) from the module it names, lists them in ``dir()``, and imports nothing heavy before a name is used."""

import importlib
import subprocess
import sys

import pytest

LAZY = ("reports.figures", "reports.reproduce", "reports.report", "reports.views")


@pytest.mark.parametrize("name", LAZY)
def test_every_public_name_has_a_home_and_resolves_to_its_definition(name):
    package = importlib.import_module(name)
    assert set(package._HOME) == set(package.__all__)
    for public, home in package._HOME.items():
        module, _, attribute = home.partition(":")
        assert getattr(package, public) is getattr(importlib.import_module(f"{name}.{module}"), attribute or public)
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no_such_name"):
        _ = package.no_such_name


def test_a_name_is_read_from_its_module_at_every_use(tmp_path, monkeypatch):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(
        "from reports.lazy import lazy_exports\n__getattr__, __dir__ = lazy_exports(__name__, {'VALUE': '_mod'})\n")
    (tmp_path / "pkg" / "_mod.py").write_text("import sys\nsys.loaded = getattr(sys, 'loaded', 0) + 1\nVALUE = 7\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import pkg
    assert "pkg._mod" not in sys.modules
    assert pkg.VALUE == 7 and pkg.VALUE == 7 and sys.loaded == 1      # the module imported once
    monkeypatch.setattr(sys.modules["pkg._mod"], "VALUE", 8)
    assert pkg.VALUE == 8 and "VALUE" not in vars(pkg)                 # never copied into the package
    del sys.loaded, sys.modules["pkg"], sys.modules["pkg._mod"]


def test_reproduce_help_imports_neither_certify_nor_numba_nor_matplotlib():
    """``tacc reproduce --help`` lists the experiments' keys (``reports.reproduce.EXPERIMENTS``) without importing
    the run pipeline (``certify``, which the reproduction's module imports), the engines or matplotlib."""
    code = ("import sys; from reports.cli import main; main(['reproduce', '--help']); "
            "print(*(m in sys.modules for m in ('certify', 'numba', 'matplotlib')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[-3:] == ["False", "False", "False"]

