"""The compiled building blocks of the engines, public for a user's own compiled loop (``tacc bench``'s minimal
kernel uses them): the observation generator of the reward table (docs/design.md section 4), the index and
continuation rules (the radius of ``lem:ci`` and ``eq:fidelity-selection``), and the low-fidelity mean schedule.
Each is a numba function; calling them from a numba loop inlines them as the engines do. Importing this module
imports numba and makes the toolkit's compiled functions (elsewhere in ``simulate`` that waits for their first use,
:mod:`simulate._compile`), so that a loop compiled before any of them has run sees them compiled."""

from simulate._rewards import HIGH, LOW, draw_from, draw_many, key_bases, noise_code
from simulate._rules import continuation_gain_passes, upper
from simulate._schedule import schedule_mean
from simulate._compile import materialize

materialize()

__all__ = ["HIGH", "LOW", "draw_from", "draw_many", "key_bases", "noise_code", "continuation_gain_passes", "upper",
           "schedule_mean"]
