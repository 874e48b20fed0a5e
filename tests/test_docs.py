"""The documentation: the user guide's examples run; the Sphinx build that CI runs with warnings as errors fails on a
broken cross-reference, on bad reStructuredText in a docstring, on a public name the API reference leaves out and on
a formula it cannot render (each shown on a tiny project built with the repository's own configuration); the built
pages load nothing from the network and show their formulas as MathML."""

import re
import runpy
import shlex
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from bounds import parse_config
from tests import readme_blocks as readme
from reports.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
GUIDE = readme.blocks((DOCS / "guide.md").read_text())


def _blocks(lang: str) -> list[str]:
    return [body for kind, body in GUIDE if kind == lang]


def _docs_line() -> str:
    """The README's ``# docs`` line: the build command CI runs (``.ci/run`` reads the same line)."""
    (bash,) = [b for lang, b in readme.blocks(readme.README.read_text()) if lang == "bash"]
    (line,) = [ln.rsplit("#", 1)[0].strip() for ln in bash.splitlines() if ln.rstrip().endswith("# docs")]
    return line


# ------------------------------------------------------------------------------------------------ the guide
def test_every_guide_block_is_run_below():
    assert [lang for lang, _ in GUIDE] == ["toml", "bash", "python", "python", "python"]


def test_guide_configuration_is_valid():
    (toml,) = _blocks("toml")
    config = parse_config(tomllib.loads(toml))
    assert config.name == "my-instance"


def test_guide_commands_are_valid_tacc_command_lines():
    """Every command of the guide parses with the installed command line's own parser, on the guide's file."""
    (bash,) = _blocks("bash")
    lines = [re.sub(r"\s+#.*$", "", line).strip() for line in bash.splitlines() if line.strip()]
    assert len(lines) == 3 and all(line.startswith("tacc ") for line in lines)
    for line in lines:
        args = build_parser().parse_args(shlex.split(line)[1:])
        assert args.command in ("bounds", "check", "report")
        assert "my-instance.toml" in shlex.split(line)


@pytest.mark.parametrize("index", range(3))
def test_guide_python_block_runs_as_a_file(index, tmp_path, monkeypatch, capsys):
    """Each Python block, saved as a file beside the guide's my-instance.toml, runs (in this process, which has
    the packages imported already: a fresh interpreter would add seconds of imports per block); the property test
    is called as pytest would call it; every line shown after ``# ->`` is what the block prints."""
    (toml,) = _blocks("toml")
    (tmp_path / "my-instance.toml").write_text(toml)
    code = _blocks("python")[index]
    (tmp_path / "example.py").write_text(code)
    monkeypatch.chdir(tmp_path)
    namespace = runpy.run_path(str(tmp_path / "example.py"), run_name="example")
    tests = [f for name, f in namespace.items() if name.startswith("test_") and callable(f)]
    for test in tests:
        test()
    out = capsys.readouterr().out
    shown = [line[len("# -> "):] for line in code.splitlines() if line.startswith("# -> ")]
    if tests:
        assert len(tests) == 1 and not shown
    elif shown:
        assert out.splitlines() == shown
    else:
        assert out.splitlines()[-1] == "PASS" and "high-count" in out


def test_guide_property_test_fails_against_a_wrong_bound(tmp_path, monkeypatch):
    """The guide's property test has teeth: with the class-A bound (one high query) in place of the
    proposition's, it fails within its own examples, as the guide says."""
    code = _blocks("python")[1]
    right = "assert record.n_high[k] <= high_query_bound(problem.ell, float(gap))"
    assert code.count(right) == 1
    shown = "@settings(max_examples=5, deadline=None)"
    assert code.count(shown) == 1
    code = code.replace(right, "assert record.n_high[k] <= 1")
    # the same examples, without shrinking the failure (slow, and not what is shown here) or storing it
    code = "from hypothesis import Phase\n" + code.replace(
        shown, "@settings(max_examples=5, deadline=None, phases=[Phase.generate], database=None)")
    (tmp_path / "example.py").write_text(code)
    monkeypatch.chdir(tmp_path)
    namespace = runpy.run_path(str(tmp_path / "example.py"), run_name="example")
    with pytest.raises(AssertionError):
        namespace["test_high_fidelity_queries_are_bounded"]()


# --------------------------------------------------------------------------------------- the build's gate
def test_ci_builds_the_docs_with_warnings_as_errors():
    """The README's docs line is the nitpicky, warnings-as-errors build of docs/ (and .ci/run runs that line)."""
    words = shlex.split(_docs_line())
    assert words[0] == ".venv/bin/sphinx-build" and {"-W", "-n", "--keep-going"} <= set(words)
    assert words[-2:] == ["docs", "docs/_build/html"]
    assert "docs/_build/" in (ROOT / ".gitignore").read_text().splitlines()


def test_the_reference_covers_every_package_with_public_names():
    """conf.py's tacc_api_packages (each must have its directive, or the build warns) lists every package of the
    distribution that declares ``__all__``, and the public modules ``certify.strategies`` and ``reports.explain``."""
    conf = runpy.run_path(str(DOCS / "conf.py"))
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    with_all = {p for p in packages
                if re.search(r"^__all__ = ", (ROOT / p.replace(".", "/") / "__init__.py").read_text(), re.M)}
    assert with_all == {"bounds", "simulate", "certify", "proofs_checks", "reports.cli", "reports.bench",
                        "reports.figures", "reports.reproduce", "reports.report", "reports.views"}
    assert set(conf["tacc_api_packages"]) == with_all | {"certify.strategies", "reports.explain"}


_GOOD = '''
    """A tiny package documented the way tacc's are."""

    __all__ = ["gap", "half", "LIMIT"]

    #: the largest count, :math:`n \\le 10`.
    LIMIT = 10


    def gap(mu_star: float, mu: float) -> float:
        r"""Suboptimality gap (``sec:problem``).

        .. math::

            \\Delta_k := \\mu^\\star - \\mu_k^{(H)}

        See :func:`gap` and :data:`LIMIT`.
        """
        return mu_star - mu


    def half(x: float) -> float:
        """Half of ``x``, at most :data:`LIMIT`."""
        return min(x / 2, LIMIT)
'''

#: seeded errors, each in its own docstring or comment, and the text its warning names.
_BROKEN = {
    "broken cross-reference": (("See :func:`gap`", "See :func:`no_such_function`"), "no_such_function"),
    "bad reStructuredText": (("Half of ``x``", "Half of |x - y| and ``unclosed"), "docstring of tinypkg.half"),
    "constant without its #: comment": (("#: the largest count,", "# the largest count,"),
                                        "tinypkg.LIMIT has no '#:' comment"),
    "formula that does not parse": (("\\Delta_k := \\mu^\\star", "\\Delta_k := \\left( \\mu^\\star"),
                                    "formula not rendered (ExtraLeftOrMissingRightError)"),
}


def _build(tmp_path: Path, package: str, index: str = ".. tacc-api:: tinypkg\n") -> subprocess.CompletedProcess:
    src = tmp_path / "src"
    src.mkdir()
    (tmp_path / "tinypkg").mkdir()
    (tmp_path / "tinypkg" / "__init__.py").write_text(textwrap.dedent(package))
    # the repository's conf.py, as is, with only the package list and the pages changed
    (src / "conf.py").write_text(
        f"import runpy, sys\nsys.path.insert(0, {str(tmp_path)!r})\n"
        f"globals().update({{k: v for k, v in runpy.run_path({str(DOCS / 'conf.py')!r}).items()"
        f" if not k.startswith('__')}})\n"
        "tacc_api_packages = ['tinypkg']\n")
    (src / "index.rst").write_text(f"tiny\n====\n\n{index}")
    words = shlex.split(_docs_line())
    assert words[-2:] == ["docs", "docs/_build/html"]
    cmd = [sys.executable, "-m", "sphinx", *words[1:-2], "-E", str(src), str(tmp_path / "html")]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_the_build_passes_on_a_clean_package(tmp_path):
    """The control of the cases below: the same project without the seeded error builds, its formula as MathML
    (the LaTeX kept as the formula's alttext, nowhere else)."""
    r = _build(tmp_path, _GOOD)
    assert r.returncode == 0, r.stderr
    html = (tmp_path / "html" / "index.html").read_text()
    assert 'id="tinypkg.LIMIT"' in html
    formula = re.search(r'<math alttext="\\Delta_k := \\mu\^\\star - \\mu_k\^\{\(H\)\}".*?</math>', html, re.S)
    assert formula and "<msubsup>" in formula.group(0) and "&#x00394;" in formula.group(0)
    assert html.count("\\Delta_k") == 1


def test_a_formula_with_a_command_the_converter_does_not_know_fails_the_build(tmp_path):
    """latex2mathml passes an unknown command through as text: the build warns instead of showing raw LaTeX."""
    r = _build(tmp_path, _GOOD.replace("\\mu^\\star", "\\nosuchmacro"))
    assert r.returncode != 0 and "LaTeX command \\nosuchmacro not known" in r.stderr, r.stderr


#: a page resource fetched over the network: a script, stylesheet, image, font or frame from http(s):// or //host.
_REMOTE = re.compile(r"""<(?:script|link|img|iframe|source)\b[^>]*\b(?:src|href)=["'](?:https?:)?//"""
                     r"""|url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:https?:)?//""", re.I)


@pytest.fixture(scope="module")
def built_docs(tmp_path_factory) -> Path:
    """docs/ built as the README's docs line builds it, into a temporary folder."""
    words = shlex.split(_docs_line())
    out = tmp_path_factory.mktemp("docs") / "html"
    r = subprocess.run([sys.executable, "-m", "sphinx", *words[1:-2], str(DOCS), str(out)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return out


@pytest.mark.slow
def test_the_built_docs_load_nothing_from_the_network(built_docs):
    """Every page, stylesheet and script of the build is read offline: no resource is fetched from another host
    (links a reader may follow are not fetched, and are allowed)."""
    files = [p for p in built_docs.rglob("*") if p.suffix in (".html", ".css", ".js")]
    assert len(files) > 20
    remote = {str(p.relative_to(built_docs)): m.group(0) for p in files
              for m in [_REMOTE.search(p.read_text(errors="replace"))] if m}
    assert not remote, remote
    assert _REMOTE.search('<script src="https://cdn.example/mathjax.js">')        # the check can fail
    assert _REMOTE.search("@font-face { src: url(//fonts.example/x.woff) }")


@pytest.mark.slow
def test_formulas_are_rendered_when_the_docs_are_built(built_docs):
    """bounds.certification_time's formula, tau_k(gamma) := inf{n >= 1 : Delta_k^(L)(n) >= 2 gamma}, is MathML in
    its page (the browser draws it; no script): tau with subscript k, Delta with k and (L), the infimum; and no page
    shows a formula's LaTeX outside a formula's alttext."""
    page = (built_docs / "api" / "bounds.html").read_text()
    entry = page[page.index('id="bounds.certification_time"'):]
    formula = re.search(r"<math [^>]*>.*?</math>", entry, re.S).group(0)
    assert 'alttext="\\tau_k(\\gamma) := \\inf' in formula
    assert "<msub><mi>&#x003C4;</mi><mi>k</mi></msub>" in formula and "<mo>inf</mo>" in formula
    assert re.search(r"<msubsup><mi>&#x00394;</mi><mi>k</mi><mrow>.*?<mi>L</mi>", formula)
    for p in built_docs.rglob("*.html"):
        text = re.sub(r'alttext="[^"]*"', "", p.read_text())
        assert not re.search(r"\\(?:tau|Delta|gamma|lambda|Lambda|mu|frac|lceil)\b", text), p


def test_the_build_fails_on_each_docstring_error(tmp_path):
    """One build with every seeded error: -W makes any warning fail it, and each error must have its own warning
    (--keep-going reports them all), so none of them passes unnoticed."""
    package = _GOOD
    for old, new in (change for change, _ in _BROKEN.values()):
        assert package.count(old) == 1
        package = package.replace(old, new)
    r = _build(tmp_path, package)
    assert r.returncode != 0
    missed = [case for case, (_, named) in _BROKEN.items() if named not in r.stderr]
    assert not missed, r.stderr


def test_the_build_fails_on_a_package_left_out(tmp_path):
    r = _build(tmp_path, _GOOD, index="No reference here.\n")
    assert r.returncode != 0 and "tinypkg has no '.. tacc-api:: tinypkg' directive" in r.stderr, r.stderr


#: a dotted name through a private module of a tacc package, as a page would show it.
_PRIVATE_NAME = re.compile(r"\b(?:bounds|simulate|certify|proofs_checks|reports)(?:\.[a-z_0-9]+)*\._[a-z][a-z_0-9]*")


@pytest.mark.slow
def test_the_public_pages_name_public_objects_only(built_docs):
    """Every page but the design document (which says where each change goes, private modules included) names
    public objects only: in its text and in its links' titles, annotations and base classes included."""
    import html

    pages = [p for p in built_docs.rglob("*.html") if p.name != "design.html" and "_modules" not in p.parts]
    assert any(p.name == "bounds.html" for p in pages)
    found = {}
    for p in pages:
        page = p.read_text()
        text = html.unescape(re.sub(r"<[^>]+>", "", page))
        titles = " ".join(re.findall(r'title="([^"]*)"', page))
        hits = _PRIVATE_NAME.findall(text) + _PRIVATE_NAME.findall(titles)
        if hits:
            found[str(p.relative_to(built_docs))] = sorted(set(hits))
    assert not found, found


def test_names_through_private_modules_are_written_as_their_public_names():
    """The API extension's rewriting: a name its package exports becomes the public one; a private object keeps its
    path (and the test above fails on the page that shows it)."""
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        from tacc_api import public_names
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    assert public_names("noise (bounds._spec.NoiseSpec)") == "noise (bounds.NoiseSpec)"
    assert public_names("~certify._tally.Tally | None") == "~certify.Tally | None"
    assert public_names("certify._tally.reason_lines") == "certify._tally.reason_lines"
