"""Every output the README and the manual show, produced by running what they say (``python -m tests.readme_blocks``).

The pages are :data:`PAGES`: README.md and the manual's pages in docs/. A generated block is a fenced block right
after a marker line ``<!-- generated: KEY -->`` on any of them; KEY names an entry of :data:`OUTPUTS`, which runs
the command through the installed ``tacc`` console script (or a Python block of a page as a file in a temporary
folder) and keeps the lines the page shows.

    python -m tests.readme_blocks --update   # rewrite every generated block (after a change that moves a number)
    python -m tests.readme_blocks --check    # exit 1 and show the difference if any block is stale (the tests do this)
    python -m tests.readme_blocks --check bounds simulate   # only these keys

This module is a development tool, kept out of the installed packages: it reads and writes the repository's pages,
so it runs from a source tree.
"""

from __future__ import annotations

import argparse
import difflib
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

__all__ = ["README", "PAGES", "OUTPUTS", "Output", "blocks", "generated", "page_blocks", "render", "tacc_script",
           "run_python_block", "main"]

ROOT = Path(__file__).resolve().parents[1]
#: the repository's README.md (this tool lives in the source tree's tests/, beside it)
README = ROOT / "README.md"
#: the pages whose blocks are run and whose generated blocks are kept current: the README and the manual in docs/
#: (the user guide, docs/guide.md, has its own tests in tests/test_docs.py).
PAGES: tuple[Path, ...] = (README, *(ROOT / "docs" / page
                                      for page in ("commands.md", "configuration.md", "python.md",
                                                   "performance.md", "testing.md")))
_MARKER = re.compile(r"^<!-- generated: (\S+) -->\n```[^\n]*\n(.*?)^```$", re.M | re.S)
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def tacc_script() -> str:
    """The installed ``tacc`` console script next to this interpreter (as a user of the virtualenv runs it)."""
    found = shutil.which("tacc", path=str(Path(sys.executable).parent)) or shutil.which("tacc")
    if found is None:
        raise RuntimeError("the tacc console script is not installed: pip install -e . first")
    return found


def blocks(text: str) -> list[tuple[str, str]]:
    """Every fenced block of a Markdown text: (language, body)."""
    return [(m.group(1), m.group(2)) for m in _FENCE.finditer(text)]


def generated(text: str) -> dict[str, str]:
    """KEY -> the body of its generated block, as the page ``text`` holds it now."""
    return {m.group(1): m.group(2) for m in _MARKER.finditer(text)}


def page_blocks() -> list[tuple[str, str]]:
    """Every fenced block of every page of :data:`PAGES`, in their order: (language, body)."""
    return [b for page in PAGES for b in blocks(page.read_text())]


def _pages_of() -> dict[str, list[Path]]:
    """KEY -> the pages that hold its generated block (the main job's conclusions are on the README and on the
    page of ``tacc report``)."""
    out: dict[str, list[Path]] = {}
    for page in PAGES:
        for key in generated(page.read_text()):
            out.setdefault(key, []).append(page)
    return out


def run_python_block(code: str, cwd: Path) -> str:
    """Run a page's Python block as a file ``example.py`` in ``cwd`` (as a user who saved it would); its stdout."""
    path = cwd / "example.py"
    path.write_text(code)
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=cwd, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"the block failed (exit {r.returncode}):\n{r.stderr}")
    return r.stdout


#: the main job's figure the README shows, copied from the run that makes its conclusions by ``--update report``
FIGURE = ROOT / "docs" / "figures" / "report-regret_vs_budget.png"


def _tacc(*args: str) -> Callable[[Path], str]:
    def run(cwd: Path) -> str:
        r = subprocess.run([tacc_script(), *args], capture_output=True, text=True, cwd=cwd, timeout=3600)
        if r.returncode not in (0, 1):
            raise RuntimeError(f"tacc {' '.join(args)} exited {r.returncode}: {r.stderr}")
        return r.stdout
    return run


def _python(marker: str) -> Callable[[Path], str]:
    def run(cwd: Path) -> str:
        code = next(b for lang, b in page_blocks() if lang == "python" and marker in b)
        return run_python_block(code, cwd)
    return run


def _table(lines: list[str], start: str) -> list[str]:
    """The lines from the first that starts with ``start`` up to the next blank line."""
    i = next(j for j, line in enumerate(lines) if line.startswith(start))
    j = next((k for k in range(i + 1, len(lines)) if not lines[k].strip()), len(lines))
    return lines[i:j]


def _bounds_excerpt(out: str) -> list[str]:
    lines = out.splitlines()
    quantities = _table(lines, "quantity")
    last = next(i for i, q in enumerate(quantities) if q.startswith("class_counts "))
    arms = _table(lines, "arm  mu_high")
    # the quantities up to class_counts, every row of them (a row left out between two shown needs a "...")
    return ["$ tacc bounds llm-vanishing", *quantities[:last + 1], "...", *arms]


def _simulate_excerpt(out: str) -> list[str]:
    lines = out.splitlines()
    runs = _table(lines, "seed  rounds")
    arms = _table(lines, "arm  mu_high")
    return ["$ tacc simulate llm-residual --policy tacc --seeds 0:5", lines[0], "", *runs[:3], "   ...",
            "per arm, over seeds", *arms[:4], "  ..."]


def _continuation_sentences(cwd: Path) -> str:
    """The continuation-window sentence of ``tacc bounds`` on llm-residual and on set-a, wrapped as the README
    shows it; each heading says it is that sentence (the per-arm window table follows it in the output)."""
    import textwrap

    lines = []
    for preset in ("llm-residual", "set-a"):
        out = _tacc("bounds", preset)(cwd)
        sentence = next(line for line in out.splitlines() if line.startswith("Continuation "))
        lines += [f"$ tacc bounds {preset}        (its continuation sentence)", *textwrap.wrap(sentence, 115)]
    return "\n".join(lines) + "\n"


def _bench_json(*args: str) -> Callable[[Path], str]:
    """``tacc bench ARGS --json``'s JSON text, run in ``cwd``."""
    def run(cwd: Path) -> str:
        _tacc("bench", *args, "--json", str(cwd / "bench.json"), "--out", str(cwd / "bench"))(cwd)
        return (cwd / "bench.json").read_text()
    return run


def _bench_smoke(cwd: Path) -> str:
    """The test suite's size of ``tacc bench`` (``run_bench(smoke=True)``), as ``--json`` writes it: its rows are
    those of a quick or full bench, its numbers measure nothing."""
    from reports.bench import run_bench
    from reports.tables import dumps

    return dumps(run_bench(smoke=True, out_dir=cwd / "bench", workers=2, progress=lambda m: None))


def _bench_table(out: str) -> list[str]:
    """The ratios of one ``tacc bench`` run (its ``--json``): the machine once, then one row per figure, each read
    from the bench's own targets, reported figures and rows (nothing computed again here)."""
    import json

    from reports.tables import table

    data = json.loads(out)
    rows = data["rows"]
    m = data["machine"]

    def value(kind: str, name: str) -> float:
        """The value of the target (``kind`` "targets") or reported figure ("reported") whose name starts with
        ``name``."""
        field = "target" if kind == "targets" else "figure"
        return next(x["value"] for x in data[kind] if x[field].startswith(name))
    lines = []
    for instance in dict.fromkeys(r["instance"] for r in rows):
        reference = [r["ratio_vs_fast"] for r in rows if r["instance"] == instance
                     and r["implementation"] == "reference"]
        lines += [(f"fast TACC / minimal compiled kernel, per round, {instance}",
                   f"{value('targets', f'fast TACC <= 1.5x the minimal kernel per round ({instance})'):.2f}"),
                  (f"reference engine / fast engine, per round, {instance} (8 policies)",
                   f"{min(reference):.0f} to {max(reference):.0f}"),
                  (f"numpy per-round TACC / fast TACC, {instance}",
                   f"{value('reported', f'numpy per-round TACC / fast TACC ({instance})'):.0f}")]
    memory = data["memory"]
    checks = data["checks"]
    lines += [("per-round cost at K = 5000 / at K = 50 (TACC, Set-B-like)",
               f"{value('targets', 'per-round cost at K = 5000 <= 3x K = 50'):.2f}"),
              ("observation draw, Gaussian / Bernoulli (ns)",
               f"{data['draw_ns']['gaussian']:.2f} / {data['draw_ns']['bernoulli']:.2f}"),
              ("previous generator (hash + Box-Muller) / this one, per draw",
               f"{value('reported', 'previous generator (hash + Box-Muller) / this one, per Gaussian draw'):.1f}"),
              (f"peak memory of a run, budget {memory[-1]['budget']:,} against {memory[0]['budget']:,} (extra MB)",
               f"{value('targets', 'peak memory of a run independent of the budget'):.1f}"),
              ("implementations making the same decisions (checks held)",
               f"{sum(c['same'] for c in checks)} of {len(checks)}")]
    head = f"tacc bench{' --quick' if data['quick'] else ''}: {m['cpus']} CPUs, Python {m['python']}, {m['platform']}"
    return [head, "", *table(["figure", "measured"], lines).splitlines()]


@dataclass(frozen=True)
class Output:
    """What produces one generated block: ``produce(cwd)`` gives the text, ``keep`` the lines shown. A block whose
    numbers are measurements (``check`` given) is checked by running ``check(cwd)``, a smaller run with the same
    rows, and comparing the lines with their numbers masked."""

    produce: Callable[[Path], str]
    keep: Callable[[str], list[str]] = lambda out: out.rstrip("\n").splitlines()
    note: str = ""
    check: Callable[[Path], str] | None = None
    #: (a file the run writes, relative to its folder; the page's copy of it): copied by ``--update``
    copy: tuple[str, Path] | None = None


#: KEY -> how its generated block is produced.
OUTPUTS: dict[str, Output] = {
    "report": Output(_tacc("report", "--no-progress"),
                     lambda out: [line for line in out.splitlines() if line.startswith("- ")],
                     "the conclusions of the README's main job, tacc report (1000 seeds, about a minute)",
                     copy=("tacc-report/figures/regret_vs_budget.png", FIGURE)),
    "bounds": Output(_tacc("bounds", "llm-vanishing"), _bounds_excerpt),
    "simulate": Output(_tacc("simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:5", "--no-progress"),
                       _simulate_excerpt),
    "check": Output(_tacc("check", "--no-progress")),
    "continuation": Output(_continuation_sentences),
    "driving-by-hand": Output(_python("cheap_judge")),
    "bounds-from-python": Output(_python("certification_time(")),
    "bench": Output(_bench_json("--quick"), _bench_table, "tacc bench --quick (a few minutes)", check=_bench_smoke),
}

#: a number as a measured table shows it (masked when a block's numbers are measurements)
_NUMBER = re.compile(r"\d[\d.,]*")


def masked(text: str) -> str:
    """``text`` with every number written ``#`` and runs of spaces as one (the columns move with the numbers)."""
    return re.sub(r" +", " ", _NUMBER.sub("#", text))


def render(key: str, check: bool = False, update: bool = False) -> str:
    """The block body for ``key``, produced now in a temporary working directory (``check``: by the block's smaller
    run, when it has one; ``update``: the file the block's ``copy`` names is copied to the page's copy)."""
    output = OUTPUTS[key]
    with tempfile.TemporaryDirectory(prefix="tacc-readme-") as d:
        out = (output.check if check and output.check else output.produce)(Path(d))
        if update and output.copy:
            made, kept = output.copy
            kept.parent.mkdir(exist_ok=True)
            shutil.copyfile(Path(d) / made, kept)
    return "\n".join(output.keep(out)) + "\n"


def update(text: str, fresh: dict[str, str]) -> str:
    """``text`` with the generated blocks of ``fresh`` replaced."""
    def sub(m):
        if m.group(1) not in fresh:
            return m.group(0)
        head = m.group(0)[:m.start(2) - m.start(0)]
        return head + fresh[m.group(1)] + "```"
    return _MARKER.sub(sub, text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.readme_blocks", description=__doc__.split("\n\n")[0])
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="compare; exit 1 on a stale block")
    mode.add_argument("--update", action="store_true", help="rewrite the stale blocks in their pages")
    p.add_argument("keys", nargs="*", help=f"only these blocks ({', '.join(OUTPUTS)}; default all)")
    args = p.parse_args(argv)
    where = _pages_of()
    shown = {(k, page): generated(page.read_text())[k] for k, pages in where.items() for page in pages}
    present = {k: shown[k, where[k][0]] for k in where}
    keys = args.keys or list(OUTPUTS)
    unknown = [k for k in keys if k not in OUTPUTS] + [k for k in present if k not in OUTPUTS]
    missing = [k for k in keys if k not in present]
    if unknown or missing:
        print(f"unknown keys {unknown}; keys without a marker on any page {missing}", file=sys.stderr)
        return 2
    fresh = {k: render(k, check=args.check, update=args.update) for k in keys}

    def same(k: str, block: str) -> bool:
        return fresh[k] == block or (OUTPUTS[k].check is not None and args.check and masked(fresh[k]) == masked(block))
    stale_on = [(k, page) for k in keys for page in where[k] if not same(k, shown[k, page])]
    stale = list(dict.fromkeys(k for k, _ in stale_on))
    for k, page in stale_on:
        sys.stdout.writelines(difflib.unified_diff(shown[k, page].splitlines(True), fresh[k].splitlines(True),
                                                   f"{page.relative_to(ROOT)} ({k})", f"now ({k})"))
    if args.update and stale:
        for page in sorted({page for _, page in stale_on}):       # edits made meanwhile kept
            page.write_text(update(page.read_text(), {k: fresh[k] for k, p in stale_on if p == page}))
        print(f"updated: {', '.join(stale)}")
    elif args.check:
        print(f"stale: {', '.join(stale)}" if stale else f"up to date: {', '.join(keys)}")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
