"""The runner's disk cache: one JSON file per finished run, named by a hash of everything that determines it.

A run is determined by its configuration (every field, not the file it came from), the policy, the seed, the
checkpoints and the toolkit's version (a code change must not reuse stale records). Files are written to a
temporary name and renamed, so an interrupted write leaves no partial record.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from importlib import metadata
from pathlib import Path

from simulate._record import RunRecord

__all__ = ["RECORD_FORMAT", "toolkit_version", "run_key", "RunCache"]

#: bump when the record or a policy's decisions change without a version change.
RECORD_FORMAT = 2


def toolkit_version() -> str:
    """The installed ``tacc`` version (``0+unknown`` when run from a source tree that is not installed)."""
    try:
        return metadata.version("tacc")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def run_key(config_text: str, policy: str, seed: int, checkpoints) -> str:
    """The cache key of one run (a sha256 hex digest)."""
    payload = json.dumps({"config": config_text, "policy": policy, "seed": int(seed),
                          "checkpoints": None if checkpoints is None else [float(c) for c in checkpoints],
                          "format": RECORD_FORMAT, "version": toolkit_version()}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


class RunCache:
    """Finished runs under ``root``: ``get(key)`` and ``put(key, record)``."""

    def __init__(self, root: str | os.PathLike):
        self.root = Path(root)

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> RunRecord | None:
        path = self._path(key)
        try:
            return RunRecord.from_dict(json.loads(path.read_text()))
        except FileNotFoundError:
            return None
        except (ValueError, TypeError, KeyError):   # a corrupt file is treated as missing and overwritten
            return None

    def put(self, key: str, record: RunRecord) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(record.to_dict(), f, allow_nan=False)
        os.replace(tmp, path)

    def items(self):
        """Every stored run as (key, record), in key order; corrupt files are skipped."""
        for path in sorted(self.root.glob("*/*.json")) if self.root.exists() else ():
            record = self.get(path.stem)
            if record is not None:
                yield path.stem, record

    def __len__(self) -> int:
        return sum(1 for _ in self.root.glob("*/*.json")) if self.root.exists() else 0
