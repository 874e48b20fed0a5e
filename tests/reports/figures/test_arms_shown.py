"""reports.figures: the arms a per-arm figure draws, chosen in the report's main process without matplotlib."""

import subprocess
import sys


def test_the_report_and_the_command_line_import_no_matplotlib():
    """The figures are drawn in a helper process; the main process only chooses the arms. Importing matplotlib's
    pyplot there cost 1.6 s of every `tacc report`, a full cache included (it came with `arms_shown`, once in
    reports.figures._draw)."""
    code = ("import sys, reports.cli, reports.report._report, reports.figures._arms_shown; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
