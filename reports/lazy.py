"""A package's public names imported from their modules at first use (PEP 562), for the subpackages of
``reports`` whose modules import heavy libraries: ``reports.figures`` (matplotlib), ``reports.reproduce`` (the
engines). A process that uses a light name of such a package, or none, does not pay for the others: ``tacc bounds``
imports neither numba nor matplotlib, the report's main process no matplotlib."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable

__all__ = ["lazy_exports"]


def lazy_exports(package: str, homes: dict[str, str]) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package`` (its ``__name__``), whose public name ``n``
    is defined in its module ``homes[n]`` (``"_draw"``: ``package._draw``), under another name after a colon
    (``"_bounds:render"``: ``render`` of ``package._bounds``, for a name several modules define). The module is
    imported at the name's first use; the name is read from it at every use, never copied into the package, so the
    package gives what the module holds now (a test that patches the module patches the package's name too)."""

    def __getattr__(name: str) -> object:
        if name not in homes:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, _, attribute = homes[name].partition(":")
        return getattr(importlib.import_module(f"{package}.{module}"), attribute or name)

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
