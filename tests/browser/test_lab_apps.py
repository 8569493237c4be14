"""MCP Apps in JupyterLab with Chromium: real App servers from npm over stdio in a real kernel,
a hostile App of our own, and a probe App (tests/browser/probe_app.py) that speaks the Apps
protocol by hand, so what it shows is exactly what the host sent it; in one Lab page and one
kernel for the module (the tests run in file order and build on each other: each appends the
cells it runs, the probe's test runs cells 1 and 2).

What an App does inside its frame is read through Playwright's frame handles; what a hostile
App achieved is judged from outside it: the page's DOM and URL, a port it tries to reach, the
kernel's history and the log its server keeps of every tool it really ran. The last test
saves the notebook, re-opens it without a kernel and as an untrusted copy.

Screenshots: test-artifacts/browser/test_lab_apps/.
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
from playwright.sync_api import Browser, FrameLocator, Locator, expect
from playwright.sync_api import Error as PlaywrightError

from tests.app_servers import BASIC, BUDGET, app_server
from tests.browser import probe_app
from tests.browser.conftest import _REPORTS as REPORTS
from tests.browser.jupyter_browser import ARTIFACTS, VIEWPORT, JupyterServer, LabPage
from tests.polling import wait_for

APP_MIME = "application/vnd.workbench.app+json"
NOTEBOOK = "apps.ipynb"
SHARED = "apps-shared.ipynb"
HOSTILE = Path(__file__).parents[1] / "fixtures" / "hostile_app_server.py"
ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
NAME = "test_lab_apps"
GET_TIME = "ui://get-time/mcp-app.html"
PROBE, SCRATCH = 1, 2
"""The probe App's cell and the cell its test runs code in."""
THEMES = "/lab/api/settings/@jupyterlab/apputils-extension:themes"
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


def notebook(*sources: str) -> dict[str, Any]:
    """A notebook of these code cells (nbformat 4.5)."""
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
    """One Lab page for the module, the notebook open and its cells run: the setup, the
    probe App's server (called once, so its App draws) and a cell for the probe's test."""
    workdir = jupyter_server.root_dir / NAME
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    log = workdir / "hostile-ran.jsonl"
    log.touch()
    cells = [setup_source(listener, log), probe_app.SERVER_CELL, "pass"]
    (workdir / NOTEBOOK).write_text(json.dumps(notebook(*cells)))
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


def app_in(lab: LabPage, index: int, connected: bool = True) -> FrameLocator:
    """The App drawn in cell ``index``'s output, once it has done its handshake with the host
    (as a person sees it drawn: a click before then reaches an App not yet listening); with
    ``connected=False``, as soon as its frame is there (an App that never does one)."""
    cell = lab.cells().nth(index)
    frame = cell.locator("iframe.jp-wb-app-frame")
    ready = cell.locator("iframe.jp-wb-app-frame[data-app-state=connected]") if connected else frame
    try:
        ready.wait_for(timeout=WAIT)
    except PlaywrightError as error:
        state = frame.evaluate_all("frames => frames.map(f => f.dataset.appState)")
        lab.fail(f"the App in cell {index} is not connected (frames: {state}): {error}")
    return frame.content_frame


def click_for_a_new_time(lab: LabPage, app: FrameLocator) -> str:
    """Click the get-time App's button; the new time it shows once the server answered."""
    shown = app.locator("#server-time")
    previous = shown.inner_text()
    # The click as an event on the App's button: a mouse click is aimed in page coordinates,
    # and a notebook still scrolling (a cell just run below) can move the button away in
    # between; landing on the bar's "Full screen" instead leaves an overlay that takes the
    # keys of every later step.
    app.locator("#get-time-btn").dispatch_event("click")
    try:
        expect(shown).not_to_have_text(previous, timeout=WAIT)
    except AssertionError as error:
        lab.fail(f"the App's get-time call was not answered within {WAIT // 1000} s: {error}")
    return shown.inner_text()


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
    expect(output.locator(".jp-wb-app-bar")).to_contain_text(GET_TIME, timeout=WAIT)
    answered = kernel_print(lab, "wb.history[-1].observation.structured_content['time']")
    expect(app_in(lab, index).locator("#server-time")).to_have_text(answered, timeout=WAIT)
    assert ISO_TIME.match(answered), answered
    lab.screenshot("get-time drawn")


def test_a_button_in_the_app_calls_the_server_through_the_kernel(lab: LabPage) -> None:
    index = first_app_cell(lab, GET_TIME)
    shown = click_for_a_new_time(lab, app_in(lab, index))
    assert ISO_TIME.match(shown), shown
    rows = history(lab)
    assert ["basic.get-time", "app", "ok"] in rows, rows
    assert rows.count(["basic.get-time", "kernel", "ok"]) == 1, rows


def test_the_tool_browser_draws_the_app_under_its_call(lab: LabPage) -> None:
    """The browser's call panel (an ipywidgets Output holding the Observation's bundle) draws
    the App as a cell's output does, and the App's own call goes through the kernel."""
    index, _ = run(lab, "browser = workbench.browse()\nbrowser")
    browser = lab.cells().nth(index).locator(".wb-browser")
    query = browser.locator(".wb-tl-query")
    query.fill("get-time")
    rows = browser.locator(".wb-tl-rows")
    expect(rows).to_have_attribute("data-query", "get-time")
    expect(rows.locator(".wb-tl-row").first).to_have_attribute("data-id", "basic.get-time")
    # Enter opens the first row, and the Call button gets its click as an event: the notebook
    # may still scroll as the new cell's output grows, and a mouse click aimed there can land
    # beside its target (Enter on the button would go to the notebook's own shortcut).
    query.press("Enter")
    query.blur()  # the next cell is added by the notebook's keyboard shortcuts
    expect(browser.locator(".wb-card")).to_contain_text("basic.get-time")
    browser.locator(".wb-call").dispatch_event("click")
    result = browser.locator(".wb-call-panel .wb-result")
    expect(result.locator(".jp-wb-app-bar")).to_contain_text(GET_TIME, timeout=WAIT)
    answered = kernel_print(lab, "wb.history[-1].observation.structured_content['time']")
    app = app_in(lab, index)
    expect(app.locator("#server-time")).to_have_text(answered, timeout=WAIT)
    lab.screenshot("get-time in the tool browser")

    before = history(lab)
    click_for_a_new_time(lab, app)
    new = history(lab)[len(before) :]
    assert ["basic.get-time", "app", "ok"] in new, new


# -- the probe App (an App server made in the kernel, connected in-process) --


def probe_frame(scope: Locator) -> FrameLocator:
    return scope.locator("iframe.jp-wb-app-frame").content_frame


def test_the_probe_app_gets_its_result_calls_the_kernel_and_reloads(lab: LabPage) -> None:
    output = lab.cells().nth(PROBE).locator(".jp-wb-app-output")

    # The Observation first, the App under it, its frame sandboxed without same-origin.
    expect(output.locator(".jp-wb-observation")).to_be_visible()
    frame_element = output.locator("iframe.jp-wb-app-frame")
    expect(frame_element).to_have_attribute("sandbox", "allow-scripts")
    app = probe_frame(output)
    expect(app.locator("#result")).to_have_text("result n=21 double=42")
    expect(app.locator("#input")).to_have_text('input {"n":21}')
    expect(app.locator("#theme")).to_contain_text("theme light ")
    expect(app.locator("#theme")).to_contain_text(" inline ")
    assert "allow-same-origin" not in (frame_element.get_attribute("sandbox") or "")
    srcdoc = frame_element.get_attribute("srcdoc") or ""
    assert srcdoc.startswith('<!DOCTYPE html><meta http-equiv="Content-Security-Policy"')
    assert "connect-src 'none'" in srcdoc
    # the App's size notification sized its frame (the 150 px placeholder is gone)
    expect(frame_element).not_to_have_css("height", "150px")

    # An in-app call of an app-only tool reaches the kernel's Workbench and answers.
    app.locator("#add").click()
    expect(app.locator("#answer")).to_have_text("sum 42")
    shown = lab.run_cell_with("print([(c.tool_id, c.source) for c in wb.history][-1])", SCRATCH)
    assert "probe.add" in shown and "app" in shown
    app.locator("#read").click()  # resources/read goes the same way
    expect(app.locator("#answer")).to_have_text("read text/html;profile=mcp-app")

    # ui/message: shown under the App as text (never markup) and kept on the call's record.
    app.locator("#say").click()
    expect(app.locator("#answer")).to_have_text("said")
    expect(output.locator(".jp-wb-app-note")).to_have_text("App message: <b>hi</b> from the app")
    expect(output.locator(".jp-wb-app-note b")).to_have_count(0)
    notes = lab.run_cell_with(
        "print([c.app_notes for c in wb.history if c.tool_id == 'probe.show'])", SCRATCH
    )
    assert "'kind': 'message'" in notes and "<b>hi</b> from the app" in notes

    # ui/open-link: the person sees the address as text and decides; only http(s) is asked.
    app.locator("#link").click()
    dialog = lab.page.locator(".jp-Dialog")
    expect(dialog).to_contain_text("https://example.org/%3Cpage%3E")
    expect(dialog).to_contain_text(f"{probe_app.URI} (server probe)")
    dialog.get_by_role("button", name="Cancel").click()
    expect(app.locator("#answer")).to_have_text("refused Link opening denied by user")
    app.locator("#script").click()
    expect(app.locator("#answer")).to_have_text("refused Only http and https links open.")
    expect(dialog).to_have_count(0)

    # Full screen: an overlay over the whole window; Escape leaves it.
    output.get_by_role("button", name="Full screen").click()
    expect(output.locator(".jp-wb-app")).to_have_class(re.compile("jp-wb-app-fullscreen"))
    box = frame_element.bounding_box()
    assert box is not None and box["height"] > VIEWPORT["height"] * 0.8, box
    lab.screenshot("probe fullscreen")
    lab.page.keyboard.press("Escape")
    expect(output.locator(".jp-wb-app")).not_to_have_class(re.compile("jp-wb-app-fullscreen"))

    # The App's HTML changed in the kernel: the output reloads it with the same input and result.
    lab.run_cell_with(
        'APP_HTML = APP_HTML.replace("no change", "reloaded page")\n'
        "from workbench.lab.apps_comm import push_reload\n"
        f"push_reload('probe', {probe_app.URI!r})",
        SCRATCH,
    )
    expect(app.locator("#changed")).to_have_text("reloaded page")
    expect(app.locator("#result")).to_have_text("result n=21 double=42")

    # Moving the cell puts its output in the page again: the App restarts in a fresh frame.
    lab.cells().nth(PROBE).locator(".jp-InputPrompt").click()
    lab.page.keyboard.press("Escape")
    lab.page.keyboard.press("ControlOrMeta+Shift+ArrowDown")
    moved = probe_frame(lab.cells().nth(PROBE + 1).locator(".jp-wb-app-output"))
    expect(moved.locator("#result")).to_have_text("result n=21 double=42")
    moved.locator("#add").click()
    expect(moved.locator("#answer")).to_have_text("sum 42")
    lab.cells().nth(0).locator(".jp-InputPrompt").click()  # keys to the page, not the App


def test_the_lab_theme_reaches_the_apps(lab: LabPage) -> None:
    """One switch for both: the real App's document and the probe's host-context change."""
    root = app_in(lab, first_app_cell(lab, GET_TIME)).locator("html")
    probe = app_in(lab, first_app_cell(lab, probe_app.URI))
    expect(root).to_have_attribute("data-theme", "light", timeout=WAIT)
    try:
        lab.menu("Settings", "Theme", "JupyterLab Dark")
        expect(lab.page.locator("body")).to_have_attribute("data-jp-theme-light", "false")
        expect(root).to_have_attribute("data-theme", "dark", timeout=WAIT)
        expect(probe.locator("#changed")).to_contain_text("changed dark ", timeout=WAIT)
        lab.screenshot("dark")
    finally:
        lab.menu("Settings", "Theme", "JupyterLab Light")  # the server's settings are shared
        lab.server.api("PUT", THEMES, {"raw": json.dumps({"theme": "JupyterLab Light"})})
    expect(root).to_have_attribute("data-theme", "light", timeout=WAIT)
    expect(probe.locator("#changed")).to_contain_text("changed light ", timeout=WAIT)
    lab.screenshot("live")


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
    declared = app_in(lab, index, connected=False).locator("body")
    expect(declared).to_have_attribute("data-done", "yes", timeout=WAIT)
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
    index = first_app_cell(lab, GET_TIME)
    click_for_a_new_time(lab, app_in(lab, index))
    lab.page.evaluate("() => document.getElementById('forger').remove()")

    ran = ran_by_hostile(lab)
    assert not [r for r in ran if r["note"] == "forged"], ran
    after = history(lab)
    new = [row for row in after[len(before) :] if row[0] != "basic.get-time"]
    assert new == [], new


# -- saved, re-opened without a kernel, and an untrusted copy --


def saved_doc(notebook: dict[str, Any], tool: str) -> dict[str, Any] | None:
    """The first App document the notebook saved for ``tool``."""
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            doc: dict[str, Any] | None = output.get("data", {}).get(APP_MIME)
            if doc and doc.get("tool") == tool:
                return doc
    return None


def saved_time(notebook: dict[str, Any]) -> str | None:
    """The time the first get-time App output saved as its last result."""
    doc = saved_doc(notebook, "get-time")
    return None if doc is None else str(doc["result"]["structuredContent"]["time"])


def test_the_saved_apps_redraw_without_a_kernel_and_an_untrusted_copy_waits(
    lab: LabPage,
) -> None:
    saved = lab.save(
        NOTEBOOK,
        until=lambda notebook: (
            saved_time(notebook) is not None and saved_doc(notebook, "show") is not None
        ),
    )
    time = saved_time(saved)
    doc = saved_doc(saved, "get-time")
    assert doc is not None
    assert doc["live"] is True and doc["html_sha256"] and "<html" in doc["html"].lower()
    get_time, probe = first_app_cell(lab, GET_TIME), first_app_cell(lab, probe_app.URI)
    lab.untrusted_copy(NOTEBOOK, SHARED)
    lab.leave_and_stop_kernel()

    panel = lab.reopen(NOTEBOOK, "lab")
    output = panel.locator(".jp-Cell").nth(get_time).locator(".jp-wb-app-output")
    expect(output.locator(".jp-wb-app-status")).to_contain_text("Live calls are off", timeout=WAIT)
    frame = output.locator("iframe.jp-wb-app-frame")
    expect(frame.content_frame.locator("#server-time")).to_have_text(str(time), timeout=WAIT)
    lab.screenshot("reopened without a kernel")

    # Received by someone else: the Observations draw, each App waits for a click.
    panel = lab.reopen(SHARED, "lab")
    output = panel.locator(".jp-Cell").nth(get_time).locator(".jp-wb-app-output")
    shared = panel.locator(".jp-Cell").nth(probe).locator(".jp-wb-app-output")
    run_it = output.locator(".jp-wb-app-run")
    expect(run_it).to_have_text("Run this app", timeout=WAIT)
    expect(output.locator("iframe")).to_have_count(0)
    expect(shared.locator(".jp-wb-observation")).to_be_visible()
    expect(shared.get_by_role("button", name="Run this app")).to_be_visible()
    expect(shared.locator("iframe")).to_have_count(0)
    lab.screenshot("untrusted copy")
    run_it.click()
    frame = output.locator("iframe.jp-wb-app-frame")
    expect(frame.content_frame.locator("#server-time")).to_have_text(str(time), timeout=WAIT)

    shared.get_by_role("button", name="Run this app").click()
    app = probe_frame(shared)
    expect(app.locator("#result")).to_have_text("result n=21 double=42")
    expect(shared.locator(".jp-wb-app-status")).to_contain_text("Live calls are off")
    app.locator("#add").click()
    expect(app.locator("#answer")).to_contain_text("error Live calls are off")
    lab.screenshot("untrusted run")
