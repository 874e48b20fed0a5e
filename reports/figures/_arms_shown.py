"""Which arms a per-arm figure draws, and the sentence saying what it leaves out (no matplotlib here: the report's
main process chooses the arms and the figure helper draws them, so the main process never imports matplotlib)."""

from __future__ import annotations

__all__ = ["MAX_ARMS", "arms_shown", "shown_note", "count_note"]


#: at most this many arms are drawn in a per-arm figure, so that its size is bounded whatever K is.
MAX_ARMS = 30


def arms_shown(gaps, among=None, limit: int = MAX_ARMS) -> list[int]:
    """The arms a per-arm figure draws: of ``among`` (every arm when None), the ``limit`` with the smallest gaps
    (ties by arm index, so a best arm k* comes first), listed in arm order."""
    among = range(len(gaps)) if among is None else among
    return sorted(sorted(among, key=lambda k: (gaps[k], k))[:limit])


def shown_note(n_shown: int, n_total: int, what: str = "arms") -> str:
    """The sentence a per-arm figure carries when it leaves arms out (empty when it draws them all)."""
    if n_shown >= n_total:
        return ""
    return (f"{n_shown} of {n_total} {what} drawn: the {n_shown} with the smallest gaps; "
            f"{n_total - n_shown} left out")


def count_note(gaps, n_shown: int, n_suboptimal: int, fidelity: str = "low") -> str:
    """What a per-arm count figure (every arm but k*) of ``fidelity`` ("low" or "high") says of the arms tied with
    the best mean (gap 0 besides k*) and of the arms past ``MAX_ARMS``. A tied arm is drawn (the smallest gaps come
    first): in the low-count figure with its bound (prop:analysis-low-query-bound covers every arm but k*), in the
    high-count figure without a bound bar (prop:analysis-high-selection's 1 + ceil(4 ell / Delta_k^2) is no bound at
    Delta_k = 0); each figure says only what it draws."""
    tied = [k for k, g in enumerate(gaps) if g == 0][1:]
    parts = []
    if tied:
        drawn = tied[:n_shown]                       # arms_shown takes the smallest gaps: the tied arms first
        names = ", ".join(map(str, drawn[:10])) + (", ..." if len(drawn) > 10 else "")
        parts.append(f"{len(drawn)} arm(s) tied with the best mean ({names}; gap 0) "
                     + ("drawn with the low-count bound (prop:analysis-low-query-bound covers every arm but k*)"
                        if fidelity == "low" else "drawn without a high-count bound bar "
                        "(prop:analysis-high-selection bounds arms with a positive gap only)"))
    if n_shown < n_suboptimal:
        parts.append(shown_note(n_shown, n_suboptimal, "suboptimal arms"))
    return ". ".join(parts)
