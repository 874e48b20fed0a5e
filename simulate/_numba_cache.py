"""numba's on-disk cache keyed on the code fingerprint (imported by :mod:`simulate._compile` when the compiled functions
are first made, so that importing ``simulate`` does not import numba).

numba's own ``cache=True`` invalidates a cached function only when the function's own file changes, so an edit to
a helper it inlines from another file (``bounds.radius_scalar``, ``simulate._rules``, ``simulate._rewards``) left
the old machine code running. :class:`FingerprintCache`'s source stamp is
:func:`simulate._fingerprint.code_fingerprint` (any change to ``bounds`` or ``simulate``, or to numba's, numpy's or
Python's version, invalidates every compiled function) and its directory is per fingerprint
(``__pycache__/tacc-<fingerprint>`` beside the module, or the user's cache directory if that is not writable), so
only the first run after an install or an edit compiles.
"""

from __future__ import annotations

import os
import re
import shutil

from numba.core import config as numba_config
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.misc.appdirs import AppDirs

from simulate._fingerprint import code_fingerprint

__all__ = ["FingerprintCache", "prune", "KEEP_OTHER"]

#: the cache folders of other fingerprints kept beside the current one, the most recently written: a source tree
#: switched between branches finds its recent machine code again; older ones (each about 1.2 MB, an edit or an
#: upgrade ago) are removed when a new folder is made, so the cache does not grow with every change of the code.
KEEP_OTHER = 3
_FOLDER = re.compile(r"tacc-[0-9a-f]{16}")


def prune(base: str, current: str, keep: int = KEEP_OTHER) -> list[str]:
    """Remove the folders ``tacc-<16 hex digits>`` of ``base`` but ``current`` and the ``keep`` most recently
    modified others (a folder's time is its last compilation: loading machine code writes nothing); return the
    paths removed. A link is never followed or removed, and a folder another process removes or uses first is
    left to it (an error is ignored: a later compilation prunes again)."""
    try:
        entries = [e for e in os.scandir(base) if _FOLDER.fullmatch(e.name) and e.name != current
                   and e.is_dir(follow_symlinks=False)]
        entries.sort(key=lambda e: e.stat(follow_symlinks=False).st_mtime, reverse=True)
    except OSError:
        return []
    removed = []
    for e in entries[keep:]:
        try:
            shutil.rmtree(e.path)
            removed.append(e.path)
        except OSError:
            pass
    return removed


class _FingerprintLocator(_CacheLocator):
    """Cache files in ``<base>/tacc-<fingerprint[:16]>``, stamped with the whole fingerprint."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(self._base(py_file), f"tacc-{code_fingerprint()[:16]}")

    def _base(self, py_file) -> str:
        raise NotImplementedError

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return code_fingerprint()

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.exists(py_file):
            return None
        self = cls(py_func, py_file)
        new = not os.path.isdir(self._cache_path)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        if new:                                  # the first function compiled for this code: older folders go
            prune(os.path.dirname(self._cache_path), os.path.basename(self._cache_path))
        return self


class _UserProvided(_FingerprintLocator):
    """``NUMBA_CACHE_DIR`` when the user set it."""

    def _base(self, py_file):
        return os.path.join(numba_config.CACHE_DIR, self.get_suitable_cache_subpath(py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        return super().from_function(py_func, py_file) if numba_config.CACHE_DIR else None


class _InTree(_FingerprintLocator):
    """``__pycache__`` beside the module (a writable install or a source tree)."""

    def _base(self, py_file):
        return os.path.join(os.path.dirname(py_file), "__pycache__")


class _UserWide(_FingerprintLocator):
    """The user's cache directory (a read-only install)."""

    def _base(self, py_file):
        return os.path.join(AppDirs(appname="tacc", appauthor=False).user_cache_dir, "numba",
                            self.get_suitable_cache_subpath(py_file))


class _Impl(CompileResultCacheImpl):
    _locator_classes = [_UserProvided, _InTree, _UserWide]


class FingerprintCache(FunctionCache):
    """A compiled function's cache (``Dispatcher._cache``), in :class:`_Impl`'s locations."""

    _impl_class = _Impl
