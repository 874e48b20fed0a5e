"""How the ``tacc`` process takes SIGTERM and, once its end is decided, every signal: SIGTERM raised as Ctrl-C is
(:class:`Terminated`, a ``KeyboardInterrupt``), and both ignored from the command's end to the process's exit
(:func:`ignore_to_the_exit`). Stdlib only: the console script uses it before the command line is imported."""

from __future__ import annotations

import signal
import sys
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM received: raised as an interrupt, so every handler of Ctrl-C (the run cache's flush, the children
    ended) handles it the same way; the command's line then says ``terminated`` and the exit status is 143."""


def install(signum: int, handler: Any) -> Any:
    """``signal.signal(signum, handler)``; returns the previous handler, or ``None`` outside the main thread (where
    signals cannot be handled and nothing changes)."""
    try:
        return signal.signal(signum, handler)
    except ValueError:
        return None


class SignalsTaken:
    """While entered (in the main thread; elsewhere nothing changes), the first SIGTERM raises :class:`Terminated`
    and sets ``terminated`` (a second one during the clean-up is ignored), and a SIGINT sets ``interrupted`` and
    raises as before (its handler, Python's ``KeyboardInterrupt``, is called; left alone if SIGINT is ignored or
    not Python's). The previous handlers are restored on exit. Without it SIGTERM killed the process at once: no
    line, and multiprocessing's resource tracker reported the run pool's semaphores as leaked.

    The flags say a signal came even when the exception its handler raised never reached the command: a handler runs
    in whatever Python code the main thread runs, and C code that called that code can drop the exception (numpy's
    ``import_array``, run by a C extension's import, printed it with ``PyErr_Print``, bare, and raised an
    ImportError instead; functions like ``PyObject_HasAttr`` clear any error). CI saw both: a SIGTERM printed as a
    bare traceback, and a Ctrl-C after which `tacc report` ran on to exit 0. The command's end reads the flags
    (:meth:`lost`) and ends interrupted all the same; :func:`drop_printed_interrupts` keeps the printed traceback
    off the screen."""

    def __init__(self) -> None:
        self.terminated = False
        self.interrupted = False
        self._previous: dict = {}

    def _terminate(self, signum, frame) -> None:
        if not self.terminated:
            self.terminated = True
            raise Terminated

    def _interrupt(self, signum, frame) -> Any:
        self.interrupted = True
        return self._previous[signal.SIGINT](signum, frame)

    def __enter__(self) -> "SignalsTaken":
        self.take()
        return self

    def take(self) -> None:
        """Install the handlers (what entering does; the console script never restores them: it ignores both
        signals once its status is known, :func:`ignore_to_the_exit`)."""
        previous = install(signal.SIGTERM, self._terminate)
        if previous is not None:
            self._previous[signal.SIGTERM] = previous
            if callable(before := signal.getsignal(signal.SIGINT)):
                self._previous[signal.SIGINT] = before
                signal.signal(signal.SIGINT, self._interrupt)

    def __exit__(self, *exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    def lost(self, status: int) -> bool:
        """Whether a signal came and the command ended with ``status`` all the same: not 130 or 143 (the status of
        a command that took the interrupt), so its exception was dropped on the way and the command must still end
        interrupted."""
        return (self.terminated or self.interrupted) and status not in (128 + signal.SIGINT, 128 + signal.SIGTERM)


def drop_printed_interrupts() -> None:
    """From here on, an interrupt (``KeyboardInterrupt``, :class:`Terminated`) that C code hands to
    ``sys.excepthook`` (``PyErr_Print``) or ``sys.unraisablehook`` (a finalizer, a callback) is not printed: it was
    raised by a signal handler of the command, which says the command was interrupted in its own one line
    (:class:`SignalsTaken`). Any other exception is printed as before. For the console script, whose ``main``
    takes every interrupt itself: none reaches these hooks otherwise."""
    excepthook, unraisablehook = sys.excepthook, sys.unraisablehook

    def except_hook(kind, value, tb) -> None:
        if not isinstance(value, KeyboardInterrupt):
            excepthook(kind, value, tb)

    def unraisable_hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            unraisablehook(unraisable)
    sys.excepthook, sys.unraisablehook = except_hook, unraisable_hook


def ignore_to_the_exit() -> None:
    """SIGINT and SIGTERM ignored from here to the process's exit: call it when the command's end is decided.

    Python's exit sets back the default handler of every signal it handled before it finalizes its modules (seconds
    with numba and scipy loaded): a Ctrl-C there killed the process with no line (return code -2, or 130 after a
    usage error), one in an exit function printed "Exception ignored in atexit callback" and a traceback. An ignored
    signal stays ignored. ``signal.signal`` first runs the handler of a signal already received: the one that came
    just before raises here, in the caller's ``try``."""
    install(signal.SIGINT, signal.SIG_IGN)
    install(signal.SIGTERM, signal.SIG_IGN)
