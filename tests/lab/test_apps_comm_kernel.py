"""The ``workbench.apps`` comm (workbench/lab/apps_comm.py) in a real ipykernel, driven from
a jupyter_client as the extension's App outputs drive it: an App's calls, reads, HTML and
notes, the refusals, the history's source ``app``, a kernel that runs cells while an App's
call waits, and reloads pushed when the App's HTML changed. The server is the tests' own
FastMCP Apps server, in the kernel's process (tests/apps/servers.py)."""

from __future__ import annotations

import hashlib
import queue
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.apps.servers import APP_URI
from tests.kernel.conftest import KernelSession
from workbench.display.mime import APP_MIME
from workbench.display.schemas import validator_for_def

pytestmark = pytest.mark.kernel

TARGET = "workbench.apps"
SETUP = """
%load_ext workbench
import threading
from workbench import current
from tests.apps.servers import AppServer
served = AppServer()
gate = threading.Event()

@served.server.tool
def wait_for_gate() -> str:
    \"\"\"Ends when the test's next cell opens the gate.\"\"\"
    gate.wait(60)
    return "through"

wb = current()
wb.connect("counter", server=served.server)
print(wb.history[-1].id if len(wb.history) else 0)
"""


def assert_reply(data: dict[str, Any]) -> None:
    check = validator_for_def("apps-comm", "reply")
    errors = [f"{error.instance_path}: {error.message}" for error in check.iter_errors(data)]
    assert not errors, f"{data}: {errors}"


class AppOutput:
    """What the extension does with the comm: open it, send requests, read the replies."""

    def __init__(self, kernel: KernelSession) -> None:
        self.kernel = kernel
        self.comm_id = uuid.uuid4().hex
        self.seen: list[dict[str, Any]] = []
        self.results: list[dict[str, Any]] = []  # execute_result data of the cells run
        self.out: list[str] = []
        self._seq = 0

    def open(self) -> None:
        content = {"comm_id": self.comm_id, "target_name": TARGET, "data": {}}
        self.kernel.kc.shell_channel.send(self.kernel.kc.session.msg("comm_open", content))

    def send(self, data: dict[str, Any]) -> int:
        self._seq += 1
        content = {"comm_id": self.comm_id, "data": {**data, "seq": self._seq}}
        self.kernel.kc.shell_channel.send(self.kernel.kc.session.msg("comm_msg", content))
        return self._seq

    def pump(self, timeout: float, until_idle: str | None = None) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                msg = self.kernel.kc.get_iopub_msg(timeout=0.1)
            except queue.Empty:
                continue
            kind, content = msg["msg_type"], msg["content"]
            mine = until_idle is not None and msg["parent_header"].get("msg_id") == until_idle
            if mine and kind == "error":
                raise AssertionError(f"{content['ename']}: {content['evalue']}")
            if mine and kind == "stream":
                self.out.append(content["text"])
            if mine and kind == "execute_result":
                self.results.append(content["data"])
            if mine and kind == "status" and content["execution_state"] == "idle":
                return
            if kind == "comm_msg" and content.get("comm_id") == self.comm_id:
                assert_reply(content["data"])
                self.seen.append(content["data"])
                if until_idle is None:
                    return
        if until_idle is not None:
            raise AssertionError(f"the cell did not finish within {timeout} s")

    def reply(
        self, check: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            for data in self.seen:
                if check(data):
                    self.seen.remove(data)
                    return data
            if time.monotonic() > deadline:
                raise AssertionError(f"no reply passing the check: {self.seen[-5:]}")
            self.pump(0.2)

    def ask(self, data: dict[str, Any]) -> dict[str, Any]:
        seq = self.send(data)
        return self.reply(lambda d: d.get("seq") == seq)

    def run(self, code: str, timeout: float = 60.0) -> str:
        self.out = []
        self.pump(timeout, until_idle=self.kernel.send(code))
        return "".join(self.out)


@pytest.fixture(scope="module")
def app(kernel_launcher: Callable[..., KernelSession]) -> Iterator[AppOutput]:
    session = kernel_launcher()
    output = AppOutput(session)
    output.run(SETUP)
    output.open()
    yield output
    session.shutdown()


def last_call(app: AppOutput) -> list[str]:
    return app.run("c = wb.history[-1]\nprint(c.source, c.kind, c.tool_id)").split()


def test_a_magics_call_shows_its_app_and_the_app_calls_back(app: AppOutput) -> None:
    app.run("%mcp call counter.count start=1")
    document = app.results[-1][APP_MIME]
    assert document["uri"] == APP_URI and document["live"] is True
    assert document["result"]["structuredContent"] == {"value": 2}

    answer = app.ask({"type": "call", "server": "counter", "tool": "reset_counter",
                      "arguments": {}, "uri": APP_URI, "call_id": document["call_id"]})  # fmt: skip
    assert answer["type"] == "result" and answer["result"]["content"][0]["text"] == "reset"
    assert last_call(app) == ["app", "tool", "counter.reset_counter"]

    answer = app.ask({"type": "call", "server": "counter", "tool": "count",
                      "arguments": {"start": "x"}})  # fmt: skip
    assert answer["result"]["isError"] is True  # the one call path judged it, and kept it
    assert last_call(app) == ["app", "tool", "counter.count"]


@pytest.mark.parametrize(
    ("request_", "says"),
    [
        ({"type": "call", "server": "counter", "tool": "model_only"}, "not callable by an App"),
        ({"type": "call", "server": "counter", "tool": "nope"}, "has no tool 'nope'"),
        ({"type": "call", "server": "elsewhere", "tool": "count"}, "'elsewhere' is not connected"),
        ({"type": "call", "server": "counter", "tool": "count", "arguments": [1]}, "JSON object"),
        ({"type": "html", "server": "counter", "uri": "ui://counter/plain.html"}, "not drawn"),
        ({"type": "note", "call_id": "999999", "kind": "message", "payload": {}}, "No call"),
        ({"type": "note", "call_id": "1", "kind": "shout", "payload": {}}, "kind is message"),
        ({"type": "dance"}, "Unknown request 'dance'"),
    ],
    ids=["app-visibility", "no-tool", "not-connected", "arguments", "not-an-app", "no-call",
         "note-kind", "unknown"],
)  # fmt: skip
def test_refusals_are_one_line_errors(app: AppOutput, request_: dict[str, Any], says: str) -> None:
    answer = app.ask(request_)
    assert answer["type"] == "error" and says in answer["message"]
    assert "\n" not in answer["message"]


def test_reads_html_and_notes(app: AppOutput) -> None:
    answer = app.ask({"type": "read", "server": "counter", "uri": APP_URI})
    assert answer["type"] == "resource" and answer["contents"][0]["uri"] == APP_URI
    assert last_call(app) == ["app", "resource", APP_URI]

    html = app.run("print(served.html, end='')")
    answer = app.ask({"type": "html", "server": "counter", "uri": APP_URI})
    assert answer["html"] == html
    assert answer["html_sha256"] == hashlib.sha256(html.encode()).hexdigest()
    assert answer["prefers_border"] is True and answer["csp"]["connectDomains"]

    call_id = app.run("print(wb.call('counter.count') and wb.history[-1].id, end='')")
    for kind in ("message", "model_context"):
        payload = {"content": [{"type": "text", "text": f"a {kind}"}]}
        answer = app.ask({"type": "note", "call_id": call_id, "kind": kind, "payload": payload})
        assert answer["type"] == "ok"
    notes = app.run(f"print([n['kind'] for n in [c for c in wb.history if c.id == {call_id}][0]"
                    ".app_notes])")  # fmt: skip
    assert notes.strip() == "['message', 'model_context']"


def test_the_kernel_runs_cells_while_an_apps_call_waits(app: AppOutput) -> None:
    seq = app.send({"type": "call", "server": "counter", "tool": "wait_for_gate"})
    assert app.run("gate.set()\nprint('ran')").strip() == "ran"  # not stuck behind the call
    answer = app.reply(lambda d: d.get("seq") == seq)
    assert answer["result"]["content"][0]["text"] == "through"


def test_a_changed_app_is_pushed_as_a_reload(app: AppOutput) -> None:
    app.run(f"served.html = '<p>three</p>'\nwb.app_host.push_reload('counter', {APP_URI!r})")
    reload = app.reply(lambda d: d.get("type") == "reload")
    sha = hashlib.sha256(b"<p>three</p>").hexdigest()
    assert reload == {"type": "reload", "server": "counter", "uri": APP_URI, "html_sha256": sha}
    app.run(
        "from workbench.lab.apps_comm import push_reload\n"
        f"push_reload('counter', {APP_URI!r}, 'f' * 64)"
    )
    assert app.reply(lambda d: d.get("type") == "reload")["html_sha256"] == "f" * 64


def test_a_re_run_app_cell_reloads_its_drawn_apps(app: AppOutput) -> None:
    """Engineer A3's ``%%app``: the first run serves the App, a re-run pushes a reload
    naming the new HTML's hash, so Apps drawn from ui://notebook/kclock fetch it again."""
    assert "Serving App kclock" in app.run("%%app kclock\n<p>one</p>")
    app.seen.clear()
    app.run("%%app kclock\n<p>two</p>")
    reload = app.reply(lambda d: d.get("type") == "reload" and d.get("server") == "notebook")
    sha = hashlib.sha256(b"<p>two</p>").hexdigest()
    assert reload == {
        "type": "reload",
        "server": "notebook",
        "uri": "ui://notebook/kclock",
        "html_sha256": sha,
    }
    html = app.ask({"type": "html", "server": "notebook", "uri": "ui://notebook/kclock"})
    assert html["html"] == "<p>two</p>" and html["html_sha256"] == sha
