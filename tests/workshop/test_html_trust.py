"""G10: `make html` of an untrusted notebook (one someone sent: its signature is not in the
user's trust database) drops what Jupyter would not run; a trusted one exports as before.

``scripts/export_html.py`` is called in process with stand-in scripts for require.js and the
widget manager (the page is read, not opened); the trust database is a scratch one
(``JUPYTER_DATA_DIR``), signed with nbformat's own notary as Jupyter signs a saved notebook.
"""

from __future__ import annotations

import importlib.util
import json
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import nbformat
import pytest
from nbformat.sign import NotebookNotary

from tests.workshop.make import ROOT

SCRIPT = '<script>window.__xss = (window.__xss || []).concat("script")</script>'
ONERROR = '<img src="x" onerror="window.__xss = (window.__xss || []).concat(\'onerror\')">'
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
HOSTILE_HTML_WIDGET = '<img src=x onerror="window.__xss=1">'

pytestmark = pytest.mark.integration  # nbconvert's first export takes a second or two


class Runnable(HTMLParser):
    """What a browser would run in a page: every script's text, every ``on*`` handler."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in_script = tag == "script"
        self.handlers += [f"{name}={value}" for name, value in attrs if name.startswith("on")]

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def runnable(page: str) -> str:
    parser = Runnable()
    parser.feed(page)
    return "\n".join(parser.scripts + parser.handlers)


def export_html() -> ModuleType:
    spec = importlib.util.spec_from_file_location("export_html", ROOT / "scripts/export_html.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def write_notebook(path: Path) -> nbformat.NotebookNode:
    """A notebook whose outputs carry payloads: raw HTML, a widget whose saved state is an
    HTML widget with a handler, and a workbench table's own (escaped) HTML."""
    from workbench.display import ToolTable

    outputs = [
        {"output_type": "display_data", "metadata": {},
         "data": {"text/html": f"<p>hello</p>{SCRIPT}", "text/plain": "hello"}},
        {"output_type": "execute_result", "execution_count": 1, "metadata": {},
         "data": {"text/html": ONERROR, "text/plain": "an image"}},
        {"output_type": "display_data", "metadata": {},
         "data": {WIDGET_VIEW: {"model_id": "m1", "version_major": 2, "version_minor": 0},
                  "text/html": "<b>the widget's snapshot</b>", "text/plain": "HTML()"}},
        {"output_type": "display_data", "metadata": {},
         "data": ToolTable([])._repr_mimebundle_()},
    ]  # fmt: skip
    state = {"version_major": 2, "version_minor": 0, "state": {"m1": {
        "model_name": "HTMLModel", "model_module": "@jupyter-widgets/controls",
        "model_module_version": "2.0.0", "state": {"value": HOSTILE_HTML_WIDGET}}}}  # fmt: skip
    notebook = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"widgets": {WIDGET_STATE: state}},
        "cells": [
            {"id": "md", "cell_type": "markdown", "metadata": {}, "source": f"# Hi\n{SCRIPT}"},
            {"id": "code", "cell_type": "code", "metadata": {}, "execution_count": 1,
             "source": "show()", "outputs": outputs},
        ],
    }  # fmt: skip
    path.write_text(json.dumps(notebook))
    node: nbformat.NotebookNode = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    return node


@pytest.fixture
def assets(tmp_path: Path) -> Path:
    folder = tmp_path / "assets"
    folder.mkdir()
    for name in ("require.js", "embed-amd.js", "anywidget.js"):
        (folder / name).write_text(f"/* {name} */")
    return folder


@pytest.fixture(autouse=True)
def trust_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "jupyter-data"))


def test_g10_an_untrusted_notebook_exports_without_its_scripts(
    tmp_path: Path, assets: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notebook = tmp_path / "sent.ipynb"
    write_notebook(notebook)
    page = export_html().export(notebook, assets, tmp_path / "out").read_text()
    assert "__xss" not in runnable(page)  # neither a script nor a handler: shown as text
    assert WIDGET_STATE not in page and 'type="application/vnd.jupyter.widget-view' not in page
    assert "hello" in page and "the widget's snapshot" in page  # shown, as text and markup
    assert "wb-tool-table" in page  # the workbench's own table still shows
    assert "not trusted" in capsys.readouterr().out


def test_g10_a_trusted_notebook_exports_as_before(tmp_path: Path, assets: Path) -> None:
    notebook = tmp_path / "mine.ipynb"
    node = write_notebook(notebook)
    notary = NotebookNotary()  # type: ignore[no-untyped-call]
    notary.sign(node)  # type: ignore[no-untyped-call]  # as Jupyter signs its owner's save
    page = export_html().export(notebook, assets, tmp_path / "out").read_text()
    ran = runnable(page)
    assert 'concat("script")' in ran and "concat('onerror')" in ran and "__xss=1" in ran
    assert WIDGET_STATE in page and 'type="application/vnd.jupyter.widget-view+json"' in page
    assert 'style="' in page.split("wb-tool-table", 1)[1][:200]  # styles kept
