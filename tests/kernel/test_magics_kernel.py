"""The extension end to end in a real ipykernel: ``%load_ext``, ``%mcp`` subcommands,
``%%tool`` cells (with and without a front-end cell id), an interrupted call, and
``%unload_ext``; with the mime bundles each output carries.

The tests share one kernel and run in file order, as a notebook's cells would.
"""

from __future__ import annotations

import queue
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

pytestmark = pytest.mark.kernel

OBSERVATION = "application/vnd.workbench.observation+json"
SHOWN = ("display_data", "update_display_data", "execute_result")


@dataclass
class Cell:
    """What one execute request produced."""

    status: str = ""
    stdout: str = ""
    stderr: str = ""
    error: tuple[str, str] | None = None
    outputs: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    seconds: float = 0.0

    def data(self, kind: str) -> list[dict[str, Any]]:
        return [content["data"] for msg_type, content in self.outputs if msg_type == kind]

    @property
    def result(self) -> dict[str, Any]:
        [data] = self.data("execute_result")
        return data

    @property
    def text(self) -> str:
        return "\n".join(
            [self.stdout]
            + [str(c["data"].get("text/plain", "")) for kind, c in self.outputs if kind in SHOWN]
        )


class Kernel:
    """A kernel and requests sent as a front end sends them (with a cell id, if given)."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def send(self, code: str, cell_id: str | None = None) -> str:
        client = self.session.kc
        content = {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        }
        metadata = {"cellId": cell_id} if cell_id else {}
        message = client.session.msg("execute_request", content, metadata=metadata)
        client.shell_channel.send(message)
        msg_id: str = message["header"]["msg_id"]
        return msg_id

    def collect(self, msg_id: str, timeout: float = 60.0, started: float | None = None) -> Cell:
        client = self.session.kc
        started = time.monotonic() if started is None else started
        deadline = time.monotonic() + timeout
        cell = Cell()
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no reply within {timeout} s: {cell}")
            try:
                msg = client.get_iopub_msg(timeout=1)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream":
                if content["name"] == "stdout":
                    cell.stdout += content["text"]
                else:
                    cell.stderr += content["text"]
            elif kind in SHOWN:
                cell.outputs.append((kind, content))
            elif kind == "error":
                cell.error = (content["ename"], content["evalue"])
            elif kind == "status" and content["execution_state"] == "idle":
                break
        cell.seconds = time.monotonic() - started
        while True:
            reply = client.get_shell_msg(timeout=max(deadline - time.monotonic(), 1))
            if reply["parent_header"].get("msg_id") == msg_id:
                cell.status = reply["content"]["status"]
                return cell

    def run(self, code: str, cell_id: str | None = None, timeout: float = 60.0) -> Cell:
        started = time.monotonic()
        return self.collect(self.send(code, cell_id), timeout, started)

    def ok(self, code: str, cell_id: str | None = None, timeout: float = 60.0) -> Cell:
        cell = self.run(code, cell_id, timeout)
        assert cell.status == "ok" and cell.error is None, cell
        return cell


@pytest.fixture(scope="module")
def kernel(kernel_launcher: Callable[..., Any]) -> Iterator[Kernel]:
    session = kernel_launcher()
    yield Kernel(session)
    session.shutdown()


HEAVY = "import sys\nprint(sorted(m for m in ('fastmcp', 'mcp', 'ipywidgets') if m in sys.modules))"


def test_load_ext_in_a_fresh_kernel_is_cheap(
    kernel: Kernel, record_timing: Callable[[str, float], None]
) -> None:
    assert kernel.ok(HEAVY).stdout.strip() == "[]"
    loading = kernel.ok(
        "import time\nstarted = time.perf_counter()\n%load_ext workbench\n"
        "print(time.perf_counter() - started)"
    )
    record_timing("%load_ext workbench in a fresh kernel (in the kernel)", float(loading.stdout))
    record_timing("%load_ext workbench in a fresh kernel (cell round trip)", loading.seconds)
    assert loading.outputs == []
    assert kernel.ok(HEAVY).stdout.strip() == "[]"
    kernel.ok("%load_ext workbench")  # IPython says it is loaded already; nothing changes
    kernel.ok("import workbench\nworkbench.load_ipython_extension(get_ipython())")
    matchers = "print(len(get_ipython().Completer.custom_matchers))"
    assert kernel.ok(matchers).stdout.strip() == "1"


def test_first_connect_demo_shows_its_tools(
    kernel: Kernel, record_timing: Callable[[str, float], None]
) -> None:
    cell = kernel.ok("%mcp connect demo")
    record_timing("first %mcp connect demo (cell round trip)", cell.seconds)
    [table] = cell.data("display_data")
    assert {"text/plain", "text/html"} <= set(table)
    assert "demo.add" in table["text/plain"] and "tool-table" in table["text/html"]
    servers = kernel.ok("%mcp servers").data("display_data")[0]
    assert "connected" in servers["text/plain"] and "server-table" in servers["text/html"]


def test_call_by_id_by_bare_name_and_underscore(
    kernel: Kernel, record_timing: Callable[[str, float], None]
) -> None:
    first = kernel.ok("%mcp call demo.add a=2 b=3")
    record_timing("first %mcp call demo.add (cell round trip)", first.seconds)
    result = first.result
    assert {"text/plain", "text/html", OBSERVATION} <= set(result)
    document = result[OBSERVATION]
    # "toolId" is null until Observations carry their tool's id (a change in session.py).
    assert document["kind"] == "observation" and "toolId" in document
    assert document["structuredContent"] == {"result": 5.0} and not document["isError"]
    assert OBSERVATION in kernel.ok("%mcp call add a=1 b=1").result
    assert kernel.ok("print(_.structured_content)").stdout.strip() == "{'result': 2}"
    assigned = kernel.ok('obs = %mcp call demo.add {"a": 4, "b": 4}')
    assert assigned.data("execute_result") == []
    assert kernel.ok("print(obs.structured_content)").stdout.strip() == "{'result': 8}"


def test_an_image_and_a_failing_call(kernel: Kernel) -> None:
    chart = kernel.ok("%mcp call demo.draw_chart values=[3,1,2] title=Bars").result
    assert [block["type"] for block in chart[OBSERVATION]["content"]] == ["image"]
    assert "<img" in chart["text/html"]
    failed = kernel.ok("%mcp call demo.fail")  # a failed call is a value, not an exception
    document = failed.result[OBSERVATION]
    assert document["isError"] and document["errorKind"] == "tool_error"
    assert "tool_error" in failed.result["text/plain"]


def test_progress_is_one_display_updated_in_place(kernel: Kernel) -> None:
    cell = kernel.ok("%mcp call demo.slow_count seconds=1.2 steps=4")
    kinds = [kind for kind, _ in cell.outputs]
    assert kinds.count("display_data") == 1 and kinds.count("update_display_data") >= 2
    assert kinds[-1] == "execute_result"
    final = cell.data("update_display_data")[-1]
    assert "demo.slow_count" in final["text/plain"] and "4/4" in final["text/plain"]
    logged = kernel.ok("%mcp call demo.log_demo message=hello-from-the-kernel level=warning")
    updates = "\n".join(data["text/plain"] for data in logged.data("update_display_data"))
    assert "hello-from-the-kernel" in updates


GREET = '''%%tool --read-only
def greet(name: str) -> str:
    """Say hello.

    Args:
        name: Who to greet.
    """
    return f"Hello, {name}!"
'''
NOTEBOOK_TOOLS = (
    "import workbench\n"
    "print(sorted(e.name for e in workbench.current().registry if e.server == 'notebook'))"
)


def test_tool_cell_define_redefine_remove(kernel: Kernel) -> None:
    defined = kernel.ok(GREET, cell_id="cell-greet")
    [card] = defined.data("display_data")
    assert card["text/plain"].startswith("notebook.greet") and "Who to greet." in card["text/plain"]
    assert "tool-card" in card["text/html"]
    said = kernel.ok("%mcp call greet name=Ada").result[OBSERVATION]
    assert said["content"][0]["text"] == "Hello, Ada!"
    assert kernel.ok("print(type(greet).__name__)").stdout.strip() == "function"

    redefined = GREET.replace("def greet", "def welcome").replace("Hello", "Welcome")
    cell = kernel.ok(redefined, cell_id="cell-greet")
    assert "Removed notebook.greet." in cell.stdout
    assert kernel.ok(NOTEBOOK_TOOLS).stdout.strip() == "['welcome']"
    said = kernel.ok("%mcp call notebook.welcome name=Ada").result[OBSERVATION]
    assert said["content"][0]["text"] == "Welcome, Ada!"

    kernel.ok("%%tool\nleft = 'no functions here'\n", cell_id="cell-greet")
    assert kernel.ok(NOTEBOOK_TOOLS).stdout.strip() == "[]"


def test_tool_cell_without_a_cell_id(kernel: Kernel) -> None:
    kernel.ok("%%tool\ndef one() -> int:\n    return 1\ndef two() -> int:\n    return 2\n")
    cell = kernel.ok("%%tool\ndef two() -> int:\n    return 2\n")
    assert "Removed notebook.one." in cell.stdout
    assert kernel.ok(NOTEBOOK_TOOLS).stdout.strip() == "['two']"


def test_a_failing_tool_cell_registers_nothing(kernel: Kernel) -> None:
    cell = kernel.run("%%tool\ndef three() -> int:\n    return 3\n1 / 0\n", cell_id="bad")
    assert cell.status == "error"
    assert cell.error is not None and cell.error[0] == "ZeroDivisionError"  # its traceback
    assert cell.stderr == (
        "UsageError: %%tool: the cell raised ZeroDivisionError; no tools were registered from it.\n"
    )
    assert kernel.ok(NOTEBOOK_TOOLS).stdout.strip() == "['two']"


def test_a_tool_error_names_the_cell_and_line_it_was_raised_on(kernel: Kernel) -> None:
    kernel.ok("%%tool\ndef ratio(a: float, b: float) -> float:\n    'Divide.'\n    return a / b\n")
    kernel.ok("def helper(x):\n    return 1 / x\n")  # a cell of its own: the line raising
    kernel.ok(
        "from workbench import tool\n@tool\ndef inverse(x: float) -> float:\n    return helper(x)\n"
    )
    cell = kernel.ok(
        "import workbench\nwb = workbench.current()\nwb.add_tools(inverse)\n"
        "print(get_ipython().execution_count)\n"  # this cell's number + 1
        "print(wb.call('notebook.ratio', {'a': 1, 'b': 0}).error_message)\n"
        "print(wb.call('notebook.inverse', {'x': 0}).error_message)"
    )
    after, ratio, inverse = cell.stdout.splitlines()
    zero = "ZeroDivisionError: float division by zero"
    assert ratio == f"ratio: {zero} (cell [{int(after) - 4}], line 4: return a / b)"
    assert inverse == f"inverse: {zero} (cell [{int(after) - 3}], line 2: return 1 / x)"


def test_usage_errors_are_one_line(kernel: Kernel) -> None:
    cell = kernel.run("%mcp call demo.add a= b=2")
    assert cell.status == "error" and cell.error is None and cell.outputs == []
    assert cell.stderr == "UsageError: a= has no value; write a='' for an empty text.\n"


def test_search_and_history(kernel: Kernel) -> None:
    [hits] = kernel.ok("%mcp search draw a chart --limit 3").data("display_data")
    assert "demo.draw_chart" in hits["text/plain"].splitlines()[3]
    assert "search-table" in hits["text/html"]
    [calls] = kernel.ok("%mcp history --last 2").data("display_data")
    assert "2 calls" in calls["text/plain"] and "history-table" in calls["text/html"]


def test_interrupting_a_call_shows_one_cancelled_observation(
    kernel: Kernel, record_timing: Callable[[str, float], None]
) -> None:
    """The stop button printed a KeyboardInterrupt traceback through the bridge, under a
    progress line that said "finished". The cell still ends in an error (one line), so a
    stopped Run All does not go on."""
    code = 'print("calling", flush=True)\n%mcp call demo.slow_count seconds=30 steps=60'
    msg_id = kernel.send(code)
    kernel.session.wait_for_stdout(msg_id, "calling", timeout=10)
    time.sleep(1.5)
    sent = time.monotonic()
    kernel.session.interrupt()
    cell = kernel.collect(msg_id, timeout=15, started=sent)
    record_timing("interrupt of %mcp call demo.slow_count seconds=30", cell.seconds)
    # A usage error: one line on stderr, no traceback, and the reply says error.
    assert cell.status == "error" and cell.error is None, cell
    assert cell.stderr.strip().splitlines() == [
        "UsageError: Interrupted: demo.slow_count was cancelled on the server."
    ]
    assert cell.seconds < 5
    [document] = [data[OBSERVATION] for data in cell.data("display_data") if OBSERVATION in data]
    assert document["isError"] and document["errorKind"] == "cancelled"
    assert "demo.slow_count was cancelled after" in document["errorMessage"]
    final = cell.data("update_display_data")[-1]["text/plain"]
    assert "cancelled after" in final and "finished" not in final
    [calls] = kernel.ok("%mcp history --last 1").data("display_data")
    assert "cancelled" in calls["text/plain"]
    result = kernel.ok("%mcp call demo.add a=1 b=1").result
    assert result[OBSERVATION]["structuredContent"] == {"result": 2.0}


def test_a_call_without_progress_leaves_no_empty_output(kernel: Kernel) -> None:
    """Every call used to leave an empty display_data in the saved notebook."""
    cell = kernel.ok("%mcp call demo.add a=1 b=2")
    assert [kind for kind, _ in cell.outputs] == ["execute_result"]


BANNER = f'%mcp connect banner -- sh -c "echo Welcome; exec {sys.executable} -m workbench.demo"'
KEPT = (
    "from workbench.mcp import quiet\n"
    "print(sum('JSONRPC' in r.message for r in quiet.recent('banner')))"
)
BROKEN_PROGRESS = (
    "import workbench\n"
    "workbench.current().call(\n"
    "    'demo.slow_count', {'seconds': 0.3, 'steps': 3}, on_progress=lambda *a: 1 / 0\n"
    ")"
)


def test_f20_library_logs_and_tracebacks_never_reach_the_cell(kernel: Kernel) -> None:
    """A server's banner gave a ten-line SDK traceback, a tool error FastMCP's coloured log
    line, a raising progress callback a traceback per step: all in the cell."""
    banner = kernel.ok(BANNER)
    assert banner.stderr == "" and "Traceback" not in banner.text and "JSONRPC" not in banner.text
    assert int(kernel.ok(KEPT).stdout) >= 1
    failed = kernel.ok("%mcp call demo.get_time timezone=Mars/Olympus")
    assert failed.stderr == "" and "Error calling tool" not in failed.text
    assert failed.result[OBSERVATION]["isError"]
    progress = kernel.ok(BROKEN_PROGRESS)
    assert progress.stderr.count("ZeroDivisionError") == 1, progress.stderr
    assert "Traceback" not in progress.stderr + progress.text
    kernel.ok("%mcp disconnect banner")


def test_f20_servers_name_shows_the_log_lines_kept_out_of_the_connect_cell(
    kernel: Kernel,
) -> None:
    """The SDK's "Failed to parse JSONRPC message" is kept out of the cell that connects a
    server printing junk on stdout, and shown by ``%mcp servers NAME`` on request."""
    connect = kernel.ok(BANNER.replace("connect banner", "connect junk"))
    assert connect.stderr == "" and "Traceback" not in connect.text
    assert "junk.add" in connect.text
    [detail] = kernel.ok("%mcp servers junk").data("display_data")
    plain, html = detail["text/plain"], detail["text/html"]
    assert "Server junk" in plain and "connected" in plain
    assert "Failed to parse JSONRPC message from server" in plain and "mcp.client.stdio" in plain
    assert "wb-server-detail" in html and "input_value=&#x27;Welcome&#x27;" in html
    table = kernel.ok("%mcp servers").data("display_data")[0]["text/plain"]
    assert "Warnings or errors were logged for junk" in table
    kernel.ok("%mcp disconnect junk")


def test_unload_ext_closes_the_connections(kernel: Kernel) -> None:
    kernel.ok("import workbench\nkernel_workbench = workbench.current()")
    kernel.ok("%unload_ext workbench")
    assert kernel.ok("print(kernel_workbench.closed)").stdout.strip() == "True"
    cell = kernel.run("%mcp servers")
    assert cell.status == "error"
    assert cell.stderr == "UsageError: Line magic function `%mcp` not found.\n"
