"""The template App (workbench/apps/template/) with the MCP Apps SDK inlined, in Chromium,
in a sandboxed iframe (``allow-scripts`` only, no network) under a minimal host that speaks
the Apps JSON-RPC over postMessage: it connects (``ui/initialize``), shows the tool result
pushed to it, takes the host's theme, and its button calls the tool (``tools/call``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from workbench.apps.template import html, inline_sdk, sdk_path

pytestmark = pytest.mark.browser

HOST = """<!doctype html><body><iframe id="app" sandbox="allow-scripts"></iframe><script>
const frame = document.getElementById("app");
window.calls = [];
const send = (message) => frame.contentWindow.postMessage({jsonrpc: "2.0", ...message}, "*");
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow) return;
  const message = event.data;
  if (message.method === "ui/initialize") {
    send({id: message.id, result: {
      protocolVersion: message.params.protocolVersion,
      hostInfo: {name: "test-host", version: "1"},
      hostCapabilities: {serverTools: {}},
      hostContext: {theme: "dark", toolInfo: {tool: {name: "now", inputSchema: {type: "object"}}},
                    styles: {variables: {"--color-text-primary": "rgb(1, 2, 3)"}}},
    }});
  } else if (message.method === "ui/notifications/initialized") {
    send({method: "ui/notifications/tool-input", params: {arguments: {zone: "UTC"}}});
    send({method: "ui/notifications/tool-result",
          params: {content: [{type: "text", text: "noon"}], structuredContent: {time: "noon"}}});
  } else if (message.method === "tools/call") {
    window.calls.push(message.params);
    send({id: message.id, result: {content: [], structuredContent: {time: "one o'clock"}}});
  } else if (message.id !== undefined && message.method) {
    send({id: message.id, result: {}});
  }
});
frame.srcdoc = PAGE;
</script></body>"""


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    made = browser.new_page()
    yield made
    made.close()


def test_the_template_app_connects_shows_the_result_and_calls_the_tool(page: Page) -> None:
    assert sdk_path() is not None, "no app-sdk: build the lab extension (jlpm build:app-sdk)"
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    app = inline_sdk(html("clock"))
    page.set_content(HOST.replace("PAGE", json.dumps(app).replace("</", "<\\/")))
    frame = page.frame_locator("#app")
    frame.locator("#status").filter(has_text="connected").wait_for(timeout=15_000)
    assert json.loads(frame.locator("#result").inner_text()) == {"time": "noon"}
    assert frame.locator("html").get_attribute("data-theme") == "dark"
    color = frame.locator("body").evaluate("b => getComputedStyle(b).color")
    assert color == "rgb(1, 2, 3)"
    frame.locator("#again").click()
    frame.locator("#result").filter(has_text="one o'clock").wait_for(timeout=10_000)
    calls = page.evaluate("window.calls.map(c => [c.name, c.arguments])")
    assert calls == [["now", {"zone": "UTC"}]]  # the tool that showed it, with its input
    assert errors == []
