"""The kernel's Workbench and its live views: one per IPython shell.

The magics, ``workbench.current()`` and ``workbench.browse()`` all reach the same Workbench
through here, so a tool made in a ``%%tool`` cell is the one a browser shows and Python
calls. Kept on one object per shell (never on a class), so a test or a second shell gets
its own; the widget room never needs to know about the extension. Loading it also mends how
ipykernel 7 reports widget messages handled while a cell awaits
(``idle_after_concurrent_comms``), which the question panels of awaited calls depend on.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from workbench.errors import WorkbenchError

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.session import Workbench
    from workbench.widgets.browser import ToolBrowser

EXTENSION = "workbench"
"""The name ``%load_ext`` knows the extension by."""


class KernelState:
    """The kernel's Workbench (made on first use), the running cell's id, and the tool
    browser each cell made last."""

    def __init__(self) -> None:
        self._workbench: Workbench | None = None
        self.cell_id: str | None = None
        self.browsers: dict[str, ToolBrowser] = {}

    @property
    def workbench(self) -> Workbench:
        """The kernel's Workbench, made now if it does not exist (or was closed): loading the
        extension stays cheap, and ``wb.close()`` by hand does not break later magics."""
        if self._workbench is None or self._workbench.closed:
            from workbench.session import Workbench
            from workbench.widgets.asking import NotebookAsker

            self._workbench = Workbench()
            # Servers' questions go to the person at the notebook: a form in the calling
            # cell, or input() while a sync call blocks the kernel.
            self._workbench.ask_people_with(NotebookAsker())
        return self._workbench

    @property
    def existing(self) -> Workbench | None:
        """The Workbench if one is open, without making one (tab completion must be cheap)."""
        workbench = self._workbench
        return workbench if workbench is not None and not workbench.closed else None

    def remember_cell(self, info: object) -> None:
        """IPython's ``pre_run_cell`` event: note the id the front end gave the cell, if any
        (JupyterLab and Notebook 7 send one), for ``%%tool`` to own its tools by."""
        cell_id = getattr(info, "cell_id", None)
        self.cell_id = str(cell_id) if cell_id else None

    def browse(self, query: str = "", *, server: str = "") -> ToolBrowser:
        """A browser over the kernel's Workbench, one live per cell: re-running a cell
        closes the browser it made before, which would otherwise follow the Workbench unseen."""
        from workbench.widgets.browser import ToolBrowser

        browser = ToolBrowser(self.workbench, query=query, server=server)
        if self.cell_id is not None:
            previous = self.browsers.pop(self.cell_id, None)
            if previous is not None:
                previous.close()
            self.browsers[self.cell_id] = browser
        return browser

    def close(self) -> None:
        """Close the browsers and the Workbench, stopping every server process it started."""
        for browser in self.browsers.values():
            browser.close()
        self.browsers.clear()
        if self._workbench is not None:
            self._workbench.close()
            self._workbench = None


_STATES: weakref.WeakKeyDictionary[InteractiveShell, KernelState] = weakref.WeakKeyDictionary()


def state_of(shell: InteractiveShell) -> KernelState:
    """The state of this shell, made on first use (by the extension's ``load``)."""
    state = _STATES.get(shell)
    if state is None:
        state = _STATES[shell] = KernelState()
        idle_after_concurrent_comms(getattr(shell, "kernel", None))
    return state


# -- widget messages while a cell awaits ----------------------------------------------------

COMM_MESSAGES = frozenset({"comm_open", "comm_msg", "comm_close"})
_PATCHED = "_workbench_idle_after_comms"


def idle_after_concurrent_comms(kernel: Any) -> bool:
    """Make ipykernel end each widget message handled while a cell awaits with an ``idle``.

    ipykernel 7 handles ``comm_*`` messages concurrently with an awaiting cell (the panels of
    ``await wb.acall(...)`` need that) but publishes no busy/idle for them. The ipywidgets
    page sends one update per model, then holds every later change until an ``idle`` whose
    parent is that update: without one, a typed ``10`` reached the kernel as ``1``. So after
    such a message this publishes that ``idle``, then ``busy`` again for the request still
    running (the cell's parent), so the page does not show an idle kernel. Comms handled the
    usual way (no cell running) already get both and are left alone. True when installed (or
    already); False for a kernel without concurrent comm dispatch, left as it is.
    """
    dispatch = getattr(kernel, "dispatch_shell", None)
    if dispatch is None or getattr(dispatch, _PATCHED, False):
        return dispatch is not None
    try:
        concurrent = "concurrent" in inspect.signature(dispatch).parameters
    except (TypeError, ValueError):
        concurrent = False
    needed = ("_publish_status", "get_parent")
    if not concurrent or not all(callable(getattr(kernel, name, None)) for name in needed):
        return False
    kernel.dispatch_shell = _idle_after(kernel, dispatch)
    return True


def _idle_after(
    kernel: Any, dispatch: Callable[..., Coroutine[Any, Any, Any]]
) -> Callable[..., Coroutine[Any, Any, Any]]:
    async def dispatch_shell(
        msg: Any, /, subshell_id: str | None = None, *, concurrent: bool = False
    ) -> Any:
        if not concurrent:
            return await dispatch(msg, subshell_id=subshell_id)
        running = kernel.get_parent("shell")  # the cell the comm message came in beside
        try:
            return await dispatch(msg, subshell_id=subshell_id, concurrent=True)
        finally:
            handled = kernel.get_parent("shell")  # set by ipykernel once it read the message
            if handled is not running and _msg_type(handled) in COMM_MESSAGES:
                kernel._publish_status("idle", "shell", parent=handled)
                if _msg_type(running) and _still_running(kernel, subshell_id):
                    kernel._publish_status("busy", "shell", parent=running)

    setattr(dispatch_shell, _PATCHED, True)
    return dispatch_shell


def _msg_type(message: Any) -> str:
    header = message.get("header") if isinstance(message, dict) else None
    return str(header.get("msg_type") or "") if isinstance(header, dict) else ""


def _still_running(kernel: Any, subshell_id: str | None) -> bool:
    """Whether a request still holds the shell's lock: the cell may have ended between the
    comm message's arrival and its handling, and then no ``busy`` must follow."""
    if subshell_id is None:
        lock = getattr(kernel, "_main_asyncio_lock", None)
    else:
        manager = getattr(getattr(kernel, "shell_channel_thread", None), "manager", None)
        lookup = getattr(manager, "get_subshell_asyncio_lock", None)
        try:
            lock = lookup(subshell_id) if lookup is not None else None
        except Exception:
            lock = None
    locked = getattr(lock, "locked", None)
    return bool(locked()) if callable(locked) else False


def forget(shell: InteractiveShell) -> None:
    """Close and drop this shell's state (``%unload_ext``)."""
    state = _STATES.pop(shell, None)
    if state is not None:
        state.close()


def current_state() -> KernelState:
    """This kernel's state, loading the extension (the magics) first if needed."""
    from IPython import get_ipython

    shell = get_ipython()
    if shell is None:
        raise WorkbenchError(
            "workbench.current() needs an IPython kernel; in a script, create a Workbench()."
        )
    if shell not in _STATES:
        shell.extension_manager.load_extension(EXTENSION)
    return state_of(shell)


def current() -> Workbench:
    """The kernel's Workbench, the one the magics use (loading the extension if needed)."""
    return current_state().workbench


def browse(query: str = "", *, server: str = "", workbench: Workbench | None = None) -> ToolBrowser:
    """A tool browser over ``workbench``; by default the kernel's, the one ``%mcp`` uses, and
    then re-running the cell that made one closes the old one."""
    if workbench is not None:
        from workbench.widgets.browser import ToolBrowser

        return ToolBrowser(workbench, query=query, server=server)
    return current_state().browse(query, server=server)
