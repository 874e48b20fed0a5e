"""``tacc runs DIR``: saved runs (a cache folder or tables) as a summary, or exported as tables."""

from __future__ import annotations

from pathlib import Path

from reports.cli._files import Files, Written
from reports.cli._options import need_tables
from reports.cli._options import Options
from reports.cli._parser import EXIT_OK

HELP = "saved runs (a cache folder or tables) as a summary, or exported as tables"

#: where ``tacc runs DIR --to ...`` writes without ``--out``
DEFAULT_OUT = "tacc-runs"


def arguments(p) -> None:
    p.add_argument("dir", help="a cache folder (--cache DIR, a report's OUT/runs) or a folder of tables")
    p.add_argument("--to", choices=("parquet", "csv"), default=None, help="export runs, arms and configs tables")
    p.add_argument("--out", default=None, metavar="DIR",
                   help=f"with --to: folder for the exported tables (default ./{DEFAULT_OUT})")


def files(args, options: Options) -> Files:
    from bounds import TaccInputError

    if args.to is None and args.out is not None:    # --out without --to would write nothing
        raise TaccInputError("--out", args.out, "is where --to writes the tables; without --to nothing is written "
                                                "(give --to parquet or --to csv)")
    out = (args.out if args.out is not None else DEFAULT_OUT) if args.to is not None else None
    return Files(input_dirs=(("dir", args.dir),), out_dirs=(("--out", out),) if out is not None else (),
                 written=(Written("--out", out, Path(out), True),) if out is not None else (),
                 checks=(lambda: _tables_folder(out, args.to, args.dir),) if out is not None else ())


def _tables_folder(out: str, to: str, read: str) -> None:
    """Tables are never written into the folder the command reads (over the tables read), into a run cache
    (they would be read instead of its runs, or mixed with what it keeps) nor beside tables of the other format (a
    folder of both is read one way only)."""
    from bounds import TaccInputError
    from simulate import CACHE_ENTRIES, FORMATS

    folder = Path(out).resolve()
    cache = next((d for d in (folder, *folder.parents) if (d / CACHE_ENTRIES[0]).exists()), None)
    if cache is not None:
        raise TaccInputError("--out", out, f"is in a run cache ({cache / CACHE_ENTRIES[0]}): tables there would be "
                                           f"read instead of its runs, or mixed with what it keeps; give a folder "
                                           f"outside it")
    other = [f"runs.{f}" for f in FORMATS if f != to and (folder / f"runs.{f}").is_file()]
    if other:
        raise TaccInputError("--out", out, f"holds tables in another format ({', '.join(other)}): a folder of both "
                                           f"would be read one way only; give another folder")
    if folder == Path(read).resolve():
        raise TaccInputError("--out", out, f"is the folder dir reads ({read}): the tables would be written over "
                                           f"the runs they are read from; give another folder")


def run(args, options: Options) -> int:
    from reports.views import render_runs as render
    from reports.report import TOML_FOLDER, saved_runs, summarize_runs, write_config_files
    from simulate import save_frames

    need_tables("dir", args.dir)
    out = args.out if args.out is not None else DEFAULT_OUT
    frames = saved_runs("dir", args.dir)
    print(render(summarize_runs(frames)))
    if args.to:
        written = save_frames(frames, out, args.to)
        tomls = write_config_files(frames, out)
        print(f"\n{len(frames.runs)} runs, {len(frames.arms)} arm rows written to "
              + ", ".join(str(Path(f)) for f in written)
              + f"; each configuration as TOML (a CONFIG for tacc report) in {Path(out) / TOML_FOLDER}: "
              + ", ".join(p.name for p in tomls[:6]) + (f", ... ({len(tomls) - 6} more)" if len(tomls) > 6 else ""))
    return EXIT_OK
