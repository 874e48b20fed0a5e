"""What an interrupt left half-built is freed before the command's last line, its finalizers' errors unprinted.

A Ctrl-C raised in the middle of a constructor (llvmlite's ``ObjectRef.__init__`` while numba compiled: its pointer
set, its ``_as_parameter_`` not yet) leaves an object whose finalizer fails; it ran when the interrupt's traceback
was let go, after ``tacc report: interrupted``, and printed "Exception ignored in ... AttributeError:
'GlobalContextRef' object has no attribute '_as_parameter_'" and its traceback under the command's one line (CI
failed on it). Stdlib only: the console script uses it while the command line is still importing.
"""

from __future__ import annotations

import gc
import signal
import sys
import traceback


def release(exc: BaseException) -> None:
    """Free the frames of ``exc``'s traceback (and of the exceptions it chains), and collect the garbage, with
    unraisable errors (a finalizer's) dropped meanwhile; the previous ``sys.unraisablehook`` is restored. Call it in
    the ``except`` block that takes the interrupt, before printing the command's last line."""
    previous = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        seen: set[int] = set()
        todo: list[BaseException | None] = [exc]
        while todo:
            e = todo.pop()
            if e is None or id(e) in seen:
                continue
            seen.add(id(e))
            if e.__traceback__ is not None:
                traceback.clear_frames(e.__traceback__)
                e.__traceback__ = None
            todo += [e.__cause__, e.__context__]
        gc.collect()
    finally:
        sys.unraisablehook = previous


def stopped(what: str, terminated: bool, exc: BaseException | None = None) -> int:
    """The end of an interrupted command: ``exc`` (the interrupt, if given) released (:func:`release`), then its one
    line ``WHAT: interrupted`` (or ``terminated``) on standard error; returns the exit status, 143 after SIGTERM,
    130 after Ctrl-C."""
    if exc is not None:
        release(exc)
    print(f"{what}: {'terminated' if terminated else 'interrupted'}", file=sys.stderr)
    return 128 + (signal.SIGTERM if terminated else signal.SIGINT)
