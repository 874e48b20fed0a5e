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
PAGES: tuple[Path, ...] = (README, *(ROOT / "docs" / page for page in ("configuration.md", "python.md")))
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


def _pages_of() -> dict[str, Path]:
    """KEY -> the page that holds its generated block (a key on two pages is an error)."""
    out: dict[str, Path] = {}
    for page in PAGES:
        for key in generated(page.read_text()):
            if key in out:
                raise ValueError(f"generated block {key!r} is on {out[key].name} and {page.name}")
            out[key] = page
    return out


def run_python_block(code: str, cwd: Path) -> str:
    """Run a page's Python block as a file ``example.py`` in ``cwd`` (as a user who saved it would); its stdout."""
    path = cwd / "example.py"
    path.write_text(code)
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, cwd=cwd, timeout=1800)
    if r.returncode != 0:
        raise RuntimeError(f"the block failed (exit {r.returncode}):\n{r.stderr}")
    return r.stdout


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


@dataclass(frozen=True)
class Output:
    """What produces one generated block: ``produce(cwd)`` gives the text, ``keep`` the lines shown."""

    produce: Callable[[Path], str]
    keep: Callable[[str], list[str]] = lambda out: out.rstrip("\n").splitlines()
    note: str = ""


#: KEY -> how its generated block is produced.
OUTPUTS: dict[str, Output] = {
    "report": Output(_tacc("report", "--no-progress"),
                     lambda out: [line for line in out.splitlines() if line.startswith("- ")],
                     "the conclusions of the README's main job, tacc report (1000 seeds, about a minute)"),
    "bounds": Output(_tacc("bounds", "llm-vanishing"), _bounds_excerpt),
    "simulate": Output(_tacc("simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:5", "--no-progress"),
                       _simulate_excerpt),
    "check": Output(_tacc("check", "--no-progress")),
    "continuation": Output(_continuation_sentences),
    "driving-by-hand": Output(_python("cheap_judge")),
    "bounds-from-python": Output(_python("certification_time(")),
}


def render(key: str) -> str:
    """The block body for ``key``, produced now in a temporary working directory."""
    with tempfile.TemporaryDirectory(prefix="tacc-readme-") as d:
        out = OUTPUTS[key].produce(Path(d))
    return "\n".join(OUTPUTS[key].keep(out)) + "\n"


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
    present = {k: generated(page.read_text())[k] for k, page in where.items()}
    keys = args.keys or list(OUTPUTS)
    unknown = [k for k in keys if k not in OUTPUTS] + [k for k in present if k not in OUTPUTS]
    missing = [k for k in keys if k not in present]
    if unknown or missing:
        print(f"unknown keys {unknown}; keys without a marker on any page {missing}", file=sys.stderr)
        return 2
    fresh = {k: render(k) for k in keys}
    stale = [k for k in keys if fresh[k] != present[k]]
    for k in stale:
        name = where[k].relative_to(ROOT)
        sys.stdout.writelines(difflib.unified_diff(present[k].splitlines(True), fresh[k].splitlines(True),
                                                   f"{name} ({k})", f"now ({k})"))
    if args.update and stale:
        for page in sorted({where[k] for k in stale}):       # edits made meanwhile kept
            page.write_text(update(page.read_text(), {k: fresh[k] for k in stale if where[k] == page}))
        print(f"updated: {', '.join(stale)}")
    elif args.check:
        print(f"stale: {', '.join(stale)}" if stale else f"up to date: {', '.join(keys)}")
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
