"""MCP Apps in JupyterLab with Chromium: real App servers from npm over stdio in a real kernel,
and a hostile App of our own, in one Lab page and one kernel for the module (the tests run in
file order and build on each other: each appends the cells it runs).

What an App does inside its frame is read through Playwright's frame handles; what a hostile
App achieved is judged from outside it: the page's DOM and URL, a port it tries to reach, the
kernel's history and the log its server keeps of every tool it really ran.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, FrameLocator, expect

from tests.app_servers import BASIC, BUDGET, app_server
from tests.browser.conftest import _REPORTS as REPORTS
from tests.browser.jupyter_browser import ARTIFACTS, VIEWPORT, JupyterServer, LabPage
from tests.polling import wait_for

APP_MIME = "application/vnd.workbench.app+json"
NOTEBOOK = "apps.ipynb"
SHARED = "apps-shared.ipynb"
HOSTILE = Path(__file__).parents[1] / "fixtures" / "hostile_app_server.py"
ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
NAME = "test_lab_apps"
WAIT = 20_000
"""Milliseconds to wait for what an App shows after a round trip (a loaded machine is slow)."""
REFUSALS = (
    "Content Security Policy",
    "sandbox",
    "Unsafe attempt to initiate navigation",
    "Live calls are off",
)


class Listener:
    """A port on 127.0.0.1 that records the path of every request it gets (a hostile App's
    exfiltration target: it must see nothing the App did not declare)."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        seen = self.paths

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                seen.append(self.path)
                self.send_response(204)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()

            do_POST = do_GET

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="module")
def listener() -> Iterator[Listener]:
    port = Listener()
    try:
        yield port
    finally:
        port.close()


def setup_source(listener: Listener, log: Path) -> str:
    """The notebook's first cell: the workbench, the three servers, a history printer."""
    basic, budget = app_server(BASIC), app_server(BUDGET)
    hostile = [str(HOSTILE), "--port", str(listener.port), "--log", str(log)]
    return "\n".join(
        [
            "%load_ext workbench",
            "import json, sys, workbench",
            "wb = workbench.current()",
            f"wb.connect('basic', command={basic[0]!r}, args={basic[1]!r})",
            f"wb.connect('budget', command={budget[0]!r}, args={budget[1]!r})",
            f"wb.connect('hostile', command=sys.executable, args={hostile!r})",
            "def calls():",
            "    rows = [[c.tool_id, c.source, c.status] for c in wb.history]",
            "    print('CALLS ' + json.dumps(rows))",
            "print('servers:', sorted(info.name for info in wb.servers()))",
        ]
    )


def notebook(source: str) -> dict[str, Any]:
    """A notebook of one code cell (nbformat 4.5)."""
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


@pytest.fixture(scope="module")
def console() -> list[str]:
    """Every console message of the page and its frames (``type: text``), errors or not."""
    return []


@pytest.fixture(scope="module")
def apps_lab(
    browser: Browser,
    jupyter_server: JupyterServer,
    listener: Listener,
    console: list[str],
    timing_section: Callable[[str], Callable[[str, float], None]],
) -> Iterator[LabPage]:
    """One Lab page for the module, the notebook open and its setup cell run."""
    workdir = jupyter_server.root_dir / NAME
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    log = workdir / "hostile-ran.jsonl"
    log.touch()
    (workdir / NOTEBOOK).write_text(json.dumps(notebook(setup_source(listener, log))))
    artifacts = ARTIFACTS / NAME
    shutil.rmtree(artifacts, ignore_errors=True)
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    lab = LabPage(
        page=page,
        server=jupyter_server,
        name=NAME,
        workdir=workdir,
        artifacts=artifacts,
        record_timing=timing_section("browser"),
    )
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    try:
        lab.open_notebook(NOTEBOOK)
        lab.run_all()
        assert "servers: ['basic', 'budget', 'hostile']" in lab.cell_output(0), lab.cell_output(0)
        yield lab
    except BaseException:
        with contextlib.suppress(Exception):
            lab.write_failure_report()
        raise
    finally:
        context.close()
        with contextlib.suppress(OSError):
            jupyter_server.shutdown_sessions(under=f"{NAME}/")


@pytest.fixture
def lab(apps_lab: LabPage, request: pytest.FixtureRequest) -> Iterator[LabPage]:
    """The module's page for one test: its errors are judged after the test, then forgotten
    (a later test's errors are its own); a failed test leaves a screenshot and a report."""
    yield apps_lab
    reports = request.node.stash.get(REPORTS, {})
    if "call" in reports and reports["call"].failed:
        with contextlib.suppress(Exception):  # evidence only; the failure is reported
            apps_lab.write_failure_report()
    try:
        apps_lab.assert_no_errors(
            # What the browser logs when it refuses a sandboxed, policed App something.
            message
            for message in apps_lab.console_errors
            if any(refused in message for refused in REFUSALS)
        )
    finally:
        apps_lab.page_errors.clear()
        apps_lab.console_errors.clear()
        apps_lab.allowed_errors.clear()


def run(lab: LabPage, code: str) -> tuple[int, str]:
    """Run ``code`` in a new cell at the end; its index and output text."""
    index = lab.cell_count()
    return index, lab.run_cell_with(code)


def app_in(lab: LabPage, index: int) -> FrameLocator:
    """The App drawn in cell ``index``'s output (waiting for its frame)."""
    frame = lab.cells().nth(index).locator("iframe.jp-wb-app-frame")
    frame.wait_for()
    return frame.content_frame


def history(lab: LabPage) -> list[list[str]]:
    """The kernel's history as ``[tool_id, source, status]`` rows."""
    _, shown = run(lab, "calls()")
    [line] = [line for line in shown.splitlines() if line.startswith("CALLS ")]
    rows: list[list[str]] = json.loads(line[len("CALLS ") :])
    return rows


def kernel_print(lab: LabPage, expression: str) -> str:
    _, shown = run(lab, f"print('VALUE', {expression})")
    [line] = [line for line in shown.splitlines() if line.startswith("VALUE ")]
    return line[len("VALUE ") :]


# -- the real basic-vanillajs App --


def test_calling_get_time_draws_the_app_with_the_time_the_server_answered(lab: LabPage) -> None:
    index, _ = run(lab, "%mcp call basic.get-time")
    output = lab.cells().nth(index).locator(".jp-wb-app-output")
    expect(output).to_have_count(1, timeout=WAIT)
    expect(output.locator(".jp-wb-app-bar")).to_contain_text(
        "ui://get-time/mcp-app.html", timeout=WAIT
    )
    answered = kernel_print(lab, "wb.history[-1].observation.structured_content['time']")
    expect(app_in(lab, index).locator("#server-time")).to_have_text(answered, timeout=WAIT)
    assert ISO_TIME.match(answered), answered
    lab.screenshot("get-time drawn")


def test_a_button_in_the_app_calls_the_server_through_the_kernel(lab: LabPage) -> None:
    index = first_app_cell(lab, "ui://get-time/mcp-app.html")
    app = app_in(lab, index)
    shown = app.locator("#server-time")
    before = shown.inner_text()
    app.locator("#get-time-btn").click()
    expect(shown).not_to_have_text(before, timeout=WAIT)
    assert ISO_TIME.match(shown.inner_text()), shown.inner_text()
    rows = history(lab)
    assert ["basic.get-time", "app", "ok"] in rows, rows
    assert rows.count(["basic.get-time", "kernel", "ok"]) == 1, rows


def test_the_lab_theme_reaches_the_app(lab: LabPage) -> None:
    index = first_app_cell(lab, "ui://get-time/mcp-app.html")
    root = app_in(lab, index).locator("html")
    expect(root).to_have_attribute("data-theme", "light", timeout=WAIT)
    try:
        lab.menu("Settings", "Theme", "JupyterLab Dark")
        expect(root).to_have_attribute("data-theme", "dark", timeout=WAIT)
        lab.screenshot("dark")
    finally:
        lab.menu("Settings", "Theme", "JupyterLab Light")  # the server's settings are shared
    expect(root).to_have_attribute("data-theme", "light", timeout=WAIT)


def first_app_cell(lab: LabPage, uri: str) -> int:
    """The index of the first cell whose App output shows ``uri``."""
    bars = lab.page.evaluate(
        """() => Array.from(document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden)'
              + ' .jp-Cell')).map(cell => Array.from(cell.querySelectorAll('.jp-wb-app-bar'))
              .map(bar => bar.textContent).join(' '))"""
    )
    return next(index for index, text in enumerate(bars) if uri in text)


# -- the real budget-allocator App --


def test_the_budget_allocator_draws_its_sliders(lab: LabPage) -> None:
    index, _ = run(lab, "%mcp call budget.get-budget-data")
    app = app_in(lab, index)
    categories = int(
        kernel_print(
            lab, "len(wb.history[-1].observation.structured_content['config']['categories'])"
        )
    )
    assert categories > 0
    expect(app.locator("#sliders-container input[type=range]")).to_have_count(
        categories, timeout=WAIT
    )
    expect(app.locator("#status-bar")).not_to_have_text(
        re.compile(r"Allocated: \$0 / \$0"), timeout=WAIT
    )
    lab.screenshot("budget drawn")


# -- a hostile App --


def ran_by_hostile(lab: LabPage) -> list[dict[str, str]]:
    """What the hostile server really ran, from its own log."""
    log = lab.workdir / "hostile-ran.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines() if line]


def test_a_hostile_app_reaches_neither_the_page_nor_the_network_nor_forbidden_tools(
    lab: LabPage, listener: Listener, console: list[str]
) -> None:
    url, title = lab.page.url, lab.page.title()
    index, _ = run(lab, "%mcp call hostile.hostile")
    app = app_in(lab, index)
    # The App's own word is only a signal that it has tried everything (never the verdict).
    expect(app.locator("body")).to_have_attribute("data-done", "yes", timeout=WAIT)
    lab.cells().nth(index).scroll_into_view_if_needed()
    lab.screenshot("hostile drawn")

    assert lab.page.url == url and lab.page.title() == title
    assert "PWNED" not in lab.page.title()
    expect(lab.page.locator("#hostile-app-was-here")).to_have_count(0)
    assert listener.paths == [], listener.paths

    ran = ran_by_hostile(lab)
    assert {"tool": "app_ok", "note": "from the app"} in ran, ran  # the App did get its calls
    assert not [r for r in ran if r["tool"] in ("model_only", "get-time")], ran
    rows = history(lab)
    assert ["hostile.app_ok", "app", "ok"] in rows, rows
    assert not [r for r in rows if r[0] == "hostile.model_only" and r[2] == "ok"], rows

    # The policy that declared no domains is what stopped the fetch: the browser says so.
    blocked = [m for m in console if "Content Security Policy" in m]
    assert any(str(listener.port) in m for m in blocked), console


def test_an_app_that_declares_the_origin_reaches_it(lab: LabPage, listener: Listener) -> None:
    """The control for the test above: the same port, declared in connectDomains, is reached
    (so a silent port there means the policy blocked the App)."""
    index, _ = run(lab, "%mcp call hostile.declared")
    expect(app_in(lab, index).locator("body")).to_have_attribute("data-done", "yes", timeout=WAIT)
    wait_for(lambda: "/declared" in listener.paths, seconds=10)
    assert listener.paths == ["/declared"], listener.paths


FORGE = """(port) => {
  const calls = [
    {jsonrpc: '2.0', id: 901, method: 'ui/initialize', params: {appInfo: {name: 'forger',
      version: '1'}, appCapabilities: {}, protocolVersion: '2026-01-26'}},
    {jsonrpc: '2.0', method: 'ui/notifications/initialized'},
    {jsonrpc: '2.0', id: 902, method: 'tools/call', params: {name: 'app_ok',
      arguments: {note: 'forged'}}},
    {jsonrpc: '2.0', id: 903, method: 'tools/call', params: {name: 'get-time', arguments: {}}},
  ];
  // From another frame of the page...
  const other = document.createElement('iframe');
  other.id = 'forger';
  other.srcdoc = '<script>for (const m of ' + JSON.stringify(calls)
    + ') { parent.postMessage(m, "*"); }<' + '/script>';
  document.body.appendChild(other);
  // ...and from the page itself.
  for (const message of calls) { window.postMessage(message, '*'); }
}"""


def test_a_forged_post_message_from_another_frame_calls_nothing(lab: LabPage) -> None:
    before = history(lab)
    lab.page.evaluate(FORGE)
    lab.page.locator("#forger").wait_for(state="attached")
    # A real App's call afterwards: once it is answered, the forged messages (sent first, on
    # the same page) have been handled too.
    index = first_app_cell(lab, "ui://get-time/mcp-app.html")
    app = app_in(lab, index)
    shown = app.locator("#server-time")
    previous = shown.inner_text()
    app.locator("#get-time-btn").click()
    expect(shown).not_to_have_text(previous, timeout=WAIT)
    lab.page.evaluate("() => document.getElementById('forger').remove()")

    ran = ran_by_hostile(lab)
    assert not [r for r in ran if r["note"] == "forged"], ran
    after = history(lab)
    new = [row for row in after[len(before) :] if row[0] != "basic.get-time"]
    assert new == [], new


# -- saved, re-opened without a kernel, and an untrusted copy --


def saved_time(notebook: dict[str, Any]) -> str | None:
    """The time the first get-time App output saved as its last result."""
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            doc = output.get("data", {}).get(APP_MIME)
            if doc and doc.get("tool") == "get-time":
                time: str = doc["result"]["structuredContent"]["time"]
                return time
    return None


def test_the_saved_app_redraws_without_a_kernel_and_an_untrusted_copy_waits(
    lab: LabPage,
) -> None:
    saved = lab.save(NOTEBOOK, until=lambda notebook: saved_time(notebook) is not None)
    time = saved_time(saved)
    doc = next(
        output["data"][APP_MIME]
        for cell in saved["cells"]
        for output in cell.get("outputs", [])
        if APP_MIME in output.get("data", {})
    )
    assert doc["live"] is True and doc["html_sha256"] and "<html" in doc["html"].lower()
    lab.untrusted_copy(NOTEBOOK, SHARED)
    lab.leave_and_stop_kernel()

    panel = lab.reopen(NOTEBOOK, "lab")
    output = panel.locator(".jp-wb-app-output").first
    expect(output.locator(".jp-wb-app-status")).to_contain_text("Live calls are off", timeout=WAIT)
    frame = output.locator("iframe.jp-wb-app-frame")
    expect(frame.content_frame.locator("#server-time")).to_have_text(str(time), timeout=WAIT)
    lab.screenshot("reopened without a kernel")

    panel = lab.reopen(SHARED, "lab")
    output = panel.locator(".jp-wb-app-output").first
    run_it = output.locator(".jp-wb-app-run")
    expect(run_it).to_have_text("Run this app", timeout=WAIT)
    expect(output.locator("iframe")).to_have_count(0)
    lab.screenshot("untrusted copy")
    run_it.click()
    frame = output.locator("iframe.jp-wb-app-frame")
    expect(frame.content_frame.locator("#server-time")).to_have_text(str(time), timeout=WAIT)
