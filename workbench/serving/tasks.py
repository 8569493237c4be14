"""The served notebook's tasks: the MCP tasks extension (SEP-2663) for ``task=True`` tools.

An outside client that declares ``io.modelcontextprotocol/tasks`` on its ``tools/call`` of a
task tool gets a ``CreateTaskResult`` at once; the call runs on through the Workbench's one
call path (so it lands in the history) while the client polls ``tasks/get``. The task's
progress becomes its ``statusMessage``; a question the tool asks (``get_context().elicit``)
makes it ``input_required`` until ``tasks/update`` brings the answer; ``tasks/cancel`` cancels
the call. Tasks live in memory, in this kernel: one kernel serves them, and a task outlives
neither its TTL nor the served surface.

Not ``fastmcp-tasks``: it pins another FastMCP and needs Docket and Redis, a second process
for what an in-kernel table does. Tasks are made for 2026-07-28 requests only (the SDK cannot
write a ``resultType: "task"`` on a handshake-era wire); other clients get the plain result.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import mcp_types
from fastmcp.server.context import Context
from fastmcp.server.extensions import (
    MethodBinding,
    ServerExtension,
    ToolCallContinuation,
    ToolCallOutcome,
    read_client_extension_settings,
)
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import CLIENT_CAPABILITIES_META_KEY, CallToolRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import BaseModel, ConfigDict, Field

from workbench.bridge import send_to_loop
from workbench.features.asking import ElicitationAnswer, ElicitationRequest
from workbench.features.tasks import MISSING_CAPABILITY, TASKS_EXTENSION, TaskState, now_iso
from workbench.names import LOCAL_SERVER
from workbench.serving.questions import asking
from workbench.serving.refusals import refusal_of, refusal_wire
from workbench.serving.task_start import asks_first
from workbench.tools.from_function import WRAP_MARKER
from workbench.tools.schema import ErrorKind, Observation

if TYPE_CHECKING:
    from workbench.serving.app import ServedTool

DEFAULT_TTL_MS = 60 * 60 * 1000
"""How long a task is kept after it is created: an hour (the client may poll that long)."""
DEFAULT_POLL_MS = 500


class TaskParams(mcp_types.RequestParams):
    task_id: str


class UpdateParams(TaskParams):
    input_responses: dict[str, Any] = Field(default_factory=dict)


class WireResult(BaseModel):
    """A result written as given (the ``CreateTaskResult``)."""

    model_config = ConfigDict(extra="allow")


def missing_capability() -> MCPError:
    return MCPError(
        code=MISSING_CAPABILITY,
        message=f"Missing required client capability: the {TASKS_EXTENSION} extension",
        data={"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
    )


def declared(ctx: Any) -> bool:
    """Whether this request's client declared the tasks extension: in the request's
    ``_meta`` (2026-07-28), else among the capabilities its session declared."""
    if ctx is None:
        return False
    if isinstance(ctx, ServerRequestContext):  # a method handler's: its raw _meta lifted
        if read_client_extension_settings(ctx, TASKS_EXTENSION) is not None:
            return True
    else:  # fastmcp's request context carries the raw _meta
        meta = ctx.meta if isinstance(ctx.meta, Mapping) else {}
        capabilities = meta.get(CLIENT_CAPABILITIES_META_KEY)
        extensions = capabilities.get("extensions") if isinstance(capabilities, Mapping) else None
        if isinstance(extensions, Mapping) and isinstance(extensions.get(TASKS_EXTENSION), Mapping):
            return True
    session_capabilities = getattr(ctx.session, "client_capabilities", None)
    return TASKS_EXTENSION in (getattr(session_capabilities, "extensions", None) or {})


class Running:
    """One task: its state, the call running it and the questions it waits on."""

    def __init__(self, state: TaskState) -> None:
        self.state = state
        self.job: asyncio.Task[None] | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        """The loop the task runs on (the bridge's), where its questions wait."""
        self.waiting: dict[str, asyncio.Future[ElicitationAnswer]] = {}
        self._keys = itertools.count(1)
        self._used: set[str] = set()
        self.expires = time.monotonic() + (state.ttl_ms or 0) / 1000

    def progress(self, done: float, total: float | None, message: str | None) -> None:
        """The call's progress as the task's ``statusMessage``."""
        shown = message or (f"{done:g}/{total:g}" if total else f"{done:g}")
        self.set(progress=(done, total), status_message=shown)

    def set(self, **changes: Any) -> None:
        if not self.state.terminal:  # terminal states never change
            self.state = self.state.updated(**changes)

    async def ask(self, request: ElicitationRequest) -> ElicitationAnswer:
        """The tool's question as an ``inputRequest`` (a key never reused), the task
        ``input_required`` until ``tasks/update`` answers it. Asked from another loop (a
        tool's own), the question still waits on the task's loop, where answers arrive."""
        if self.loop is None or asyncio.get_running_loop() is self.loop:
            return await self._ask(request)
        return await asyncio.wrap_future(send_to_loop(self.loop, self._ask(request)))

    async def _ask(self, request: ElicitationRequest) -> ElicitationAnswer:
        key = f"elicit-{next(self._keys)}"
        named = getattr(request, "key", None)  # the tool's own name for it, once per task
        if isinstance(named, str) and named and named not in self._used:
            key = named
        self._used.add(key)
        answer: asyncio.Future[ElicitationAnswer] = asyncio.get_running_loop().create_future()
        self.waiting[key] = answer
        requests = {**self.state.input_requests, key: elicitation_request(request, key)}
        self.set(status="input_required", input_requests=requests, status_message=request.message)
        try:
            return await answer
        finally:
            del self.waiting[key]
            left = {k: v for k, v in self.state.input_requests.items() if k != key}
            if left:
                self.set(input_requests=left)
            else:
                self.set(status="working", input_requests={}, status_message=None)

    def answer(self, responses: Mapping[str, Any]) -> None:
        """Deliver answers to questions still open; any other key is ignored."""
        for key, response in responses.items():
            waiting = self.waiting.get(key)
            if waiting is None or waiting.done() or not isinstance(response, Mapping):
                continue
            waiting.set_result(as_answer(response))


def elicitation_request(request: ElicitationRequest, key: str) -> dict[str, Any]:
    """The question as an ``elicitation/create`` input request."""
    if request.mode == "url":
        params: dict[str, Any] = {
            "mode": "url",
            "message": request.message,
            "url": request.url,
            "elicitationId": key,
        }
    else:
        params = {"mode": "form", "message": request.message, "requestedSchema": request.schema}
    return {"method": "elicitation/create", "params": params}


def as_answer(response: Mapping[str, Any]) -> ElicitationAnswer:
    action = response.get("action")
    if action == "accept":
        content = response.get("content")
        return ElicitationAnswer.accept(dict(content) if isinstance(content, Mapping) else {})
    return ElicitationAnswer.decline() if action == "decline" else ElicitationAnswer.cancel()


class NotebookTasks(ServerExtension):
    """The tasks extension on a served notebook: an in-memory task table."""

    identifier = TASKS_EXTENSION

    def __init__(
        self,
        supports: Callable[[], bool],
        *,
        ttl_ms: int = DEFAULT_TTL_MS,
        poll_ms: int = DEFAULT_POLL_MS,
        may_run: Callable[[str], bool] = lambda name: True,
    ) -> None:
        self._supports = supports
        self._may_run = may_run
        """Whether the tool of that name may run as a task (False: it never does, so its
        call goes on without looking the tool up a second time)."""
        self.ttl_ms = ttl_ms
        self.poll_ms = poll_ms
        self.tasks: dict[str, Running] = {}

    def advertised(self) -> dict[str, dict[str, Any]]:
        """The capability, only while a served tool supports tasks."""
        return {TASKS_EXTENSION: {}} if self._supports() else {}

    def methods(self) -> Sequence[MethodBinding]:
        return (
            MethodBinding("tasks/get", TaskParams, self._get),
            MethodBinding("tasks/update", UpdateParams, self._update),
            MethodBinding("tasks/cancel", TaskParams, self._cancel),
        )

    @contextlib.asynccontextmanager
    async def _ending(self) -> AsyncIterator[None]:
        try:
            yield
        finally:
            for running in list(self.tasks.values()):
                if running.job is not None:
                    running.job.cancel()
            self.tasks.clear()

    def lifespan(self) -> contextlib.AbstractAsyncContextManager[None]:
        return self._ending()

    async def intercept_tool_call(
        self,
        params: CallToolRequestParams,
        context: Context,
        call_next: ToolCallContinuation,
    ) -> ToolCallOutcome:
        from workbench.serving.app import ServedTool  # app imports this module

        if not self._may_run(params.name):
            return await call_next()
        tool = await context.fastmcp.get_tool(params.name)
        mode = tool._definition.task if isinstance(tool, ServedTool) else "forbidden"
        if mode == "forbidden":
            return await call_next()
        request = context.request_context
        modern = request is not None and request.protocol_version in MODERN_PROTOCOL_VERSIONS
        if not (modern and declared(request)):
            if mode == "required":
                raise missing_capability()
            return await call_next()
        served = cast("ServedTool", tool)
        if asks_first(served._definition):  # its questions first, by rounds; then the task
            from workbench.serving.task_rounds import rounds_then_task

            arguments = dict(params.arguments or {})
            return await rounds_then_task(self, served, arguments, context)
        running = self._start(served, dict(params.arguments or {}))
        return WireResult(resultType="task", **running.state.to_wire(detailed=False))

    def _start(self, tool: ServedTool, arguments: dict[str, Any]) -> Running:
        running = self.new()
        running.job = asyncio.ensure_future(self._run(running, tool, arguments))
        return running

    def new(self) -> Running:
        """A task, known (and its loop set) before its ``CreateTaskResult`` goes out."""
        self._forget_expired()
        stamp = now_iso()
        state = TaskState(
            task_id=str(uuid.uuid4()),
            status="working",
            created_at=stamp,
            last_updated_at=stamp,
            ttl_ms=self.ttl_ms,
            poll_interval_ms=self.poll_ms,
        )
        running = Running(state)
        self.tasks[state.task_id] = running  # known before the CreateTaskResult goes out
        running.loop = asyncio.get_running_loop()
        return running

    async def _run(self, running: Running, tool: ServedTool, arguments: dict[str, Any]) -> None:
        tool_id = f"{LOCAL_SERVER}.{tool.name}"
        with asking(running.ask):
            await settle(running, tool, tool._call(tool_id, arguments, running.progress, None))

    async def _get(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> Any:
        running = self._find(ctx, params.task_id)
        return {"resultType": "complete", **running.state.to_wire()}

    async def _update(self, ctx: ServerRequestContext[Any, Any], params: UpdateParams) -> Any:
        self._find(ctx, params.task_id).answer(params.input_responses)
        return {"resultType": "complete"}

    async def _cancel(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> Any:
        running = self._find(ctx, params.task_id)
        if not running.state.terminal:
            running.set(status="cancelled", status_message="Cancelled by the client.")
            if running.job is not None:
                running.job.cancel()
        return {"resultType": "complete"}

    def _find(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> Running:
        if not declared(ctx):
            raise missing_capability()
        headers = getattr(ctx.request, "headers", None)
        named = headers.get("mcp-name") if headers is not None else None
        if named is not None and named != task_id:  # SEP-2243: routed by the header
            message = f"The Mcp-Name header ({named!r}) is not the params' taskId."
            raise MCPError(code=mcp_types.HEADER_MISMATCH, message=message)
        self._forget_expired()
        running = self.tasks.get(task_id)
        if running is None:
            raise MCPError(code=mcp_types.INVALID_PARAMS, message=f"Unknown task {task_id!r}.")
        return running

    def _forget_expired(self) -> None:
        """Drop tasks past their TTL; one still running is cancelled first."""
        now = time.monotonic()
        for task_id, running in list(self.tasks.items()):
            if running.state.ttl_ms is not None and now > running.expires:
                if running.job is not None and not running.job.done():
                    running.job.cancel()
                del self.tasks[task_id]


async def settle(running: Running, tool: ServedTool, call: Awaitable[Observation]) -> None:
    """Wait for the task's call and make its end the task's."""
    try:
        observation = await call
    except asyncio.CancelledError:
        running.set(status="cancelled", status_message="The task was cancelled.")
        raise
    except Exception as error:  # the call path itself broke: a protocol-level failure
        message = f"{tool.name} failed: {error}"
        running.set(status="failed", error={"code": -32603, "message": message})
        return
    refusal = refusal_of(observation, f"{LOCAL_SERVER}.{tool.name}: ")
    if refusal is not None:  # the tool refused (ProtocolError): failed, with the error
        running.set(status="failed", error=refusal_wire(refusal), status_message=None)
        return
    finish(running, observation, wire_result(tool, observation))


def finish(running: Running, observation: Observation, result: dict[str, Any]) -> None:
    """The call's end as the task's: a tool's error is still ``completed`` (with
    ``isError``); a cancelled call is ``cancelled``."""
    if observation.error_kind is ErrorKind.CANCELLED:
        running.set(status="cancelled", status_message=observation.error_message)
    else:
        running.set(status="completed", result=result, status_message=None)


def wire_result(tool: ServedTool, observation: Observation) -> dict[str, Any]:
    """The ``CallToolResult`` the call would have answered, as the task's ``result``."""
    from workbench.serving.app import tool_result

    wrapped = bool((tool.output_schema or {}).get(WRAP_MARKER))
    made = tool_result(observation, wrapped).to_mcp_result()
    if not isinstance(made, mcp_types.CallToolResult):  # content only
        content = made[0] if isinstance(made, tuple) else made
        made = mcp_types.CallToolResult(content=content)
    return made.model_dump(by_alias=True, mode="json", exclude_none=True)


def may_run_as_task(provider: object, name: str) -> bool:
    """Whether the notebook tool ``name`` is one that may run as a task (its definition's
    ``task`` is not ``forbidden``): a dict lookup, no filters asked."""
    definitions = getattr(provider, "_definitions", None)
    if definitions is None or not getattr(provider, "_notebook", False):
        return False
    definition = definitions().get(name)
    return definition is not None and definition.task != "forbidden"


def supports_tasks(provider: object) -> bool:
    """Whether a tool the provider serves runs as a task (the notebook's tools only). Asked
    on the bridge loop at each discover: the surface's name filters only, never a tool's
    ``enabled()`` (notebook code), so a hidden task tool may still count."""
    definitions = getattr(provider, "_definitions", None)
    surface = getattr(provider, "_surface", None)
    if definitions is None or surface is None or not getattr(provider, "_notebook", False):
        return False
    return any(
        definition.task != "forbidden" and surface.passes_filters(name)
        for name, definition in definitions().items()
    )
