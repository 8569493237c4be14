"""Workspaces (OpenAgents' layout): ``tools/*.py`` and ``events/*.yaml`` as notebook tools.

``Workbench.load_workspace(dir)`` and ``%mcp load-workspace DIR`` come here: ``loader.py``
reads the directory and judges conflicts, ``tool_files.py`` runs the Python files,
``asyncapi.py`` (with ``refs.py``) reads AsyncAPI 3 documents, and ``event_tools.py`` makes
their operations tools that emit to the kernel's event log (``workbench/events.py``).
"""

from workbench.workspace.loader import (
    ToolHost,
    Workspace,
    WorkspaceReport,
    WorkspaceRow,
    workspace_root,
)

__all__ = ["ToolHost", "Workspace", "WorkspaceReport", "WorkspaceRow", "workspace_root"]
