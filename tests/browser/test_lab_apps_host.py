"""The JupyterLab host of MCP Apps (labextension/src/apps/) with Chromium and a real kernel: a
small FastMCP server made in the kernel and connected in-process, whose App speaks the Apps
protocol by hand (postMessage JSON-RPC, no bundled App class), so what it shows is exactly
what the host sent it. One test walks the whole path: the App draws under its Observation,
receives the tool's input and result and the theme, calls an app-only tool that reaches the
kernel and answers, follows a theme switch; the saved notebook, as an untrusted copy, shows
"Run this app" and runs nothing until clicked.

Screenshots: test-artifacts/browser/<test>/.
"""

from __future__ import annotations

import json
import re
import time

from playwright.sync_api import FrameLocator, Locator, expect

from tests.browser.jupyter_browser import VIEWPORT, LabPage

NOTEBOOK = "apps-host.ipynb"
UNTRUSTED = "apps-host-untrusted.ipynb"
APP_MIME = "application/vnd.workbench.app+json"
THEMES = "/lab/api/settings/@jupyterlab/apputils-extension:themes"

APP_HTML = r"""<!DOCTYPE html>
<html><head><title>Probe</title></head><body>
<p id="theme">no context</p><p id="input">no input</p><p id="result">no result</p>
<p id="answer">no answer</p><p id="changed">no change</p>
<button id="add">add</button><button id="say">say</button><button id="read">read</button>
<button id="link">link</button>
<button id="script">script link</button>
<script>
let next = 0;
const waiting = new Map();
const show = (id, text) => { document.getElementById(id).textContent = text; };
function request(method, params) {
  const id = ++next;
  window.parent.postMessage({jsonrpc: '2.0', id, method, params}, '*');
  return new Promise((resolve, reject) => waiting.set(id, {resolve, reject}));
}
window.addEventListener('message', event => {
  if (event.source !== window.parent) { return; }
  const message = event.data;
  if (!message || message.jsonrpc !== '2.0') { return; }
  if (message.id !== undefined && waiting.has(message.id)) {
    const wait = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) { wait.reject(message.error); } else { wait.resolve(message.result); }
  } else if (message.method === 'ui/notifications/tool-input') {
    show('input', 'input ' + JSON.stringify(message.params.arguments));
  } else if (message.method === 'ui/notifications/tool-result') {
    const data = message.params.structuredContent;
    show('result', 'result n=' + data.n + ' double=' + data.double);
  } else if (message.method === 'ui/notifications/host-context-changed' && message.params.theme) {
    show('changed', 'changed ' + message.params.theme + ' '
      + message.params.styles.variables['--color-background-primary']);
  }
});
request('ui/initialize', {
  appInfo: {name: 'probe', version: '1.0.0'}, appCapabilities: {}, protocolVersion: '2026-01-26',
}).then(answer => {
  const context = answer.hostContext;
  const background = context.styles.variables['--color-background-primary'];
  const words = ['theme', context.theme, background, context.displayMode, context.locale];
  show('theme', words.join(' '));
  window.parent.postMessage(
    {jsonrpc: '2.0', method: 'ui/notifications/initialized', params: {}}, '*');
  window.parent.postMessage({jsonrpc: '2.0', method: 'ui/notifications/size-changed',
    params: {width: 400, height: document.body.scrollHeight + 20}}, '*');
});
document.getElementById('add').onclick = () => request(
  'tools/call', {name: 'add', arguments: {a: 2, b: 40}}
).then(result => show('answer', 'sum ' + result.structuredContent.result),
        error => show('answer', 'error ' + error.message));
const open = url => request('ui/open-link', {url}).then(
  () => show('answer', 'opened'), error => show('answer', 'refused ' + error.message));
document.getElementById('link').onclick = () => open('https://example.org/<page>');
document.getElementById('script').onclick = () => open('javascript:alert(1)');
document.getElementById('read').onclick = () => request(
  'resources/read', {uri: 'ui://probe/app.html'}
).then(result => show('answer', 'read ' + result.contents[0].mimeType),
       error => show('answer', 'error ' + error.message));
document.getElementById('say').onclick = () => request(
  'ui/message', {role: 'user', content: [{type: 'text', text: '<b>hi</b> from the app'}]}
).then(() => show('answer', 'said'), error => show('answer', 'error ' + error.message));
</script></body></html>"""

SERVER_CELL = f'''import workbench
from fastmcp import FastMCP

APP_HTML = {APP_HTML!r}
probe = FastMCP("probe")

@probe.tool(meta={{"ui": {{"resourceUri": "ui://probe/app.html"}}}})
def show(n: int) -> dict:
    """Draws the probe App."""
    return {{"n": n, "double": 2 * n}}

@probe.tool(meta={{"ui": {{"visibility": ["app"]}}}})
def add(a: int, b: int) -> int:
    """Only the App calls this."""
    return a + b

@probe.resource("ui://probe/app.html", mime_type="text/html;profile=mcp-app")
def probe_app() -> str:
    return APP_HTML

wb = workbench.current()
wb.connect("probe", server=probe)
wb.call("probe.show", {{"n": 21}})'''

CELLS = ["%load_ext workbench", SERVER_CELL, "pass"]


def write_notebook(lab: LabPage) -> None:
    cells = [
        {
            "id": f"cell-{index}",
            "cell_type": "code",
            "metadata": {},
            "source": source,
            "outputs": [],
            "execution_count": None,
        }
        for index, source in enumerate(CELLS)
    ]
    kernelspec = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
    notebook = {"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": kernelspec}}
    (lab.workdir / NOTEBOOK).write_text(json.dumps({**notebook, "cells": cells}, indent=1))


def app_frame(scope: Locator) -> FrameLocator:
    return scope.locator("iframe.jp-wb-app-frame").content_frame


def has_app(notebook: dict[str, object]) -> bool:
    return APP_MIME in json.dumps(notebook)


def set_theme(lab: LabPage, name: str) -> None:
    lab.menu("Settings", "Theme", name)


def test_an_app_draws_gets_its_result_calls_the_kernel_and_waits_when_untrusted(
    lab: LabPage,
) -> None:
    write_notebook(lab)
    lab.open_notebook(NOTEBOOK)
    started = time.monotonic()
    lab.run_all()
    output = lab.cells().nth(1).locator(".jp-wb-app-output")

    # The Observation first, the App under it, its frame sandboxed without same-origin.
    expect(output.locator(".jp-wb-observation")).to_be_visible()
    frame_element = output.locator("iframe.jp-wb-app-frame")
    expect(frame_element).to_have_attribute("sandbox", "allow-scripts")
    app = app_frame(output)
    expect(app.locator("#result")).to_have_text("result n=21 double=42")
    shown = time.monotonic() - started
    lab.record_timing("apps host: run all until the App shows its result", shown)
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
    history = lab.run_cell_with("print([(c.tool_id, c.source) for c in wb.history][-1])", 2)
    assert "probe.add" in history and "app" in history
    app.locator("#read").click()  # resources/read goes the same way
    expect(app.locator("#answer")).to_have_text("read text/html;profile=mcp-app")

    # ui/message: shown under the App as text (never markup) and kept on the call's record.
    app.locator("#say").click()
    expect(app.locator("#answer")).to_have_text("said")
    expect(output.locator(".jp-wb-app-note")).to_have_text("App message: <b>hi</b> from the app")
    expect(output.locator(".jp-wb-app-note b")).to_have_count(0)
    notes = lab.run_cell_with(
        "print([c.app_notes for c in wb.history if c.tool_id == 'probe.show'])", 2
    )
    assert "'kind': 'message'" in notes and "<b>hi</b> from the app" in notes

    # ui/open-link: the person sees the address as text and decides; only http(s) is asked.
    app.locator("#link").click()
    dialog = lab.page.locator(".jp-Dialog")
    expect(dialog).to_contain_text("https://example.org/%3Cpage%3E")
    expect(dialog).to_contain_text("ui://probe/app.html (server probe)")
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
    lab.screenshot("fullscreen")
    lab.page.keyboard.press("Escape")
    expect(output.locator(".jp-wb-app")).not_to_have_class(re.compile("jp-wb-app-fullscreen"))

    # A theme switch reaches the App as a host-context change.
    try:
        set_theme(lab, "JupyterLab Dark")
        expect(lab.page.locator("body")).to_have_attribute("data-jp-theme-light", "false")
        expect(app.locator("#changed")).to_contain_text("changed dark ")
    finally:
        set_theme(lab, "JupyterLab Light")
        lab.server.api("PUT", THEMES, {"raw": json.dumps({"theme": "JupyterLab Light"})})
    expect(app.locator("#changed")).to_contain_text("changed light ")
    lab.screenshot("live")

    # The App's HTML changed in the kernel: the output reloads it with the same input and result.
    lab.run_cell_with(
        'APP_HTML = APP_HTML.replace("no change", "reloaded page")\n'
        "from workbench.lab.apps_comm import push_reload\n"
        'push_reload("probe", "ui://probe/app.html")',
        2,
    )
    expect(app.locator("#changed")).to_have_text("reloaded page")
    expect(app.locator("#result")).to_have_text("result n=21 double=42")

    # Moving the cell puts its output in the page again: the App restarts in a fresh frame.
    lab.cells().nth(1).locator(".jp-InputPrompt").click()
    lab.page.keyboard.press("Escape")
    lab.page.keyboard.press("ControlOrMeta+Shift+ArrowDown")
    moved = app_frame(lab.cells().nth(2).locator(".jp-wb-app-output"))
    expect(moved.locator("#result")).to_have_text("result n=21 double=42")
    moved.locator("#add").click()
    expect(moved.locator("#answer")).to_have_text("sum 42")
    lab.cells().nth(0).locator(".jp-InputPrompt").click()  # keys to the page, not the App

    # Saved and received by someone else: the Observation draws, the App waits for a click.
    lab.save(NOTEBOOK, until=has_app)
    lab.leave_and_stop_kernel()
    lab.untrusted_copy(NOTEBOOK, UNTRUSTED)
    panel = lab.reopen(UNTRUSTED, "lab")
    shared = panel.locator(".jp-wb-app-output")
    expect(shared.locator(".jp-wb-observation")).to_be_visible()
    run = shared.get_by_role("button", name="Run this app")
    expect(run).to_be_visible()
    expect(shared.locator("iframe")).to_have_count(0)
    lab.screenshot("untrusted")
    run.click()
    expect(app_frame(shared).locator("#result")).to_have_text("result n=21 double=42")
    expect(shared.locator(".jp-wb-app-status")).to_contain_text("Live calls are off")
    app_frame(shared).locator("#add").click()
    expect(app_frame(shared).locator("#answer")).to_contain_text("error Live calls are off")
    lab.screenshot("untrusted-run")
