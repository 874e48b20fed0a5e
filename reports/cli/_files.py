"""What a command reads and writes, declared by the command (its ``files(args, options)``) and checked here before
any work: a bad path exits 2 with one line naming the option, and nothing is written."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reports.cli._options import Options

__all__ = ["Written", "Files", "check_files", "same_file", "inside", "json_file", "baseline_file", "run_cache",
           "cache_not_an_output"]


@dataclass(frozen=True)
class Written:
    """A path the command writes: the ``option`` that names it and its ``value`` as given, the ``path`` written,
    and whether the whole ``folder`` is the command's (else one file)."""

    option: str
    value: str
    path: Path
    folder: bool = False


@dataclass(frozen=True)
class Files:
    """A command's declaration of its paths and runs.

    ``configs``: CONFIG arguments (presets or files, read as UTF-8); ``inputs``: other files read, ``(option, path,
    what)`` (``what``: how a refusal names it); ``input_dirs``: folders read, ``(option, path)``; ``out_files``:
    file options ``(option, path, standard output allowed)``; ``out_dirs``: folder options ``(option, path)``;
    ``written``: every path written (never one read, never inside the run cache unless it is the cache);
    ``cache``: the run cache's folder written, with its option and the entries the command keeps there besides the
    runs; ``runs``: how runs are made (None: the command makes none); ``checks``: the command's own checks, run
    last."""

    configs: tuple[str, ...] = ()
    inputs: tuple[tuple[str, str, str], ...] = ()
    input_dirs: tuple[tuple[str, str], ...] = ()
    out_files: tuple[tuple[str, str, bool], ...] = ()
    out_dirs: tuple[tuple[str, str], ...] = ()
    written: tuple[Written, ...] = ()
    cache: Written | None = None
    cache_entries: tuple[str, ...] = ()
    runs: Options | None = None
    checks: tuple[Callable[[], None], ...] = ()

    def read(self) -> dict[str, str]:
        """The files the command reads, as given: {path: what it is}."""
        from bounds import PRESETS

        files = {c: "the configuration file" for c in self.configs if c not in PRESETS}
        files.update({path: what for _, path, what in self.inputs})
        return files

    def all_written(self) -> tuple[Written, ...]:
        """:attr:`written`, the file options (standard output aside) and the run cache's folder."""
        files = tuple(Written(o, v, Path(v)) for o, v, _ in self.out_files if v != "-")
        return files + ((self.cache,) if self.cache is not None else ()) + self.written


def json_file(path: str | None) -> tuple[tuple[str, str, bool], ...]:
    """The ``out_files`` entry of a ``--json PATH`` option (standard output allowed), none without it."""
    return (("--json", path, True),) if path is not None else ()


def baseline_file(path: str | None) -> tuple[tuple[str, str, str], ...]:
    """The ``inputs`` entry of a ``--baseline PATH`` option (none without it, or for ``repo``, the repository's)."""
    return (("--baseline", path, "the --baseline file"),) if path not in (None, "repo") else ()


def run_cache(cache: str | None, out: str | None = None) -> Written | None:
    """The run cache's folder a command writes: ``--cache``, else ``OUT/runs`` of a command that keeps its runs
    beside its output (``out``: its ``--out``); None without one."""
    if cache:
        return Written("--cache", cache, Path(cache), True)
    if out is not None:
        return Written("--out", out, Path(out) / "runs", True)
    return None


#: the files a report or a reproduction writes in its --out folder, which a --cache folder is never named as
OUTPUT_NAMES = ("report.md", "results.json", "README.md")


def cache_not_an_output(cache: str | None, out: str, suffixes: tuple[str, ...] = ()) -> None:
    """A ``--cache`` folder is never a file ``--out`` writes: one of :data:`OUTPUT_NAMES`, or a file with one of
    ``suffixes``, in the folder ``out``."""
    from bounds import TaccInputError

    if not cache:
        return
    folder = Path(cache)
    if folder.resolve().parent == Path(out).resolve() and (
            folder.name in OUTPUT_NAMES or folder.suffix in suffixes):
        raise TaccInputError("--cache", cache, f"is a file --out writes ({folder.name}): give another folder")


def same_file(a, b) -> bool:
    """Whether paths ``a`` and ``b`` name one file: the same path once links are resolved, or (both existing) the
    same file through a hard link."""
    pa, pb = Path(a), Path(b)
    if pa.resolve() == pb.resolve():
        return True
    try:
        return pa.exists() and pb.exists() and os.path.samefile(pa, pb)
    except OSError:
        return False


def inside(path, folder) -> bool:
    """Whether ``path`` is ``folder`` or lies inside it, once links are resolved."""
    p, f = Path(path).resolve(), Path(folder).resolve()
    return p == f or f in p.parents


def check_files(files: Files) -> None:
    """Every path ``files`` declares, checked before any work starts (``reports.paths``; an empty path is refused
    too), then that nothing written is read or lies in the run cache, then the run options
    (:meth:`Options.check`) and the command's own ``checks``."""
    from bounds import PRESETS, TaccInputError, did_you_mean
    from reports import paths
    from reports.cli._options import config_file

    for option, path, stdout in files.out_files:
        paths.output_file(option, path, allow_stdout=stdout)
    for option, path in files.out_dirs:
        paths.output_dir(option, path)
    if files.cache is not None:
        from simulate import check_cache_folder
        check_cache_folder(files.cache.path, option=files.cache.option, entries=files.cache_entries)
    for option, path in files.input_dirs:
        paths.input_dir(option, path)
    for option, path, _ in files.inputs:
        near_repo = did_you_mean(path, ["repo"]) if option == "--baseline" else ""
        if near_repo and not Path(path).exists():
            raise TaccInputError(option, path, "no such file" + near_repo)
        paths.utf8_text(option, path)
    for c in files.configs:
        if c not in PRESETS:
            config_file(c)
            paths.utf8_text("config", c)
    _check_nothing_read_is_written(files)
    if files.runs is not None:
        files.runs.check()
    for check in files.checks:
        check()


def _check_nothing_read_is_written(files: Files) -> None:
    """No file the command writes is one it reads, no file it writes lies in the run cache it uses, and no file one
    option writes is a folder another writes."""
    from bounds import TaccInputError

    inputs = files.read()
    written = files.all_written()
    for w in written:
        for given, what in inputs.items():
            if inside(given, w.path) if w.folder else same_file(w.path, given):
                raise TaccInputError(w.option, w.value, f"would write over {what} this command reads ({given}); "
                                     f"give another {'folder' if w.option in ('--out', '--cache') else 'file'}")
    cache = files.cache
    for w in written:
        # a file in the cache's folder, or an output folder that is the cache's or lies in it (--out rp --cache rp)
        if cache is not None and w is not cache and inside(w.path, cache.path):
            kind = "folder" if w.option in ("--out", "--cache") else "file"     # --out names the folder of the file
            raise TaccInputError(w.option, w.value, f"lies in the run cache's folder this command uses; writing it "
                                                    f"there would damage the cache (give a {kind} outside it)")
    folders = [(w.option, w.path) for w in written if w.folder] + [(o, Path(p)) for o, p in files.out_dirs]
    for w in written:
        for other, path in folders:
            if not w.folder and other != w.option and w.path.resolve() == path.resolve():
                raise TaccInputError(w.option, w.value, f"is the folder {other} writes: give them different paths")
