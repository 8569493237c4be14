"""``%mcp tasks``: the tool calls started as tasks (``%mcp call --task``, ``wb.call(...,
task=True)``), in this kernel or an earlier one; wait for one, or cancel it."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.parsing import fail

if TYPE_CHECKING:
    from workbench.kernel import KernelState
    from workbench.session.tasks import TaskHandle
    from workbench.tools.schema import Observation


@magic_arguments(name="mcp tasks")
@argument("--refresh", action="store_true", help="Ask each task's server how it is doing.")
@argument("--result", metavar="TASK_ID", help="Wait for this task; its result is the value.")
@argument("--cancel", metavar="TASK_ID", help="Ask the server to cancel this task.")
def tasks(state: KernelState, line: str) -> Observation | None:
    """List the tasks kept (id, tool, status, started, TTL), newest last; `--result ID`
    waits for one with its progress shown (after a restart, once its server is connected
    again under the same name); `--cancel ID` cancels one."""
    from workbench.errors import WorkbenchError

    args = parse_line(tasks, line)
    workbench = state.workbench
    try:
        if args.cancel is not None:
            workbench.task(args.cancel).cancel()
            print(f"Asked to cancel task {args.cancel}.")
            return None
        if args.result is not None:
            return _wait(workbench.task(args.result))
        handles = workbench.tasks()
        if args.refresh:
            for handle in handles:
                _refresh(handle)
    except WorkbenchError as error:
        raise fail(f"%mcp tasks: {error}") from None
    if not handles:
        print("No tasks yet: %mcp call --task TOOL ... starts one.")
        return None
    from IPython.display import display

    table = _table(handles)
    display({"text/plain": table, "text/markdown": table}, raw=True)  # type: ignore[no-untyped-call]
    return None


def _wait(handle: TaskHandle) -> Observation:
    from workbench.display import CallProgress

    progress = CallProgress(handle.tool_id)
    try:
        return handle.result(on_progress=progress.on_progress)
    finally:
        progress.finish()


def _refresh(handle: TaskHandle) -> None:
    """One tasks/get; a server not connected (or that forgot the task) leaves it as kept."""
    from workbench.errors import WorkbenchError

    with contextlib.suppress(WorkbenchError, KeyError):
        handle.refresh()


def _table(handles: list[TaskHandle]) -> str:
    """The tasks as a Markdown table (readable as plain text too)."""
    rows = ["| task | tool | status | started | TTL |", "|---|---|---|---|---|"]
    for handle in handles:
        ttl = handle.record.ttl_ms
        shown_ttl = "none" if ttl is None else f"{ttl / 1000:g} s"
        if handle.record.expired():
            shown_ttl += " (past)"
        message = handle.state.status_message if handle.state is not None else None
        status = f"{handle.status}: {message}" if message else handle.status
        cells = [handle.id, handle.tool_id, status, handle.record.created_at, shown_ttl]
        rows.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(rows)
