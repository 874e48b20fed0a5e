"""Compiled functions whose on-disk machine code is keyed on the code fingerprint, made when first used.

:func:`compiled` is ``numba.njit`` with the cache of :mod:`simulate._numba_cache` (keyed on the code fingerprint,
never numba's own ``cache=True``, which kept stale machine code after an edit to a helper in another file), and
:func:`jitable` is ``numba.extending.register_jitable``. Both are deferred: numba is imported, and every compiled
function of the process made, when one of them is first called (or looked into) -- not when ``simulate`` is
imported. A command that reads every run from the run cache never needs numba, and importing it was 0.4 s of the
3.7 s of `tacc report` on a full cache. When they are made (:func:`materialize`), each module's global that still
names a deferred function is replaced by the compiled function, so numba compiles callers that see the compiled
callees (and inlines those marked ``inline="always"``) exactly as with eager decorators.

A Ctrl-C or SIGTERM during a compilation in the main thread is never lost (:class:`_SignalsWatched`): raised inside
llvmlite's ctypes callback it was swallowed there, and the interrupted command ran on to exit 0.
"""

from __future__ import annotations

import functools
import signal
import sys
import threading

__all__ = ["compiled", "jitable", "materialize"]


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


class _Deferred:
    """A function of :func:`compiled` not made yet: calling it, or reading one of the compiled function's attributes
    (``signatures``, ``py_func``, ...), makes every deferred function (:func:`materialize`) and goes on with the
    compiled one. numba compiling a caller that names it (a user's own loop) types it as the compiled function
    (``_numba_type_``)."""

    def __init__(self, fn, options: dict) -> None:
        self.fn, self.options, self.made = fn, options, None
        functools.update_wrapper(self, fn)

    def __call__(self, *args, **kwargs):
        return _made(self)(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("__") or name in ("fn", "options", "made"):   # not set yet (a copy being made)
            raise AttributeError(name)
        return getattr(_made(self), name)

    @property
    def _numba_type_(self):
        from numba.core.typing.typeof import Purpose, typeof
        return typeof(_made(self), Purpose.argument)

    def __repr__(self) -> str:
        return f"<deferred compiled function {self.__module__}.{self.__qualname__}>"


class _Declared:
    """What :func:`compiled` and :func:`jitable` declared in this process, and how much of it is made."""

    def __init__(self) -> None:
        self.deferred: list[_Deferred] = []
        self.jitable: list[tuple] = []        # (function, options)
        self.registered = 0                   # how many of ``jitable`` numba has registered
        self.lock = threading.Lock()          # a run's daemon thread and the main thread may both make them


#: the process's declarations (the compiled functions are module globals, made once per process)
_DECLARED = _Declared()


def _made(deferred: _Deferred):
    if deferred.made is None:
        materialize()
    return deferred.made


def materialize() -> None:
    """Import numba and make every function :func:`compiled` and :func:`jitable` declared so far (nothing is compiled
    yet: numba compiles each at its first call, or loads it from the disk cache); then replace, in every loaded
    module, a global naming a deferred function by the compiled one. Idempotent; a later call makes what was
    declared since."""
    with _DECLARED.lock:
        _make_declared()


def _make_declared() -> None:
    todo = [d for d in _DECLARED.deferred if d.made is None]
    if not todo and _DECLARED.registered == len(_DECLARED.jitable):
        return
    import numba
    from numba.extending import register_jitable

    from simulate._numba_cache import FingerprintCache

    for fn, options in _DECLARED.jitable[_DECLARED.registered:]:
        register_jitable(**options)(fn)
    _DECLARED.registered = len(_DECLARED.jitable)
    for d in todo:
        dispatcher = numba.njit(**d.options)(d.fn)
        dispatcher._cache = FingerprintCache(d.fn)   # what Dispatcher.enable_caching does, with our locator
        dispatcher.compile = _watching_signals(dispatcher.compile)
        d.made = dispatcher
    for module in list(sys.modules.values()):
        names = getattr(module, "__dict__", None)
        if isinstance(names, dict):
            for name, value in list(names.items()):
                if type(value) is _Deferred and value.made is not None:
                    names[name] = value.made


def compiled(**options):
    """``numba.njit(**options)`` whose on-disk cache is keyed on the code fingerprint (never ``cache=True``), made when
    first used (:class:`_Deferred`), and whose compilation in the main thread never loses a Ctrl-C or SIGTERM
    (:class:`_SignalsWatched`)."""
    if "cache" in options:
        raise TypeError("compiled() always caches, keyed on the code fingerprint; do not pass cache=")

    def wrap(fn):
        deferred = _Deferred(fn, options)
        _DECLARED.deferred.append(deferred)
        return deferred
    return wrap


def jitable(**options):
    """``numba.extending.register_jitable(**options)``, registered when the compiled functions are made
    (:func:`materialize`): the function itself is returned, plain Python until then and after (the step-form
    policies call it from Python; compiled callers inline it)."""

    def wrap(fn):
        _DECLARED.jitable.append((fn, options))
        return fn
    return wrap
