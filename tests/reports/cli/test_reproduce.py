"""``tacc reproduce`` (``reports/cli/reproduce.py``): an experiment reproduced, quick."""

import pytest
from reports.cli import main


@pytest.mark.slow
def test_reproduce_command_quick(tmp_path, capsys):
    assert main(["reproduce", "decay", "--quick", "--out", str(tmp_path), "--executor", "serial"]) == 0
    assert "claims reproduced" in capsys.readouterr().out
    assert (tmp_path / "decay.md").is_file() and (tmp_path / "README.md").is_file()
