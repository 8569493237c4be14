"""First render of a saved notebook with 50 Observations, re-opened without a kernel.

    .venv/bin/python benchmarks/lab_first_render.py [--runs 5] [--observations 50]

Writes a notebook whose 50 outputs are what the workbench's views make of real Observations
(text, structured content, an image, errors, a cut long text; each bundle with ``text/plain``,
``text/html`` and the workbench's JSON), and a copy of it without the JSON, so JupyterLab draws
that copy from the HTML alone. Then, in JupyterLab from this venv and Debian's Chromium (the
browser tests' helpers; nothing is downloaded), it opens each notebook ``--runs`` times in a
fresh page with no kernel, alternating, and times from navigation start to the moment the
last output is drawn: 50 ``.jp-wb-observation`` elements for the extension's renderer, 50
``.jp-RenderedHTMLCommon`` outputs for the HTML. The ratio renderer / HTML is what to compare
between machines; the absolute times are this shared machine's.
"""

from __future__ import annotations

import argparse
import base64
import copy
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.browser.jupyter_browser import (  # noqa: E402
    CHROMIUM_ARGS,
    VIEWPORT,
    chromium_path,
    start_jupyter_server,
)
from workbench.display import OBSERVATION_MIME  # noqa: E402
from workbench.tools import Observation  # noqa: E402
from workbench.tools.schema import ErrorKind, ImageContent, TextContent  # noqa: E402

# A 1x1 PNG: the image path of the renderer, not image decoding, is what is timed.
PIXEL = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360f8ffff3f0005fe02fea7d6a48c0000000049454e44ae426082"
    )
).decode()


def observation(index: int) -> Observation:
    """One of five kinds of result, by index."""
    kind = index % 5
    if kind == 0:
        return Observation.from_text(f"Call {index}: the answer is {index * 7}.", duration=0.012)
    if kind == 1:
        return Observation(
            content=[TextContent(text=f'{{"n": {index}, "square": {index * index}}}')],
            structured_content={"n": index, "square": index * index, "tags": ["a", "b"]},
            duration=0.03,
        )
    if kind == 2:
        return Observation(
            content=[
                TextContent(text=f"Chart {index}"),
                ImageContent(data=PIXEL, mime_type="image/png"),
            ],
            duration=0.2,
        )
    if kind == 3:
        message = f"Tool call {index} failed: the server said no."
        return Observation.error(ErrorKind.TOOL_ERROR, message)
    return Observation.from_text("\n".join(f"line {n} of a long listing" for n in range(4000)))


def bundle(index: int) -> dict[str, Any]:
    data = observation(index)._repr_mimebundle_()
    assert OBSERVATION_MIME in data, "the Observation view no longer writes its JSON document"
    return data


def notebooks(count: int, folder: Path) -> tuple[str, str]:
    """The notebook with the workbench's JSON, and the same without it."""
    nb = nbformat.v4.new_notebook()
    for index in range(count):
        cell = nbformat.v4.new_code_cell(f"%mcp call demo.tool n={index}")
        cell.outputs = [nbformat.v4.new_output("display_data", data=bundle(index))]
        nb.cells.append(cell)
    html_only = copy.deepcopy(nb)
    for cell in html_only.cells:
        for output in cell.outputs:
            output.data.pop(OBSERVATION_MIME)
    nbformat.write(nb, folder / "rendered.ipynb")
    nbformat.write(html_only, folder / "html.ipynb")
    return "rendered.ipynb", "html.ipynb"


def first_render(page: Page, url: str, selector: str, count: int) -> float:
    """Milliseconds from navigation start until ``count`` outputs match ``selector``."""
    page.goto(url)
    page.wait_for_function(
        "([selector, count]) => document.querySelectorAll(selector).length >= count",
        arg=[selector, count],
        timeout=120_000,
        polling="raf",
    )
    return float(page.evaluate("performance.now()"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--observations", type=int, default=50)
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {"renderer": [], "html": []}
    with tempfile.TemporaryDirectory() as scratch:
        server = start_jupyter_server(Path(scratch))
        try:
            rendered, html = notebooks(args.observations, server.root_dir)
            selectors = {
                "renderer": (rendered, ".jp-wb-observation"),
                "html": (html, ".jp-OutputArea-output.jp-RenderedHTMLCommon"),
            }
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
                )
                try:
                    for run in range(args.runs + 1):  # the first round warms the caches
                        for label, (name, selector) in selectors.items():
                            context = browser.new_context(viewport=VIEWPORT)
                            page = context.new_page()
                            url = server.url(f"lab/tree/{name}", reset="")
                            took = first_render(page, url, selector, args.observations)
                            if run:
                                times[label].append(took)
                            context.close()
                finally:
                    browser.close()
        finally:
            server.stop()
    renderer, html_ms = (statistics.median(times[k]) for k in ("renderer", "html"))
    print(f"{args.observations} Observations, saved, re-opened without a kernel ({args.runs} runs)")
    for label, median in (("the extension's renderer", renderer), ("text/html (no JSON)", html_ms)):
        each = ", ".join(f"{t:.0f}" for t in times["renderer" if "renderer" in label else "html"])
        print(f"  drawn by {label:26} median {median:6.0f} ms  ({each})")
    print(f"  ratio renderer / html: {renderer / html_ms:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
