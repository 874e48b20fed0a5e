"""The README and the manual's pages (``tests.readme_blocks.PAGES``) are executable documentation: every code block
runs as a user would run it, and every output they show is what ``python -m tests.readme_blocks`` produces now."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import readme_blocks as readme

ROOT = Path(__file__).resolve().parents[1]
assert readme.README == ROOT / "README.md", (readme.README, "run the tests from the repository root")
README_TEXT = readme.README.read_text()
#: every page's text, the README first
TEXT = "\n".join(page.read_text() for page in readme.PAGES)
BLOCKS = readme.page_blocks()
#: KEY -> its generated block on each page that shows it
SHOWN = [(k, page, v) for page in readme.PAGES for k, v in readme.generated(page.read_text()).items()]
GENERATED = {k: v for k, _, v in SHOWN}


def _python_blocks():
    return [b for lang, b in BLOCKS if lang == "python"]


def test_every_block_is_covered_by_a_test_below():
    """A new kind of block fails here until a test runs it."""
    bodies = set(GENERATED.values())
    for lang, body in BLOCKS:
        assert lang in ("python", "toml", "yaml", "bash") or body in bodies or _is_usage(lang, body), (lang, body[:80])
    assert sorted(GENERATED) == sorted(readme.OUTPUTS)
    assert [lang for lang, _ in BLOCKS].count("bash") == 1 and [lang for lang, _ in BLOCKS].count("yaml") == 1


def _is_usage(lang: str, body: str) -> bool:
    """A command's synopsis, a ``text`` block of ``tacc ...`` lines (checked below)."""
    return lang == "text" and all(line.startswith("tacc ") for line in body.splitlines())


def test_every_synopsis_names_options_its_command_takes():
    """Each command's synopsis (``tacc report [CONFIG] [--seeds N] ...``) names only options its parser takes, and
    the pages give one for every command."""
    from reports.cli import build_parser

    parser = build_parser()
    commands = {a.dest: a for a in parser._actions if a.dest == "command"}["command"].choices
    seen = set()
    for lang, body in BLOCKS:
        if not _is_usage(lang, body):
            continue
        for line in body.splitlines():
            name = line.split()[1]
            seen.add(name)
            taken = set(re.findall(r"--[a-z][a-z-]*", commands[name].format_help()))
            unknown = [o for o in re.findall(r"--[a-z][a-z-]*", line) if o not in taken]
            assert not unknown, (line, unknown)
    assert seen == set(commands) - {"help"}, set(commands) - seen


@pytest.mark.slow
@pytest.mark.parametrize("key", list(readme.OUTPUTS))
def test_shown_output_is_current(key):
    """Stale? Run ``python -m tests.readme_blocks --update`` and commit the pages."""
    measured = readme.OUTPUTS[key].check is not None       # its numbers are measurements: its rows are compared
    now = readme.render(key, check=measured)
    for k, page, block in SHOWN:
        if k == key:
            assert (readme.masked(now) == readme.masked(block)) if measured else now == block, \
                f"{page.name}: block {key!r} is stale: python -m tests.readme_blocks --update"


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(_python_blocks())))
def test_python_block_runs_as_a_file(index, tmp_path):
    code = _python_blocks()[index]
    if re.search(r"^def test_", code, flags=re.M):  # an example test: run it the way its reader would, with pytest
        (tmp_path / "test_example.py").write_text(code)
        r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_example.py"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=1800)
        assert r.returncode == 0 and " passed" in r.stdout, r.stdout + r.stderr
    else:
        readme.run_python_block(code, tmp_path)


def _toml_blocks() -> dict:
    """The README's configuration blocks by their ``name``."""
    import tomllib
    return {tomllib.loads(b)["name"]: b for lang, b in BLOCKS if lang == "toml"}


def test_configuration_block_is_a_valid_configuration(tmp_path):
    assert set(_toml_blocks()) == {"example", "targeted-decay"}
    toml = _toml_blocks()["example"]
    (tmp_path / "example.toml").write_text(toml)
    r = subprocess.run([readme.tacc_script(), "bounds", "example.toml"], capture_output=True, text=True,
                       cwd=tmp_path, timeout=600)
    assert r.returncode == 0 and "tacc bounds: example" in r.stdout, r.stderr


def test_baseline_example_is_the_accepted_finding_of_the_tests():
    """The README's ``wide.toml`` (the ``--baseline repo`` example of ``tacc report``) is the configuration the tests
    show the accepted finding on (``tests/reports/cli/test_report.py``: exit 1 without the baseline, 0 with it), so
    the example's exit statuses are tested ones."""
    import tomllib

    from tests.certify.test_properties import WIDE_GAP
    assert tomllib.loads(_toml_blocks()["targeted-decay"]) == tomllib.loads(WIDE_GAP)


def _setup_lines():
    (bash,) = [b for lang, b in readme.blocks(README_TEXT) if lang == "bash"]
    return {line.rsplit("#", 1)[1].strip(): line.rsplit("#", 1)[0].strip() for line in bash.splitlines()}


def test_setup_block_is_what_ci_and_the_report_block_run():
    lines = _setup_lines()
    assert set(lines) == {"main job", "tests", "lint", "docs"}
    r = subprocess.run(["bash", str(ROOT / ".ci" / "run"), "--dry-run"], capture_output=True, text=True, check=True)
    assert f"command: {lines['tests']}\n" in r.stdout
    assert f"lint: {lines['lint']}\n" in r.stdout  # run by CI after the tests (tests/test_lint.py: it has teeth)
    assert lines["lint"].startswith(".venv/bin/ruff check") and lines["lint"].endswith(".venv/bin/lint-imports")
    assert f"docs: {lines['docs']}\n" in r.stdout
    folder = Path(re.search(r"folder: (.*)", r.stdout).group(1))
    assert ROOT not in folder.parents, ".ci/run must not build inside the repository"
    assert lines["main job"].endswith("&& .venv/bin/tacc report")  # its conclusions: the generated 'report' block


@pytest.mark.slow
def test_ci_block_runs_as_written(tmp_path):
    (yaml,) = [b for lang, b in BLOCKS if lang == "yaml"]
    runs = [re.sub(r"\s+#.*$", "", line.removeprefix("- run: ")).strip() for line in yaml.splitlines()]
    setup = _setup_lines()["tests"]
    assert f"{runs[0]} && {runs[1]}" == setup  # install and test: the README's test line, run by .ci/run
    assert runs[3] == "HYPOTHESIS_PROFILE=deep .venv/bin/pytest tests/certify"  # nightly, not run here
    from hypothesis import settings
    settings.get_profile("deep")  # registered by tests/conftest.py
    gate = runs[2].split()
    assert gate[0] == ".venv/bin/tacc"
    r = subprocess.run([readme.tacc_script(), *gate[1:]], capture_output=True, text=True,
                       cwd=tmp_path, timeout=1800)
    assert r.returncode == 0, r.stderr
    assert "<testsuite" in (tmp_path / "check.xml").read_text()


def test_tests_readme_names_files_that_exist():
    """Every concrete path in tests/README.md exists."""
    text = (ROOT / "tests" / "README.md").read_text()
    paths = set(re.findall(r"`([\w./-]+/[\w.-]+\.(?:py|md|json|toml))`", text))  # with a folder, no <placeholder>
    assert len(paths) > 10
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing


def _block(marker: str) -> str:
    return next(b for b in _python_blocks() if marker in b)


def test_the_ask_tell_example_with_a_python_model_runs_as_a_file(tmp_path):
    code = _block("class WarmupJudge")
    shown = [line[len("# -> "):] for line in code.splitlines() if line.startswith("# -> ")]
    out = readme.run_python_block(code, tmp_path)
    assert len(shown) == 2 and out.splitlines() == shown


def test_the_tables_example_runs_as_a_file(tmp_path):
    out = readme.run_python_block(_block("records_frame(run_tasks(tasks), tasks)"), tmp_path)
    assert "tacc" in out and "ucb" in out
    assert sorted(p.name for p in (tmp_path / "my-tables").iterdir()) == ["arms.parquet", "configs.parquet",
                                                                          "runs.parquet"]


def _optional_keys() -> dict:
    """The README's list of optional configuration keys: dotted key -> the TOML value it says is used."""
    import tomllib
    section = TEXT.split("Optional keys, with the value used when one is left out", 1)[1].split("\n\n", 2)[1]
    out = {}
    for line in section.splitlines():
        m = re.match(r"- `([a-z0-9_.]+)`: (`(.+?)`|the file's name)", line)
        assert m, line
        out[m.group(1)] = tomllib.loads(f"v = {m.group(3)}")["v"] if m.group(3) else None
    return out


def _leaves(d: dict, prefix=""):
    for k, v in d.items():
        yield prefix + k
        if isinstance(v, dict):
            yield from _leaves(v, f"{prefix}{k}.")


def _without(d: dict, dotted: str) -> dict:
    import copy
    d = copy.deepcopy(d)
    *path, last = dotted.split(".")
    t = d
    for p in path:
        t = t[p]
    del t[last]
    return d


@pytest.mark.parametrize("low", [
    {"model": "power_decay", "zeta": 0.2, "r": 0.5, "signs": [1, -1]},
    {"model": "residual_decay", "zeta": 0.2, "r": 0.5, "signs": [1, -1], "b": 0.1, "n0": 3.0},
    {"model": "checkpoint", "q": [1, 4], "gap": [0.1, 0.0], "q_max": 8, "signs": [1, -1]}])
def test_the_optional_keys_list_is_the_parsers(low, tmp_path):
    """Every key the README lists as optional may be left out and then takes the value it states; every key it does
    not list is required (leaving it out is refused as missing)."""
    from bounds import TaccInputError, parse_config
    listed = _optional_keys()
    full = {"name": "full", "instance": {"mu_high": [0.9, 0.5], "seed": 7,
                                         "noise": {"model": "gaussian", "sigma": 2.0}, "low": low},
            "costs": {"low": 1.0, "high": 10.0},
            "params": {"budget": 1000, "delta": 0.1, "rho": 3.0, "gamma": 0.1, "eta": 0.01, "s0": 2}}
    attrs = {"name": lambda c: c.name, "instance.seed": lambda c: c.instance.seed,
             "instance.noise": lambda c: {"model": c.instance.noise.model, "sigma": c.instance.noise.sigma},
             "instance.noise.sigma": lambda c: c.instance.noise.sigma,
             "instance.low.signs": lambda c: c.instance.low.signs, "instance.low.n0": lambda c: c.instance.low.n0,
             "params.delta": lambda c: c.params.delta, "params.rho": lambda c: c.params.rho}
    assert set(listed) == set(attrs)
    for key in _leaves(full):
        cfg = _without(full, key)
        if key in listed:
            c = parse_config(cfg, str(tmp_path / "mine.toml"))
            assert attrs[key](c) == (listed[key] if key != "name" else "mine"), key
            assert attrs[key](c) != attrs[key](parse_config(full)), key       # the full config's value differs
        else:
            with pytest.raises(TaccInputError, match="is required|give exactly one"):
                parse_config(cfg)


def _runs_of(shown: list[str], out: str) -> list[list[str]]:
    """The runs of ``shown`` (an excerpt after its ``$ tacc ...`` line) between its cuts (lines ``...``) that are not
    consecutive lines of ``out``."""
    lines, runs, run = out.splitlines(), [], []
    for line in [*shown, "..."]:
        if line.strip() == "...":
            runs.append(run)
            run = []
        else:
            run.append(line)
    return [r for r in runs if r and not any(lines[i:i + len(r)] == r for i in range(len(lines)))]


@pytest.mark.parametrize("key, args", [("bounds", ["bounds", "llm-vanishing"]),
                                       ("simulate", ["simulate", "llm-residual", "--policy", "tacc", "--seeds", "0:5",
                                                     "--no-progress"])])
def test_an_excerpt_marks_every_cut(key, args, tmp_path):
    """The `tacc bounds llm-vanishing` excerpt dropped the rho, ell and low_count_bound rows without a `...`."""
    out = readme._tacc(*args)(tmp_path)
    shown = readme.OUTPUTS[key].keep(out)
    assert shown[0].startswith("$ tacc ") and not _runs_of(shown[1:], out), _runs_of(shown[1:], out)


def test_the_continuation_headings_say_what_they_show(tmp_path):
    """`$ tacc bounds llm-residual (the end of the output)` headed a sentence that a per-arm table follows."""
    block = GENERATED["continuation"].splitlines()
    for preset in ("llm-residual", "set-a"):
        heading = next(line for line in block if line.split()[:3] == ["$", "tacc", "bounds"]
                       and line.split()[3] == preset)
        lines = readme._tacc("bounds", preset)(tmp_path).splitlines()
        sentence = next(i for i, line in enumerate(lines) if line.startswith("Continuation "))
        assert "end of the output" not in heading or sentence == len(lines) - 1, heading
        assert "continuation sentence" in heading, heading


def test_the_executor_defaults_the_readme_states_are_the_parsers():
    """The report section said the runs are made "as `tacc check`'s and `tacc simulate`'s are: `--executor ...`
    (default processes)", while check's and simulate's default is serial. Every stated default applies to the
    section's command and to each command named in its sentence, unless the parenthesis gives that command its own
    (``default processes here; serial in `tacc check```)."""
    from reports.cli import build_parser

    parser = build_parser()
    argv = {"check": ["check"], "simulate": ["simulate", "set-a", "--policy", "tacc"], "report": ["report"],
            "reproduce": ["reproduce", "all"]}
    defaults = {cmd: parser.parse_args(args).executor for cmd, args in argv.items()}
    said = 0
    for m in re.finditer(r"`--executor serial\|processes\|dask`\s+\(default\s+([^)]*)\)", TEXT):
        section = re.findall(r"^#{2,3} `tacc (\w+)", TEXT[:m.start()], re.M)[-1]
        sentence = re.split(r"\.\s", TEXT[:m.start()])[-1]
        clauses = m[1].split(";")
        given = {}
        for clause in clauses:
            for cmd in re.findall(r"`tacc (\w+)`", clause):
                given[cmd] = clause.split()[0]
        first = clauses[0].split()[0]
        for cmd in {section, *re.findall(r"`tacc (\w+)`", sentence)}:
            assert given.get(cmd, first) == defaults[cmd], (cmd, m[0])
            said += 1
    assert said >= 3


#: the sections of the README when it was the whole manual (before the manual moved to docs/): each topic is still
#: on a page, under its title, or as its command's synopsis, or renamed (:data:`_RENAMED`).
_OLD_TITLES = [
    "What exists today",
    "`tacc report [CONFIG] [--seeds N] [--out DIR] [--baseline PATH|repo] [--executor ...] [--scheduler ADDRESS] "
    "[--cache DIR]`",
    "`tacc reproduce [EXPERIMENT ... | all] [--seeds N] [--quick] [--out DIR] [--executor ...]`",
    "`tacc bounds CONFIG [--json PATH] [--max-arms N]`",
    "`tacc explain CONFIG [--policy P] [--seed S] [--engine fast|reference] [--json PATH] [--out DIR] [--max-arms N]`",
    "`tacc simulate CONFIG --policy P [--seeds A:B|N] [--engine fast|reference] [--json PATH] [--max-arms N]`",
    "`tacc check [CONFIG ...] [--random N] [--seeds M] [--policy P]... (repeat --policy per policy) [--json PATH] "
    "[--junit PATH] [--baseline PATH|repo] [--strict] [--verdicts all|violated]`",
    "Property tests and hypothesis strategies",
    "Tables of runs: `tacc runs DIR [--to parquet|csv [--out OUT]]` and `tacc report --from DIR`",
    "`tacc proofs [--json PATH] [--baseline PATH|repo] [--coverage] [--wide]`",
    "`tacc bench [--quick] [--smpy-python PYTHON] [--out DIR] [--workers N] [--json PATH]`",
    "Exit statuses, errors and long work",
    "Driving a policy by hand",
    "Your own judge and your own low-fidelity model (ask/tell)",
    "The configuration format",
    "Using `bounds` from Python",
    "Running many seeds from Python",
    "Tests",
    "Documentation",
]
_RENAMED = {"What exists today": "The packages"}


def test_every_topic_of_the_old_readme_is_on_a_page():
    """Nothing was lost when the README became a front door: every section title it had is a heading of the README
    or of a page of the manual, or its commands' synopses are there (a command's section is headed by its name)."""
    headings = {re.sub(r"^#+ ", "", line).strip() for line in TEXT.splitlines() if re.match(r"#{1,4} ", line)}
    lines = set(TEXT.splitlines())
    for title in _OLD_TITLES:
        commands = [c.strip("`") for c in re.findall(r"`(tacc [^`]*)`", title)]
        found = (title in headings or _RENAMED.get(title) in headings
                 or (commands and all(c in lines for c in commands)))
        assert found, title
    assert len(README_TEXT.splitlines()) <= 200


def _anchor(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule, which MyST's heading anchors follow):
    lower case, punctuation other than hyphens dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_links_to_pages_and_headings_that_exist():
    """Every relative link of the README names a file of the repository and, with ``#``, a heading of it."""
    links = re.findall(r"\]\(([^)#:]+)(?:#([^)]+))?\)", README_TEXT)
    assert len(links) > 10
    for path, anchor in links:
        target = ROOT / path
        assert target.is_file(), path
        if anchor:
            anchors = {_anchor(re.sub(r"^#+ ", "", line)) for line in target.read_text().splitlines()
                       if re.match(r"#{1,6} ", line)}
            assert anchor in anchors, (path, anchor, sorted(anchors))
