"""proofs_checks: not built yet (see the open issues)."""
