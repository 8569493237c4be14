"""MCP Apps in JupyterLab: a call's result to the App's first paint, and an App's own call.

    .venv/bin/python benchmarks/apps_latency.py [--runs 10]

In JupyterLab from this venv and Debian's Chromium (the browser tests' helpers; nothing is
downloaded), a real kernel connects the real ``@modelcontextprotocol/server-basic-vanillajs``
(npm, pinned in fixtures.mk; `make test-servers` installs it) over stdio, then:

- **result to first paint**: ``%mcp call basic.get-time`` is run ``--runs`` times in one
  cell; each time, from the moment the App's output appears in the page (the kernel's
  display arrived: a MutationObserver in the page) to the first animation frame after the
  App wrote the result's time into its document (a MutationObserver in the App's frame).
  Both are ``performance.timeOrigin + performance.now()`` of their own document, so they
  compare across the frame boundary. Between the two: the iframe, the host bridge, the
  App's 218 KB page parsed, ``ui/initialize``, the result pushed.
- **an App's call against a cell's**: the App's "Get Server Time" button (``tools/call``
  from the App: postMessage, the host bridge, the ``workbench.apps`` comm, the kernel's
  Workbench, the server over stdio, and back into the App's document), from the click to the
  new time in its document, ``--runs`` times; against ``wb.call("basic.get-time")`` timed in
  the kernel, ``--runs`` times.

The observers are Playwright init scripts (in every frame, the App's too, outside its CSP):
the App itself is not changed. Medians, with each run's figure; ratios are what to compare
between machines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Frame, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.app_servers import BASIC, app_server  # noqa: E402
from tests.browser.jupyter_browser import (  # noqa: E402
    CHROMIUM_ARGS,
    VIEWPORT,
    LabPage,
    chromium_path,
    start_jupyter_server,
)

NOTEBOOK = "apps_latency.ipynb"

OBSERVERS = """(() => {
  const now = () => performance.timeOrigin + performance.now();
  if (window === window.top) {
    window.__appOutputs = [];
    const seen = new WeakSet();
    new MutationObserver(() => {
      for (const node of document.querySelectorAll('.jp-wb-app-output')) {
        if (!seen.has(node)) { seen.add(node); window.__appOutputs.push(now()); }
      }
    }).observe(document, {subtree: true, childList: true});
    return;
  }
  const watch = () => {
    const shown = document.getElementById('server-time');
    const button = document.getElementById('get-time-btn');
    if (!shown || !button) { return; }
    const marks = document.documentElement.dataset;
    button.addEventListener('click', () => { marks.clicked = String(now()); }, true);
    new MutationObserver(() => {
      const changed = now();
      marks.changed = String(changed);
      requestAnimationFrame(() => { if (!marks.painted) { marks.painted = String(now()); } });
    }).observe(shown, {subtree: true, childList: true, characterData: true});
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', watch);
  } else {
    watch();
  }
})();"""


def notebook(source: str) -> dict[str, Any]:
    cell: dict[str, Any] = {
        "cell_type": "code",
        "id": "setup",
        "metadata": {},
        "execution_count": None,
        "outputs": [],
        "source": source,
    }
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return {"cells": [cell], "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}


def app_frame(lab: LabPage, index: int, previous: Frame | None = None) -> Frame:
    """The App frame of cell ``index`` (a new one, not ``previous``, after a re-run)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        frames = lab.cells().nth(index).locator("iframe.jp-wb-app-frame")
        frame = frames.element_handle().content_frame() if frames.count() else None
        if frame is not None and frame is not previous:
            return frame
        time.sleep(0.02)
    raise TimeoutError("the App's frame did not appear")


def mark(frame: Frame, name: str) -> float:
    """Wait until the App frame's ``name`` mark is set; its value (epoch ms)."""
    handle = frame.wait_for_function(
        f"() => document.documentElement.dataset.{name}", timeout=60_000, polling="raf"
    )
    return float(handle.json_value())


def kernel_value(lab: LabPage, index: int, code: str) -> Any:
    shown = lab.run_cell_with(code, index=index)
    [line] = [line for line in shown.splitlines() if line.startswith("VALUE ")]
    return json.loads(line[len("VALUE ") :])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    command, server_args = app_server(BASIC)
    setup = "\n".join(
        [
            "%load_ext workbench",
            "import json, statistics, time, workbench",
            "wb = workbench.current()",
            f"wb.connect('basic', command={command!r}, args={server_args!r})",
        ]
    )
    paint: list[float] = []
    app_calls: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        server = start_jupyter_server(Path(scratch))
        try:
            workdir = server.root_dir / "bench"
            workdir.mkdir()
            (workdir / NOTEBOOK).write_text(json.dumps(notebook(setup)))
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
                )
                try:
                    context = browser.new_context(viewport=VIEWPORT)
                    context.add_init_script(OBSERVERS)
                    lab = LabPage(
                        page=context.new_page(),
                        server=server,
                        name="bench",
                        workdir=workdir,
                        artifacts=Path(scratch) / "artifacts",
                    )
                    lab.open_notebook(NOTEBOOK)
                    lab.run_all()
                    call_cell = lab.cell_count()
                    lab.run_cell_with("%mcp call basic.get-time")  # warms the caches
                    frame = app_frame(lab, call_cell)
                    mark(frame, "painted")
                    for _ in range(args.runs):
                        lab.run_cell_with("%mcp call basic.get-time", index=call_cell)
                        frame = app_frame(lab, call_cell, previous=frame)
                        painted = mark(frame, "painted")
                        arrived = float(lab.page.evaluate("window.__appOutputs.at(-1)"))
                        paint.append(painted - arrived)
                    for _ in range(args.runs + 1):  # the first warms the comm
                        before = frame.evaluate("document.documentElement.dataset.changed")
                        frame.locator("#get-time-btn").click()
                        frame.wait_for_function(
                            "before => document.documentElement.dataset.changed !== before",
                            arg=before,
                            timeout=60_000,
                            polling="raf",
                        )
                        app_calls.append(mark(frame, "changed") - mark(frame, "clicked"))
                    app_calls.pop(0)
                    cell_calls = kernel_value(
                        lab,
                        call_cell,
                        "\n".join(
                            [
                                "wb.call('basic.get-time')",
                                "took = []",
                                f"for _ in range({args.runs}):",
                                "    started = time.perf_counter()",
                                "    wb.call('basic.get-time')",
                                "    took.append((time.perf_counter() - started) * 1000)",
                                "print('VALUE', json.dumps(took))",
                            ]
                        ),
                    )
                    context.close()
                finally:
                    browser.close()
        finally:
            server.stop()
    report(args.runs, paint, app_calls, cell_calls)
    return 0


def report(runs: int, paint: list[float], app_calls: list[float], cell_calls: list[float]) -> None:
    def line(label: str, figures: list[float]) -> float:
        median = statistics.median(figures)
        each = ", ".join(f"{t:.0f}" for t in figures)
        print(f"  {label:44} median {median:7.1f} ms  ({each})")
        return median

    print(f"MCP Apps in JupyterLab, server-basic-vanillajs over stdio ({runs} runs each)")
    line("result shown to the App's first paint", paint)
    app = line("App's tools/call round trip (click to drawn)", app_calls)
    cell = line("wb.call from a cell (timed in the kernel)", cell_calls)
    print(f"  ratio App call / cell call: {app / cell:.2f} (+{app - cell:.1f} ms)")


if __name__ == "__main__":
    sys.exit(main())
