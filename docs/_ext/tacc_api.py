"""A Sphinx extension for the API reference: ``.. tacc-api:: PACKAGE`` documents every name of the package's
``__all__``, in that order, under the package's own name (``bounds.horizon``, not ``bounds._horizon.horizon``).

Functions and classes go through autodoc; a module (``bounds.validate``) through ``automodule``; a constant
through ``py:data`` with the ``#:`` comment written beside its definition (in the package's ``__init__`` or the
private module that defines it). A constant without such a comment, a name autodoc did not document, and a
package of ``tacc_api_packages`` without its directive are build warnings, so ``sphinx-build -W`` fails on them.
"""

from __future__ import annotations

import importlib
import inspect
import sys

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.pycode import ModuleAnalyzer
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

#: a constant's value is shown only when its text is at most this long (CLAIMS or STEPS would fill pages).
_MAX_VALUE = 80


def _attr_doc(package, name: str, obj) -> list[str] | None:
    """The ``#:`` comment of ``name`` in the package itself or in the private module that binds the same object."""
    prefix = package.__name__ + "."
    candidates = [package] + [m for n, m in sorted(sys.modules.items())
                              if n.startswith(prefix) and m is not None and getattr(m, name, None) is obj]
    for module in candidates:
        try:
            docs = ModuleAnalyzer.for_module(module.__name__).find_attr_docs()
        except Exception:  # a module without source: no comment to find there
            continue
        if ("", name) in docs:
            return [line for line in docs["", name] if line is not None]
    return None


def _lines(package, name: str) -> list[str]:
    obj = getattr(package, name)
    full = f"{package.__name__}.{name}"
    if inspect.ismodule(obj):
        return [f".. automodule:: {full}", ""]
    if inspect.isclass(obj):
        return [f".. autoclass:: {full}", ""]
    if callable(obj):
        return [f".. autofunction:: {full}", ""]
    out = [f".. py:data:: {name}", f"   :module: {package.__name__}"]
    value = repr(obj)
    if len(value) <= _MAX_VALUE and "\n" not in value:
        out.append(f"   :value: {value}")
    out.append("")
    doc = _attr_doc(package, name, obj)
    if doc is None:
        logger.warning("tacc-api: %s has no '#:' comment where it is defined", full, type="tacc-api")
        doc = []
    return out + ["   " + line if line.strip() else "" for line in doc] + [""]


class TaccApi(SphinxDirective):
    required_arguments = 1
    has_content = False

    def run(self):
        name = self.arguments[0]
        package = importlib.import_module(name)
        documented = getattr(self.env, "tacc_api_documented", {})
        documented[name] = (self.env.docname, tuple(package.__all__))
        self.env.tacc_api_documented = documented
        names = list(package.__all__)
        names.sort(key=lambda n: inspect.ismodule(getattr(package, n)))  # modules last: they change the context
        rst = StringList()
        for n in names:
            for line in _lines(package, n):
                rst.append(line, f"<tacc-api {name}>")
        node = nodes.section()
        node.document = self.state.document
        self.state.nested_parse(rst, 0, node)
        return node.children


def _check_complete(app, env):
    """Every name of every documented package's __all__ is an object of the Python domain after the build."""
    objects = env.get_domain("py").objects
    documented = getattr(env, "tacc_api_documented", {})
    for package in app.config.tacc_api_packages:
        if package not in documented:
            logger.warning("tacc-api: package %s has no '.. tacc-api:: %s' directive", package, package,
                           type="tacc-api")
    for package, (docname, names) in documented.items():
        for n in names:
            if f"{package}.{n}" not in objects:
                logger.warning("tacc-api: %s.%s is in __all__ but not documented", package, n,
                               location=docname, type="tacc-api")


def _merge(app, env, docnames, other):
    env.tacc_api_documented = {**getattr(env, "tacc_api_documented", {}),
                               **getattr(other, "tacc_api_documented", {})}


def _purge(app, env, docname):
    documented = getattr(env, "tacc_api_documented", {})
    for package in [p for p, (d, _) in documented.items() if d == docname]:
        del documented[package]


def _napoleon_for_properties(app):
    """Napoleon reads an attribute's or property's first line "X: Y" as "type: description"; here no docstring
    uses that form (types come from annotations), so such docstrings are parsed as a method's."""
    from sphinx.ext import napoleon

    for listener in list(app.events.listeners.get("autodoc-process-docstring", [])):
        if listener.handler is napoleon._process_docstring:
            app.disconnect(listener.id)

    def process(app, what, name, obj, options, lines):
        napoleon._process_docstring(app, "method" if what in ("attribute", "property") else what, name, obj,
                                    options, lines)

    app.connect("autodoc-process-docstring", process)


def setup(app):
    app.add_config_value("tacc_api_packages", [], "env")
    app.add_directive("tacc-api", TaccApi)
    app.connect("env-check-consistency", _check_complete)
    app.connect("env-merge-info", _merge)
    app.connect("env-purge-doc", _purge)
    app.connect("builder-inited", _napoleon_for_properties)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
