"""The toolkit's code fingerprint: a digest of the code that computes a run.

A run, and the machine code numba compiled for it, is determined by the sources of ``bounds`` and ``simulate``
(every ``.py`` file: the radius, the rules, the reward table, the engines, ...) and by the numba, numpy and Python
that run them. The run cache (:mod:`simulate._cache`) and the compiled-code cache (:mod:`simulate._compile`) both
key on this one digest, so an edit anywhere in that code never reuses a stale run or stale machine code.
It is computed once per process (a few milliseconds: the files are read and hashed, nothing is imported).
"""

from __future__ import annotations

import functools
import hashlib
import platform
import sys
from pathlib import Path

__all__ = ["code_fingerprint", "fingerprint_of"]


def fingerprint_of(roots, versions: dict) -> str:
    """sha256 over every ``.py`` file under ``roots`` (name and content, in sorted order) and ``versions``."""
    h = hashlib.sha256()
    for root in roots:
        root = Path(root)
        for path in sorted(root.rglob("*.py")):
            rel = path.relative_to(root.parent).as_posix()
            if "__pycache__" in rel.split("/"):
                continue
            data = path.read_bytes()
            h.update(f"{rel}\0{len(data)}\0".encode())
            h.update(data)
    for name in sorted(versions):
        h.update(f"{name}={versions[name]}\0".encode())
    return h.hexdigest()


@functools.cache
def code_fingerprint() -> str:
    """The fingerprint of the installed ``bounds`` and ``simulate`` with numba's, numpy's and Python's versions."""
    import bounds
    import numpy

    return fingerprint_of([Path(bounds.__file__).parent, Path(__file__).parent],
                          {"numba": _numba_version(), "numpy": numpy.__version__, "python": sys.version,
                           "machine": platform.machine()})


def _numba_version() -> str:
    """numba's version from its installed metadata, without importing it (0.4 s, left to a command that compiles);
    from the module if it has no metadata (a numba put on the path by hand)."""
    from importlib import metadata
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        import numba
        return numba.__version__
