"""How a per-arm table shows an arm's class: one label for ``tacc bounds`` (its per-arm and continuation tables),
``tacc explain`` and ``tacc simulate``."""

from __future__ import annotations

from bounds import ArmClass

__all__ = ["class_label"]


def class_label(cls: ArmClass | str, tied: bool) -> str:
    """An arm's class (``eq:analysis-arm-partition``) as a per-arm table shows it: its name, marked ``(tied)`` for
    an arm tied with k^* (Delta_k = 0 but not k^*: class B, tau_k infinite), so every table marks the tie alike.

    >>> class_label(ArmClass.B, True), class_label(ArmClass.B, False)
    ('B (tied)', 'B')
    """
    name = cls.value if isinstance(cls, ArmClass) else cls
    return f"{name} (tied)" if tied else name
