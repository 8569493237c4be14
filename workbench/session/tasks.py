"""Tool calls run as tasks, from the kernel: ``wb.call(..., task=True)`` returns a handle at
once; ``handle.result()`` polls it to its end (answering its questions with the same UI as a
call's), ``handle.cancel()`` cancels it. What is kept of each task (id, server, tool, TTL,
last status) is written to the workbench's data folder, so a restarted kernel lists them
(``wb.tasks()``) and resumes one (``wb.task(id).result()``) once its server is connected.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, TypeVar

from workbench.errors import OneLineError
from workbench.features.tasks import (
    TASKS_EXTENSION,
    TaskRecord,
    TaskState,
    now_iso,
    parse_iso,
)
from workbench.history import History
from workbench.mcp import tasks as wire
from workbench.mcp.answers import CallAnswers
from workbench.mcp.connection import Connection, ProgressCallback
from workbench.tools.schema import ErrorKind, Observation

T = TypeVar("T")
Run = Callable[[Coroutine[Any, Any, Any]], Any]


class NoTasksError(OneLineError):
    """``task=True`` on a server that offers no tasks, or a task id nobody kept."""


class TaskHandle:
    """One task: its id, server and tool; ``result()`` waits for it."""

    def __init__(self, book: TaskBook, record: TaskRecord, state: TaskState | None) -> None:
        self._book = book
        self.record = record
        self.state = state
        """The task as last seen (None until polled, after a restart)."""
        self.arguments: dict[str, Any] = {}
        """The call's arguments, in the kernel that started it (never written to disk)."""
        self.answered: set[str] = set()
        """The input requests answered already (each is shown once)."""
        self.observation: Observation | None = None
        """The task's end, once seen."""
        self.watching: concurrent.futures.Future[Observation] | None = None
        """The background follower ``watch`` started, if any."""

    @property
    def id(self) -> str:
        return self.record.task_id

    @property
    def server(self) -> str:
        return self.record.server

    @property
    def tool_id(self) -> str:
        return self.record.tool_id

    @property
    def tool_name(self) -> str:
        """The tool's name on its server."""
        return self.tool_id.partition(".")[2] or self.tool_id

    @property
    def status(self) -> str:
        return self.state.status if self.state is not None else self.record.status

    def metadata(self) -> dict[str, Any]:
        """What a cell's output keeps of the task (``application/json`` metadata)."""
        return {"workbench": {"task": self.record.to_json()}}

    def refresh(self) -> TaskState:
        """Ask the server how the task is doing (one ``tasks/get``)."""
        return self._book.run(self._book.refresh(self))  # type: ignore[no-any-return]

    def result(self, *, on_progress: ProgressCallback | None = None) -> Observation:
        """Wait for the task to end and return its result as an Observation (recorded in
        the history); questions it asks meanwhile are answered as a call's are."""
        here = CallAnswers.here(self.tool_name)  # a question's form lands in this cell
        return self._book.run(self._book.wait(self, on_progress, here))  # type: ignore[no-any-return]

    async def aresult(self, *, on_progress: ProgressCallback | None = None) -> Observation:
        here = CallAnswers.here(self.tool_name)
        return await self._book.arun(self._book.wait(self, on_progress, here))  # type: ignore[no-any-return]

    def watch(
        self,
        on_progress: ProgressCallback | None = None,
        on_end: Callable[[Observation | None], object] | None = None,
    ) -> None:
        """Follow the task in the background until it ends: ``on_progress(done, total,
        status)`` as it changes, its questions answered, ``on_end(observation)`` at the end
        (None if following failed). ``result()`` then waits for the same end."""
        self._book.watch(self, on_progress, on_end, CallAnswers.here(self.tool_name))

    def cancel(self) -> None:
        """Ask the server to cancel the task (cooperative: it may still finish)."""
        self._book.run(self._book.cancel(self))

    def _repr_mimebundle_(
        self, include: object = None, exclude: object = None
    ) -> tuple[dict[str, str], dict[str, Any]]:
        """Shown as its one line, with the task kept in the output's metadata."""
        hint = f"wb.task({self.id!r}).result() or %mcp tasks --result {self.id} waits for it."
        return {"text/plain": f"{self!r}\n{hint}"}, self.metadata()

    def __repr__(self) -> str:
        message = self.state.status_message if self.state is not None else None
        said = f": {message}" if message else ""
        return f"<Task {self.id} of {self.tool_id}: {self.status}{said}>"


class TaskBook:
    """The tasks this Workbench started or found kept; one per Workbench."""

    def __init__(
        self,
        run: Run,
        arun: Callable[[Coroutine[Any, Any, Any]], Any],
        submit: Callable[[Coroutine[Any, Any, Any]], concurrent.futures.Future[Any]],
        connection: Callable[[str], Connection],
        history: History,
    ) -> None:
        self.run = run
        self.arun = arun
        self.submit = submit
        self._connection = connection
        self._history = history
        self._lock = threading.Lock()
        self._handles: dict[str, TaskHandle] = {}

    async def start(
        self, tool_id: str, server: str, tool: str, arguments: Mapping[str, Any], ttl_ms: int
    ) -> TaskHandle | Observation:
        """Start the call as a task; a server that answered at once gives the Observation."""
        connection = self._connection(server)
        flavor = wire.flavor_of(connection.capabilities)
        if flavor is None:
            raise NoTasksError(
                f"{server!r} offers no tasks (neither the {TASKS_EXTENSION} extension "
                "nor 2025-11-25 tasks): call it without task=True."
            )
        state = await wire.start(connection, flavor, tool, arguments, ttl_ms)
        if not state.task_id:
            return self._finished(tool_id, server, dict(arguments), state)
        record = TaskRecord(
            state.task_id, server, tool_id, state.created_at or now_iso(), state.ttl_ms, flavor
        )
        handle = TaskHandle(self, record, state)
        handle.arguments = dict(arguments)
        self._keep(handle)
        started = Observation.from_text(
            f"Task {record.task_id} on {server}: {state.status}.",
            structured_content=record.to_json(),
        )
        self._history.record(tool_id, server, dict(arguments), started, kind="task")
        return handle

    def handles(self) -> list[TaskHandle]:
        """Every task kept: this kernel's and earlier kernels' (from the data folder)."""
        with self._lock:
            for record in wire.load_records():
                if record.task_id not in self._handles:
                    self._handles[record.task_id] = TaskHandle(self, record, None)
            return list(self._handles.values())

    def get(self, task_id: str) -> TaskHandle:
        for handle in self.handles():
            if handle.id == task_id:
                return handle
        raise NoTasksError(f"No task {task_id!r} was kept; wb.tasks() lists those that were.")

    async def refresh(self, handle: TaskHandle) -> TaskState:
        connection = self._connection(handle.server)
        state = await wire.get(connection, handle.record.flavor, handle.id)
        self._seen(handle, state)
        return state

    async def wait(
        self, handle: TaskHandle, on_progress: ProgressCallback | None, here: CallAnswers
    ) -> Observation:
        """The task's end: known already, the watcher's, or polled for here."""
        if handle.observation is not None:
            return handle.observation
        watching = handle.watching
        if watching is not None and not watching.done():
            return await asyncio.wrap_future(watching)
        return await self._poll(handle, on_progress, here)

    def watch(
        self,
        handle: TaskHandle,
        on_progress: ProgressCallback | None,
        on_end: Callable[[Observation | None], object] | None,
        here: CallAnswers,
    ) -> None:
        """Follow the task in the background (answering its questions) until it ends."""

        async def follow() -> Observation:
            try:
                ended = await self._poll(handle, on_progress, here)
            except BaseException:
                if on_end is not None:
                    on_end(None)
                raise
            if on_end is not None:
                on_end(ended)
            return ended

        handle.watching = self.submit(follow())

    async def _poll(
        self, handle: TaskHandle, on_progress: ProgressCallback | None, here: CallAnswers
    ) -> Observation:
        connection = self._connection(handle.server)
        flavor = handle.record.flavor
        answered = handle.answered
        state = handle.state
        while state is None or not state.terminal:
            state = await wire.get(connection, flavor, handle.id)
            self._seen(handle, state)
            if on_progress is not None:
                done, total = state.progress or (0.0, None)
                on_progress(done, total, state.status_message or state.status)
            if state.terminal:
                break
            if state.status == "input_required":
                if flavor == "2025-11-25":  # its questions come while tasks/result waits
                    result = await wire.result_v1(connection, handle.id)
                    state = state.updated(status="completed", result=result)
                    self._seen(handle, state)
                    break
                await wire.answer(connection, state, here, answered)
            await wire.pause(state)
        if handle.observation is None:  # the first to see the end records it
            handle.observation = self._finished(
                handle.tool_id, handle.server, handle.arguments, state
            )
        return handle.observation

    async def cancel(self, handle: TaskHandle) -> None:
        await wire.cancel(self._connection(handle.server), handle.id)
        self._seen(handle, (handle.state or _blank(handle.record)).updated(status="cancelled"))

    def _finished(
        self, tool_id: str, server: str, arguments: dict[str, Any], state: TaskState
    ) -> Observation:
        observation = observation_of(state, tool_id)
        created = parse_iso(state.created_at)
        if created is not None:  # the task's whole run, as the server stamped it
            ended = parse_iso(state.last_updated_at) or datetime.now(timezone.utc)
            elapsed = max((ended - created).total_seconds(), 0.0)
            observation = observation.model_copy(update={"duration": elapsed})
        self._history.record(tool_id, server, arguments, observation)
        return observation

    def _keep(self, handle: TaskHandle) -> None:
        with self._lock:
            self._handles[handle.id] = handle
            self._save()

    def _seen(self, handle: TaskHandle, state: TaskState) -> None:
        handle.state = state
        if state.status != handle.record.status:
            handle.record = replace(handle.record, status=state.status)
            with self._lock:
                self._save()

    def _save(self) -> None:
        kept = {record.task_id: record for record in wire.load_records()}
        for task_id, handle in self._handles.items():
            kept[task_id] = handle.record
        wire.save_records([record for record in kept.values() if not record.expired()])


def _blank(record: TaskRecord) -> TaskState:
    return TaskState(record.task_id, record.status, record.created_at, now_iso(), record.ttl_ms)


def observation_of(state: TaskState, tool_id: str) -> Observation:
    """The task's end as the Observation the call would have given."""
    if state.status == "completed" and state.result is not None:
        result = {key: value for key, value in state.result.items() if key != "resultType"}
        observation = Observation.model_validate(result).model_copy(update={"tool_id": tool_id})
        if observation.is_error:
            update = {"error_kind": ErrorKind.TOOL_ERROR, "error_message": observation.text}
            observation = observation.model_copy(update=update)
        return observation
    if state.status == "cancelled":
        message = state.status_message or f"{tool_id} was cancelled."
        return Observation.error(ErrorKind.CANCELLED, message, tool_id=tool_id)
    error = state.error or {}
    said = error.get("message") or state.status_message or "no reason given"
    return Observation.error(
        ErrorKind.TOOL_ERROR, f"The task of {tool_id} failed: {said}", tool_id=tool_id
    )
