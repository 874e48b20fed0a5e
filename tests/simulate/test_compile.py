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
