"""The report's and the reproduction's figures: drawn with matplotlib on the Agg canvas (``save``, ``regret_curves``,
``count_distribution``, ``tightness``), in a helper process (``FigureWriter``), kept beside the runs they were drawn
from (``FigureMemo``, in the run cache's folder ``FIGURE_MEMO``); which arms a per-arm figure draws (``arms_shown``)
and what the report says beside the count figures (``off_event_note`` of ``OffEventRuns``, ``undecided_note`` of
``UndecidedRuns``).

Each name is imported from its module when it is first used: a process that only hands figures to the helper (the
report's main process) or that draws none (``tacc bounds``) imports neither matplotlib nor the engines. A figure's
builder is named ``"reports.figures:<function>"`` (``FigureWriter.draw``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reports.lazy import lazy_exports

if TYPE_CHECKING:
    from reports.figures._arms_shown import MAX_ARMS, arms_shown, count_note, shown_note
    from reports.figures._draw import LEGEND, count_distribution, new_figure, regret_curves, save, tightness
    from reports.figures._memo import FigureMemo, FigureMemoWarning
    from reports.figures._off_event import OFF_EVENT_LABEL, OffEventRuns, UndecidedRuns, off_event_note, undecided_note
    from reports.figures._pool import FIGURE_MEMO, FigureWriter

__all__ = ["save", "new_figure", "regret_curves", "count_distribution", "tightness", "LEGEND", "MAX_ARMS", "arms_shown",
           "shown_note", "count_note", "OFF_EVENT_LABEL", "OffEventRuns", "UndecidedRuns", "off_event_note",
           "undecided_note", "FigureWriter",
           "FIGURE_MEMO", "FigureMemo", "FigureMemoWarning"]

#: each public name and the module that defines it
_HOME = {
    **dict.fromkeys(("save", "new_figure", "regret_curves", "count_distribution", "tightness", "LEGEND"), "_draw"),
    **dict.fromkeys(("MAX_ARMS", "arms_shown", "shown_note", "count_note"), "_arms_shown"),
    **dict.fromkeys(("OFF_EVENT_LABEL", "OffEventRuns", "UndecidedRuns", "off_event_note", "undecided_note"),
                    "_off_event"),
    **dict.fromkeys(("FigureWriter", "FIGURE_MEMO"), "_pool"),
    **dict.fromkeys(("FigureMemo", "FigureMemoWarning"), "_memo"),
}

__getattr__, __dir__ = lazy_exports(__name__, _HOME)
