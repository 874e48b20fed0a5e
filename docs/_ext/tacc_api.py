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
import re
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
    return out + ["   " + public_names(line) if line.strip() else "" for line in doc] + [""]


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
        lines[:] = [public_names(line) for line in lines]

    app.connect("autodoc-process-docstring", process)


#: a dotted name through a private module of a tacc package: ``bounds._spec.NoiseSpec``, ``~simulate._x.Y``.
_PRIVATE_PATH = re.compile(r"\b((?:bounds|simulate|certify|proofs_checks|reports)(?:\.[a-z][a-z_0-9]*)*)"
                           r"((?:\._[a-z_0-9]+)+)\.([A-Za-z][A-Za-z_0-9]*)\b")


def public_names(text: str) -> str:
    """``text`` with each name reached through a private module (``bounds._spec.NoiseSpec``) written as the public
    name of the same object (``bounds.NoiseSpec``), where its package exports it; other private names are left, and
    the reference pages' test finds them."""
    def sub(m: re.Match) -> str:
        package, private, name = m.groups()
        try:
            public = importlib.import_module(package)
            module = importlib.import_module(package + private)
        except ImportError:
            return m.group(0)
        same = name in getattr(public, "__all__", ()) and getattr(public, name, None) is getattr(module, name, 0)
        return f"{package}.{name}" if same else m.group(0)
    return _PRIVATE_PATH.sub(sub, text)


def _public_references(app, doctree) -> None:
    """Every cross-reference to a name reached through a private module targets its public name (the link's title
    and text included): the type annotations autodoc writes for attributes and fields come this way."""
    from sphinx.addnodes import pending_xref

    for node in doctree.findall(pending_xref):
        target = node.get("reftarget", "")
        public = public_names(target)
        if public != target:
            node["reftarget"] = public
            for text in list(node.findall(nodes.Text)):
                if target in text:
                    text.parent.replace(text, nodes.Text(text.replace(target, public)))


def _public_signature(app, what, name, obj, options, signature, return_annotation):
    """A signature's annotations with public names (:func:`public_names`)."""
    return (None if signature is None else public_names(signature),
            None if return_annotation is None else public_names(return_annotation))


def setup(app):
    app.add_config_value("tacc_api_packages", [], "env")
    app.add_directive("tacc-api", TaccApi)
    app.connect("env-check-consistency", _check_complete)
    app.connect("env-merge-info", _merge)
    app.connect("env-purge-doc", _purge)
    app.connect("builder-inited", _napoleon_for_properties)
    app.connect("autodoc-process-signature", _public_signature)
    app.connect("doctree-read", _public_references)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
