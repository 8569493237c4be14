"""MCP Apps in JupyterLab: a call's result to the App's first paint, and an App's own call
against the same call from a cell.

    .venv/bin/python benchmarks/apps_latency.py [--runs 10]

In JupyterLab from this venv and Debian's Chromium (the browser tests' helpers; nothing is
downloaded), a real kernel connects the real ``@modelcontextprotocol/server-basic-vanillajs``
(npm, pinned in fixtures.mk; `make test-servers` installs it) over stdio. In one page:

- **result to first paint**: ``%mcp call basic.get-time`` run ``--runs`` times in one cell;
  from the App's output appearing in the page (a MutationObserver in the page) to the first
  animation frame after the App wrote the result's time (a MutationObserver in its frame).
- **(a) the App's call, as the App sees it**: the App's "Get Server Time" button; from its
  ``tools/call`` request arriving at the page (a ``message`` listener in the page, before
  the host bridge's) to the response arriving in the App's window (a ``message`` listener
  in the App's frame, before the App's own). Between: the host bridge, the ``workbench.apps``
  comm over the Jupyter server's websocket, the kernel's Workbench, the server over stdio,
  and back.
- **(b) the same call from a cell, as a person sees it**: a cell running
  ``wb.call("basic.get-time")`` and printing its time; from the Ctrl+Enter keydown in the
  page to the printed line appearing in the cell's output.
- **(c) the kernel's time of the App's call**: the history records' durations
  (``source="app"``), i.e. the Workbench's call path and the server.
- **where (a) goes** (``--trace``): the comm's websocket frames as the page sends and gets
  them, and the kernel's comm handler (wrapped from a cell for the run; nothing is changed
  in the package), on one clock (``performance.timeOrigin + now()`` in the page,
  ``time.time()`` in the kernel, the same machine).

What it showed on the 2-core dev machine (November 2026, busy): (a) and (b) are at parity
(ratio 0.6-1.5 between runs, medians 27-65 ms against 31-50 ms); the kernel's handler adds
~0.4 ms to the call (check, registry lookup, submit) and the page ~1 ms each way; the rest is
the Jupyter transport both ways, which a cell pays too. The leg from the Jupyter server
handing the reply to the websocket to the page's script receiving it stalls ~40-45 ms in
about half the calls (kernel -> server is 1-5 ms); TCP_NODELAY on the server's sockets did
not remove it. A reply sent from the bridge's thread costs nothing extra: ipykernel 7 queues
every IOPub message on its IO thread, whichever thread sends it.

Each time stamp is ``performance.timeOrigin + performance.now()`` of its own document, so
they compare across the frame boundary. The observers are Playwright init scripts (in every
frame, the App's too, outside its CSP): the App is not changed. Medians, each run's figure;
ratios are what to compare between machines.
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
    window.__posted = {};
    window.__keydown = [];
    window.__ws = [];
    const seen = new WeakSet();
    new MutationObserver(() => {
      for (const node of document.querySelectorAll('.jp-wb-app-output')) {
        if (!seen.has(node)) { seen.add(node); window.__appOutputs.push(now()); }
      }
    }).observe(document, {subtree: true, childList: true});
    window.addEventListener('message', event => {
      const data = event.data;
      if (data && data.method === 'tools/call') { window.__posted[data.id] = now(); }
    }, true);
    document.addEventListener('keydown', event => {
      if (event.key === 'Enter' && event.ctrlKey) { window.__keydown.push(now()); }
    }, true);
    // The apps comm's frames on the kernel's websocket (v1 protocol: binary frames).
    const text = data => {
      try {
        if (typeof data === 'string') { return data; }
        const bytes = data instanceof ArrayBuffer ? data : data.buffer;
        return bytes ? new TextDecoder().decode(bytes) : '';
      } catch { return ''; }
    };
    const look = (way, data) => {
      const words = text(data);
      const kind = words.match(/"type": ?"(call|result)"/);
      const seq = words.match(/"seq": ?(\\d+)/);
      if (kind && seq) { window.__ws.push({way, at: now(), type: kind[1], seq: +seq[1]}); }
    };
    const send = WebSocket.prototype.send;
    WebSocket.prototype.send = function (data) {
      look('sent', data);
      return send.call(this, data);
    };
    const add = WebSocket.prototype.addEventListener;
    const Original = window.WebSocket;
    window.WebSocket = class extends Original {
      constructor(...args) {
        super(...args);
        add.call(this, 'message', event => look('got', event.data));
      }
    };
    return;
  }
  window.__answered = {};
  window.addEventListener('message', event => {
    const data = event.data;
    if (data && data.id !== undefined && (data.result || data.error) && !data.method) {
      window.__answered[data.id] = now();
    }
  }, true);
  const watch = () => {
    const shown = document.getElementById('server-time');
    const button = document.getElementById('get-time-btn');
    if (!shown || !button) { return; }
    const marks = document.documentElement.dataset;
    button.addEventListener('click', () => { marks.clicked = String(now()); }, true);
    new MutationObserver(() => {
      marks.changed = String(now());
      requestAnimationFrame(() => { if (!marks.painted) { marks.painted = String(now()); } });
    }).observe(shown, {subtree: true, childList: true, characterData: true});
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', watch);
  } else {
    watch();
  }
})();"""

CELL_CALL = (
    "_run = globals().get('_run', 0) + 1\n"
    "print('RUN', _run, wb.call('basic.get-time').structured_content['time'])"
)
"""The cell's call: printed, so what the person waits for is the call, not an App drawn."""

WATCH_OUTPUT = """([index, wanted]) => {
  window.__outputSeen = null;
  const cells = document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell');
  const cell = cells[index];
  const check = () => {
    const area = cell.querySelector('.jp-OutputArea');
    if (area && area.textContent.includes(wanted)) {
      observer.disconnect();
      window.__outputSeen = performance.timeOrigin + performance.now();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(cell, {subtree: true, childList: true, characterData: true});
}"""

# The kernel's side of an App's call, for --trace: the comm handler's start and the reply's
# comm.send, wrapped for this run (time.time(), milliseconds).
TRACE_KERNEL = """import time as _time
from workbench.lab import apps_comm as _ac
_trace = []
_ac_answer = _ac.AppsComms.answer
def _traced_answer(self, request, reply):
    got = _time.time() * 1000
    def _reply(answer):
        _trace.append({'seq': request.get('seq'), 'got': got, 'sent': _time.time() * 1000})
        reply(answer)
    _ac_answer(self, request, _reply)
_ac.AppsComms.answer = _traced_answer
print('traced')"""


def notebook(*sources: str) -> dict[str, Any]:
    cells: list[dict[str, Any]] = [
        {
            "cell_type": "code",
            "id": f"cell-{index}",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": source,
        }
        for index, source in enumerate(sources)
    ]
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return {"cells": cells, "metadata": {"kernelspec": kernel}, "nbformat": 4, "nbformat_minor": 5}


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


def app_calls(
    lab: LabPage, frame: Frame, runs: int
) -> tuple[list[float], list[tuple[float, float]]]:
    """(a): ``runs`` clicks of the App's button (after one that warms the path); each call's
    round trip as the App sees it, and its (posted, answered) time stamps."""
    took: list[float] = []
    marks: list[tuple[float, float]] = []
    for _ in range(runs + 1):
        before = frame.evaluate("document.documentElement.dataset.changed")
        known = set(lab.page.evaluate("Object.keys(window.__posted)"))
        frame.locator("#get-time-btn").click()
        frame.wait_for_function(
            "before => document.documentElement.dataset.changed !== before",
            arg=before,
            timeout=60_000,
            polling="raf",
        )
        [key] = [k for k in lab.page.evaluate("Object.keys(window.__posted)") if k not in known]
        posted = float(lab.page.evaluate(f"window.__posted[{key}]"))
        answered = float(frame.evaluate(f"window.__answered[{key}]"))
        took.append(answered - posted)
        marks.append((posted, answered))
    return took[1:], marks[1:]


def cell_calls(lab: LabPage, index: int, runs: int) -> list[float]:
    """(b): the cell at ``index`` run ``runs`` times (after one run that warms it); from the
    Ctrl+Enter keydown in the page to the printed line in its output."""
    lab.run_cell_with(CELL_CALL, index=index)
    took: list[float] = []
    for run in range(2, runs + 2):
        lab.cells().nth(index).locator(".jp-InputPrompt").click()
        lab.page.evaluate(WATCH_OUTPUT, [index, f"RUN {run} "])
        lab.page.keyboard.press("Control+Enter")
        arrived = float(
            lab.page.wait_for_function(
                "() => window.__outputSeen", timeout=60_000, polling="raf"
            ).json_value()
        )
        took.append(arrived - float(lab.page.evaluate("window.__keydown.at(-1)")))
        lab.wait_for_idle(settle=0.05)
    return took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--trace", action="store_true", help="where the App's call goes")
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
    figures: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        server = start_jupyter_server(Path(scratch))
        try:
            workdir = server.root_dir / "bench"
            workdir.mkdir()
            # setup, (trace), the App's cell, a cell to read values, the cell's call
            sources = [setup, TRACE_KERNEL if args.trace else "pass", "pass", "pass", "pass"]
            (workdir / NOTEBOOK).write_text(json.dumps(notebook(*sources)))
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
                    call_cell, value_cell, cell_cell = 2, 3, 4
                    lab.run_cell_with("%mcp call basic.get-time", index=call_cell)  # warms
                    frame = app_frame(lab, call_cell)
                    mark(frame, "painted")
                    paint: list[float] = []
                    for _ in range(args.runs):
                        lab.run_cell_with("%mcp call basic.get-time", index=call_cell)
                        frame = app_frame(lab, call_cell, previous=frame)
                        painted = mark(frame, "painted")
                        arrived = float(lab.page.evaluate("window.__appOutputs.at(-1)"))
                        paint.append(painted - arrived)
                    figures["paint"] = paint
                    figures["app"], marks = app_calls(lab, frame, args.runs)
                    figures["kernel"] = kernel_value(
                        lab,
                        value_cell,
                        "print('VALUE', json.dumps([c.duration * 1000 for c in wb.history"
                        f" if c.source == 'app'][-{args.runs}:]))",
                    )
                    if args.trace:
                        figures.update(trace(lab, value_cell, marks))
                    figures["cell"] = cell_calls(lab, cell_cell, args.runs)
                    context.close()
                finally:
                    browser.close()
        finally:
            server.stop()
    report(args.runs, figures)
    return 0


def trace(lab: LabPage, index: int, marks: list[tuple[float, float]]) -> dict[str, list[float]]:
    """Split the App's last calls (``marks``: posted, answered) at the websocket and the
    kernel's comm handler."""
    kernel = kernel_value(lab, index, "print('VALUE', json.dumps(_trace))")
    frames = lab.page.evaluate("window.__ws")
    sent = {f["seq"]: f["at"] for f in frames if f["way"] == "sent" and f["type"] == "call"}
    got = {f["seq"]: f["at"] for f in frames if f["way"] == "got" and f["type"] == "result"}
    names = ["page_in", "to_kernel", "in_kernel", "from_kernel", "page_out"]
    parts: dict[str, list[float]] = {name: [] for name in names}
    for row, (posted, answered) in zip(kernel[-len(marks) :], marks, strict=True):
        seq = row["seq"]
        if seq in sent and seq in got:
            steps = [posted, sent[seq], row["got"], row["sent"], got[seq], answered]
            for name, start, end in zip(names, steps, steps[1:], strict=False):
                parts[name].append(end - start)
    return parts


def report(runs: int, figures: dict[str, list[float]]) -> None:
    def line(label: str, key: str) -> float:
        median = statistics.median(figures[key])
        each = ", ".join(f"{t:.1f}" for t in figures[key])
        print(f"  {label:54} median {median:7.1f} ms  ({each})")
        return median

    print(f"MCP Apps in JupyterLab, server-basic-vanillajs over stdio ({runs} runs each)")
    line("result shown to the App's first paint", "paint")
    app = line("(a) App's tools/call, posted to answered in the App", "app")
    cell = line("(b) the call from a cell, Ctrl+Enter to output shown", "cell")
    kernel = line("(c) the App's call in the kernel (history duration)", "kernel")
    if "to_kernel" in figures:
        line("    App's request in the page -> comm message sent", "page_in")
        line("    comm message sent -> kernel's handler", "to_kernel")
        line("    kernel's handler -> reply sent (bridge, server)", "in_kernel")
        line("    reply sent -> the page gets it on the websocket", "from_kernel")
        line("    websocket -> the response in the App's window", "page_out")
    print(f"  ratio (a) App call / (b) cell call: {app / cell:.2f} ({app - cell:+.1f} ms)")
    print(f"  ratio (a) App call / (c) kernel time: {app / kernel:.2f} ({app - kernel:+.1f} ms)")


if __name__ == "__main__":
    sys.exit(main())
