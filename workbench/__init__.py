"""workbench: a Jupyter-native workbench for Model Context Protocol tools.

Kept small and lazy: ``import workbench`` (and ``%load_ext workbench``) loads nothing heavy;
each public name is imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from workbench.__about__ import __version__

if TYPE_CHECKING:
    from workbench.registry import Registry, SearchHit, SearchResults, ToolEntry
    from workbench.session import Workbench
    from workbench.tools import (
        Action,
        FunctionTool,
        Observation,
        ToolAnnotations,
        ToolDefinition,
        tool,
    )

_LAZY = {
    "Action": "workbench.tools",
    "FunctionTool": "workbench.tools",
    "Observation": "workbench.tools",
    "ToolAnnotations": "workbench.tools",
    "ToolDefinition": "workbench.tools",
    "tool": "workbench.tools",
    "Registry": "workbench.registry",
    "SearchHit": "workbench.registry",
    "SearchResults": "workbench.registry",
    "ToolEntry": "workbench.registry",
    "Workbench": "workbench.session",
}

__all__ = [
    "Action",
    "FunctionTool",
    "Observation",
    "Registry",
    "SearchHit",
    "SearchResults",
    "ToolAnnotations",
    "ToolDefinition",
    "ToolEntry",
    "Workbench",
    "__version__",
    "tool",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
