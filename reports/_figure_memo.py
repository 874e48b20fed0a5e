"""Figures kept beside the runs they were drawn from: a figure is a pure function of its builder's arguments and of
the code and libraries that draw it, so its files are reused when all of these are unchanged.

A memo entry is named by its key, the sha256 of: the builder (``"module:function"``) and its arguments pickled
(``pickle`` writes every value exactly: floats bit for bit, arrays with their dtype and bytes); the source of the
builder's module, of ``reports._figures`` (styles, dpi, how a file is saved) and of every module that defines a
class among the arguments (a property of such a class may be what the figure draws); the versions of Python,
matplotlib and numpy. Two different inputs never share a key; the same input may get a new key (a pickle that
shares an object where another copies it), which only costs a redraw.

An entry is ``KEY.json`` (its key and the sha256 of each file) beside ``KEY.png`` and ``KEY.pdf``, written files
first and the json last, so an entry without its json is not used. An entry whose json names another key or whose
file does not match its checksum is not used: the figure is redrawn (and the entry rewritten) with a
``FigureMemoWarning``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import pickle
import sys
import warnings
from importlib import metadata
from pathlib import Path

__all__ = ["FigureMemo", "FigureMemoWarning"]

#: the modules every figure is drawn with (besides its builder's): the styles, the dpi and how files are saved.
_DRAWING_MODULES = ("reports._figures",)


class FigureMemoWarning(UserWarning):
    """A memo entry that is damaged (a file that does not match its checksum): the figure is redrawn."""


def _source(module: str) -> bytes:
    """The source of ``module`` (read from its file, without importing it); b"" for a module with no source file."""
    loaded = sys.modules.get(module)
    origin = getattr(loaded, "__file__", None) if loaded is not None else None
    if origin is None:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
    if origin is None or not origin.endswith(".py"):
        return b""
    return Path(origin).read_bytes()


class _Recorder(pickle.Pickler):
    """A pickler that records the module of every object's class it pickles (``reducer_override`` sees every object
    but the exact builtins: None, bool, int, float, str, bytes and the plain containers)."""

    def __init__(self, file):
        super().__init__(file, protocol=5)
        self.modules: set[str] = set()

    def reducer_override(self, obj):
        self.modules.add(type(obj).__module__)
        if isinstance(obj, type):
            self.modules.add(obj.__module__)
        return NotImplemented


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FigureMemo:
    """Figures drawn before, kept in ``root`` (a folder inside the run cache's folder)."""

    def __init__(self, root, formats=("png", "pdf")):
        self.root = Path(root)
        self.formats = tuple(formats)

    def key(self, builder: str, args: tuple, kwargs: dict) -> str:
        """The key of the figure ``builder(*args, **kwargs)`` (the module docstring says what it covers)."""
        import io
        buf = io.BytesIO()
        rec = _Recorder(buf)
        rec.dump((builder, args, kwargs, self.formats))
        module = builder.split(":")[0]
        ours = sorted(m for m in rec.modules if m.split(".")[0] in ("bounds", "certify", "reports", "simulate"))
        h = hashlib.sha256()
        for part in (b"tacc figure memo 1", buf.getvalue(), sys.version.encode(),
                     metadata.version("matplotlib").encode(), metadata.version("numpy").encode()):
            h.update(len(part).to_bytes(8, "little") + part)
        for m in sorted({module, *_DRAWING_MODULES, *ours}):
            src = _source(m)
            h.update(len(m).to_bytes(8, "little") + m.encode() + len(src).to_bytes(8, "little") + src)
        return h.hexdigest()

    def restore(self, key: str, out_dir, name: str) -> list[str] | None:
        """Write the memo's files of ``key`` as ``out_dir/name``.ext (each whole or not at all) and return their
        names; None when there is no entry, or (with a ``FigureMemoWarning``) when it is damaged."""
        index = self.root / f"{key}.json"
        try:
            entry = json.loads(index.read_text())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as e:
            self._damaged(key, f"its index {index} cannot be read ({e})")
            return None
        if not isinstance(entry, dict) or entry.get("key") != key or not isinstance(entry.get("sha256"), dict):
            self._damaged(key, f"its index {index} does not name this key")
            return None
        data = {}
        for ext in self.formats:
            try:
                data[ext] = (self.root / f"{key}.{ext}").read_bytes()
            except OSError as e:
                self._damaged(key, f"its {ext} file cannot be read ({e})")
                return None
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
        self.root.mkdir(parents=True, exist_ok=True)
        sums = {}
        for ext in self.formats:
            data = (Path(out_dir) / f"{name}.{ext}").read_bytes()
            _write_whole(self.root / f"{key}.{ext}", data)
            sums[ext] = _sha256(data)
        _write_whole(self.root / f"{key}.json", json.dumps({"key": key, "sha256": sums}, indent=1).encode())

    def _damaged(self, key: str, why: str) -> None:
        warnings.warn(f"figure memo {self.root / key}: {why}; the figure is drawn again", FigureMemoWarning,
                      stacklevel=3)


def _write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file beside it renamed over it (whole or not at all)."""
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(data)
    os.replace(partial, path)
