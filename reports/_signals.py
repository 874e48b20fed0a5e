"""How the ``tacc`` process takes SIGTERM and, once its end is decided, every signal: SIGTERM raised as Ctrl-C is
(:class:`Terminated`, a ``KeyboardInterrupt``), and both ignored from the command's end to the process's exit
(:func:`ignore_to_the_exit`). Stdlib only: the console script uses it before the command line is imported."""

from __future__ import annotations

import signal
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM received: raised as an interrupt, so every handler of Ctrl-C (the run cache's flush, the children
    ended) handles it the same way; the command's line then says ``terminated`` and the exit status is 143."""


def raise_terminated(signum, frame) -> None:
    """A SIGTERM handler: raises :class:`Terminated`."""
    raise Terminated


def install(signum: int, handler: Any) -> Any:
    """``signal.signal(signum, handler)``; returns the previous handler, or ``None`` outside the main thread (where
    signals cannot be handled and nothing changes)."""
    try:
        return signal.signal(signum, handler)
    except ValueError:
        return None


class SigtermAsInterrupt:
    """While entered (in the main thread; elsewhere nothing changes), the first SIGTERM raises :class:`Terminated`
    and sets ``received``; a second one during the clean-up is ignored. The previous handler is restored on exit.
    Without it SIGTERM killed the process at once: no line, and multiprocessing's resource tracker reported the
    run pool's semaphores as leaked."""

    def __init__(self) -> None:
        self.received = False
        self._previous: Any = None

    def _handle(self, signum, frame) -> None:
        if not self.received:
            self.received = True
            raise Terminated

    def __enter__(self) -> "SigtermAsInterrupt":
        self._previous = install(signal.SIGTERM, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGTERM, self._previous)


def ignore_to_the_exit() -> None:
    """SIGINT and SIGTERM ignored from here to the process's exit: call it when the command's end is decided.

    Python's exit sets back the default handler of every signal it handled before it finalizes its modules (seconds
    with numba and scipy loaded): a Ctrl-C there killed the process with no line (return code -2, or 130 after a
    usage error), one in an exit function printed "Exception ignored in atexit callback" and a traceback. An ignored
    signal stays ignored. ``signal.signal`` first runs the handler of a signal already received: the one that came
    just before raises here, in the caller's ``try``."""
    install(signal.SIGINT, signal.SIG_IGN)
    install(signal.SIGTERM, signal.SIG_IGN)
