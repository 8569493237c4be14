"""Export a run notebook to one HTML file that renders offline (`make html NOTEBOOK=...`).

nbconvert's HTML loads require.js, the widget manager that draws saved widget state, each
widget's own module (here anywidget) and MathJax from public CDNs when the page is opened.
This export puts the first three inside the file, as ``data:`` URLs made from the npm
packages `make` unpacked into ``--assets`` (require.js, html-manager's embed-amd.js,
anywidget's AMD build): widgets show as their saved snapshots and the page asks no server
for anything. MathJax has no offline build here, so it is left out: TeX stays as typed.

The workbench's own outputs need none of this: their bundles carry text/html next to the
JSON document the JupyterLab extension draws, and nbconvert shows that HTML.

A notebook someone sent is not trusted (its signature is not in this user's trust database,
nbformat's notary): as JupyterLab would, the export then sanitises its HTML and Markdown
(nbconvert's ``sanitize_html``: no script, handler or style runs), drops its JavaScript
outputs, and leaves its widgets out (their saved state and views: an HTML widget's value would
run), showing each widget's text/html or text/plain instead. A notebook run here
(``--execute``) or signed by Jupyter when its owner saved it exports whole.

Usage: python scripts/export_html.py NOTEBOOK --assets DIR --out DIR [--execute]
(prints the path; --execute runs the notebook first, in its folder, with nbclient)
"""

from __future__ import annotations

import argparse
import base64
import re
import sys
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbformat.sign import NotebookNotary

# Nothing to load: MathJax's script tag points at an empty script, so its configuration
# finds no MathJax and does nothing.
NO_SCRIPT = "data:text/javascript,"
ASSETS = ("require.js", "embed-amd.js", "anywidget.js")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# What would make the page fetch code, styles or pictures: a src, a <link href>, a JavaScript
# import, a CSS @import or url(). (A link in the text, <a href>, fetches nothing.)
LOADS = re.compile(
    r"""(?:\bsrc\s*=\s*["']?|<link\b[^>]*?\bhref\s*=\s*["']?|\bimport\s*\(?\s*["']"""
    r"""|\bfrom\s*["']|@import\s+["']|\burl\(\s*["']?)(https?://[^"')\s>]+)"""
)


def data_url(path: Path, content: bytes | None = None) -> str:
    """The file as a ``data:`` URL (require.js loads such a path as is, no ``.js`` added)."""
    body = path.read_bytes() if content is None else content
    return "data:text/javascript;base64," + base64.b64encode(body).decode()


def widget_manager(assets: Path) -> str:
    """embed-amd.js, its icon fonts (woff2, which every current browser takes first) made
    data: URLs too: the bundle asks for them next to itself, i.e. next to the page."""
    script = (assets / "embed-amd.js").read_text(encoding="utf-8")

    def inline(match: re.Match[str]) -> str:
        font = assets / match.group(1)
        if not font.is_file():
            return match.group(0)
        return '"data:font/woff2;base64,' + base64.b64encode(font.read_bytes()).decode() + '"'

    script = re.sub(r'\b\w\.p\+"([0-9a-f]{20}\.woff2)"', inline, script)
    return data_url(assets / "embed-amd.js", script.encode("utf-8"))


def without_widgets(node: nbformat.NotebookNode) -> None:
    """Leave an untrusted notebook's widgets out: their saved state (which the widget manager
    would draw, an HTML widget's value as markup) and each output's widget view, so the
    output's next type (its text/html, sanitised, or its text) is shown instead."""
    node.metadata.pop("widgets", None)
    for cell in node.cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)


def export(notebook: Path, assets: Path, out: Path, execute: bool = False) -> Path:
    missing = [name for name in ASSETS if not (assets / name).is_file()]
    if missing:
        raise SystemExit(f"error: {assets} lacks {', '.join(missing)}: run `make html` again.")
    exporter = HTMLExporter(template_name="lab")
    exporter.require_js_url = data_url(assets / "require.js")
    exporter.widget_renderer_url = widget_manager(assets)
    exporter.mathjax_url = NO_SCRIPT
    exporter.mermaid_js_url = exporter.mermaid_layout_elk_js_url = NO_SCRIPT
    node = nbformat.read(notebook, as_version=4)
    if execute:
        from nbclient import NotebookClient

        where = {"metadata": {"path": str(notebook.parent)}}
        NotebookClient(node, timeout=300, resources=where).execute()
    elif not any(cell.get("outputs") for cell in node.cells):
        print(f"note: {notebook} has no outputs; run it first (or `make html EXECUTE=1`).")
    elif not NotebookNotary().check_signature(node):
        print(
            f"note: {notebook} is not trusted (not signed by you): its HTML is sanitised and "
            f"its widgets left out. If you trust it: jupyter trust {notebook}"
        )
        exporter.sanitize_html = True
        without_widgets(node)
    body, _ = exporter.from_notebook_node(node)
    # The widget manager asks require.js for "anywidget" before it tries a CDN.
    anywidget = data_url(assets / "anywidget.js")
    paths = f'<script>requirejs.config({{paths: {{anywidget: "{anywidget}"}}}});</script>'
    tag = f'<script src="{exporter.require_js_url}"></script>'
    if body.count(tag) != 1:
        raise SystemExit("error: nbconvert's template no longer loads require.js as expected.")
    body = body.replace(tag, tag + paths)
    fetched = LOADS.findall(body)
    if fetched:
        raise SystemExit(f"error: the page would still load {fetched[0]}")
    out.mkdir(parents=True, exist_ok=True)
    target = out / (notebook.stem + ".html")
    target.write_text(body, encoding="utf-8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebook", type=Path)
    parser.add_argument("--assets", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--execute", action="store_true")
    args = parser.parse_args()
    if not args.notebook.is_file():
        sys.exit(f"error: no notebook at {args.notebook}")
    print(export(args.notebook, args.assets, args.out, args.execute))


if __name__ == "__main__":
    main()
