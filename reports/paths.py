"""Path options of the command line, checked before any work starts.

Each check either returns the path or raises :class:`bounds.TaccInputError` naming the option and the path, so a
bad path costs no work and exits 2 (``docs/design.md``, "Exit statuses"). Writability is probed by creating and
removing a file, which also catches read-only file systems and a process that runs as root. An empty path is
refused by every check: it was taken as the working folder (``--cache ""`` wrote the cache there) or as no
option at all (``--baseline ""`` meant no baseline).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from bounds import TaccInputError

__all__ = ["input_file", "input_dir", "output_file", "output_dir", "executable", "utf8_text"]


def _nonempty(option: str, path, folder: bool = False) -> None:
    """Refuse an empty path; the hint ``.`` only for a folder option, where it means the working folder."""
    if str(path) == "":
        raise TaccInputError(option, "", "is an empty path" + (" (write . for the working folder)" if folder else ""))


def _probe_writable(option: str, folder: Path, shown: str) -> None:
    try:
        fd, name = tempfile.mkstemp(prefix=".tacc-probe-", dir=folder)
    except OSError as exc:
        raise TaccInputError(option, shown, f"cannot be written: {exc.strerror or exc}") from None
    os.close(fd)
    os.unlink(name)


def utf8_text(option: str, path) -> str:
    """The text of the file at ``path``; a missing, unreadable, non-file or non-UTF-8 file is refused."""
    p = input_file(option, path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise TaccInputError(option, str(path), f"cannot be read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TaccInputError(option, str(path), f"is not UTF-8 text (byte {exc.start}: "
                                                f"{data[exc.start:exc.start + 1]!r})") from None


def _existing(option: str, path, kind: str) -> Path:
    _nonempty(option, path, folder=kind == "folder")
    p = Path(path)
    if not p.exists():
        raise TaccInputError(option, str(path), f"no such {kind}")
    if not (p.is_file() if kind == "file" else p.is_dir()):
        raise TaccInputError(option, str(path), f"is not a {kind}")
    if not os.access(p, os.R_OK if kind == "file" else os.R_OK | os.X_OK):
        raise TaccInputError(option, str(path), "cannot be read")
    return p


def input_file(option: str, path) -> Path:
    """An existing, readable regular file."""
    return _existing(option, path, "file")


def input_dir(option: str, path) -> Path:
    """An existing, readable folder."""
    return _existing(option, path, "folder")


def output_file(option: str, path, *, allow_stdout: bool = False) -> str:
    """A file that can be written: ``-`` (standard output) if allowed, else a path whose folder exists and is
    writable, and which is not itself a folder. An existing file is overwritten."""
    _nonempty(option, path)
    if allow_stdout and str(path) == "-":
        return "-"
    p = Path(path)
    if p.is_dir() or str(path).endswith(("/", os.sep)):     # "nd/" wrote a file named nd
        raise TaccInputError(option, str(path), "is a folder, not a file")
    folder = p.parent
    if not folder.exists():
        raise TaccInputError(option, str(path), f"its folder {folder} does not exist")
    if not folder.is_dir():
        raise TaccInputError(option, str(path), f"{folder} is not a folder")
    if p.exists() and not os.access(p, os.W_OK):
        raise TaccInputError(option, str(path), "cannot be written")
    _probe_writable(option, folder, str(path))
    return str(path)


def output_dir(option: str, path) -> str:
    """A folder that exists and is writable, or can be created: its parent folder exists and is writable (no
    parents are created, as ``--json`` and ``--junit`` make no folder). Nothing is created here."""
    _nonempty(option, path, folder=True)
    p = Path(path)
    if p.is_symlink() and not p.exists():
        raise TaccInputError(option, str(path), "is a symbolic link to nothing")
    if p.exists() and not p.is_dir():
        raise TaccInputError(option, str(path), "exists and is not a folder")
    base = p if p.exists() else p.absolute().parent
    if not base.exists():
        raise TaccInputError(option, str(path), f"its folder {p.parent} does not exist")
    if not base.is_dir():
        raise TaccInputError(option, str(path), f"{p.parent} is not a folder")
    _probe_writable(option, base, str(path))
    return str(path)


def executable(option: str, program: str) -> str:
    """A program that exists and can be executed (a path, or a name on ``PATH``)."""
    _nonempty(option, program)
    found = shutil.which(program)
    if found is None:
        p = Path(program)
        reason = "is not executable" if p.exists() else "no such program"
        raise TaccInputError(option, program, reason)
    return found


def partial(path: Path, pid: int | None = None) -> Path:
    """The temporary file a file is written to before it is renamed over ``path`` (whole or not at all):
    ``.<name>.<pid>.partial`` beside it, one per writing process, so two commands writing the same folder never
    rename each other's (with one shared name, two ``tacc report`` runs on one ``--out`` would rename a file the
    other is writing)."""
    return path.with_name(f".{path.name}.{os.getpid() if pid is None else pid}.partial")
