"""Compiled functions whose on-disk machine code is keyed on the code fingerprint.

numba's own ``cache=True`` invalidates a cached function only when the function's own file changes, so an edit to
a helper it inlines from another file (``bounds.radius_scalar``, ``simulate._rules``, ``simulate._rewards``) left
the old machine code running. :func:`compiled` is ``numba.njit`` with a cache whose source stamp is
:func:`simulate._fingerprint.code_fingerprint` (any change to ``bounds`` or ``simulate``, or to numba's, numpy's or
Python's version, invalidates every compiled function) and whose directory is per fingerprint
(``__pycache__/tacc-<fingerprint>`` beside the module, or the user's cache directory if that is not writable), so
only the first run after an install or an edit compiles.

A Ctrl-C or SIGTERM during a compilation in the main thread is never lost (:class:`_SignalsWatched`): raised inside
llvmlite's ctypes callback it was swallowed there, and the interrupted command ran on to exit 0.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

import numba
from numba.core import config as numba_config
from numba.core.caching import CompileResultCacheImpl, FunctionCache, _CacheLocator
from numba.misc.appdirs import AppDirs

from simulate._fingerprint import code_fingerprint

__all__ = ["compiled"]


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


class _FingerprintCache(FunctionCache):
    _impl_class = _Impl


class _SignalsWatched:
    """While entered in the main thread, a SIGINT or SIGTERM whose handler is a Python function is handled at once as
    before, and the exception the handler raises (Ctrl-C's KeyboardInterrupt, the command line's for SIGTERM) is
    remembered. If the block then ends without it, the handler had raised inside a ctypes callback (llvmlite calls
    back into Python while it compiles), which printed "Exception ignored on calling ctypes callback function" with
    a traceback and dropped the exception: the block ran on (an interrupted `tacc report` then exited 0) or failed
    for it (numba's "no compiled object yet for <Library ...>", reported as an internal error, exit 3). The
    remembered exception is then raised at the block's end (a failure as its context), so the interrupt is late, not
    lost, and the dropped exception is not printed (``sys.unraisablehook`` is not given it). Nested entries watch
    once. Elsewhere than in the main thread nothing changes: Python runs signal handlers only there."""

    _SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self) -> None:
        self._depth = 0
        self._previous: dict = {}
        self._raised: BaseException | None = None
        self._unraisable_hook = sys.unraisablehook

    def _unraisable(self, unraisable) -> None:
        if self._raised is None or unraisable.exc_value is not self._raised:
            self._unraisable_hook(unraisable)

    def _watching(self, handler):
        def handle(signum, frame):
            try:
                return handler(signum, frame)
            except BaseException as exc:
                if self._raised is None:
                    self._raised = exc
                raise
        return handle

    def __enter__(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        self._depth += 1
        if self._depth == 1:
            self._raised = None
            self._previous = {s: h for s in self._SIGNALS if callable(h := signal.getsignal(s))}
            for s, handler in self._previous.items():
                signal.signal(s, self._watching(handler))
            self._unraisable_hook, sys.unraisablehook = sys.unraisablehook, self._unraisable

    def __exit__(self, exc_type, exc, tb) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        self._depth -= 1
        if self._depth == 0:
            for s, handler in self._previous.items():
                signal.signal(s, handler)
            sys.unraisablehook = self._unraisable_hook
            raised, self._raised = self._raised, None
            if raised is not None and exc is not raised:       # dropped on the way
                raise raised


#: the process's one watch (signal handlers are per process)
_WATCHED = _SignalsWatched()


def _watching_signals(compile_):
    """``Dispatcher.compile`` (every compilation and every load from the disk cache goes through it: a first call, a
    caller's type inference) with signals watched while it runs (:class:`_SignalsWatched`)."""

    def compile(sig):
        with _WATCHED:
            return compile_(sig)
    return compile


def compiled(**options):
    """``numba.njit(**options)`` whose on-disk cache is keyed on the code fingerprint (never ``cache=True``) and whose
    compilation in the main thread never loses a Ctrl-C or SIGTERM (:class:`_SignalsWatched`)."""
    if "cache" in options:
        raise TypeError("compiled() always caches, keyed on the code fingerprint; do not pass cache=")

    def wrap(fn):
        dispatcher = numba.njit(**options)(fn)
        dispatcher._cache = _FingerprintCache(fn)   # what Dispatcher.enable_caching does, with our locator
        dispatcher.compile = _watching_signals(dispatcher.compile)
        return dispatcher
    return wrap
