"""Figures kept beside the runs they were drawn from: a figure is a pure function of its builder's arguments and of
the code and libraries that draw it, so its files are reused when all of these are unchanged.

A memo entry is named by its key, the sha256 of: the builder (``"module:function"``) and its arguments pickled
(``pickle`` writes every value exactly: floats bit for bit, arrays with their dtype and bytes); every source file of
``bounds``, ``certify``, ``reports`` and ``simulate`` (the builder, the styles and dpi of ``reports.figures._draw``, a
label's number format, a property of an argument's class: any edit redraws every figure); the versions of Python,
matplotlib and numpy. Two different inputs never share a key; the same input may get a new key (a pickle that
shares an object where another copies it), which only costs a redraw.

An entry is ``KEY.json`` (its key and the sha256 of each file) beside ``KEY.png`` and ``KEY.pdf``, written files
first and the json last, so an entry without its json is not used. An entry whose json names another key or whose
file does not match its checksum is not used: the figure is redrawn (and the entry rewritten) with a
``FigureMemoWarning``. The memo's folder and files are group-readable whatever the umask, as the run cache's.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import pickle
import sys
import warnings
from importlib import metadata
from pathlib import Path

from reports.paths import partial

__all__ = ["FigureMemo", "FigureMemoWarning"]

class FigureMemoWarning(UserWarning):
    """A memo entry that is damaged (a file that does not match its checksum): the figure is redrawn."""


#: the packages whose sources are in every key.
_PACKAGES = ("bounds", "certify", "reports", "simulate")


def _default_roots() -> tuple:
    """The folders of :data:`_PACKAGES`, found without importing them."""
    roots = []
    for p in _PACKAGES:
        spec = importlib.util.find_spec(p)
        assert spec is not None and spec.origin is not None, p     # the toolkit's own packages
        roots.append(Path(spec.origin).parent)
    return tuple(roots)


@functools.cache
def _toolkit_code(roots: tuple = ()) -> str:
    """The fingerprint of every ``.py`` file under ``roots`` (default: the folders of :data:`_PACKAGES`, found
    without importing them) with Python's, matplotlib's and numpy's versions; computed once per process."""
    from simulate import fingerprint_of
    versions = {"python": sys.version, "matplotlib": metadata.version("matplotlib"), "numpy": metadata.version("numpy")}
    return fingerprint_of(roots or _default_roots(), versions)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FigureMemo:
    """Figures drawn before, kept in ``root`` (a folder inside the run cache's folder)."""

    def __init__(self, root, formats=("png", "pdf")):
        self.root = Path(root)
        self.formats = tuple(formats)

    def key(self, builder: str, args: tuple, kwargs: dict) -> str:
        """The key of the figure ``builder(*args, **kwargs)`` (the module docstring says what it covers)."""
        h = hashlib.sha256()
        for part in (b"tacc figure memo 2", pickle.dumps((builder, args, kwargs, self.formats), protocol=5),
                     _toolkit_code().encode()):
            h.update(len(part).to_bytes(8, "little") + part)
        return h.hexdigest()

    def restore(self, key: str, out_dir, name: str) -> list[str] | None:
        """Write the memo's files of ``key`` as ``out_dir/name``.ext (each whole or not at all) and return their
        names; None when there is no entry, or (with a ``FigureMemoWarning``) when it is damaged."""
        index = self.root / f"{key}.json"
        if not index.exists() and not index.is_symlink():
            return None
        raw = self._read(key, index, "index")
        if raw is None:
            return None
        try:
            entry = json.loads(raw)
        except ValueError as e:
            self._damaged(key, f"its index {index} cannot be read ({e})")
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("sha256"), dict):
            self._damaged(key, f"its index {index} does not name this key")
            return None
        data = {}
        for ext in self.formats:
            raw = self._read(key, self.root / f"{key}.{ext}", f"{ext} file")
            if raw is None:
                return None
            data[ext] = raw
            if _sha256(data[ext]) != entry["sha256"].get(ext):
                self._damaged(key, f"its {ext} file does not match its sha256")
                return None
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        files = []
        for ext in self.formats:
            _write_whole(out_dir / f"{name}.{ext}", data[ext])
            files.append(f"{name}.{ext}")
        return files

    def store(self, key: str, out_dir, name: str) -> None:
        """Keep the files ``out_dir/name``.ext just drawn as the entry of ``key``."""
        from simulate import add_group_read
        self.root.mkdir(parents=True, exist_ok=True)
        add_group_read(self.root, directory=True)     # readable by the group, as the run cache it is in
        sums = {}
        for ext in self.formats:
            data = (Path(out_dir) / f"{name}.{ext}").read_bytes()
            _write_whole(self.root / f"{key}.{ext}", data, group_read=True)
            sums[ext] = _sha256(data)
        _write_whole(self.root / f"{key}.json", json.dumps({"key": key, "sha256": sums}, indent=1).encode(),
                     group_read=True)

    def _read(self, key: str, path: Path, what: str) -> bytes | None:
        """The bytes of the memo file ``path``; None (with a warning) when it is a link or cannot be read."""
        if path.is_symlink():
            self._damaged(key, f"its {what} is a symbolic link (the memo never follows links out of its folder)")
            return None
        try:
            return path.read_bytes()
        except OSError as e:
            self._damaged(key, f"its {what} cannot be read ({e})")
            return None

    def _damaged(self, key: str, why: str) -> None:
        warnings.warn(f"figure memo {self.root / key}: {why}; the figure is drawn again", FigureMemoWarning,
                      stacklevel=3)


def _write_whole(path: Path, data: bytes, *, group_read: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it renamed over it (whole or not at all);
    ``group_read``: the file is readable by the group whatever the umask (a memo file)."""
    temporary = partial(path)
    temporary.write_bytes(data)
    if group_read:
        from simulate import add_group_read
        add_group_read(temporary)
    os.replace(temporary, path)
