"""Starting child processes that leave Ctrl-C to their parent, without losing a Ctrl-C meant for the parent."""

from __future__ import annotations

import contextlib
import signal
import threading
from multiprocessing import resource_tracker

__all__ = ["starting_children"]


@contextlib.contextmanager
def starting_children():
    """Meanwhile SIGINT is blocked in this thread (the main thread; elsewhere nothing changes), so a process started
    meanwhile (multiprocessing's spawn: fork and exec) inherits it blocked: a terminal's Ctrl-C, sent to the whole
    process group, does not reach a child still importing (it printed a KeyboardInterrupt traceback); the child sets
    SIGINT ignored when it starts its work, which discards it. A SIGINT to this process meanwhile is held, not lost:
    it is delivered when the block ends (KeyboardInterrupt, from the ``with``). Ignoring SIGINT for the window
    instead (``SIG_IGN``, inherited the same way) dropped a Ctrl-C that came in those milliseconds: the interrupted
    `tacc report` ran on to exit 0 (about 1 in 90 Ctrl-C at random moments). A SIGINT taken meanwhile by another
    thread is held too (noted by a handler of the window) and raised again when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # multiprocessing's resource tracker, launched by the first process a spawn context starts, unblocks SIGINT in
    # the thread that launched it (``resource_tracker.ensure_running``: its own block, then SIG_UNBLOCK): launched
    # inside the block, it lifted it for the children started after (a local Dask cluster's workers, which
    # printed KeyboardInterrupt tracebacks on a Ctrl-C while they imported); launched here first, it is left alone
    resource_tracker.ensure_running()
    # a thread made before (a library's) may take the SIGINT the block keeps from this one, and Python runs the
    # handler here all the same: it is held by a handler that notes it (a local Dask cluster interrupted while it
    # started its workers was left unclosed, its nannies logging as the process exited), and raised again at the end
    held: list = []
    handler = signal.getsignal(signal.SIGINT)
    hold = callable(handler)       # a Python handler (not SIG_IGN or SIG_DFL, nor one set in C)
    if hold:
        signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if hold:
            signal.signal(signal.SIGINT, handler)
        if held:
            signal.raise_signal(signal.SIGINT)     # pending while blocked: the handler runs when the block ends
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
