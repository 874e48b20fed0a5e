"""simulate: not built yet (see the open issues)."""
