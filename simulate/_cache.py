"""The runner's disk cache: finished runs in one SQLite file, each named by a key of everything that determines it.

A run is determined by its configuration (its canonical serialized form, :func:`simulate.config_key`), the
policy, the seed, the checkpoints, and the code that computes it (:func:`simulate._fingerprint.code_fingerprint`:
the sources of ``bounds`` and ``simulate`` with numba's, numpy's and Python's versions), so changed code never
reuses a stale run. The fingerprint is computed once per process and a configuration's digest once per
configuration, so a run's key is one short hash.

Each stored record carries its own key and the sha256 of its bytes (a compact binary form, :func:`encode_record`,
numbers exact): a record whose checksum or key does not match (a tampered or damaged row) is reported with a
warning and treated as missing, so it is recomputed, never used. Rows are gathered in memory and written in one
transaction at least every ``save_every`` seconds (and when the cache is flushed or closed), so a kill, even
``kill -9``, loses at most that much finished work and never leaves a partial record.
The cache lives in one file, ``runs.sqlite``, in its folder: it refuses a file there that is a symbolic link
(it never follows a link out of its folder), and it makes the folder and the file readable by the group (a shared
cache on a cluster).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import struct
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from bounds import TaccInputError
from simulate._fingerprint import code_fingerprint
from simulate._rdfe import RdfePhase
from simulate._record import RunRecord, Violation

__all__ = ["RECORD_FORMAT", "run_key", "encode_record", "decode_record", "RunCache", "CacheMismatchWarning"]

#: bump when the stored form of a record changes (the code fingerprint covers every change to the engines).
RECORD_FORMAT = 4

#: the cache file inside the cache folder.
DB_NAME = "runs.sqlite"

_TUPLES = ("n_low", "n_high", "continuation", "threshold_count", "high_in_window", "high_before_threshold",
           "regret_share", "checkpoints", "regret_at")


class CacheMismatchWarning(UserWarning):
    """A cached record did not match its key or its checksum; it was recomputed."""


def run_key(config_digest: str, policy: str, seed: int, checkpoints) -> str:
    """The cache key of one run (a sha256 hex digest): the code fingerprint, the configuration's digest, the
    policy, the seed and the checkpoints (floats by ``repr``, which is exact)."""
    cps = "-" if checkpoints is None else ",".join(repr(float(c)) for c in checkpoints)
    text = f"{RECORD_FORMAT}|{code_fingerprint()}|{config_digest}|{policy}|{int(seed)}|{cps}"
    return hashlib.sha256(text.encode()).hexdigest()


# ----------------------------------------------------------------------------------------------- record codec
#: a stored row: the magic and the format, the key's length and the key (UTF-8), then little-endian int64
#: (K, checkpoints, seed, rounds, event_held) and the six per-arm int64 columns, then float64 (cost, regret, the
#: K shares, the checkpoints, the regrets at them), then the rest: the policy's name alone when there is no
#: violation, no RDFE phase, no output and no trace (byte 0, then the name), else (byte 1) JSON text of
#: [policy, violation, phases, output, trace]. Numbers are stored in binary, so they come back exactly.
_MAGIC = b"TACC" + RECORD_FORMAT.to_bytes(2, "little")
_LEN = struct.Struct("<I")
_HEAD = struct.Struct("<5q")
_BODIES: dict = {}


def _body(K: int, n: int) -> struct.Struct:
    body = _BODIES.get((K, n))
    if body is None:
        if len(_BODIES) >= 256:
            _BODIES.clear()
        body = _BODIES[K, n] = struct.Struct(f"<{6 * K}q{2 + K + 2 * n}d")
    return body


def _plain(x):
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    raise TypeError(f"cannot store {type(x).__name__} in a run record")


def encode_record(key: str, record: RunRecord) -> bytes:
    """The stored form of ``record`` under ``key`` (see the layout above)."""
    r, v = record, record.violation
    K, n = len(r.n_low), len(r.checkpoints)
    if v is None and not r.phases and r.output is None and r.trace is None:
        rest = b"\x00" + r.policy.encode()
    else:
        rest = b"\x01" + json.dumps(
            [r.policy, None if v is None else [v.arm, v.fidelity, v.count],
             [[p.r, p.eps, p.active, p.fidelity, p.target, p.cost, p.ucb, p.lcb, p.width, p.completed, p.leader,
               p.survivors] for p in r.phases], r.output, r.trace], separators=(",", ":"), default=_plain).encode()
    key_bytes = key.encode()
    return b"".join((
        _MAGIC, _LEN.pack(len(key_bytes)), key_bytes, _HEAD.pack(K, n, r.seed, r.rounds, r.event_held),
        _body(K, n).pack(*r.n_low, *r.n_high, *r.continuation, *r.threshold_count, *r.high_in_window,
                         *r.high_before_threshold, r.cost, r.regret, *r.regret_share, *r.checkpoints, *r.regret_at),
        rest))


def _tuple(x):
    return None if x is None else tuple(x)


def decode_record(data: bytes) -> tuple[str, RunRecord]:
    """The inverse of :func:`encode_record`: (key, record); ValueError (or struct.error) if ``data`` is not a
    stored row of this format."""
    data = bytes(data)
    if data[:len(_MAGIC)] != _MAGIC:
        raise ValueError("not a stored run of this format")
    at = len(_MAGIC) + _LEN.size
    (length,) = _LEN.unpack_from(data, len(_MAGIC))
    key = data[at:at + length].decode()
    at += length
    K, n, seed, rounds, held = _HEAD.unpack_from(data, at)
    at += _HEAD.size
    body = _body(K, n)
    x = body.unpack_from(data, at)
    at += body.size
    policy: str
    v: Any
    phases: Any
    output: Any
    trace: Any
    if data[at:at + 1] == b"\x00":
        policy, v, phases, output, trace = data[at + 1:].decode(), None, (), None, None
    elif data[at:at + 1] == b"\x01":
        policy, v, phases, output, trace = json.loads(data[at + 1:])
    else:
        raise ValueError("not a stored run of this format")
    f = 6 * K
    return key, RunRecord(
        policy=policy, seed=seed, n_low=x[:K], n_high=x[K:2 * K], continuation=x[2 * K:3 * K],
        threshold_count=x[3 * K:4 * K], high_in_window=x[4 * K:5 * K], high_before_threshold=x[5 * K:f],
        regret_share=x[f + 2:f + 2 + K], rounds=rounds, cost=x[f], regret=x[f + 1],
        checkpoints=x[f + 2 + K:f + 2 + K + n], regret_at=x[f + 2 + K + n:], event_held=bool(held),
        violation=None if v is None else Violation(*v),
        phases=tuple(RdfePhase(r, eps, tuple(a), tuple(fi), tuple(t), tuple(c), tuple(u), tuple(lo), tuple(w),
                               done, lead, _tuple(surv))
                     for r, eps, a, fi, t, c, u, lo, w, done, lead, surv in phases),
        output=output, trace=None if trace is None else tuple(tuple(t) for t in trace))


def _checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# ----------------------------------------------------------------------------------------------------- the cache
class RunCache:
    """Finished runs under the folder ``root``: ``get(key)``, ``put(key, record)``, ``flush()``, ``close()``.

    Args:
        root: the cache folder (created, group-readable).
        save_every: seconds between commits; a kill loses at most the runs finished since the last one.
    """

    def __init__(self, root: str | os.PathLike, *, save_every: float = 1.0):
        self.root = Path(root)
        self.save_every = float(save_every)
        self.path = self.root / DB_NAME
        self._db: sqlite3.Connection | None = None
        self._last_commit = time.monotonic()
        self._pending: dict = {}     # key -> (checksum, bytes, record): stored at the next commit

    # -- opening
    def _connect(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        self.root.mkdir(parents=True, exist_ok=True)
        _add_group_read(self.root, directory=True)
        for name in (DB_NAME, DB_NAME + "-journal"):
            if (self.root / name).is_symlink():
                raise TaccInputError("cache", str(self.root / name),
                                     "is a symbolic link; the run cache never follows links out of its folder")
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o664)
        try:
            _add_group_read(fd)
        finally:
            os.close(fd)
        uri = f"{self.path.resolve().as_uri()}?nofollow=1"
        db = sqlite3.connect(uri, uri=True, timeout=60.0)
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, checksum TEXT NOT NULL, "
                   "record BLOB NOT NULL)")
        db.commit()
        self._db = db
        return db

    # -- reading and writing
    def get(self, key: str) -> RunRecord | None:
        """The stored record of ``key``, or None if there is none or it does not match (with a warning)."""
        return self.get_many([key])[0]

    def get_many(self, keys: list) -> list:
        """:meth:`get` of every key, in order, with one query per 500 keys."""
        out: list[RunRecord | None] = [None] * len(keys)
        missing = []
        for i, key in enumerate(keys):
            pending = self._pending.get(key)
            if pending is not None:
                out[i] = pending[2]
            else:
                missing.append(i)
        if not missing or (self._db is None and not self.path.exists()):
            return out
        db = self._connect()
        rows: dict[str, tuple[str, bytes]] = {}
        for start in range(0, len(missing), 500):
            chunk = [keys[i] for i in missing[start:start + 500]]
            query = f"SELECT key, checksum, record FROM runs WHERE key IN ({','.join('?' * len(chunk))})"
            rows.update((k, (c, d)) for k, c, d in db.execute(query, chunk))
        for i in missing:
            row = rows.get(keys[i])
            if row is not None:
                out[i] = self._checked(keys[i], *row)
        return out

    def _checked(self, key: str, checksum: str, data) -> RunRecord | None:
        problem = None
        if not isinstance(data, bytes):
            problem = "it is stored in another format (an earlier version of the toolkit)"
        elif _checksum(data) != checksum:
            problem = "its checksum does not match its content"
        else:
            try:
                stored_key, record = decode_record(data)
                if stored_key != key:
                    problem = f"it carries another key ({stored_key[:12]}...)"
                else:
                    return record
            except (ValueError, TypeError, KeyError, struct.error) as e:
                problem = f"it cannot be read ({type(e).__name__}: {e})"
        warnings.warn(f"run cache {self.path}: the record of key {key[:12]}... is not used, {problem}; "
                      f"the run is recomputed", CacheMismatchWarning, stacklevel=3)
        return None

    def put(self, key: str, record: RunRecord) -> None:
        """Store ``record`` under ``key`` (committed within ``save_every`` seconds, or at ``flush``)."""
        data = encode_record(key, record)
        self._pending[key] = (_checksum(data), data, record)
        if time.monotonic() - self._last_commit >= self.save_every:
            self.flush()

    def flush(self) -> None:
        """Write every stored record to disk, in one transaction (rows gathered since the last commit)."""
        if self._pending:
            db = self._connect()
            db.executemany("INSERT OR REPLACE INTO runs (key, checksum, record) VALUES (?, ?, ?)",
                           [(k, c, d) for k, (c, d, _) in self._pending.items()])
            db.commit()
            self._pending.clear()
        self._last_commit = time.monotonic()

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> "RunCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def items(self):
        """Every stored run as (key, record), in key order; a record that does not match is skipped (warning)."""
        self.flush()
        if self._db is None and not self.path.exists():
            return
        keys = [k for (k,) in self._connect().execute("SELECT key FROM runs ORDER BY key")]
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            for key, record in zip(chunk, self.get_many(chunk), strict=True):
                if record is not None:
                    yield key, record

    def __len__(self) -> int:
        self.flush()
        if self._db is None and not self.path.exists():
            return 0
        return self._connect().execute("SELECT count(*) FROM runs").fetchone()[0]


def _add_group_read(target, *, directory: bool = False) -> None:
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

