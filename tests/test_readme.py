"""The README's Python examples run, and print what the README says they print."""

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def _block(marker: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    return next(b for b in blocks if marker in b)


def test_driving_tacc_by_hand_prints_what_the_readme_shows():
    code = _block("cheap_judge")
    shown = re.search(r"^# (\[.*)$", code, flags=re.M).group(1)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == shown


def test_the_ask_tell_example_with_a_python_model_runs_as_a_file(tmp_path):
    code = _block("class WarmupJudge")
    shown = [line[len("# -> "):] for line in code.splitlines() if line.startswith("# -> ")]
    script = tmp_path / "asktell.py"
    script.write_text(code)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert len(shown) == 2 and out.splitlines() == shown


def test_the_tables_example_runs_as_a_file(tmp_path):
    code = _block("records_frame(run_tasks(tasks), tasks)")
    script = tmp_path / "tables.py"
    script.write_text(code)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert "tacc" in out and "ucb" in out
    assert sorted(p.name for p in (tmp_path / "my-tables").iterdir()) == ["arms.parquet", "configs.parquet",
                                                                          "runs.parquet"]
