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

from numba.core import config as numba_config
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.misc.appdirs import AppDirs

from simulate._fingerprint import code_fingerprint

__all__ = ["FingerprintCache"]


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
        try:
            self.ensure_cache_path()
        except OSError:
            return None
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
