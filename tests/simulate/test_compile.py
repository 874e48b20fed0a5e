"""Compiled code is cached on disk keyed on the code fingerprint: a second process loads it without compiling,
and an edit to a helper in another file (the radius in ``bounds``) recompiles, so the fast engine never runs
stale machine code (numba's own cache=True kept the old regret here)."""

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bounds
import simulate

_PROBE = textwrap.dedent("""
    import json, sys
    from dataclasses import replace
    import bounds, simulate
    import simulate._fast as fast
    from numba.core.registry import CPUDispatcher
    assert bounds.__file__.startswith(sys.argv[1]) and simulate.__file__.startswith(sys.argv[1])
    c = bounds.load_config("llm-residual")
    p = simulate.make_problem(replace(c, params=replace(c.params, budget=20000.0)))
    out = {"fast": simulate.run(p, "tacc", 0).regret,
           "reference": simulate.run(p, "tacc", 0, engine="reference").regret}
    ds = [d for d in vars(fast).values() if isinstance(d, CPUDispatcher)]
    out["misses"] = sum(sum(d.stats.cache_misses.values()) for d in ds)
    out["hits"] = sum(sum(d.stats.cache_hits.values()) for d in ds)
    print(json.dumps(out))
""")


def _probe(tree: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(tree)
    out = subprocess.run([sys.executable, "-c", _PROBE, str(tree)], env=env, cwd=tree, capture_output=True,
                         text=True, timeout=1800)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_edited_helper_in_another_file_changes_the_fast_engines_result(tmp_path):
    ignore = shutil.ignore_patterns("__pycache__")
    for pkg in (bounds, simulate):
        shutil.copytree(Path(pkg.__file__).parent, tmp_path / pkg.__name__, ignore=ignore)
    first = _probe(tmp_path)
    assert first["misses"] > 0 and first["fast"] == first["reference"]
    again = _probe(tmp_path)                                   # a second process: machine code from the disk
    assert again["misses"] == 0 and again["hits"] > 0 and again["fast"] == first["fast"]
    horizon = tmp_path / "bounds" / "_horizon.py"
    text = horizon.read_text()
    edited = re.sub(r"return math\.sqrt\(ell / n\)", "return math.sqrt(2.0 * ell / n)", text)
    assert edited != text
    horizon.write_text(edited)
    after = _probe(tmp_path)
    assert after["misses"] > 0                                 # recompiled, not loaded
    assert after["fast"] == after["reference"] != first["fast"]


def test_no_module_uses_numbas_own_cache():
    """``cache=True`` would key machine code on its own file only; every compiled function uses ``compiled``."""
    for pkg in (bounds, simulate):
        for path in Path(pkg.__file__).parent.glob("*.py"):
            assert not re.search(r"^\s*@.*\bcache\s*=\s*True", path.read_text(), re.M), path


@pytest.fixture
def ctrl_c_raises():
    """SIGINT handled as in a terminal (KeyboardInterrupt) for the test: a test runner started in the background
    (`cmd &` in a script, as CI is) ignores SIGINT, and a raised signal then never reaches Python."""
    import signal
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_ctrl_c_swallowed_by_a_ctypes_callback_during_a_compilation_is_raised_at_its_end(tmp_path, monkeypatch,
                                                                                          ctrl_c_raises):
    """Ctrl-C while llvmlite is in a ctypes callback (its object cache's notification): ctypes printed "Exception
    ignored on calling ctypes callback function ... KeyboardInterrupt" and dropped it, and `tacc report`, interrupted,
    ran on to exit 0. The compilation remembers the signal and raises it again when it ends, and the exception ctypes
    dropped is not printed (the command ends with its one line)."""
    import ctypes
    import signal

    from numba.core import event

    (tmp_path / "tacc_probe_compiled.py").write_text(textwrap.dedent("""
        from simulate._compile import compiled

        @compiled()
        def twice(x):
            return 2 * x
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import tacc_probe_compiled as probe

    def callback():
        signal.raise_signal(signal.SIGINT)      # a terminal's Ctrl-C, arriving while Python runs a ctypes callback
        return None

    class CtrlCInCallback(event.Listener):
        def on_start(self, ev):
            ctypes.CFUNCTYPE(None)(callback)()

        def on_end(self, ev):
            pass

    printed: list = []
    monkeypatch.setattr(sys, "unraisablehook", printed.append)
    handlers = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with event.install_listener("numba:compile", CtrlCInCallback()):
        try:
            probe.twice(21)
        except KeyboardInterrupt:
            pass
        else:
            raise AssertionError("the Ctrl-C was lost")
    assert probe.twice.signatures and probe.twice(21) == 42   # raised after the compilation, which completed
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == handlers
    assert printed == [] and sys.unraisablehook == printed.append


def test_an_error_caused_by_a_dropped_ctrl_c_gives_way_to_the_interrupt(monkeypatch, ctrl_c_raises):
    """The dropped Ctrl-C broke the compilation (numba: "no compiled object yet for <Library '_power_table'>"), and
    `tacc report`, interrupted, ended as an internal error (exit 3): the interrupt is raised, the error its context."""
    import ctypes
    import signal

    from simulate._compile import _SignalsWatched

    printed: list = []
    monkeypatch.setattr(sys, "unraisablehook", printed.append)

    def callback():
        signal.raise_signal(signal.SIGINT)
        return None

    try:
        with _SignalsWatched():
            ctypes.CFUNCTYPE(None)(callback)()
            raise RuntimeError("no compiled object yet")
    except KeyboardInterrupt as exc:
        assert isinstance(exc.__context__, RuntimeError)
    else:
        raise AssertionError("the Ctrl-C was lost")
    assert printed == []


_READ_CACHE = textwrap.dedent("""
    import sys
    from dataclasses import replace
    import bounds, simulate
    import reports.report._report
    c = bounds.load_config("llm-residual")
    c = replace(c, params=replace(c.params, budget=2000.0))
    before = "numba" in sys.modules
    records = simulate.run_tasks(simulate.tasks_for([c], ["tacc", "rdfe"], range(3)), cache=sys.argv[1])
    print(before, "numba" in sys.modules, sum(r.regret for r in records))
""")


def test_numba_is_imported_only_by_a_command_that_compiles(tmp_path):
    """Importing ``simulate`` (and the report) imports no numba; a sweep read whole from the run cache never does
    (0.4 s of the 3.7 s of `tacc report` on a full cache); one that runs does, and both give the same records."""
    def sweep() -> list[str]:
        out = subprocess.run([sys.executable, "-c", _READ_CACHE, str(tmp_path / "cache")], capture_output=True,
                             text=True, timeout=600)
        assert out.returncode == 0, out.stderr
        return out.stdout.split()
    ran, read = sweep(), sweep()
    assert ran[:2] == ["False", "True"]           # imported when the runs were made
    assert read[:2] == ["False", "False"]         # never, when every run was read from the cache
    assert read[2] == ran[2]


def test_a_loop_compiled_before_any_engine_ran_sees_the_compiled_functions():
    """A user's own numba loop naming a function of ``simulate`` before anything made them (``_numba_type_``)."""
    script = textwrap.dedent("""
        import numba, numpy as np
        from simulate._fast import _tree_fill, _tree_size
        @numba.njit
        def root(vals):
            n = 2 * _tree_size(vals.size)
            tv, ti = np.empty(n), np.empty(n, dtype=np.int64)
            _tree_fill(tv, ti, vals)
            return ti[1]
        print(root(np.array([0.5, 2.0, 2.0, -1.0])))
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1"]
