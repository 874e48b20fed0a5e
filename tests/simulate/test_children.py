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
