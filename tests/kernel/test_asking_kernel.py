"""A server's questions answered by the person at the notebook, in a real ipykernel.

A sync ``%mcp call`` blocks the kernel's main thread: the questions come as ``input()``
prompts, which ipykernel sends to the front end as ``input_request`` messages on the stdin
channel; this client answers them as a person typing would. An awaited call leaves the
kernel free: the question is a widget panel displayed in the calling cell, and this client
drives it over the comm channel exactly as a page does (an ipywidgets ``update`` sets a
value, a ``custom`` ``click`` message presses a button). The tests share one kernel and run
in file order, as a notebook's cells would.
"""

from __future__ import annotations

import html
import queue
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.kernel.conftest import KernelSession
from tests.mcp.conftest import everything_js, everything_stdio  # noqa: F401  (fixtures)

pytestmark = pytest.mark.kernel

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


@dataclass
class Cell:
    """What one execute request produced, and what it asked on the stdin channel."""

    status: str = ""
    stdout: str = ""
    errors: str = ""
    prompts: list[str] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    """The cell's own iopub messages."""
    seen: list[dict[str, Any]] = field(default_factory=list)
    """Every iopub message while it ran: a widget made on a click answers that click."""

    def widgets(self) -> dict[str, dict[str, Any]]:
        """The widget models opened while the cell ran, by comm id, with their latest state."""
        found: dict[str, dict[str, Any]] = {}
        for msg in self.seen:
            content = msg["content"]
            if msg["msg_type"] == "comm_open" and content.get("target_name") == "jupyter.widget":
                found[content["comm_id"]] = dict(content["data"]["state"])
            elif msg["msg_type"] == "comm_msg" and content["comm_id"] in found:
                found[content["comm_id"]].update(content["data"].get("state", {}))
        return found

    def outputs(self) -> list[dict[str, Any]]:
        """The cell's outputs as a notebook keeps them: displays replaced by their updates
        (``update_display_data`` by display id), ``clear_output`` applied."""
        kept: list[dict[str, Any]] = []
        for msg in self.messages:
            kind, content = msg["msg_type"], msg["content"]
            display_id = content.get("transient", {}).get("display_id")
            if kind == "clear_output":
                kept.clear()
            elif kind in ("display_data", "execute_result", "stream", "error"):
                kept.append({"display_id": display_id, "kind": kind, **content})
            elif kind == "update_display_data":
                for i, output in enumerate(kept):
                    if display_id and output.get("display_id") == display_id:
                        kept[i] = {"display_id": display_id, "kind": "display_data", **content}
        return kept

    def bundles(self) -> list[dict[str, Any]]:
        """The data of each display the cell keeps."""
        return [o["data"] for o in self.outputs() if o["kind"] == "display_data"]

    def displayed(self) -> list[str]:
        """The model ids of the widgets displayed in the cell's output."""
        return [
            msg["content"]["data"][WIDGET_VIEW]["model_id"]
            for msg in self.messages
            if msg["msg_type"] == "display_data" and WIDGET_VIEW in msg["content"]["data"]
        ]


class Notebook:
    """A kernel driven as a front end drives it: cells, typed input, widget messages."""

    def __init__(self, session: KernelSession) -> None:
        self.session = session
        self.client = session.kc

    def run(
        self,
        code: str,
        typed: list[str] | None = None,
        *,
        while_running: Callable[[Cell], bool] | None = None,
        timeout: float = 60.0,
        allow_stdin: bool = True,
    ) -> Cell:
        """Run a cell; answer its ``input()`` prompts with ``typed``, in order; call
        ``while_running(cell)`` as messages arrive until it returns True (it acts mid-cell).
        A person's front end allows input (JupyterLab does); nbclient does not."""
        content = {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": allow_stdin,
            "stop_on_error": True,
        }
        request = self.client.session.msg("execute_request", content)
        self.client.shell_channel.send(request)
        msg_id = request["header"]["msg_id"]
        answers = list(typed or [])
        cell = Cell()
        acting = while_running
        deadline = time.monotonic() + timeout
        idle = False
        while not idle:
            assert time.monotonic() < deadline, f"cell did not finish: {cell}"
            self._answer_prompts(cell, answers)
            try:
                msg = self.client.get_iopub_msg(timeout=0.05)
            except queue.Empty:
                continue
            cell.seen.append(msg)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, body = msg["msg_type"], msg["content"]
            cell.messages.append(msg)
            if kind == "stream":
                if body["name"] == "stdout":
                    cell.stdout += body["text"]
                else:
                    cell.errors += body["text"]
            elif kind == "error":
                cell.errors += f"{body['ename']}: {body['evalue']}"
            elif kind == "status" and body["execution_state"] == "idle":
                idle = True
            if acting is not None and acting(cell):
                acting = None
        while True:
            reply = self.client.get_shell_msg(timeout=max(deadline - time.monotonic(), 1))
            if reply["parent_header"].get("msg_id") == msg_id:
                cell.status = reply["content"]["status"]
                return cell

    def _answer_prompts(self, cell: Cell, answers: list[str]) -> None:
        try:
            msg = self.client.get_stdin_msg(timeout=0.01)
        except queue.Empty:
            return
        assert msg["msg_type"] == "input_request"
        cell.prompts.append(msg["content"]["prompt"])
        assert answers, f"an unexpected prompt: {msg['content']['prompt']!r}"
        self.client.input(answers.pop(0))

    def ok(self, code: str, **kwargs: Any) -> Cell:
        cell = self.run(code, **kwargs)
        assert cell.status == "ok", cell.errors
        return cell

    def comm(self, comm_id: str, data: dict[str, Any]) -> str:
        """A message from the page to one widget model; its msg_id."""
        msg = self.client.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
        self.client.shell_channel.send(msg)
        return str(msg["header"]["msg_id"])

    def set_state(self, comm_id: str, **state: Any) -> str:
        return self.comm(comm_id, {"method": "update", "state": state, "buffer_paths": []})

    def click(self, comm_id: str) -> None:
        self.comm(comm_id, {"method": "custom", "content": {"event": "click"}})


@pytest.fixture(scope="module")
def notebook(kernel_launcher: Callable[..., KernelSession]) -> Iterator[Notebook]:
    session = kernel_launcher()
    book = Notebook(session)
    book.ok("%load_ext workbench\nimport workbench\nwb = workbench.current()")
    book.ok("%mcp connect demo", timeout=90)
    yield book
    session.shutdown()


def with_class(models: dict[str, dict[str, Any]], css: str) -> str:
    """The comm id of the one widget carrying this CSS class."""
    [found] = [cid for cid, state in models.items() if css in state.get("_dom_classes", ())]
    return found


def test_a_sync_call_asks_each_field_with_input(notebook: Notebook) -> None:
    cell = notebook.ok("%mcp call demo.book_table restaurant=Roma", typed=["", "3", "19:30", "y"])
    assert cell.prompts == [
        "Party Size - How many people, 1 to 12 (integer, required): ",
        "Party Size - How many people, 1 to 12 (integer, required): ",  # asked again once
        "Time - One of the free time slots (one of 18:00, 19:30, 21:00, required): ",
        "Terrace - Sit outside if the weather allows (y/n) [n]: ",
    ]
    assert "demo asks (calling book_table): Book a table at Roma" in cell.stdout
    assert "party_size: required; try again" in cell.stdout
    assert "demo: accepted, sent party_size=3, time='19:30', terrace=True" in cell.stdout
    booked = "Booked a table at Roma for 3 people at 19:30, on the terrace."
    assert booked in cell.stdout or booked in str(cell.messages)


def test_typing_decline_declines(notebook: Notebook) -> None:
    cell = notebook.ok(
        "r = wb.call('demo.book_table', {'restaurant': 'Roma'})\nprint(r.text)", typed=["/decline"]
    )
    assert len(cell.prompts) == 1
    assert "you typed /decline: declined" in cell.stdout
    assert "Declined: the user said no, so no table is booked at Roma." in cell.stdout


def test_an_awaited_call_shows_a_form_in_the_cell_and_takes_its_clicks(
    notebook: Notebook,
) -> None:
    clicked: list[str] = []

    def fill_in(cell: Cell) -> bool:
        models = cell.widgets()
        if not any("wb-ask-accept" in s.get("_dom_classes", ()) for s in models.values()):
            return False
        notebook.set_state(with_class(models, "wb-path-party_size"), value="4")
        notebook.set_state(with_class(models, "wb-path-time"), index=2)
        accept = with_class(models, "wb-ask-accept")
        notebook.click(accept)
        clicked.append(accept)
        return True

    cell = notebook.ok(
        "r = await wb.acall('demo.book_table', {'restaurant': 'Roma'})\nprint(r.text)",
        while_running=fill_in,
    )
    assert clicked, "no form was shown"
    assert "Booked a table at Roma for 4 people at 21:00, inside." in cell.stdout
    models = cell.widgets()
    panel = with_class(models, "wb-ask")
    assert panel in cell.displayed()  # displayed in the calling cell's output
    summary = with_class(models, "wb-ask-summary")
    line = html.unescape(models[summary]["value"])
    sent = "demo: accepted, sent party_size=4, time='21:00', terrace=False"
    assert sent in line
    assert models[panel]["children"] == [f"IPY_MODEL_{summary}"]
    # While waiting, the display's text says where to answer, not the raw widget repr.
    [waiting] = [m["content"]["data"] for m in cell.messages if m["msg_type"] == "display_data"]
    assert "VBox(" not in waiting["text/plain"]
    assert "answer in the panel" in waiting["text/plain"]
    # Answered, the saved output is a static summary: no widget view left to load.
    [saved] = cell.bundles()
    assert WIDGET_VIEW not in saved
    assert "VBox(" not in saved["text/plain"]
    assert "demo asks (calling book_table): Book a table at Roma" in saved["text/plain"]
    assert sent in saved["text/plain"]
    assert sent in html.unescape(saved["text/html"])
    assert "wb-ask-answered" in saved["text/html"]


def test_widget_messages_while_a_cell_awaits_each_end_with_an_idle(notebook: Notebook) -> None:
    """ipykernel handles them beside the awaiting cell; the page sends a model's next change
    only after the idle of its last one, so each must get one (else a typed 10 arrives as 1),
    and then the cell's busy again. A message handled the usual way gets one idle, as before."""
    sent: list[str] = []

    def type_digits(cell: Cell) -> bool:
        models = cell.widgets()
        if not any("wb-test-box" in state.get("_dom_classes", ()) for state in models.values()):
            return False
        box = with_class(models, "wb-test-box")
        sent.extend(notebook.set_state(box, value=value) for value in (1, 10, 104))
        return True

    cell = notebook.ok(
        "import asyncio, ipywidgets\n"
        "box = ipywidgets.IntText(value=0, _dom_classes=('wb-test-box',))\n"
        "display(box)\n"
        "for _ in range(1000):\n"
        "    if box.value == 104: break\n"
        "    await asyncio.sleep(0.01)\n"
        "print('saw', box.value)",
        while_running=type_digits,
    )
    assert cell.stdout.strip() == "saw 104"
    cell_id = cell.messages[0]["parent_header"]["msg_id"]
    statuses = [
        (m["parent_header"].get("msg_id"), m["content"]["execution_state"])
        for m in cell.seen
        if m["msg_type"] == "status"
    ]
    for msg_id in sent:
        assert statuses.count((msg_id, "idle")) == 1, statuses
        after = statuses[statuses.index((msg_id, "idle")) + 1 :]
        assert after[0] == (cell_id, "busy"), statuses  # the page sees the cell still busy
    assert statuses[-1] == (cell_id, "idle")

    # No cell running: ipykernel's own busy and idle, nothing added.
    alone = notebook.set_state(with_class(cell.widgets(), "wb-test-box"), value=5)
    seen = [notebook.client.get_iopub_msg(timeout=10)]
    while not (
        seen[-1]["msg_type"] == "status" and seen[-1]["content"]["execution_state"] == "idle"
    ):
        seen.append(notebook.client.get_iopub_msg(timeout=10))
    mine = [m["content"]["execution_state"] for m in seen if m["msg_type"] == "status"]
    assert mine == ["busy", "idle"]
    assert all(m["parent_header"].get("msg_id") == alone for m in seen)
    notebook.ok("assert box.value == 5\nbox.close()")
    # Installed once, whatever loads the extension again.
    notebook.ok(
        "from workbench.kernel import idle_after_concurrent_comms\n"
        "kernel = get_ipython().kernel\n"
        "patched = kernel.dispatch_shell\n"
        "%unload_ext workbench\n"
        "%load_ext workbench\n"
        "assert idle_after_concurrent_comms(kernel) and kernel.dispatch_shell is patched\n"
        "wb = workbench.current()\n"
        "%mcp connect demo",
        timeout=90,
    )


def test_nobody_clicking_declines_at_the_timeout(notebook: Notebook) -> None:
    started = time.monotonic()
    cell = notebook.ok(
        "wb.answer_timeout = 1\n"
        "r = await wb.acall('demo.book_table', {'restaurant': 'Roma'})\n"
        "print(r.text)\n"
        "import time; time.sleep(0.5)\n"  # the panel's own deadline, a moment after the core's
        "wb.answer_timeout = 300"
    )
    assert "Declined: the user said no, so no table is booked at Roma." in cell.stdout
    assert time.monotonic() - started < 10
    models = cell.widgets()
    assert "timed out: declined" in models[with_class(models, "wb-ask-summary")]["value"]
    [saved] = cell.bundles()
    assert WIDGET_VIEW not in saved
    assert saved["text/plain"].endswith("\ntimed out: declined")


def test_sampling_by_input_in_a_sync_call(notebook: Notebook) -> None:
    cell = notebook.ok(
        '%mcp call demo.summarize text="Tea is a drink made from leaves."',
        typed=["Tea is a leafy drink."],
    )
    assert cell.prompts == ["Your reply (/decline declines): "]
    assert "user: Summarize in one sentence:" in cell.stdout
    assert "system: You summarize texts in exactly one plain sentence." in cell.stdout
    assert "Tea is a leafy drink." in cell.stdout or "Tea is a leafy drink." in str(cell.messages)


def test_a_python_handler_answers_server_everything_over_stdio(
    notebook: Notebook,
    everything_stdio: list[str],  # noqa: F811
) -> None:
    notebook.ok(
        f"wb.connect('everything', command={everything_stdio[0]!r}, args={everything_stdio[1:]!r})",
        timeout=90,
    )
    cell = notebook.ok(
        "asked = []\n"
        "def answer(request):\n"
        "    asked.append(request)\n"
        "    return {'name': 'Ada'}\n"
        "wb.on_elicitation(answer)\n"
        "r = wb.call('everything.trigger-elicitation-request')\n"
        "wb.on_elicitation(None)\n"
        "print(len(asked), asked[0].server, r.text)"
    )
    assert cell.stdout.startswith("1 everything ")
    assert "accept" in cell.stdout and "Ada" in cell.stdout


UNATTENDED = (
    "declined, since this notebook is running unattended "
    "(no one can answer: the run does not allow input)"
)


@pytest.mark.parametrize(
    "code",
    [
        "r = await wb.acall('demo.book_table', {'restaurant': 'Roma'})\nprint(r.text)",
        "r = wb.call('demo.book_table', {'restaurant': 'Roma'})\nprint(r.text)",
    ],
    ids=["awaited", "sync"],
)
def test_an_unattended_run_declines_at_once_with_a_note(notebook: Notebook, code: str) -> None:
    """nbclient and papermill allow no input: no panel, no prompt, no 300 s wait (the 20 s
    limit), a one-line note instead of a traceback."""
    cell = notebook.ok(code, allow_stdin=False, timeout=20)
    note = f"demo asked 'Book a table at Roma: how many people, and when?': {UNATTENDED}"
    assert cell.stdout.splitlines()[0] == note, cell.stdout
    assert "Declined: the user said no, so no table is booked at Roma." in cell.stdout
    assert not cell.displayed() and not cell.prompts and not cell.errors


def test_an_unattended_sampling_request_is_declined_at_once(notebook: Notebook) -> None:
    cell = notebook.ok(
        "r = await wb.acall('demo.summarize', {'text': 'Tea is a drink.'})\nprint(r.text)",
        allow_stdin=False,
        timeout=20,
    )
    assert f"demo asked for a language model's reply: {UNATTENDED}" in cell.stdout
    assert not cell.displayed() and not cell.prompts


def test_a_handler_still_answers_an_unattended_run(notebook: Notebook) -> None:
    cell = notebook.ok(
        "wb.on_elicitation(lambda request: {'party_size': 2, 'time': '18:00'})\n"
        "r = await wb.acall('demo.book_table', {'restaurant': 'Roma'})\n"
        "wb.on_elicitation(None)\n"
        "print(r.text)",
        allow_stdin=False,
        timeout=20,
    )
    assert "Booked a table at Roma for 2 people at 18:00" in cell.stdout
    assert "unattended" not in cell.stdout
