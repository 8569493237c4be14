"""The sidebar's comm (``workbench/lab/sidebar.py``) in a real ipykernel, driven from a
jupyter_client as the JupyterLab panel drives it: open, state, search, template, pushed
states after connect, ``%%tool``, serve and disconnect, and the missing-target close."""

from __future__ import annotations

import queue
import secrets
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest

from tests.kernel.conftest import KernelSession
from workbench.display.schemas import validator_for_def

pytestmark = pytest.mark.kernel

TARGET = "workbench.sidebar"
TOKEN = secrets.token_urlsafe(24)

SHOUT = '''%%tool
def shout(text: str) -> str:
    """Say it louder."""
    return text.upper()
'''


def assert_reply(data: dict[str, Any]) -> None:
    """A message the kernel sent the panel matches the sidebar schema's ``reply``, the
    shape the extension's generated types read (workbench/display/schemas/)."""
    check = validator_for_def("sidebar", "reply")
    errors = [f"{error.instance_path}: {error.message}" for error in check.iter_errors(data)]
    assert not errors, f"{data}: {errors}"


class Panel:
    """What the front end does with the comm: open it, send requests, read what comes.
    Panels share the kernel's iopub: whichever reads a message hands it to its panel."""

    everyone: ClassVar[dict[str, Panel]] = {}

    def __init__(self, kernel: KernelSession) -> None:
        self.kernel = kernel
        self.comm_id = uuid.uuid4().hex
        self.seen: list[dict[str, Any]] = []  # every comm message of this comm, in order
        self.closed = False
        self.out: list[str] = []
        self._read = 0
        Panel.everyone[self.comm_id] = self

    def open(self) -> None:
        content = {"comm_id": self.comm_id, "target_name": TARGET, "data": {}}
        self.kernel.kc.shell_channel.send(self.kernel.kc.session.msg("comm_open", content))

    def send(self, data: dict[str, Any]) -> None:
        content = {"comm_id": self.comm_id, "data": data}
        self.kernel.kc.shell_channel.send(self.kernel.kc.session.msg("comm_msg", content))

    def pump(self, timeout: float, until_idle: str | None = None) -> None:
        """Read iopub for up to ``timeout`` s (or until request ``until_idle`` is done),
        keeping this comm's messages and failing on that request's errors."""
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
            if mine and kind == "status" and content["execution_state"] == "idle":
                return
            panel = Panel.everyone.get(str(content.get("comm_id")))
            if panel is None:
                continue
            if kind == "comm_close":
                panel.closed = True
            elif kind == "comm_msg":
                assert_reply(content["data"])
                panel.seen.append(content["data"])
                if until_idle is None:
                    return  # let the caller look at it now
        if until_idle is not None:
            raise AssertionError(f"the cell did not finish within {timeout} s")

    def next(self, kind: str, check: Callable[[dict[str, Any]], bool] = lambda d: True,
             timeout: float = 30.0) -> dict[str, Any]:  # fmt: skip
        """The next unread message of ``kind`` passing ``check`` (waiting for it)."""
        deadline = time.monotonic() + timeout
        while True:
            for index in range(self._read, len(self.seen)):
                data = self.seen[index]
                if data.get("type") == kind and check(data):
                    self._read = index + 1
                    return data
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind} message passing the check: {self.seen[-5:]}")
            self.pump(0.2)

    def run(self, code: str, timeout: float = 60.0) -> str:
        """Run a cell, keeping this comm's messages that arrive meanwhile; its stdout."""
        self.out = []
        self.pump(timeout, until_idle=self.kernel.send(code))
        return "".join(self.out)


@pytest.fixture(scope="module")
def kernel(kernel_launcher: Callable[..., KernelSession]) -> Iterator[KernelSession]:
    session = kernel_launcher(env={"SIDEBAR_TOKEN": TOKEN})
    yield session
    session.shutdown()


def servers(state: dict[str, Any]) -> dict[str, tuple[str, int]]:
    return {row["name"]: (row["status"], row["tools"]) for row in state["servers"]}


def test_without_the_extension_the_comm_is_closed_at_once(kernel: KernelSession) -> None:
    panel = Panel(kernel)
    panel.open()
    deadline = time.monotonic() + 20
    while not panel.closed and time.monotonic() < deadline:
        panel.pump(0.2)
    assert panel.closed and panel.seen == []


def test_the_panel_follows_the_kernel_and_answers_it(
    kernel: KernelSession, record_timing: Callable[[str, float], None]
) -> None:
    panel = Panel(kernel)
    panel.run("%load_ext workbench")
    panel.open()
    first = panel.next("state")
    assert first == {"type": "state", "servers": [], "served": None, "tools": 0}
    # The target and the first state cost no heavy import: the Workbench is made on first use.
    heavy = panel.run(
        "import sys\nprint(sorted(m for m in ['pydantic', 'fastmcp', 'mcp', 'ipywidgets']"
        " if m in sys.modules))"
    )
    assert heavy.strip() == "[]"

    panel.run("%mcp connect demo")
    state = panel.next("state", lambda d: "demo" in servers(d))
    assert servers(state)["demo"] == ("connected", 11) and state["tools"] == 11

    started = time.perf_counter()
    panel.send({"type": "search", "query": "add numbers", "limit": 5, "seq": 1})
    results = panel.next("results")
    record_timing("sidebar search round trip, 11 tools", time.perf_counter() - started)
    assert results["seq"] == 1 and results["hits"][0]["id"] == "demo.add"
    assert results["hits"][0]["summary"].startswith("Add two numbers")
    panel.send({"type": "search", "query": "", "limit": 100})
    assert len(panel.next("results")["hits"]) == 11

    panel.send({"type": "template", "id": "demo.add", "seq": 2})
    template = panel.next("template")
    assert template["seq"] == 2 and template["code"].endswith("%mcp call demo.add a=0 b=0")
    panel.run(template["code"])  # the Observation is the cell's value
    assert panel.run("print(_.text, _.is_error)").strip() == "0 False"
    panel.send({"type": "template", "id": "demo.add", "mode": "browse"})
    assert panel.next("template")["code"] == "%mcp browse --server demo add"

    panel.send({"type": "template", "id": "demo.ad", "seq": 3})
    error = panel.next("error")
    assert error["seq"] == 3 and "demo.add" in error["message"]
    assert "\n" not in error["message"]
    panel.send({"type": "nonsense"})
    assert "Unknown request" in panel.next("error")["message"]

    # A re-run %%tool cell: pushed without asking, and searchable at once.
    panel.run(SHOUT)
    state = panel.next("state", lambda d: servers(d).get("notebook", ("", 0))[1] == 1)
    assert servers(state)["notebook"][0] == "connected" and state["tools"] == 12
    panel.send({"type": "search", "query": "shout"})
    assert panel.next("results")["hits"][0]["id"] == "notebook.shout"

    # What is served: URL and tools, the token as its template, never its value.
    panel.run("%mcp serve --token ${env:SIDEBAR_TOKEN}")
    state = panel.next("state", lambda d: d["served"] is not None)
    served = state["served"]
    assert served["url"].startswith("http://127.0.0.1:") and served["tools"] == 1
    assert served["auth"] == "${env:SIDEBAR_TOKEN}"
    panel.run("%mcp serve --stop")
    assert panel.next("state", lambda d: d["served"] is None)["served"] is None

    panel.run("%mcp disconnect demo")
    state = panel.next("state", lambda d: "demo" not in servers(d))
    assert state["tools"] == 1

    # Nothing the panel was sent carries the token.
    assert all(TOKEN not in repr(data) for data in panel.seen)

    panel.run("%unload_ext workbench")
    panel.pump(1.0)
    assert panel.closed


def test_a_second_panel_gets_its_own_state_and_a_reload_keeps_them_working(
    kernel: KernelSession,
) -> None:
    one, two = Panel(kernel), Panel(kernel)
    one.run("%load_ext workbench")
    one.open()
    two.open()
    assert one.next("state")["servers"] == [] and two.next("state")["servers"] == []
    one.run("%mcp connect demo")
    assert servers(one.next("state", lambda d: "demo" in servers(d)))["demo"][0] == "connected"
    two.pump(1.0)
    assert servers(two.next("state", lambda d: "demo" in servers(d)))["demo"][1] == 11


LATE = """
import threading, workbench
def later():
    threading.Event().wait(1.0)
    workbench.current().registry.add_tools("late", [{"name": "arrived", "inputSchema": {}}])
threading.Thread(target=later, daemon=True).start()
"""


def test_a_change_made_off_the_main_thread_with_no_cell_running_is_pushed(
    kernel: KernelSession,
) -> None:
    """As a server's tools/list_changed lands on the bridge thread: the registry listener
    sends from that thread, after the cell (and its post_run_cell) ended."""
    panel = Panel(kernel)
    panel.run("%load_ext workbench\nimport workbench\nbefore = len(workbench.current().registry)")
    panel.open()
    before = panel.next("state")["tools"]
    panel.run(LATE)
    assert all(d["tools"] == before for d in panel.seen if d["type"] == "state")
    panel.next("state", lambda d: d["tools"] == before + 1, timeout=10)
    panel.send({"type": "search", "query": "arrived"})
    assert panel.next("results")["hits"][0]["id"] == "late.arrived"
