"""Helpers of the tests of several commands: the installed ``tacc`` console script run as a user would (a subprocess
in a temporary working directory), a small configuration, and the check of its one line on standard error."""

import shutil
import subprocess
import sys
from pathlib import Path

TACC = shutil.which("tacc", path=str(Path(sys.executable).parent)) or shutil.which("tacc")


BASE = """name = "x"
[instance]
mu_high = [0.9, 0.5, 0.4]
noise = { model = "gaussian", sigma = 1.0 }
[instance.low]
model = "power_decay"
zeta = 0.2
r = 0.5
signs = "random"
[costs]
low = 1.0
high = 10.0
[params]
budget = 1000
gamma = 0.1
eta = 1e-4
s0 = 10
"""


def _config(tmp_path, name, old=None, new=None):
    p = tmp_path / f"{name}.toml"
    p.write_text(BASE if old is None else BASE.replace(old, new))
    return str(p)


def tacc(args, cwd, **kw):
    assert TACC, "the tacc console script is not installed next to this interpreter"
    return subprocess.run([TACC, *args], capture_output=True, text=True, cwd=cwd, timeout=600, **kw)


def _one_line(r, status, *names):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == status, r.stderr
    assert len(lines) == 1, r.stderr
    assert "Traceback" not in r.stderr
    for n in names:
        assert n in lines[0], lines[0]
    return lines[0]


def _tree(root: Path) -> list:
    """Every path under ``root``, relative to it, with its bytes (None for what is not a file)."""
    return sorted((str(p.relative_to(root)), p.read_bytes() if p.is_file() else None) for p in root.rglob("*"))
