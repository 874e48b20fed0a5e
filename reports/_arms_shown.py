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


def count_note(gaps, n_shown: int, n_suboptimal: int) -> str:
    """What a per-arm count figure (suboptimal arms only) says it leaves out: the arms tied with the best mean
    (gap 0 besides k*: the count bounds are for suboptimal arms), and the arms past ``MAX_ARMS``."""
    tied = [k for k, g in enumerate(gaps) if g == 0][1:]
    parts = []
    if tied:
        names = ", ".join(map(str, tied[:10])) + (", ..." if len(tied) > 10 else "")
        parts.append(f"{len(tied)} arm(s) tied with the best mean ({names}; gap 0) not drawn: "
                     f"prop:analysis-low-query-bound and prop:analysis-high-selection bound suboptimal arms only")
    if n_shown < n_suboptimal:
        parts.append(shown_note(n_shown, n_suboptimal, "suboptimal arms"))
    return ". ".join(parts)
