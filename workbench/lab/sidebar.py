"""The ``workbench.sidebar`` comm: the kernel's half of the MCP panel.

The panel opens a comm on its notebook's kernel; the kernel answers at once with a
``state`` document and again whenever it changes: on a registry change (a connect, a
disconnect, a re-run ``%%tool`` cell, a server's ``tools/list_changed``, which may arrive on
the bridge thread) and after each cell (what a cell did that the registry does not see: a
failed connect, ``%mcp serve``). A document is sent only when it differs from the last one
that comm was sent. ``comm.send`` is safe from any thread (ipykernel hands iopub messages to
its own IO thread), so nothing waits for the main thread.

Requests from the panel, each answered on the same comm (``seq`` echoed back):
``{"type": "search", "query", "limit"}`` -> ``results``; ``{"type": "template", "id",
"mode": "call" | "browse"}`` -> ``template`` with ``code``; ``{"type": "refresh"}`` ->
``state``; anything that fails -> ``{"type": "error", "message"}`` on one line.

``install`` is what ``%load_ext workbench`` calls: it imports nothing heavy; the
documents load with the first comm.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import TYPE_CHECKING, Any

from workbench.errors import WorkbenchError
from workbench.lab import TARGET
from workbench.lab.comms import KernelComms, Unsubscribe, install_target, uninstall_target

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.kernel import KernelState
    from workbench.session import Workbench


class Sidebars(KernelComms):
    """Every open sidebar comm of one kernel, and the Workbench they follow."""

    def __init__(self, state: KernelState) -> None:
        super().__init__(state)
        self._sent: dict[str, dict[str, Any]] = {}  # comm id -> last state document
        self._served: dict[str, Any] | None = None  # read on the main thread only

    # -- the comm target ------------------------------------------------------------------

    def opened(self, comm_id: str) -> None:
        """A panel opened a comm: send it the state now."""
        self._served = self._read_served()
        self._push(force={comm_id})

    def forget(self, comm_id: str | None) -> None:
        if comm_id is None:
            self._sent.clear()
        else:
            self._sent.pop(comm_id, None)

    def received(self, comm: Any, data: dict[str, Any]) -> None:
        reply = self.answer(data)
        if "seq" in data:
            reply["seq"] = data["seq"]
        if reply.get("type") == "state":
            with self._lock:
                self._sent[str(comm.comm_id)] = reply
        comm.send(reply)

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        """The reply to one request from the panel (an ``error`` document when it fails)."""
        from workbench.lab.state import one_line

        try:
            return self._answer(request)
        except WorkbenchError as error:
            return {"type": "error", "message": one_line(str(error))}
        except Exception as error:  # the panel shows it; the kernel goes on
            return {"type": "error", "message": one_line(f"{type(error).__name__}: {error}")}

    def _answer(self, request: dict[str, Any]) -> dict[str, Any]:
        from workbench.lab import state, template

        kind = request.get("type")
        workbench = self._state.existing
        if kind == "refresh":
            self.follow()
            self._served = self._read_served()
            return state.state_document(workbench, self._served)
        if kind == "search":
            query = request.get("query", "")
            if not isinstance(query, str):
                raise WorkbenchError("The search query must be text.")
            if workbench is None:
                return state.search_document(_empty_registry(), query)
            limit = request.get("limit", 40)
            limit = limit if isinstance(limit, int) and not isinstance(limit, bool) else 40
            return state.search_document(workbench.registry, query, limit)
        if kind == "template":
            tool_id = request.get("id")
            if not isinstance(tool_id, str) or workbench is None:
                raise WorkbenchError(f"No tool {tool_id!r}: nothing is connected.")
            entry = workbench.registry.get(tool_id)
            browse = request.get("mode") == "browse"
            code = template.browse_cell(entry) if browse else template.call_cell(entry)
            return {"type": "template", "id": entry.id, "mode": "browse" if browse else "call",
                    "code": code}  # fmt: skip
        raise WorkbenchError(f"Unknown request {state.one_line(str(kind), 40)!r}.")

    # -- following the Workbench ----------------------------------------------------------

    def after_cell(self, *_: object) -> None:
        """IPython's ``post_run_cell``: what the cell changed, the served surface included."""
        if not self._comms:
            return
        self.follow()
        self._served = self._read_served()
        self._push()

    def subscribe(self, workbench: Workbench) -> Unsubscribe:
        """Listen to the registry of the kernel's Workbench."""
        return workbench.registry.subscribe(self._registry_changed)

    def _registry_changed(self, server: str) -> None:
        """A registry listener (any thread): the served surface as last read on the main
        thread, the rest read now."""
        self._push()

    def _read_served(self) -> dict[str, Any] | None:
        from workbench.lab.state import served_document

        try:
            return served_document(self._state.existing)
        except Exception:  # a surface that cannot say what it serves is shown as none
            return None

    def _push(self, force: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        """Send the state to each comm whose last document differs (or is in ``force``)."""
        from workbench.lab.state import state_document

        if not self._comms:
            return
        try:
            document = state_document(self._state.existing, self._served)
        except Exception:  # a Workbench closing under us: the next change says more
            return
        with self._lock:
            targets = [
                (comm_id, comm)
                for comm_id, comm in self._comms.items()
                if comm_id in force or self._sent.get(comm_id) != document
            ]
            for comm_id, _ in targets:
                self._sent[comm_id] = document
        for _, comm in targets:
            with contextlib.suppress(Exception):  # a comm closing meanwhile
                comm.send(document)


def _empty_registry() -> Any:
    from workbench.registry import Registry

    return Registry()


_INSTALLED: weakref.WeakKeyDictionary[InteractiveShell, Sidebars] = weakref.WeakKeyDictionary()


def install(shell: InteractiveShell, state: KernelState) -> Sidebars | None:
    """Register the comm target and the after-cell hook, once per shell (in a kernel)."""
    fresh = shell not in _INSTALLED
    sidebars = install_target(shell, TARGET, _INSTALLED, lambda: Sidebars(state))
    if sidebars is not None and fresh:
        shell.events.register("post_run_cell", sidebars.after_cell)
    return sidebars


def uninstall(shell: InteractiveShell) -> None:
    """Undo :func:`install`: the target and hook go, the open comms are closed."""
    sidebars = uninstall_target(shell, TARGET, _INSTALLED)
    if sidebars is not None:
        with contextlib.suppress(ValueError):
            shell.events.unregister("post_run_cell", sidebars.after_cell)
