"""``%mcp load-workspace DIR``: a workspace's tool files and AsyncAPI events as tools."""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

from workbench.errors import SchemaFallbackWarning
from workbench.magics.arguments import argument, magic_arguments, parse_line
from workbench.magics.views import show

if TYPE_CHECKING:
    from workbench.kernel import KernelState


@magic_arguments(name="mcp load-workspace")
@argument("directory", metavar="DIR", help="The workspace: its tools/ and events/ folders.")
def load_workspace(state: KernelState, line: str) -> None:
    """Serve DIR/tools/*.py @tool functions and DIR/events/*.yaml AsyncAPI 3 operations
    marked x-agent-tool (enabled: true) as notebook tools; loading again replaces them.
    Shows what loaded, and what was skipped or failed and why. Loading a workspace runs
    its tools/*.py files as Python, top-level code included: load only workspaces you
    trust."""
    args = parse_line(load_workspace, line)
    with warnings.catch_warnings():
        # The table's note column says it for each event tool concerned.
        warnings.simplefilter("ignore", SchemaFallbackWarning)
        report = state.workbench.load_workspace(args.directory)
    from workbench.display.workspace import WorkspaceTable

    show(WorkspaceTable(str(report.root), report.rows))
    if report.removed:
        print(f"Removed: {', '.join(report.removed)}.")
