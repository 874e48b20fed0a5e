"""What several commands read from their arguments, declared and read once: the shared options (:class:`Options`),
a configuration, seeds, ``--baseline``, and JSON written to a file or standard output."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, fields
from pathlib import Path

from reports.cli._parser import config_help, int_at_least

__all__ = ["Options", "add_run_options", "add_baseline_option", "config_help", "read_config", "config_file",
           "read_seeds", "as_option", "accepted_findings", "warn_unmatched_baseline", "write_json", "need_tables",
           "show_progress"]


@dataclass(frozen=True)
class Options:
    """The options several commands share, read once from the parsed arguments (:meth:`from_args`) and passed to
    the command's ``files`` and ``run``; an option the command does not take is None.

    How runs are made: ``executor`` (serial, processes or dask), ``workers`` (None: the machine's cores),
    ``scheduler`` (a Dask scheduler's address, None: a local cluster), ``cache`` (a folder keeping every finished
    run, None: none beyond the command's own), ``progress`` (a progress bar on a terminal). What is run and written:
    ``seeds`` (``--seeds`` as written: ``A:B`` or a count) and ``json`` (``--json PATH``, ``-`` for standard
    output)."""

    executor: str | None = None
    workers: int | None = None
    scheduler: str | None = None
    cache: str | None = None
    progress: bool = True
    seeds: str | None = None
    json: str | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> Options:
        """The shared options among the parsed ``args``; those the command does not declare are None."""
        given = vars(args)
        return cls(**{f.name: given[f.name] for f in fields(cls) if f.name in given})

    @property
    def planned_workers(self) -> int | None:
        """The workers the work is planned for: 1 with the serial executor (None: the machine's cores)."""
        return self.workers if self.executor != "serial" else 1

    def check(self) -> None:
        """Refuse, before any work, ``--workers`` that would be ignored or that this machine cannot hold, and a
        ``--scheduler`` without dask or that does not answer (connected to, then closed): exit 2 and nothing left
        behind."""
        from bounds import TaccInputError

        if self.workers is not None and self.executor == "serial":
            raise TaccInputError("--workers", self.workers, "is used only with --executor processes or dask (the "
                                                            "executor is serial, which makes every run in this "
                                                            "process)")
        if self.workers is not None and self.executor == "dask" and self.scheduler:
            raise TaccInputError("--workers", self.workers, "is used only without --scheduler (the runs go to the "
                                                            "workers of the cluster at --scheduler, which are the "
                                                            "scheduler's; --workers sets those of a local pool or "
                                                            "cluster)")
        if self.workers is not None:
            from reports.estimate import refuse_too_many_workers
            refuse_too_many_workers(self.workers)
        if self.scheduler is None:
            return
        if self.executor != "dask":
            raise TaccInputError("--scheduler", self.scheduler, f"is used only with --executor dask (the executor "
                                                                f"is {self.executor}, which would make the runs "
                                                                f"without it)")
        from simulate import connect

        connect(self.scheduler).close()


def add_run_options(p: argparse.ArgumentParser, executor: str, *, cache: str = "") -> None:
    """Add the run options of :class:`Options` to ``p`` (``executor``: the command's default; ``cache``: where its
    runs are kept without ``--cache``, said in the option's help)."""
    from simulate import EXECUTORS

    g = p.add_argument_group("where the runs are made")
    g.add_argument("--executor", choices=EXECUTORS, default=executor,
                   help="serial (this process), processes (a local pool) or dask (default %(default)s)")
    g.add_argument("--workers", type=int_at_least(1), default=None, metavar="N",
                   help="processes or local Dask workers (default: the machine's cores)")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="with --executor dask: a Dask scheduler address such as tcp://host:8786, connected to "
                        "before anything is written (default: a local cluster)")
    g.add_argument("--cache", metavar="DIR", default=None,
                   help="store every finished run in DIR; the same command run again skips them (resume)"
                        + (f" (default {cache})" if cache else ""))
    g.add_argument("--no-progress", dest="progress", action="store_false",
                   help="no progress bar (shown on a terminal, and always for work estimated to be long)")


def add_baseline_option(p: argparse.ArgumentParser) -> None:
    """``--baseline`` of the commands that judge claims (``tacc check``, ``tacc report``)."""
    p.add_argument("--baseline", metavar="PATH",
                   help="accepted findings: a JSON list of {claim, config, why}; 'repo' for the repository's "
                        "(certify/baseline.json); a VIOLATED verdict it accepts is not a finding (exit 0)")


def config_file(value: str) -> None:
    """A CONFIG that is not a preset must name an existing path; otherwise say both what it is not and the presets."""
    from bounds import PRESETS, TaccInputError, did_you_mean

    if not Path(value).exists():
        raise TaccInputError("config", value, f"is neither a file nor a preset ({', '.join(PRESETS)})"
                             + did_you_mean(value, PRESETS))


def read_config(value: str):
    """A preset name, or a configuration file that must be readable UTF-8 text (checked before it is parsed)."""
    from bounds import PRESETS, load_config
    from reports.paths import utf8_text

    if value not in PRESETS:
        config_file(value)
        utf8_text("config", value)
    return load_config(value)


def as_option(option: str, load, value):
    """``load(value)``, an error about the value naming the command-line option the user wrote (the libraries name
    their own argument: ``baseline``)."""
    from bounds import TaccInputError

    try:
        return load(value)
    except TaccInputError as exc:
        raise TaccInputError(option, exc.value, exc.reason) from None


def read_seeds(text: str) -> range:
    """``--seeds``, parsed by ``simulate.parse_seeds``; an error names ``--seeds``."""
    from simulate import parse_seeds

    return as_option("--seeds", parse_seeds, text)


def accepted_findings(baseline: str | None) -> dict | None:
    """``--baseline PATH|repo`` of ``tacc check`` and ``tacc report`` (``certify.load_baseline``: accepted
    findings with their reasons); None without it (and certify is not imported: ``tacc report`` reads it before
    its figures' helper starts). An error names ``--baseline``."""
    if not baseline:
        return None
    from certify import load_baseline

    return as_option("--baseline", load_baseline, baseline)


def warn_unmatched_baseline(command: str, baseline: dict | None, configs) -> None:
    """A warning line per ``--baseline`` entry whose configuration is not one checked but is near one (the file it
    was read from, its name as a file name, another case, a close spelling): such an entry would accept nothing, in
    silence. Entries far from every name and file (a list written for other configurations) are not named."""
    import difflib
    names = [c.name for c in configs]
    lowered = {n.lower(): n for n in names}
    files: dict[str, str] = {}                   # a checked file's path, name and stem -> its configuration's name
    for c in configs:
        if c.source and not c.source.startswith("preset:"):
            for key in (c.source, Path(c.source).name, Path(c.source).stem):
                files.setdefault(key.lower(), c.name)
    for claim, config in baseline or {}:
        if config == "*" or config in names:
            continue
        near = (files.get(config.lower()) or files.get(Path(config).name.lower())
                or lowered.get(Path(config).stem.lower()) or lowered.get(config.lower())
                or next(iter(difflib.get_close_matches(config, names, n=1, cutoff=0.75)), None))
        if near is not None:
            print(f"tacc {command}: warning: the --baseline entry for {claim} names the configuration {config!r}, "
                  f"which is not checked here (did you mean {near!r}? entries name configurations by their name)",
                  file=sys.stderr)


def write_json(text: str, dest: str) -> None:
    """``text`` and a newline to the file ``dest``, or to standard output for ``-``."""
    if dest == "-":
        sys.stdout.write(text + "\n")
    else:
        Path(dest).write_text(text + "\n")


def need_tables(option: str, value) -> None:
    """Refuse, before any work, a command that reads saved runs as tables without pandas (the tables extra)."""
    import importlib.util

    from bounds import TaccInputError

    if importlib.util.find_spec("pandas") is None:
        raise TaccInputError(option, str(value), "reading saved runs as tables needs pandas, which is not installed: "
                                                 "pip install '.[tables]' in the tacc repository (the tables extra)")


def show_progress(progress: bool) -> bool:
    """A progress bar is shown when asked for and standard error is a terminal."""
    return progress and sys.stderr.isatty()
