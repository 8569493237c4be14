"""A task tool that asks before its task begins (``@asks_before_task``): rounds, then a task.

To a 2026-07-28 client that declared the tasks extension, the call starts as any served call
that asks: its questions go by ``InputRequiredResult`` rounds (``rounds.py``, its
``requestState`` sealed by FastMCP). When the tool calls ``get_context().begin_task()``, the
round in flight answers with a ``CreateTaskResult`` instead (SEP-2663's composition: no
``requestState`` leaks into it), and the call runs on as that task: its later questions make
the task ``input_required`` (``tasks/update`` answers), its progress is the task's
``statusMessage``, ``tasks/cancel`` cancels it. A tool that ends without beginning its task
answers that round with its plain result. Progress before the task is not relayed.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastmcp.server.context import Context
from fastmcp.server.extensions import ToolCallOutcome
from fastmcp.tools.base import InputRequiredToolResult

from workbench.bridge import send_to_loop
from workbench.features.asking import ElicitationAnswer, ElicitationRequest
from workbench.names import LOCAL_SERVER
from workbench.serving.questions import asking
from workbench.serving.refusals import Refused, refusal_of
from workbench.serving.rounds import Suspended
from workbench.serving.served_asking import GONE
from workbench.serving.task_start import beginning
from workbench.serving.tasks import Running, WireResult, settle
from workbench.tools.from_function import WRAP_MARKER
from workbench.tools.schema import ErrorKind, Observation

if TYPE_CHECKING:
    from workbench.serving.app import ServedTool
    from workbench.serving.tasks import NotebookTasks


class Begun:
    """The call began its task: it runs on as ``job``."""

    def __init__(self, job: asyncio.Task[Observation], became: asyncio.Future[Running]) -> None:
        self.job = job
        self.became = became


async def rounds_then_task(
    tasks: NotebookTasks, tool: ServedTool, arguments: dict[str, Any], context: Context
) -> ToolCallOutcome:
    """This round's answer: the next questions, the ``CreateTaskResult`` once the tool began
    its task, or the tool's result if it ended first."""
    rounds = tool._rounds
    state = context.request_state
    if state is None:
        start = lambda call: _start(tool, arguments, call)  # noqa: E731
        outcome = await rounds.first(start, None, context.input_responses)
    else:
        outcome = await rounds.again(state, context.input_responses, None)
        if outcome is None:
            outcome = Observation.error(ErrorKind.TOOL_ERROR, GONE, duration=0.0)
    if isinstance(outcome, Begun):
        running = tasks.new()
        outcome.became.set_result(running)
        running.job = asyncio.ensure_future(settle(running, tool, outcome.job))
        return WireResult(resultType="task", **running.state.to_wire(detailed=False))
    if isinstance(outcome, Observation):
        from workbench.serving.app import tool_result

        refusal = refusal_of(outcome, f"{LOCAL_SERVER}.{tool.name}: ")
        if refusal is not None:
            return Refused(refusal)
        return tool_result(outcome, bool((tool.output_schema or {}).get(WRAP_MARKER)))
    return InputRequiredToolResult(outcome)


async def _start(tool: ServedTool, arguments: dict[str, Any], call: Suspended) -> Any:
    """Run the call until it ends (its Observation) or begins its task (``Begun``)."""
    loop = asyncio.get_running_loop()
    begun: asyncio.Future[None] = loop.create_future()
    became: asyncio.Future[Running] = loop.create_future()

    async def begun_now() -> None:
        if not begun.done():
            begun.set_result(None)

    def begin() -> None:  # from the tool's thread or loop: before any question it asks next
        send_to_loop(loop, begun_now())

    async def ask(request: ElicitationRequest) -> ElicitationAnswer:
        if begun.done():  # asked after begin_task(): the task's question
            running = await became
            return await running.ask(request)
        answer: ElicitationAnswer = await call.ask(request)
        return answer

    def progress(done: float, total: float | None, message: str | None) -> None:
        if became.done():
            became.result().progress(done, total, message)

    tool_id = f"{LOCAL_SERVER}.{tool.name}"
    with asking(ask), beginning(begin):
        job = asyncio.ensure_future(tool._call(tool_id, arguments, progress, None))
    try:
        waits: list[asyncio.Future[Any]] = [job, begun]
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        job.cancel()
        raise
    if begun.done():
        return Begun(job, became)
    return job.result()
