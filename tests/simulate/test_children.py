"""Children started inside ``simulate.starting_children`` never see Ctrl-C, and a Ctrl-C to the parent meanwhile is
held, not lost (it was ignored for the window: an interrupted `tacc report` ran on to exit 0)."""

import os
import signal
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest

from simulate import starting_children


def _masks(status: str) -> dict:
    """The blocked and ignored signals of a process's /proc status text (Linux), as sets of signal numbers."""
    out = {}
    for line in status.splitlines():
        name, _, value = line.partition(":")
        if name in ("SigBlk", "SigIgn"):
            bits = int(value.strip(), 16)
            out[name] = {n for n in range(1, 65) if bits >> (n - 1) & 1}
    return out


@pytest.fixture
def ctrl_c_raises():
    """SIGINT as in a terminal for the test (CI runs the suite in the background, where SIGINT is ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_a_ctrl_c_while_children_start_is_held_then_raised_and_the_child_never_sees_it(ctrl_c_raises):
    pool = ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn"))
    try:
        with pytest.raises(KeyboardInterrupt):
            with starting_children():
                started = pool.submit(Path("/proc/self/status").read_text)   # the child starts now
                signal.raise_signal(signal.SIGINT)         # a Ctrl-C in the window: held ...
                assert signal.SIGINT in signal.sigpending()
            raise AssertionError("the Ctrl-C was not raised when the window ended")   # ... and raised here
        child = _masks(started.result(timeout=120))
    finally:
        pool.shutdown()
    assert signal.SIGINT in child["SigBlk"]                # the child inherited it blocked
    assert signal.SIGINT not in _masks(Path("/proc/self/status").read_text())["SigBlk"]   # the mask is back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


_FIRST_SPAWN = """
import multiprocessing, pathlib, sys
from simulate import starting_children

def status(q):
    q.put(pathlib.Path("/proc/self/status").read_text())

if __name__ == "__main__":
    ctx = multiprocessing.get_context("spawn")
    q = ctx.SimpleQueue() if len(sys.argv) > 1 else None
    with starting_children():
        q = q or ctx.SimpleQueue()
        p = ctx.Process(target=status, args=(q,))
        p.start()                  # the first process this one spawns: multiprocessing launches its resource tracker
    print(q.get(), end="")
    p.join()
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc")
def test_the_first_child_a_process_spawns_inherits_the_block(tmp_path):
    # multiprocessing's resource tracker, launched by the first spawn (a local Dask cluster's first worker), lifted
    # the block in the thread that launched it: the workers saw the Ctrl-C while they imported (tracebacks)
    import subprocess
    import sys
    script = tmp_path / "first_spawn.py"
    script.write_text(_FIRST_SPAWN)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True)
    assert signal.SIGINT in _masks(out.stdout)["SigBlk"], out.stdout


def test_a_ctrl_c_another_thread_takes_in_the_window_is_held_then_raised(ctrl_c_raises):
    # a thread made before the window (a library's) does not block SIGINT; the kernel may give it the Ctrl-C, and
    # Python runs the handler in the main thread all the same: it was raised inside the window (a local Dask
    # cluster interrupted while it started its workers was left unclosed, its nannies logging)
    import threading
    import time
    stop = threading.Event()
    other = threading.Thread(target=stop.wait, daemon=True)
    other.start()
    reached = False
    try:
        with pytest.raises(KeyboardInterrupt):
            with starting_children():
                signal.pthread_kill(other.ident, signal.SIGINT)
                time.sleep(0.2)                          # the handler runs in this thread within this wait
                reached = True
    finally:
        stop.set()
    assert reached                                       # not raised in the window, but when it ended
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
