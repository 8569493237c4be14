"""G14 in a real page: a resource's Save link drawn by the extension's renderer downloads
bytes (``application/octet-stream``) under a safe name, whatever type and URI the server gave.

The notebook is written with the kernel's own bundle of a read (``ObservationView``) and only
opened: what Lab draws comes from the saved JSON document, no kernel runs.
"""

from __future__ import annotations

import base64
import json

from playwright.sync_api import expect

from tests.browser.jupyter_browser import LabPage
from workbench.display import ObservationView
from workbench.tools.schema import Observation

NOTEBOOK = "save-links.ipynb"
PAGE = base64.b64encode(b"<html><script>window.__xss=1</script></html>").decode()
RESOURCES = [  # (uri, declared type, the name Save must use)
    ("evil://a/..%2F.payload.html", "application/xhtml+xml", "payload.html"),
    ("evil://a/page?x=1#y", "text/html", "page"),
    ("evil://a/%0A%1B%5B2J", "image/svg+xml;charset=utf-8", "2J"),
    ("evil://a/", "text/html", "a"),
]


def write_notebook(lab: LabPage) -> None:
    outputs = []
    for uri, mime, _ in RESOURCES:
        block = {"type": "resource", "resource": {"uri": uri, "mimeType": mime, "blob": PAGE}}
        observation = Observation.model_validate({"content": [block], "tool_id": uri})
        bundle = ObservationView(observation, tool_id=uri)._repr_mimebundle_()
        outputs.append({"output_type": "display_data", "data": bundle, "metadata": {}})
    cell = {"id": "reads", "cell_type": "code", "metadata": {}, "source": "# reads",
            "outputs": outputs, "execution_count": None}  # fmt: skip
    kernelspec = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": kernelspec},
                "cells": [cell]}  # fmt: skip
    (lab.workdir / NOTEBOOK).write_text(json.dumps(notebook, indent=1))


def test_g14_save_links_download_bytes_under_safe_names(lab: LabPage) -> None:
    write_notebook(lab)
    panel = lab.reopen(NOTEBOOK, "lab")
    saves = panel.locator("a.jp-wb-save")
    expect(saves).to_have_count(len(RESOURCES), timeout=60_000)
    for index, (_, _, name) in enumerate(RESOURCES):
        href = saves.nth(index).get_attribute("href") or ""
        assert href == f"data:application/octet-stream;base64,{PAGE}", href[:60]
        assert saves.nth(index).get_attribute("download") == name
    lab.screenshot("save-links")
