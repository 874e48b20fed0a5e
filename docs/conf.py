"""Sphinx configuration: the API reference (autodoc, napoleon), the user guide (MyST Markdown), and formulas as
MathML made at build time (``docs/_ext/tacc_mathml.py``), so the pages need no network.

Build: ``sphinx-build -W --keep-going -n -b html docs docs/_build/html`` (the README's ``# docs`` line, which
``.ci/run`` runs): every warning, a broken cross-reference included, fails the build.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "tacc"
author = "the tacc authors"
copyright = "the tacc authors"

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "myst_parser",
    "tacc_api",
    "tacc_mathml",
]
# formulas as MathML made at build time (docs/_ext/tacc_mathml.py): drawn by the browser, no script or network
html_math_renderer = "mathml"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_ext", "paper"]  # paper/: tacc reproduce's output, committed as written
root_doc = "index"

# nitpicky (-n): every cross-reference must resolve. Without network access there is no intersphinx, so the
# standard library's and numpy's types are named here; private modules (``bounds._x``) are undocumented by design.
nitpick_ignore = [("py:class", t) for t in ("numpy.ndarray", "fractions.Fraction", "os.PathLike", "pathlib.Path",
                                                  "hypothesis.strategies.SearchStrategy", "collections.Counter",
                                                  "argparse.ArgumentParser", "argparse.Namespace", "types.ModuleType",
                                                  "collections.abc.Callable", "concurrent.futures._base.Future")]
nitpick_ignore_regex = [(r"py:.*", r"(bounds|simulate|certify|proofs_checks|reports(\.[a-z]+)?)\._.*")]

# the API reference: every name of these packages' __all__ (the tacc-api directive of docs/_ext/tacc_api.py).
tacc_api_packages = ["bounds", "simulate", "certify", "proofs_checks", "certify.strategies", "reports.cli",
                     "reports.bench", "reports.figures", "reports.reproduce", "reports.report",
                     "reports.views", "reports.explain"]
# a class's members in source order, those without a docstring too (a dataclass's fields).
autodoc_default_options = {"members": True, "undoc-members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_ivar = True  # "Attributes:" as fields of the class, not a second description of each attribute

# MyST: $...$ and $$...$$ math in Markdown pages, heading anchors for links into docs/design.md.
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

html_theme = "alabaster"
html_static_path: list = []
