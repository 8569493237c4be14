"""The kernel's Workbench and its live views: one per IPython shell.

The magics, ``workbench.current()`` and ``workbench.browse()`` all reach the same Workbench
through here, so a tool made in a ``%%tool`` cell is the one a browser shows and Python
calls. Kept on one object per shell (never on a class), so a test or a second shell gets
its own; the widget room never needs to know about the extension.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

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
    return state


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
