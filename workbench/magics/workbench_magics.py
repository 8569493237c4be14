"""The IPython Magics class: ``%mcp``, ``%%tool``, ``%%resource`` and ``%%prompt`` bound to
the kernel's state.

Thin on purpose: ``%mcp`` hands its line to the router, ``%%tool`` to its module; every
capability they reach is a Workbench method.
"""

from __future__ import annotations

from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import (
    Magics,
    cell_magic,
    line_cell_magic,
    line_magic,
    magics_class,
    no_var_expand,
)

from workbench.kernel import KernelState
from workbench.magics import app_cell, offer_cells, router, tool_cell
from workbench.magics.completion import make_matcher


@magics_class
class WorkbenchMagics(Magics):
    """``%mcp SUBCOMMAND ...`` and ``%%tool``, sharing the kernel's Workbench."""

    def __init__(self, shell: InteractiveShell, state: KernelState) -> None:
        super().__init__(shell)
        self.state = state
        self.matcher = make_matcher(self.state)

    # JSON arguments are full of braces, which IPython would try to evaluate as {expressions}.
    @no_var_expand
    @line_magic
    def mcp(self, line: str) -> Any:
        return router.dispatch(self.state, line)

    @cell_magic
    def tool(self, line: str, cell: str) -> None:
        assert self.shell is not None
        tool_cell.tool_cell(self.state, self.shell, line, cell)

    @no_var_expand
    @cell_magic
    def resource(self, line: str, cell: str) -> None:
        assert self.shell is not None
        offer_cells.resource_cell(self.state, self.shell, line, cell)

    @no_var_expand
    @cell_magic
    def prompt(self, line: str, cell: str) -> None:
        assert self.shell is not None
        offer_cells.prompt_cell(self.state, self.shell, line, cell)

    @no_var_expand
    @line_cell_magic
    def app(self, line: str, cell: str | None = None) -> None:
        assert self.shell is not None
        app_cell.app_cell(self.state, self.shell, line, cell)


WorkbenchMagics.mcp.__doc__ = router.overview()
WorkbenchMagics.tool.__doc__ = tool_cell.tool_cell.__doc__
WorkbenchMagics.resource.__doc__ = offer_cells.resource_cell.__doc__
WorkbenchMagics.prompt.__doc__ = offer_cells.prompt_cell.__doc__
WorkbenchMagics.app.__doc__ = app_cell.app_cell.__doc__
