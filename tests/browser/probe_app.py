"""The probe App for the browser tests of the Apps host (test_lab_apps.py): a small FastMCP
server made in the kernel and connected in-process, whose App speaks the Apps protocol by
hand (postMessage JSON-RPC, no bundled App class), so what it shows is exactly what the host
sent it. ``SERVER_CELL`` is the notebook cell that defines, connects and calls it.
"""

from __future__ import annotations

URI = "ui://probe/app.html"

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
