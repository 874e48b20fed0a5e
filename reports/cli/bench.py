"""``tacc bench``: engine speed as ratios against references measured in the same run."""

from __future__ import annotations

import sys
from dataclasses import replace

from reports.cli._files import Files, json_file
from reports.cli._options import Options, write_json
from reports.cli._parser import EXIT_OK, int_at_least
from reports.cli._plan import plan

HELP = "engine speed as ratios against references measured in the same run"


def arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="smaller budgets and fewer seeds")
    p.add_argument("--smpy-python", metavar="PYTHON", default=None,
                   help="an interpreter with SMPyBandits 0.9.7 installed (it needs scipy < 1.14: keep it in its own "
                        "virtualenv); without it that comparison is skipped")
    p.add_argument("--out", default="tacc-bench", metavar="DIR", help="folder for the scaling plots (default "
                                                                      "./tacc-bench)")
    p.add_argument("--workers", type=int_at_least(1), default=None, metavar="N",
                   help="processes for the scaling runs (default: the machine's cores)")
    p.add_argument("--json", metavar="PATH", help="write every measurement as JSON ('-' for stdout)")


def files(args, options: Options) -> Files:
    return Files(out_files=json_file(options.json), out_dirs=(("--out", args.out),),
                 runs=replace(options, executor="processes"),
                 checks=(lambda: _check_smpy(args.smpy_python),) if args.smpy_python is not None else ())


def _check_smpy(shown: str) -> None:
    """``--smpy-python``: an interpreter that runs and imports SMPyBandits (within 300 s)."""
    import subprocess

    from bounds import TaccInputError
    from reports.paths import executable

    program = executable("--smpy-python", shown)
    try:
        r = subprocess.run([program, "-c", "import SMPyBandits"], capture_output=True, text=True, timeout=300)
    except OSError as exc:
        raise TaccInputError("--smpy-python", shown, f"cannot be run: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise TaccInputError("--smpy-python", shown, "did not import SMPyBandits within 300 s") from None
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["no message"])[-1]
        raise TaccInputError("--smpy-python", shown, f"cannot import SMPyBandits ({last})")


def run(args, options: Options) -> int:
    from reports.bench import render, run_bench, work
    from reports.tables import dumps

    plan([], (), 0, what="tacc bench (timed serially: the bound counts one worker)", workers=1, progress=True,
         resume="an interrupted benchmark starts again (it measures, so it keeps no runs)", groups=work(args.quick))
    res = run_bench(quick=args.quick, smpy_python=args.smpy_python, out_dir=args.out, workers=options.workers,
                    progress=lambda m: print(m, file=sys.stderr))
    if options.json:
        write_json(dumps(res), options.json)
    if options.json != "-":
        print(render(res))
        print(f"\nfigures in {args.out}")
    return EXIT_OK
