"""``python -m reports.cli``: the ``tacc`` console script."""

import sys

from reports.cli._script import script

sys.exit(script())
