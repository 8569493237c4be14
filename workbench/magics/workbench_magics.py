"""The IPython Magics class: ``%mcp`` and ``%%tool`` bound to the kernel's state.

Thin on purpose: ``%mcp`` hands its line to the router, ``%%tool`` to its module; every
capability they reach is a Workbench method.
"""

from __future__ import annotations

from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.core.magic import Magics, cell_magic, line_magic, magics_class, no_var_expand

from workbench.kernel import KernelState
from workbench.magics import router, tool_cell
from workbench.magics.completion import make_matcher
from workbench.tools.failures import CellNamer, install_cell_namer


@magics_class
class WorkbenchMagics(Magics):
    """``%mcp SUBCOMMAND ...`` and ``%%tool``, sharing the kernel's Workbench."""

    def __init__(self, shell: InteractiveShell, state: KernelState) -> None:
        super().__init__(shell)
        self.state = state
        self.matcher = make_matcher(self.state)
        install_cell_namer(cell_namer(shell))  # a tool's error names its cell's number

    # JSON arguments are full of braces, which IPython would try to evaluate as {expressions}.
    @no_var_expand
    @line_magic
    def mcp(self, line: str) -> Any:
        return router.dispatch(self.state, line)

    @cell_magic
    def tool(self, line: str, cell: str) -> None:
        assert self.shell is not None
        tool_cell.tool_cell(self.state, self.shell, line, cell)


def cell_namer(shell: InteractiveShell) -> CellNamer:
    """``cell [12]`` for the code of a cell this shell ran (its compiler keeps the numbers)."""
    compiler = shell.compile

    def name(filename: str) -> str | None:
        named = compiler.format_code_name(filename)  # ("Cell", "In[12]") for a cell
        return f"cell {named[1].removeprefix('In')}" if named else None

    return name


WorkbenchMagics.mcp.__doc__ = router.overview()
WorkbenchMagics.tool.__doc__ = tool_cell.tool_cell.__doc__
