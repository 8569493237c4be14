"""What the magics keep between cells, on one object per loaded extension (never on a class,
so a test or a second shell gets its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from workbench.session import Workbench
    from workbench.widgets.browser import ToolBrowser


class MagicState:
    """The kernel's Workbench (made on first use), the running cell's id, which ``%%tool``
    cell owns each notebook tool, and the tool browser each cell made last."""

    def __init__(self) -> None:
        self._workbench: Workbench | None = None
        self.cell_id: str | None = None
        self.tool_owners: dict[str, str] = {}
        self.browsers: dict[str, ToolBrowser] = {}

    @property
    def workbench(self) -> Workbench:
        """The kernel's Workbench, made now if it does not exist (or was closed): loading the
        extension stays cheap, and ``wb.close()`` by hand does not break later magics."""
        if self._workbench is None or self._workbench.closed:
            from workbench.session import Workbench

            self._workbench = Workbench()
            self.tool_owners.clear()
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

    def adopt_browser(self, browser: ToolBrowser) -> ToolBrowser:
        """Keep one live browser per cell: re-running a cell closes the browser it made
        before, which would otherwise go on following the Workbench unseen."""
        if self.cell_id is not None:
            previous = self.browsers.pop(self.cell_id, None)
            if previous is not None:
                previous.close()
            self.browsers[self.cell_id] = browser
        return browser

    def close(self) -> None:
        """Close the Workbench, stopping every server process it started, and its browsers."""
        for browser in self.browsers.values():
            browser.close()
        self.browsers.clear()
        if self._workbench is not None:
            self._workbench.close()
            self._workbench = None
        self.tool_owners.clear()
