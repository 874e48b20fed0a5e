"""Hypothesis draws that depend only on their seed, not on what the calling process has imported.

Hypothesis mixes constants found in the source of every *local* module loaded in the process (modules outside
site-packages) into what it draws. That makes a seeded draw depend on the install (an editable install makes
``bounds``, ``simulate`` ... local; a wheel does not) and on the user's own imported modules: ``tacc check``
drew a different generated sample in CI than on a developer's machine. The toolkit's own draws (the generated
configurations of :func:`certify.sample_configs`, the searches of ``certify._search``) run inside
:func:`seed_only_draws`, which hides those local constants for the duration of the draw.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

__all__ = ["seed_only_draws"]


@contextmanager
def seed_only_draws() -> Iterator[None]:
    """Within the block, hypothesis draws no constant taken from local modules' source (its global constants stay:
    they are the same in every process). Restores hypothesis's behaviour on exit."""
    from hypothesis.internal.conjecture import providers

    empty = providers.Constants()
    original = providers._get_local_constants
    providers.CONSTANTS_CACHE.cache.clear()
    providers._get_local_constants = lambda: empty
    try:
        yield
    finally:
        providers._get_local_constants = original
        providers.CONSTANTS_CACHE.cache.clear()
