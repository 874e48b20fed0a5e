"""Group read permission on what a run cache writes (its folder, ``runs.sqlite``, ``configs/`` and the report's
figure memo): a shared cache on a cluster is readable by the group whatever the writer's umask (README)."""

from __future__ import annotations

import os
import stat

__all__ = ["add_group_read"]


def add_group_read(target, *, directory: bool = False) -> None:
    """Add group read (and search, for a folder) permission to a path or an open file we own."""
    bits = stat.S_IRGRP | (stat.S_IXGRP if directory else 0)
    try:
        mode = os.stat(target).st_mode
        if mode & bits != bits:
            if isinstance(target, int):
                os.fchmod(target, stat.S_IMODE(mode) | bits)
            else:
                os.chmod(target, stat.S_IMODE(mode) | bits)
    except PermissionError:   # a folder someone else owns (a shared cache): their permissions stand
        pass
