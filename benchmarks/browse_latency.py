"""The tool browser in a real JupyterLab page: first render, and keystroke to result list.

    .venv/bin/python benchmarks/browse_latency.py [--runs 3]

Fills the kernel's registry with the search benchmark's real catalogs (about 1,600 tools,
collected by ``benchmarks/search/collect.py``), measures, then adds renamed copies up to about
10,000 tools and measures again, in the same page and kernel, so the 10k / 1.6k ratios come
from one run. Everything is timed in the page (``performance.now()``):

- first render: from the key press that runs ``workbench.browse()`` to the first result row;
- paced keystrokes: type one character, wait for the list to answer exactly that prefix
  (a MutationObserver on the list's ``data-query``), pause, next character;
- burst: characters 30 ms apart without waiting; from the last key to the full query shown;
- kernel: ``ToolList.search`` in the kernel alone (search plus the answer's trait update).

Targets (issue 6): first render <= 1 s, keystroke median <= 100 ms at 10,000 tools.
The JupyterLab server and Chromium come from the browser tests' helpers; nothing is
downloaded. Results go to ``~/.cache/workbench/browser-bench/latest.json`` and a screenshot
to ``test-artifacts/browser/benchmark/``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks" / "search"))

from collect import cache_dir  # noqa: E402
from jupyter_browser import (  # noqa: E402
    ARTIFACTS,
    CHROMIUM_ARGS,
    VIEWPORT,
    LabPage,
    chromium_path,
    start_jupyter_server,
)
from playwright.sync_api import sync_playwright  # noqa: E402
from run import load_catalogs, resize  # noqa: E402

QUERIES = (
    "create issue",
    "send slack message",
    "read file",
    "list pull requests",
    "weather forecast",
    "sql query",
    "draw chart",
)
RESULTS = Path.home() / ".cache" / "workbench" / "browser-bench"

TYPE_JS = """
async ([queries, paced, gapMs]) => {
  const root = [...document.querySelectorAll('.wb-browser')].pop();
  const input = root.querySelector('.wb-tl-query');
  const list = root.querySelector('.wb-tl-rows');
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const shown = (text) => new Promise((resolve) => {
    if (list.dataset.query === text) { resolve(performance.now()); return; }
    const observer = new MutationObserver(() => {
      if (list.dataset.query === text) { observer.disconnect(); resolve(performance.now()); }
    });
    observer.observe(list, { attributes: true, attributeFilter: ['data-query'] });
  });
  const type = (text) => {
    input.value = text;
    const at = performance.now();
    input.dispatchEvent(new Event('input', { bubbles: true }));
    return at;
  };
  const latencies = [];
  for (const query of queries) {
    type('');
    await shown('');
    await sleep(gapMs);
    if (paced) {
      for (let end = 1; end <= query.length; end++) {
        const prefix = query.slice(0, end);
        const at = type(prefix);
        latencies.push((await shown(prefix)) - at);
        await sleep(gapMs);
      }
    } else {
      let last = 0;
      for (let end = 1; end <= query.length; end++) {
        last = type(query.slice(0, end));
        await sleep(gapMs);
      }
      latencies.push((await shown(query)) - last);
    }
  }
  return latencies;
}
"""

RENDER_JS = """
(before) => new Promise((resolve) => {
  const check = () => {
    const browsers = document.querySelectorAll('.wb-browser');
    if (browsers.length > before && browsers[browsers.length - 1].querySelector('.wb-tl-row')) {
      resolve(performance.now());
    } else {
      requestAnimationFrame(check);
    }
  };
  check();
})
"""


def _notebook(path: Path) -> None:
    setup = (
        "import json, statistics, time\n"
        "import workbench\n"
        "%load_ext workbench\n"
        "%mcp connect demo\n"
        "wb = workbench.current()\n"
        "def load(name):\n"
        "    for server, tools in json.load(open(name)).items():\n"
        "        wb.registry.add_tools(server, tools)\n"
        "    return len(wb.registry)\n"
    )
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "source": setup}]
    notebook = {
        "cells": [{**cell, "execution_count": None} for cell in cells],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(notebook))


def _first_render(lab: LabPage, name: str) -> tuple[float, float]:
    """Milliseconds from the key press to the first row, and the kernel's construct time."""
    page = lab.page
    lab.wait_for_kernel()
    cells = lab.cells()
    count = cells.count()
    cells.nth(count - 1).locator(".jp-InputPrompt").click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    lab.cells().nth(count).wait_for()
    lab.cells().nth(count).locator(".cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(
        f"_t = time.perf_counter(); {name} = workbench.browse()\n"
        f"print(f'construct {{(time.perf_counter() - _t) * 1000:.1f}} ms'); {name}"
    )
    before = page.evaluate("document.querySelectorAll('.wb-browser').length")
    started = page.evaluate("performance.now()")
    page.keyboard.press("Control+Enter")
    shown = page.evaluate(RENDER_JS, before)
    lab.wait_for_idle()
    output = lab.cell_output(count)
    construct = float(output.split("construct", 1)[1].split("ms", 1)[0])
    return shown - started, construct


def _kernel_search(lab: LabPage, name: str) -> float:
    """Median milliseconds of ToolList.search in the kernel, over the benchmark's queries."""
    code = (
        f"_times = []\n"
        f"for _q in {list(QUERIES)!r} * 5:\n"
        f"    _t = time.perf_counter(); {name}.tool_list.search(_q)\n"
        f"    _times.append((time.perf_counter() - _t) * 1000)\n"
        f"print(f'search {{statistics.median(_times):.2f}} ms')"
    )
    output = lab.run_cell_with(code)
    return float(output.split("search", 1)[1].split("ms", 1)[0])


def _measure(lab: LabPage, size_label: str, runs: int) -> dict[str, Any]:
    renders = [_first_render(lab, f"b_{size_label}_{run}") for run in range(runs)]
    last = f"b_{size_label}_{runs - 1}"
    lab.page.locator(".wb-browser").last.scroll_into_view_if_needed()
    paced = lab.page.evaluate(TYPE_JS, [list(QUERIES), True, 50])
    burst = lab.page.evaluate(TYPE_JS, [list(QUERIES), False, 30])
    kernel = _kernel_search(lab, last)
    return {
        "first_render_ms": statistics.median(r[0] for r in renders),
        "construct_ms": statistics.median(r[1] for r in renders),
        "paced_median_ms": statistics.median(paced),
        "paced_p95_ms": sorted(paced)[int(len(paced) * 0.95)],
        "keystrokes": len(paced),
        "burst_median_ms": statistics.median(burst),
        "kernel_search_ms": kernel,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="first renders per size (3)")
    opts = parser.parse_args(argv)
    catalogs = load_catalogs(cache_dir())
    if not catalogs:
        print(f"no catalogs in {cache_dir()}: run benchmarks/search/run.py first", file=sys.stderr)
        return 1
    real = sum(len(tools) for tools in catalogs.values())
    extra = {k: v for k, v in resize(catalogs, 10_000).items() if k not in catalogs}
    results: dict[str, Any] = {"sizes": {}}
    with tempfile.TemporaryDirectory(prefix="browse-bench-") as scratch:
        server = start_jupyter_server(Path(scratch))
        try:
            workdir = server.root_dir / "bench"
            workdir.mkdir()
            (workdir / "real.json").write_text(json.dumps(catalogs))
            (workdir / "extra.json").write_text(json.dumps(extra))
            _notebook(workdir / "browse_bench.ipynb")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True
                )
                try:
                    page = browser.new_context(viewport=VIEWPORT).new_page()
                    artifacts = ARTIFACTS / "benchmark"
                    lab = LabPage(page, server, "bench", workdir, artifacts)
                    lab.open_notebook("browse_bench.ipynb")
                    lab.run_all()
                    for label, catalog in (("real", "real.json"), ("10k", "extra.json")):
                        total = int(lab.run_cell_with(f"print(load('{catalog}'))").strip())
                        print(f"{total} tools in the registry; measuring…", flush=True)
                        figures = _measure(lab, label, opts.runs)
                        results["sizes"][label] = {"tools": total, **figures}
                    lab.page.locator(".wb-browser").last.locator(".wb-tl-query").fill(
                        "create issue"
                    )
                    shot = lab.screenshot("10k-create-issue")
                finally:
                    browser.close()
        finally:
            server.stop()
    _report(results, real)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "latest.json").write_text(json.dumps(results, indent=1) + "\n")
    print(f"results: {RESULTS / 'latest.json'}\nscreenshot: {shot}")
    return 0


def _report(results: dict[str, Any], real: int) -> None:
    sizes = results["sizes"]
    rows = [
        ("tools in the registry", "tools", "{:.0f}"),
        ("first render, key press to first row (ms)", "first_render_ms", "{:.0f}"),
        ("  of which the kernel builds the widget (ms)", "construct_ms", "{:.1f}"),
        ("keystroke to updated list, median (ms)", "paced_median_ms", "{:.1f}"),
        ("keystroke to updated list, p95 (ms)", "paced_p95_ms", "{:.1f}"),
        ("burst typing, last key to full query (ms)", "burst_median_ms", "{:.1f}"),
        ("ToolList.search in the kernel, median (ms)", "kernel_search_ms", "{:.2f}"),
    ]
    print(f"\n{'':46} {'real':>9} {'10k':>9} {'10k/real':>9}")
    for label, key, shape in rows:
        small, big = sizes["real"][key], sizes["10k"][key]
        ratio = f"{big / small:.2f}" if small else "–"
        print(f"{label:46} {shape.format(small):>9} {shape.format(big):>9} {ratio:>9}")
    print(f"({sizes['real']['keystrokes']} paced keystrokes per size; {real} real tools)")


if __name__ == "__main__":
    sys.exit(main())
