"""The Workbench's methods for tasks: ``tasks()``, ``task(id)`` and what ``call(...,
task=True)`` runs. A mixin of ``Workbench`` (``workbench.py``); the tasks themselves are
``session/tasks.py``'s, their wire ``mcp/tasks.py``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from workbench.mcp.tasks import DEFAULT_TTL_MS
from workbench.registry import call_input
from workbench.session.tasks import NoTasksError, TaskBook, TaskHandle

if TYPE_CHECKING:
    from workbench.bridge import Bridge
    from workbench.history import History
    from workbench.mcp.manager import ConnectionManager
    from workbench.registry import Registry
    from workbench.tools.schema import Observation


class Tasks:
    """``tasks`` and ``task``: mixed into ``Workbench``."""

    if TYPE_CHECKING:
        _manager: ConnectionManager
        _bridge: Bridge
        registry: Registry
        history: History

        def _check_open(self) -> None: ...

    _task_book: TaskBook | None = None

    def tasks(self) -> list[TaskHandle]:
        """The tasks started with ``call(..., task=True)``, in this kernel or an earlier
        one (kept in the workbench's data folder: ids, servers and times only)."""
        return self._tasks().handles()

    def task(self, task_id: str) -> TaskHandle:
        """A task kept by id: ``wb.task(id).result()`` resumes waiting for it (its server
        must be connected under the same name)."""
        return self._tasks().get(task_id)

    async def _start_task(
        self, tool_id: str, arguments: Mapping[str, Any] | None, ttl_ms: int = DEFAULT_TTL_MS
    ) -> TaskHandle | Observation:
        problem = call_input.tool_id_problem(tool_id)
        if problem is not None:
            raise NoTasksError(problem)
        entry = self.registry.get(tool_id)
        raw = call_input.recordable(arguments)
        return await self._tasks().start(entry.id, entry.server, entry.name, raw, ttl_ms)

    def _tasks(self) -> TaskBook:
        if self._task_book is None:
            self._task_book = TaskBook(
                self._bridge.run,
                self._bridge.arun,
                self._bridge.submit,
                self._manager.get,
                self.history,
            )
        return self._task_book
