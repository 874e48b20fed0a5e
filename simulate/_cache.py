"""The runner's disk cache: finished runs in one SQLite file, each named by a key of everything that determines it.

A run is determined by its configuration (its canonical serialized form, :func:`simulate.config_key`), the
policy, the seed, the checkpoints, and the code that computes it (:func:`simulate._fingerprint.code_fingerprint`:
the sources of ``bounds`` and ``simulate`` with numba's, numpy's and Python's versions), so changed code never
reuses a stale run. The fingerprint is computed once per process and a configuration's digest once per
configuration, so a run's key is a cheap combination (a digest of everything but the seed, and the seed).

Each stored record carries its own key and the sha256 of its bytes (a compact binary form, :func:`encode_record`,
numbers exact): a record whose checksum or key does not match (a tampered or damaged row) is reported with a
warning and treated as missing, so it is recomputed, never used. Rows are gathered in memory and written in one
transaction once the oldest of them is ``save_every`` seconds old (and when the cache is flushed or closed); a
caller that waits (the runner, for its workers) asks :meth:`RunCache.seconds_to_commit` how long it may wait before
:meth:`RunCache.commit_due` must run, so a kill, even ``kill -9``, loses at most that much finished work however
long the next result takes, and never leaves a partial record.
The cache lives in one file, ``runs.sqlite``, in its folder: it refuses a symbolic link at anything it would write
through there (:func:`check_cache_folder`: the file, SQLite's journal and write-ahead log, ``configs/``), before it
writes anything (it never follows a link out of its folder), and it makes the folder and the file readable by the
group (a shared cache on a cluster).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import itertools
import json
import operator
import os
import sqlite3
import struct
import time
import warnings
from dataclasses import fields
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from bounds import TaccInputError
from simulate._fingerprint import code_fingerprint
from simulate._group_read import add_group_read
from simulate._rdfe import RdfePhase
from simulate._record import RECORD_FIELDS, RunRecord, Violation, built

__all__ = ["RECORD_FORMAT", "run_key", "encode_record", "decode_record", "RunCache", "CacheMismatchWarning",
           "DamagedRun", "CACHE_ENTRIES", "check_cache_folder"]

#: bump when the stored form of a record changes (the code fingerprint covers every change to the engines).
RECORD_FORMAT = 5

#: the cache file inside the cache folder.
DB_NAME = "runs.sqlite"
#: what the toolkit writes through in a cache folder: the cache file, SQLite's companions of it (the rollback
#: journal, the write-ahead log and its index) and the configurations kept beside the runs (``configs/``).
CACHE_ENTRIES = (DB_NAME, DB_NAME + "-journal", DB_NAME + "-wal", DB_NAME + "-shm", "configs")
_CREATE = "CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, checksum TEXT NOT NULL, record BLOB NOT NULL)"

_TUPLES = ("n_low", "n_high", "continuation", "threshold_count", "high_in_window", "high_before_threshold",
           "regret_share", "checkpoints", "regret_at")


class CacheMismatchWarning(UserWarning):
    """A cached record did not match its key or its checksum (it was recomputed), or a configuration kept beside the
    runs (``configs/<id>.json``) did not parse or did not match its name (it was not used, or written again)."""


def run_key(config_digest: str, policy: str, seed: int, checkpoints) -> str:
    """The cache key of one run: ``<digest>:<seed>``, the digest (sha256 hex) of everything but the seed (the
    record format, the code fingerprint, the configuration's digest, the policy and the checkpoints, floats by
    ``repr``, which is exact), then the seed in decimal.

    The digest is made once per (fingerprint, configuration, policy, checkpoints object), so a sweep's key is a
    cheap combination, no hash per run."""
    return run_key_prefix(config_digest, policy, checkpoints) + str(int(seed))


def run_key_prefix(config_digest: str, policy: str, checkpoints) -> str:
    """What the keys of :func:`run_key` share for every seed: ``<digest>:`` (a seed's key is this prefix and the
    seed in decimal)."""
    fp = code_fingerprint()
    memo = (fp, config_digest, policy, id(checkpoints))
    hit = _GROUPS.get(memo)
    if hit is None or hit[0] is not checkpoints:
        cps = "-" if checkpoints is None else ",".join(repr(float(c)) for c in checkpoints)
        hit = (checkpoints, hashlib.sha256(f"{RECORD_FORMAT}|{fp}|{config_digest}|{policy}|{cps}".encode())
               .hexdigest() + ":")
        if checkpoints is None or (type(checkpoints) is tuple and all(type(c) is float for c in checkpoints)):
            if len(_GROUPS) >= 1024:     # kept only for immutable checkpoints (the entry holds the object, so
                _GROUPS.clear()          # its id is not reused meanwhile)
            _GROUPS[memo] = hit
    return hit[1]


_GROUPS: dict = {}


# ----------------------------------------------------------------------------------------------- record codec
#: a stored row: the magic and the format, the key's length and the key (UTF-8), then little-endian int64
#: (K, checkpoints, seed, rounds, event_held) and the six per-arm int64 columns, then float64 (cost, regret, the
#: K shares, the checkpoints, the regrets at them), then the rest: the policy's name alone when there is no
#: violation, no RDFE phase, no output and no trace (byte 0, then the name); RDFE's phases and output in binary
#: when there is no violation and no trace (byte 2, then :func:`_encode_phases`' layout, then the name); else
#: (byte 1) JSON text of [policy, violation, phases, output, trace]. Numbers are stored in binary (or by ``repr``
#: in the JSON text), so they come back exactly, with their types.
_MAGIC = b"TACC" + RECORD_FORMAT.to_bytes(2, "little")
_LEN = struct.Struct("<I")
_HEAD = struct.Struct("<5q")
_BODIES: dict = {}
_PHASE_FIELDS = tuple(f.name for f in fields(RdfePhase))
_phase_values = operator.attrgetter(*_PHASE_FIELDS)


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


#: ``json.dumps(x, separators=(",", ":"), default=_plain)``, without making an encoder per record.
_JSON = json.JSONEncoder(separators=(",", ":"), default=_plain)


#: struct codes of the scalars of RDFE's phases (:func:`_encode_phases`): None is a pad byte (no value).
_CODES = {int: "q", float: "d", bool: "?", type(None): "x"}
_CODE_BYTES = {t: ord(c) for t, c in _CODES.items()}
_FLATS: dict = {}


def _flat(codes: bytes) -> tuple[struct.Struct, tuple]:
    """The struct of ``codes`` and where its Nones go (positions in the unpacked values, ascending)."""
    flat = _FLATS.get(codes)
    if flat is None:
        if len(_FLATS) >= 256:
            _FLATS.clear()
        text = codes.decode("ascii")
        flat = _FLATS[codes] = (struct.Struct("<" + text), tuple(i for i, c in enumerate(text) if c == "x"))
    return flat


def _encode_phases(output, phases) -> bytes | None:
    """RDFE's output and phases as flat typed scalars: the length of the codes (uint32), one struct code per
    scalar (``q`` int, ``d`` float, ``?`` bool, ``x`` None: a pad byte), the scalars packed by those codes.
    The scalars are the output, the number of phases, then per phase |S_r|, the number of survivors (-1: None),
    r, eps, completed, leader, and the tuples active, fidelity, target, cost, ucb, lcb, width, survivors. None
    when a value has another type or does not fit (the record is then stored as JSON text)."""
    flat: list = [output, len(phases)]
    for p in phases:
        surv = p.survivors
        flat += (len(p.active), -1 if surv is None else len(surv), p.r, p.eps, p.completed, p.leader)
        flat += p.active
        flat += p.fidelity
        flat += p.target
        flat += p.cost
        flat += p.ucb
        flat += p.lcb
        flat += p.width
        if surv is not None:
            flat += surv
    try:
        codes = bytes(map(_CODE_BYTES.__getitem__, map(type, flat)))
        layout, nones = _flat(codes)
        return b"".join((_LEN.pack(len(codes)), codes,
                         layout.pack(*([x for x in flat if x is not None] if nones else flat))))
    except (KeyError, struct.error):
        return None


def _decode_phases(data: bytes, at: int) -> tuple[int | None, tuple, int]:
    """(output, phases, where the name starts) from :func:`_encode_phases`' bytes at ``at``."""
    (length,) = _LEN.unpack_from(data, at)
    at += _LEN.size
    flat, nones = _flat(data[at:at + length])
    x = flat.unpack_from(data, at + length)
    if nones:
        filled = list(x)
        for i in nones:
            filled.insert(i, None)
        x = tuple(filled)
    output, count, i = x[0], x[1], 2
    if type(count) is not int or not 0 <= count <= len(x):
        raise ValueError("the RDFE phases do not match their layout")
    phases = []
    for _ in range(count):
        m, s, r, eps, done, lead = x[i:i + 6]
        i += 6
        phases.append(built(RdfePhase, _PHASE_FIELDS, (
            r, eps, x[i:i + m], x[i + m:i + 2 * m], x[i + 2 * m:i + 3 * m], x[i + 3 * m:i + 4 * m],
            x[i + 4 * m:i + 5 * m], x[i + 5 * m:i + 6 * m], x[i + 6 * m:i + 7 * m], done, lead,
            None if s < 0 else x[i + 7 * m:i + 7 * m + s])))
        i += 7 * m + max(s, 0)
    if i != len(x) or not all(type(p.r) is int for p in phases):
        raise ValueError("the RDFE phases do not match their layout")
    return output, tuple(phases), at + length + flat.size


def encode_record(key: str, record: RunRecord) -> bytes:
    """The stored form of ``record`` under ``key`` (see the layout above)."""
    r, v = record, record.violation
    K, n = len(r.n_low), len(r.checkpoints)
    binary = None
    if v is None and r.trace is None and r.phases:
        binary = _encode_phases(r.output, r.phases)
    if v is None and not r.phases and r.output is None and r.trace is None:
        rest = b"\x00" + r.policy.encode()
    elif binary is not None:
        rest = b"\x02" + binary + r.policy.encode()
    else:
        rest = b"\x01" + _JSON.encode(
            [r.policy, None if v is None else [v.arm, v.fidelity, v.count], [_phase_values(p) for p in r.phases],
             r.output, r.trace]).encode()
    key_bytes = key.encode()
    return b"".join((
        _MAGIC, _LEN.pack(len(key_bytes)), key_bytes, _HEAD.pack(K, n, r.seed, r.rounds, r.event_held),
        _body(K, n).pack(*r.n_low, *r.n_high, *r.continuation, *r.threshold_count, *r.high_in_window,
                         *r.high_before_threshold, r.cost, r.regret, *r.regret_share, *r.checkpoints, *r.regret_at),
        rest))


def _tuple(x):
    return None if x is None else tuple(x)


_INT_ONLY = {int}


def _arms_in(arms, K: int) -> bool:
    """Every one of ``arms`` an int in [0, K) (type and range checked in C: a phase of Set B lists 500 arms)."""
    return not arms or (set(map(type, arms)) == _INT_ONLY and min(arms) >= 0 and max(arms) < K)


def _check_arms(K: int, violation, phases) -> None:
    """ValueError unless every arm a stored row names is one of its K arms (the first deviation's, each RDFE phase's
    active arms, leader and survivors): a row whose checksum was recomputed after an edit passes the checksum, and
    an arm out of range would raise IndexError in the claims that read it; such a row is redone instead."""
    if violation is not None and not _arms_in(violation[:1], K):
        raise ValueError("the first deviation names an arm out of range")
    for p in phases:
        if not (_arms_in(p.active, K) and (p.leader is None or _arms_in((p.leader,), K))
                and (p.survivors is None or set(p.survivors) <= set(p.active))):
            raise ValueError("an RDFE phase names an arm out of range")


def decode_record(data: bytes) -> tuple[str, RunRecord]:
    """The inverse of :func:`encode_record`: (key, record); ValueError (or struct.error) if ``data`` is not a
    stored row of this format."""
    if type(data) is not bytes:
        data = bytes(data)
    if not data.startswith(_MAGIC):
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
    elif data[at:at + 1] == b"\x02":
        output, phases, at = _decode_phases(data, at + 1)
        policy, v, trace = data[at:].decode(), None, None
    elif data[at:at + 1] == b"\x01":
        policy, v, phases, output, trace = json.loads(data[at + 1:])
        phases = tuple(built(RdfePhase, _PHASE_FIELDS, (r, eps, tuple(a), tuple(fi), tuple(t), tuple(c), tuple(u),
                                                        tuple(lo), tuple(w), done, lead, _tuple(surv)))
                       for r, eps, a, fi, t, c, u, lo, w, done, lead, surv in phases)
    else:
        raise ValueError("not a stored run of this format")
    _check_arms(K, v, phases)
    f = 6 * K
    return key, built(RunRecord, RECORD_FIELDS, (      # the fields in order (RunRecord(policy=..., ...))
        policy, seed, x[:K], x[K:2 * K], x[2 * K:3 * K], x[3 * K:4 * K], x[4 * K:5 * K], x[5 * K:f],
        x[f + 2:f + 2 + K], rounds, x[f], x[f + 1], x[f + 2 + K:f + 2 + K + n], x[f + 2 + K + n:], bool(held),
        None if v is None else Violation(*v), phases, output,
        None if trace is None else tuple(tuple(t) for t in trace)))


@contextlib.contextmanager
def _collector_paused():
    """The cyclic garbage collector paused meanwhile (restored after, if it was on): a batch of decoded records
    (about a dozen containers each, none in a cycle) no longer triggers a collection every few records that walks
    the records made before (a third of reading a full cache was the collector's)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class DamagedRun(NamedTuple):
    """A stored row that is not used: its ``key`` (the row's own), what is wrong with it (``problem``), and
    ``record``, the run it holds when that is intact and only the row's key differs from the one it carries,
    ``stored_key`` (both None when it cannot be read)."""

    key: str
    problem: str
    record: RunRecord | None = None
    stored_key: str | None = None


def _checked(key: str, checksum: str, data) -> tuple[RunRecord | None, DamagedRun | None]:
    """The record of a stored row, or None and why it is not used."""
    if not isinstance(data, bytes):
        return None, DamagedRun(key, "it is stored in another format (an earlier version of the toolkit)")
    if _checksum(data) != checksum:
        return None, DamagedRun(key, "its checksum does not match its content")
    try:
        stored_key, record = decode_record(data)
    except (ValueError, TypeError, KeyError, struct.error) as e:
        return None, DamagedRun(key, f"it cannot be read ({type(e).__name__}: {e})")
    if stored_key != key:
        return None, DamagedRun(key, f"it carries another key ({stored_key[:12]}...)", record, stored_key)
    return record, None


# ----------------------------------------------------------------------------------------------------- the cache
def check_cache_folder(root, *, option: str = "cache", entries: tuple = ()) -> Path:
    """``root`` as a cache folder, checked before anything is written there (nothing is created here): refused,
    with a :class:`bounds.TaccInputError` naming ``option`` and the path, when it exists and is not a folder, when
    it is a symbolic link to nothing, or when any of :data:`CACHE_ENTRIES` and ``entries`` (more names a caller
    keeps there, as ``tacc report``'s figure memo) is a symbolic link: the cache would write through it, out of
    its folder."""
    root = Path(root)
    if root.is_symlink() and not root.exists():
        raise TaccInputError(option, str(root), "is a symbolic link to nothing")
    if root.exists() and not root.is_dir():
        raise TaccInputError(option, str(root), "exists and is not a folder")
    for name in (*CACHE_ENTRIES, *entries):
        if (root / name).is_symlink():
            raise TaccInputError(option, str(root / name), "is a symbolic link; the run cache never writes "
                                                           "through a link out of its folder")
    return root


class RunCache:
    """Finished runs under the folder ``root``: ``get(key)``, ``put(key, record)``, ``flush()``, ``close()``.

    Args:
        root: the cache folder (created, group-readable, when the first run is saved); refused at once, before
            anything is written, when :func:`check_cache_folder` refuses it.
        save_every: the longest a stored record waits in memory for its commit, in seconds, provided the caller
            calls :meth:`commit_due` when :meth:`seconds_to_commit` says (the runner does while it waits for its
            workers); a kill loses at most the runs stored in the last ``save_every`` seconds.
        read_only: for a reader that makes no run (``load_runs``: ``tacc runs``, ``tacc report --from``): nothing
            is created, moved or given other permissions, :meth:`put` is refused, and a file that is not a
            readable run cache is a :class:`bounds.TaccInputError` naming the field ``root`` (left as it is),
            where a sweep moves it aside (``runs.sqlite.damaged-N``, with a warning) and makes its runs again.
    """

    def __init__(self, root: str | os.PathLike, *, save_every: float = 0.5, read_only: bool = False):
        self.root = check_cache_folder(root)
        self.read_only = read_only
        self.save_every = float(save_every)
        self.path = self.root / DB_NAME
        self._db: sqlite3.Connection | None = None
        self._oldest: float | None = None   # when the oldest record not committed yet was stored (monotonic)
        self._pending: dict = {}     # key -> (checksum, bytes, record): stored at the next commit
        self._has_table = False

    # -- opening
    def _connect(self, _retry: bool = False) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        check_cache_folder(self.root)                # again: a link made since the cache was opened
        if self.read_only:
            return self._connect_read_only()
        self.root.mkdir(parents=True, exist_ok=True)
        add_group_read(self.root, directory=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o664)
        try:
            add_group_read(fd)
        finally:
            os.close(fd)
        uri = f"{self.path.resolve().as_uri()}?nofollow=1"
        db = sqlite3.connect(uri, uri=True, timeout=60.0)
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            # a new file gets its table in the transaction of its first records (one commit, not two)
            self._has_table = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'"
                                         ).fetchone() is not None
        except sqlite3.DatabaseError as exc:     # not a database (a damaged header): never read, kept aside
            db.close()
            if _retry:
                raise
            aside = next(p for i in itertools.count(1)
                         if not (p := self.path.with_name(f"{DB_NAME}.damaged-{i}")).exists())
            os.replace(self.path, aside)
            journal = self.path.with_name(DB_NAME + "-journal")
            if journal.exists():                 # its rollback journal belongs to it, never to a new file
                os.replace(journal, aside.with_name(aside.name + "-journal"))
            warnings.warn(f"run cache {self.path}: not a readable run cache ({exc}); moved to {aside.name}, "
                          "the runs it held are not used (a sweep makes them again)", CacheMismatchWarning,
                          stacklevel=3)
            return self._connect(_retry=True)
        self._db = db
        return db

    def _connect_read_only(self) -> sqlite3.Connection:
        """The existing file, opened without creating it (``mode=rw``: SQLite may still roll back the journal of
        a sweep that was killed, as a sweep would; a file the user cannot write is opened for reading), or a
        :class:`bounds.TaccInputError` when it is not a readable run cache (the file is left as it is)."""
        uri = f"{self.path.resolve().as_uri()}?mode=rw&nofollow=1"
        try:
            db = sqlite3.connect(uri, uri=True, timeout=60.0)
        except sqlite3.Error as exc:
            raise TaccInputError("root", str(self.root), f"its {DB_NAME} cannot be opened ({exc})") from None
        try:
            self._has_table = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'runs'"
                                         ).fetchone() is not None
        except sqlite3.DatabaseError as exc:
            db.close()
            raise TaccInputError("root", str(self.root), f"its {DB_NAME} is not a readable run cache ({exc}); it "
                                                         f"is left as it is (a sweep with this cache moves it aside "
                                                         f"and makes its runs again)") from None
        self._db = db
        return db

    # -- reading and writing
    def get(self, key: str) -> RunRecord | None:
        """The stored record of ``key``, or None if there is none or it does not match (with a warning)."""
        return self.get_many([key])[0]

    def get_many(self, keys: list, damaged: list | None = None) -> list:
        """:meth:`get` of every key, in order, with one query per 500 keys. A record that does not match is None;
        without ``damaged`` it is warned about (the runner makes it again), with it a ``DamagedRun`` is
        appended to ``damaged`` instead (a reader that makes no run says what it does itself)."""
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
        if not self._has_table:
            return out
        rows: dict[str, tuple[str, bytes]] = {}
        for start in range(0, len(missing), 500):
            chunk = [keys[i] for i in missing[start:start + 500]]
            query = f"SELECT key, checksum, record FROM runs WHERE key IN ({','.join('?' * len(chunk))})"
            rows.update((k, (c, d)) for k, c, d in db.execute(query, chunk))
        with _collector_paused():
            for i in missing:
                row = rows.get(keys[i])
                if row is not None:
                    record, bad = _checked(keys[i], *row)
                    if bad is None:
                        out[i] = record
                    elif damaged is None:
                        warnings.warn(f"run cache {self.path}: the record of key {keys[i][:12]}... is not used, "
                                      f"{bad.problem}; the run is recomputed", CacheMismatchWarning, stacklevel=2)
                    else:
                        damaged.append(bad)
        return out

    def put(self, key: str, record: RunRecord) -> None:
        """Store ``record`` under ``key`` (committed by the first ``put`` or :meth:`commit_due` once the oldest record
        not committed is ``save_every`` seconds old, or at :meth:`flush`)."""
        if self.read_only:
            raise TaccInputError("root", str(self.root), "is opened read-only: no run is stored there")
        data = encode_record(key, record)
        self._pending[key] = (_checksum(data), data, record)
        if self._oldest is None:
            self._oldest = time.monotonic()
        self.commit_due()

    def seconds_to_commit(self) -> float | None:
        """How long from now the records stored and not committed may wait (0 if they are due), or None if there
        are none: a caller about to wait that long or longer (for a worker's result) calls :meth:`commit_due` then."""
        if self._oldest is None:
            return None
        return max(0.0, self._oldest + self.save_every - time.monotonic())

    def commit_due(self) -> None:
        """Commit the stored records if the oldest of them is ``save_every`` seconds old."""
        if self._oldest is not None and time.monotonic() - self._oldest >= self.save_every:
            self.flush()

    def flush(self) -> None:
        """Write every stored record to disk, in one transaction (rows gathered since the last commit)."""
        if self._pending:
            db = self._connect()
            if not self._has_table:
                db.execute("BEGIN")
                db.execute(_CREATE)
                self._has_table = True
            db.executemany("INSERT OR REPLACE INTO runs (key, checksum, record) VALUES (?, ?, ?)",
                           [(k, c, d) for k, (c, d, _) in self._pending.items()])
            db.commit()
            self._pending.clear()
        self._oldest = None

    def close(self) -> None:
        self.flush()
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> "RunCache":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def items(self, damaged: list | None = None):
        """Every stored run as (key, record), in key order; a record that does not match is skipped: warned about,
        or, with ``damaged``, appended to it as a ``DamagedRun`` (as :meth:`get_many`)."""
        self.flush()
        if self._db is None and not self.path.exists():
            return
        db = self._connect()
        if not self._has_table:
            return
        keys = [k for (k,) in db.execute("SELECT key FROM runs ORDER BY key")]
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            for key, record in zip(chunk, self.get_many(chunk, damaged), strict=True):
                if record is not None:
                    yield key, record

    def __len__(self) -> int:
        self.flush()
        if self._db is None and not self.path.exists():
            return 0
        db = self._connect()
        return db.execute("SELECT count(*) FROM runs").fetchone()[0] if self._has_table else 0

