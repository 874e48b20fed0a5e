"""Figures drawn while the rest of a report is computed: in a helper process (the second core), or here; the
helper also makes other work of the report that needs none of its runs (``FigureWriter.call``).

A figure is named by its builder (``"module:function"``, resolved where it is drawn, so the caller never imports
matplotlib) and the builder's arguments (plain numbers, lists and ``bounds`` objects, pickled exactly). The helper
draws the figures one after the other in the order they were given, with the same code as in this process, so the
files are the same wherever they are drawn (``reports.figures.save``: each file written whole or not at all).
With a memo (:class:`FigureMemo`, a folder inside the run cache's), a figure drawn before from the same input
by the same code is copied from it instead, and the helper process is started only when a figure must be drawn.
"""

from __future__ import annotations

import importlib
import os
import signal
from concurrent.futures import Future, ProcessPoolExecutor
from multiprocessing import active_children, get_context
from pathlib import Path

from simulate import starting_children

__all__ = ["FigureWriter", "FIGURE_MEMO"]

#: the folder, inside a run cache's folder, that keeps the figures drawn from its runs (``FigureMemo``).
FIGURE_MEMO = "figure-memo"


def _draw(builder: str, args: tuple, kwargs: dict, out_dir: str, name: str, memo=None,
          formats=("png", "pdf")) -> list[str]:
    """Build the figure with ``builder(*args, **kwargs)`` and save it as ``out_dir/name``.png and .pdf (or the
    given ``formats``); with ``memo`` (a ``FigureMemo`` and the figure's key), keep the files in the memo too."""
    from reports.figures._draw import save
    module, function = builder.split(":")
    files = save(getattr(importlib.import_module(module), function)(*args, **kwargs), Path(out_dir), name,
                 formats=formats)
    if memo is not None:
        store, key = memo
        store.store(key, out_dir, name)
    return files


def _call(function: str, args: tuple, kwargs: dict):
    """``function(*args, **kwargs)``, the function named ``"module:function"``."""
    module, name = function.split(":")
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


def _start_helper(parent: int, figures: bool = True) -> None:
    """In the helper process: Ctrl-C is left to the parent (which stops the helper); the helper dies with the
    parent, even under ``kill -9`` (Linux: PR_SET_PDEATHSIG; elsewhere its queue from the parent closes);
    matplotlib is imported now, while the parent reads its runs (with ``figures``: a helper started for other work
    imports it at its first figure, if any)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:                # the parent died before the line above
        os._exit(1)
    if figures:
        import reports.figures._draw  # noqa: F401


class FigureWriter:
    """Draws figures into ``out_dir``: in one helper process with ``process`` (started at once, so its imports
    overlap the caller's work; with ``memo``, at the first figure not in it), else in this process when each is
    given. With ``memo`` (a folder), a figure found there is copied from it and one drawn is kept there.
    ``formats``: the files written per figure (PNG and PDF by default).

    Use as a context manager: leaving it normally waits for every figure; leaving it on an error or an interrupt
    stops the helper at once and removes the partial files of the figure it was drawing (no file under a
    figure's name is ever half-written, ``reports.figures.save``).
    """

    def __init__(self, out_dir, *, process: bool, memo=None, formats=("png", "pdf")):
        from reports.figures._memo import FigureMemo
        self.out_dir = Path(out_dir)
        self.formats = tuple(formats)
        self._futures: list[tuple[str, Future]] = []
        self._pool: ProcessPoolExecutor | None = None
        self._helper: list = []
        self._calls: list[Future] = []      # the helper's futures of :meth:`call`
        self._process = process
        self._closed = False
        self._memo = None if memo is None else FigureMemo(memo, self.formats)
        if process and memo is None:
            self._start()

    def _start(self, figures: bool = True) -> None:
        """Start the helper process (importing matplotlib at once with ``figures``)."""
        before = set(active_children())
        self._pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"),
                                         initializer=_start_helper, initargs=(os.getpid(), figures))
        # a pool starts its process on the first task: start it now, with Ctrl-C blocked, which the new process
        # inherits (a terminal's Ctrl-C reaches the process group: the helper, still importing before its
        # initializer ran, printed a KeyboardInterrupt traceback); a Ctrl-C to this process meanwhile is held
        with starting_children():
            self._pool.submit(int)
        self._helper = [p for p in active_children() if p not in before]

    def draw(self, builder: str, name: str, *args, **kwargs) -> None:
        """Draw ``builder(*args, **kwargs)`` (``"module:function"`` returning a figure) as ``name``.png and .pdf."""
        self._open()
        memo = None
        if self._memo is not None:
            key = self._memo.key(builder, args, kwargs)
            files = self._memo.restore(key, self.out_dir, name)
            if files is not None:
                done: Future = Future()
                done.set_result(files)
                self._futures.append((name, done))
                return
            memo = (self._memo, key)
        job = (builder, args, kwargs, str(self.out_dir), name, memo, self.formats)
        if self._process and self._pool is None:
            self._start()
        if self._pool is not None:
            self._futures.append((name, self._pool.submit(_draw, *job)))
        else:
            done = Future()
            done.set_result(_draw(*job))
            self._futures.append((name, done))

    def call(self, function: str, *args, **kwargs) -> Future:
        """``function(*args, **kwargs)`` (``"module:function"``, a pure function of picklable arguments) in the
        helper process, after the figures given before it (the helper is started now if it is not), or here at
        once; the future holds its result."""
        self._open()
        if self._process and self._pool is None:
            self._start(figures=False)
        if self._pool is not None:
            future = self._pool.submit(_call, function, args, kwargs)
            self._calls.append(future)
            return future
        done: Future = Future()
        done.set_result(_call(function, args, kwargs))
        return done

    def _open(self) -> None:
        """Refuse work after :meth:`close`: a closed writer starts no new helper process, which nothing would end."""
        if self._closed:
            raise RuntimeError("the figure writer is closed")

    def files(self, progress=None) -> dict[str, list[str]]:
        """{figure name: the files written}, once every figure is drawn (an error in the helper, or its death, is
        raised here); ``progress`` is called once per figure finished."""
        out = {}
        for name, f in self._futures:
            out[name] = f.result()
            if progress is not None:
                progress()
        return out

    def close(self, *, stop: bool = False) -> None:
        """Wait for the helper to finish its figures and end it; with ``stop``, end it at once (the partial file
        of the figure it was drawing is removed). A helper with nothing left to do (every figure and call
        finished, each file already in place) is ended at once too, not waited for while its interpreter tears
        down (0.4 s of a report on a full cache)."""
        self._closed = True
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        idle = all(f.done() for f in self._calls) and all(f.done() for _, f in self._futures)
        if stop or idle:
            for p in self._helper:
                p.kill()
            pool.shutdown(wait=True, cancel_futures=True)
            if stop:                       # this command's own temporary files (another's may be in the folder)
                for pid in [os.getpid()] + [p.pid for p in self._helper]:
                    for temporary in self.out_dir.glob(f".*.{pid}.partial"):
                        temporary.unlink(missing_ok=True)
        else:
            pool.shutdown(wait=True)

    def __enter__(self) -> FigureWriter:
        return self

    def __exit__(self, exc_type, *exc) -> None:
        self.close(stop=exc_type is not None)
