"""workbench: a Jupyter-native workbench for Model Context Protocol tools.

Kept small and lazy: ``import workbench`` (and ``%load_ext workbench``) loads nothing heavy;
each public name is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from workbench.__about__ import __version__

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.errors import ProtocolError
    from workbench.registry import Registry, SearchHit, SearchResults, ToolEntry
    from workbench.serving.questions import MissingCapability, NoOneToAsk
    from workbench.serving.task_start import asks_before_task
    from workbench.serving.tool_context import ToolContext, get_context
    from workbench.session import Workbench
    from workbench.tools import (
        Action,
        FunctionTool,
        Observation,
        ToolAnnotations,
        ToolDefinition,
        tool,
    )
    from workbench.tools.app_definition import App
    from workbench.tools.prompt_definition import prompt
    from workbench.tools.resource_definition import resource
    from workbench.widgets.browser import ToolBrowser


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Where the prebuilt JupyterLab extension lives (``jupyter labextension develop`` asks)."""
    return [{"src": "labextension", "dest": "mcp-workbench"}]


_LAZY = {
    "Action": "workbench.tools",
    "FunctionTool": "workbench.tools",
    "Observation": "workbench.tools",
    "ToolAnnotations": "workbench.tools",
    "ToolDefinition": "workbench.tools",
    "tool": "workbench.tools",
    "resource": "workbench.tools.resource_definition",
    "prompt": "workbench.tools.prompt_definition",
    "App": "workbench.tools.app_definition",
    "Registry": "workbench.registry",
    "SearchHit": "workbench.registry",
    "SearchResults": "workbench.registry",
    "ToolEntry": "workbench.registry",
    "Workbench": "workbench.session",
    "ToolContext": "workbench.serving.tool_context",
    "get_context": "workbench.serving.tool_context",
    "NoOneToAsk": "workbench.serving.questions",
    "MissingCapability": "workbench.serving.questions",
    "ProtocolError": "workbench.errors",
    "asks_before_task": "workbench.serving.task_start",
}

__all__ = [
    "Action",
    "App",
    "FunctionTool",
    "MissingCapability",
    "NoOneToAsk",
    "Observation",
    "ProtocolError",
    "Registry",
    "SearchHit",
    "SearchResults",
    "ToolAnnotations",
    "ToolContext",
    "ToolDefinition",
    "ToolEntry",
    "Workbench",
    "__version__",
    "asks_before_task",
    "browse",
    "current",
    "get_context",
    "load_ipython_extension",
    "prompt",
    "resource",
    "tool",
    "unload_ipython_extension",
]


def load_ipython_extension(ipython: InteractiveShell) -> None:
    """``%load_ext workbench``: the ``%mcp`` and ``%%tool`` magics (idempotent, cheap)."""
    from workbench.extension import load

    load(ipython)


def unload_ipython_extension(ipython: InteractiveShell) -> None:
    """``%unload_ext workbench``: close the kernel's connections and remove the magics."""
    from workbench.extension import unload

    unload(ipython)


def current() -> Workbench:
    """The kernel's Workbench: the one ``%mcp`` and ``%%tool`` use."""
    from workbench.kernel import current as current_workbench

    return current_workbench()


def browse(query: str = "", *, server: str = "", workbench: Workbench | None = None) -> ToolBrowser:
    """A widget to search, open and call tools and see past calls (live: it follows new
    connections and ``%%tool`` cells); by default over the kernel's Workbench."""
    from workbench.kernel import browse as open_browser

    return open_browser(query, server=server, workbench=workbench)


_VIEWED = {name for name, module in _LAZY.items() if module == "workbench.tools"}
"""Names that make Actions and Observations (``tool``, ``Observation``...): reaching one
installs the views (``workbench.display``), so a result shows as it does from ``%mcp``."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    if name in _VIEWED:
        importlib.import_module("workbench.display").install_views()
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
