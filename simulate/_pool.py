"""Where a sweep's batches run when not in this process: local worker processes that die with it, or a Dask
cluster (a local one, or a scheduler connected to by address), behind one :class:`Pool` (submit, wait for the
first done, close: at once on an interrupt or an error)."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import get_context
from typing import Any

from bounds import TaccInputError
from simulate._children import starting_children

__all__ = ["Pool", "connect", "check_scheduler", "worker_count"]


def _die_with_parent(parent: int) -> None:
    """In a worker: exit when the parent process dies (Linux: at once, by the kernel; elsewhere: a watchdog
    thread notices within half a second of the worker's next moment holding the interpreter)."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)          # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:                # the parent died before the line above
        os._exit(1)
    # started with SIGINT blocked (Pool, starting_children) and now ignored: a terminal's Ctrl-C, sent to the whole
    # process group, made a worker print "Process SpawnProcess-N:" and its traceback; the parent takes it and kills
    # its workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)
    threading.Thread(target=watch, daemon=True, name="tacc-parent-watchdog").start()



def check_scheduler(scheduler) -> None:
    """A Dask scheduler address distributed can parse (``tcp://host:8786``, ``host:8786``, ``tls://...``), checked
    before any run: ``notanaddress`` ended the sweep with "ValueError: missing port number" as an internal error."""
    from distributed.comm import get_address_host_port, parse_address

    if not isinstance(scheduler, str):
        raise TaccInputError("scheduler", scheduler, "must be a Dask scheduler address such as tcp://host:8786")
    try:
        if parse_address(scheduler)[0] != "inproc":     # an in-process address has no host and port
            get_address_host_port(scheduler)
    except ValueError as exc:
        raise TaccInputError("scheduler", scheduler, f"is no Dask scheduler address such as tcp://host:8786 "
                                                     f"({exc})") from None


#: the seconds a connection to a Dask scheduler may take before :func:`connect` gives up naming the address
#: (distributed's default is 30 s; a scheduler on a reachable network answers in milliseconds).
_CONNECT_SECONDS = 10.0


def connect(scheduler: str, *, timeout: float = _CONNECT_SECONDS) -> Any:
    """A ``distributed.Client`` connected to the Dask scheduler at ``scheduler`` (``tcp://host:8786``), or a
    :class:`bounds.TaccInputError` naming the field ``scheduler``: an address distributed cannot parse (at once),
    no scheduler answering there within ``timeout`` seconds (the whole connection, distributed's handshake
    included: a service that accepts and stays silent, such as an HTTP server, waited forever in the handshake's
    read), or a service there that is not Dask (an SSH banner read as a frame length ended in "MemoryError: Unable
    to allocate 2.82 EiB"). The caller closes the client.

    A sweep with a scheduler (:func:`iter_runs`) connects through it before it writes anything; ``tacc`` connects
    through it before a command creates any file, so a refused command (exit 2) leaves nothing behind."""
    check_scheduler(scheduler)
    # distributed's log says nothing meanwhile: bytes that are not Dask's were logged as a CRITICAL "Failed to
    # deserialize" with its traceback, besides the one-line refusal
    try:
        with _logging_off():
            return _bounded_client()(scheduler, timeout=timeout)
    except OSError:             # refused, unreachable, timed out (the connection or the handshake)
        # no exception class named: which of distributed's connection retries (OSError) or the whole start's limit
        # (TimeoutError) gives up first on a closed port is a race (CI saw both)
        raise TaccInputError("scheduler", scheduler, f"no Dask scheduler answered there within {timeout:g} s; is "
                                                     f"one running at that address?") from None
    except Exception as exc:    # a service that is not Dask: its bytes read as Dask's frames (MemoryError, ...)
        if isinstance(exc, MemoryError):     # "Unable to allocate 2.82 EiB for an array with shape (...)": noise
            why = "its first bytes, read as the length of a Dask message, asked for more memory than there is"
        else:
            why = " ".join(str(exc).split())
            why = f"{type(exc).__name__}: {why[:100]}{'...' if len(why) > 100 else ''}" if why else type(exc).__name__
        raise TaccInputError("scheduler", scheduler, f"no Dask scheduler answered there: the connection failed "
                                                     f"({why}); is that the address of a Dask scheduler, not of "
                                                     f"another service?") from None


@contextlib.contextmanager
def _logging_off():
    """Every logger silent meanwhile (``logging.disable``), the previous level put back after: distributed's
    handlers set quiet did not hold (closing a cluster sets their levels back: an INFO "Batched Comm Closed" and its
    traceback came through)."""
    quiet = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(quiet)


@functools.cache
def _bounded_client() -> type:
    """``distributed.Client`` whose start (the connection, distributed's handshake, the scheduler's first answer)
    gives up after its ``timeout`` as a whole (:class:`TimeoutError`) and closes what it started: distributed
    bounds the connection attempts but reads the handshake without a limit. Built on first use, so that importing
    the runner does not import distributed."""
    import distributed

    class BoundedClient(distributed.Client):
        def start(self, **kwargs):
            if self.asynchronous:
                return super().start(**kwargs)
            try:
                return super().start(callback_timeout=kwargs.get("timeout"), **kwargs)
            except BaseException:
                self.close()
                raise

    return BoundedClient


def worker_count(workers: int | None) -> int:
    """The worker processes a sweep uses: ``workers``, or the machine's cores."""
    return workers or os.cpu_count() or 1


def _started() -> int:
    """A worker's first task: nothing (its submit started the worker)."""
    return os.getpid()


class Pool:
    """A local process pool (workers that die with this process) or a Dask client, behind submit / wait_first.

    Started by the first :meth:`submit` (or :meth:`start`), not when made: a sweep whose every run is cached
    starts no worker (spawning them, each importing the engines, cost a full-cache report 0.6 s of shutdown and
    took the cores from the parent's reading)."""

    def __init__(self, executor: str, n_workers: int, scheduler: str | None):
        self.kind, self.n_workers, self.scheduler = executor, n_workers, scheduler
        self.cluster: Any = None
        self.client: Any = None
        self.pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        return self.pool is not None or self.client is not None

    def start(self) -> None:
        """Start the workers (or connect to Dask) now; nothing if started already."""
        if self.started:
            return
        if self.kind == "processes":
            pool = self.pool = ProcessPoolExecutor(max_workers=self.n_workers, mp_context=get_context("spawn"),
                                                   initializer=_die_with_parent, initargs=(os.getpid(),))
            with starting_children():          # every worker starts now, inheriting SIGINT blocked
                for _ in range(self.n_workers):  # (each submit to a pool without an idle worker starts one)
                    pool.submit(_started)
        else:
            if self.scheduler is not None:
                self.client = connect(self.scheduler)
                return
            import distributed
            # the cluster's event-loop thread, made now, inherits SIGINT blocked, and so does every worker process
            # it spawns (now or on a restart): a terminal's Ctrl-C reaches the process group, and a worker that
            # took it printed KeyboardInterrupt tracebacks; this process takes it and closes the cluster
            with starting_children():
                # no dashboard; the scheduler's HTTP server (health, metrics) on a free port: on its default 8787
                # a second cluster on the machine printed "warning: Port 8787 is already in use"
                self.cluster = distributed.LocalCluster(n_workers=self.n_workers, threads_per_worker=1,
                                                        processes=True, dashboard_address=None,
                                                        scheduler_kwargs={"dashboard_address": ":0"})
                self.client = distributed.Client(self.cluster)

    def submit(self, fn, *args):
        self.start()
        if self.client is not None:
            return self.client.submit(fn, *args, pure=False)
        return self.pool.submit(fn, *args)

    def wait_first(self, futures, timeout: float | None = None) -> set:
        """The futures done, waiting until one is (or ``timeout`` seconds: then possibly none)."""
        if self.client is not None:
            import distributed
            try:
                return set(distributed.wait(futures, timeout=timeout, return_when="FIRST_COMPLETED").done)
            except TimeoutError:
                return set()
        return wait(futures, timeout=timeout, return_when=FIRST_COMPLETED).done

    def close(self, abort: bool = False) -> None:
        """Shut the pool down; with ``abort`` (an interrupt, an error) local workers are killed, not waited for:
        a worker that had not yet taken Ctrl-C (still starting, SIGINT ignored) would finish its batch first."""
        if self.client is not None:
            if abort and self.cluster is not None:
                self._close_cluster_at_once()
                return
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        elif self.pool is not None:
            if abort:
                self._kill_workers()
            self.pool.shutdown(wait=True, cancel_futures=True)

    def _close_cluster_at_once(self) -> None:
        """Close the local Dask cluster on an interrupt or an error, quietly: its worker processes (Ctrl-C blocked,
        :meth:`start`) are killed, not asked to stop (a worker in a batch was killed by its nanny 4 s later, and
        the workers and nannies logged warnings and tracebacks of the cancelled tasks and closed connections);
        each nanny is told first not to restart its worker, and distributed's log says nothing meanwhile."""
        with _logging_off():
            nannies = list(self.cluster.workers.values())
            for nanny in nannies:
                nanny.close_gracefully(reason="tacc-interrupted")
            for nanny in nannies:
                pid = getattr(nanny, "pid", None)
                if pid:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
            self.client.close()
            self.cluster.close()

    def _kill_workers(self) -> None:
        if self.pool is None:
            return
        for p in list((self.pool._processes or {}).values()):
            p.kill()
