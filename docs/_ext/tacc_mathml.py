"""A Sphinx extension that renders every formula to MathML when the pages are built, so they show with no script,
no font and no network: MathML is drawn by the browser itself (Chromium, Firefox and Safari).

``html_math_renderer = "mathml"`` selects it (``docs/conf.py``). The LaTeX of each ``:math:`` role, ``.. math::``
block and MyST ``$...$`` / ``$$...$$`` is converted by ``latex2mathml``; the source stays in the MathML as its
``alttext`` (read aloud, copied, searched). A formula the converter cannot read is a build warning, so
``sphinx-build -W`` fails on it instead of shipping raw LaTeX.
"""

from __future__ import annotations

import html
import re

from docutils import nodes
from latex2mathml.converter import convert
from sphinx.util import logging

logger = logging.getLogger(__name__)


#: text of a MathML element that still holds a backslash: a LaTeX command the converter passed through unread.
_UNREAD = re.compile(r">([^<]*\\[^<]*)<")


def _mathml(latex: str, display: str, node: nodes.Node) -> str:
    """``latex`` as a ``<math>`` element with the source as its ``alttext``; a warning (and the source as code) when
    the converter fails or leaves a command unread."""
    try:
        out = convert(latex, display=display)
    except Exception as exc:                       # the converter raises its own and plain errors alike
        logger.warning("formula not rendered (%s%s): %s", type(exc).__name__, f": {exc}" if str(exc) else "",
                       latex, location=node)
        return f'<code class="math-error">{html.escape(latex)}</code>'
    unread = _UNREAD.search(out)
    if unread:
        logger.warning("formula not rendered (LaTeX command %s not known to latex2mathml): %s", unread.group(1),
                       latex, location=node)
    return out.replace("<math ", f'<math alttext="{html.escape(latex, quote=True)}" ', 1)


def _visit_inline(self, node: nodes.math) -> None:
    self.body.append(f'<span class="math">{_mathml(node.astext(), "inline", node)}</span>')
    raise nodes.SkipNode


def _visit_block(self, node: nodes.math_block) -> None:
    latex = node.astext()
    # one block may hold several equations separated by blank lines, as sphinx.ext.mathjax reads them
    parts = [p.strip() for p in latex.split("\n\n") if p.strip()] if not node.get("nowrap") else [latex]
    number = f'<span class="eqno">({node["number"]})</span>' if node.get("number") else ""
    body = "".join(_mathml(p, "block", node) for p in parts)
    self.body.append(f'<div class="math notranslate">{number}{body}</div>\n')
    raise nodes.SkipNode


def setup(app):
    app.add_html_math_renderer("mathml", (_visit_inline, None), (_visit_block, None))
    return {"parallel_read_safe": True, "parallel_write_safe": True}
