"""Starting child processes that leave Ctrl-C to their parent, without losing a Ctrl-C meant for the parent."""

from __future__ import annotations

import contextlib
import signal
import threading

__all__ = ["starting_children"]


@contextlib.contextmanager
def starting_children():
    """Meanwhile SIGINT is blocked in this thread (the main thread; elsewhere nothing changes), so a process started
    meanwhile (multiprocessing's spawn: fork and exec) inherits it blocked: a terminal's Ctrl-C, sent to the whole
    process group, does not reach a child still importing (it printed a KeyboardInterrupt traceback); the child sets
    SIGINT ignored when it starts its work, which discards it. A SIGINT to this process meanwhile is held, not lost:
    it is delivered when the block ends (KeyboardInterrupt, from the ``with``). Ignoring SIGINT for the window
    instead (``SIG_IGN``, inherited the same way) dropped a Ctrl-C that came in those milliseconds: the interrupted
    `tacc report` ran on to exit 0 (about 1 in 90 Ctrl-C at random moments)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
