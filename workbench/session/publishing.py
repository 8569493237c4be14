"""The Workbench's methods that take the notebook's work outward: serve it to outside MCP
clients, export it as a script, load a workspace folder of tools, and the agents' proxy.

A mixin of ``Workbench`` (``session/workbench.py`` keeps connections, notebook tools and the
call path); what these methods need of it is declared below for the type checker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.errors import NotServedError
from workbench.registry.proxy import ToolProxy

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from workbench.bridge import Bridge
    from workbench.events import EventLog
    from workbench.export import ExportResult
    from workbench.mcp.manager import ConnectionManager, ServerInfo
    from workbench.registry import Registry
    from workbench.serving import ServeHandle, ServeOptions
    from workbench.serving.app import CallFn
    from workbench.serving.notebook_server import LocalServer
    from workbench.serving.offer_table import OfferTable
    from workbench.tools.definition import ToolDefinition
    from workbench.tools.schema import Observation
    from workbench.workspace import Workspace, WorkspaceReport


class Publishing:
    """Serve, export, workspaces and the proxy."""

    if TYPE_CHECKING:
        registry: Registry
        events: EventLog
        _bridge: Bridge
        _manager: ConnectionManager
        _local: LocalServer | None
        _served: ServeHandle | None
        _workspaces: dict[Path, Workspace]
        _served_call: CallFn

        def _check_open(self) -> None: ...
        def tool_owner(self, name: str) -> str | None: ...
        def set_owned_tools(self, owner: str, tools: Iterable[ToolDefinition[Any, Any]]) -> Any: ...
        def _notebook_definitions(self) -> dict[str, ToolDefinition[Any, Any]]: ...
        def _offer_table(self) -> OfferTable | None: ...
        def servers(self, *, ping: bool = False) -> list[ServerInfo]: ...
        def notebook_resources(self) -> list[Any]: ...
        def notebook_prompts(self) -> list[Any]: ...

        call: Callable[..., Observation]

    def export(
        self, path: str | Path, *, tools: Iterable[str] | None = None, overwrite: bool = False
    ) -> ExportResult:
        """Write the notebook tools, resources and prompts (or those named) as a standalone
        FastMCP server script; those whose code cannot be written out are listed in the
        result's ``skipped``."""
        from workbench.export import export_tools

        found = [] if self._local is None else self._local.definitions()
        return export_tools(found, path, tools=tools, overwrite=overwrite,
                            resources=self.notebook_resources(),
                            prompts=self.notebook_prompts())  # fmt: skip

    def load_workspace(self, directory: str | Path) -> WorkspaceReport:
        """Serve a workspace's ``tools/*.py`` ``@tool`` functions and ``events/*.yaml``
        AsyncAPI event tools as notebook tools, one owner per file; loading again replaces
        them. The report lists what loaded, and what was skipped or failed and why.
        Loading a workspace runs its tools/*.py files as Python, top-level code included:
        load only workspaces you trust."""
        from workbench.workspace import Workspace, workspace_root

        root = workspace_root(directory)
        workspace = self._workspaces.setdefault(root, Workspace(root, self.events))
        return workspace.load(self)

    def serve(self, **options: Unpack[ServeOptions]) -> ServeHandle:
        """Serve the notebook tools (or connection ``server``'s) to outside MCP clients over
        streamable HTTP (see ``workbench/serving/``); again stops the previous one once the
        options are checked, keeping its port and token unless told (``port``,
        ``new_token=True``). The handle is kept as ``served``."""
        from workbench.serving import serve

        self._check_open()
        self._served = serve(self._bridge, definitions=self._notebook_definitions,
                             call=self._served_call, registry=self.registry,
                             check=self._manager.check, replacing=self._served,
                             proxy=lambda: self.proxy, offers=self._offer_table,
                             **options)  # fmt: skip
        return self._served

    @property
    def served(self) -> ServeHandle:
        """The handle of what is served now (``serve``); NotServedError when nothing is."""
        if self.serving is None:
            raise NotServedError("Nothing is served: run %mcp serve (or wb.serve()) first.")
        return self.serving

    @property
    def serving(self) -> ServeHandle | None:
        """The handle of what is served now, or None (nothing served, or stopped)."""
        served = self._served
        return served if served is not None and served.running else None

    @property
    def proxy(self) -> ToolProxy:
        """``find_tools`` / ``call_tool`` over every connected tool, for agents."""
        instructions = {info.name: info.instructions for info in self.servers()}
        return ToolProxy(self.registry, self.call, instructions=instructions)
