"""Notebook-built MCP Apps on a served surface: which ``ui://notebook/`` resources it serves,
and the ``io.modelcontextprotocol/ui`` extension it then advertises.

An App (``tools/app_definition.py``) is served when a tool the surface serves names it in
``_meta.ui.resourceUri`` (so ``expose=["clock"]`` brings the clock tool's App along), or when
``expose`` names the App itself; ``exclude`` naming it keeps it out. The extension is declared
(SEP-2133 ``capabilities.extensions``) only while a served tool has a UI: a surface says only
what it serves (``identity.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from workbench.serving.surface import Surface
from workbench.tools.app_definition import UI_EXTENSION, app_name_of, tool_app_uri
from workbench.tools.definition import ToolDefinition

Definitions = Callable[[], Mapping[str, ToolDefinition[Any, Any]]]


def app_shown(
    uri: str, keys: tuple[str, ...], surface: Surface, definitions: Definitions
) -> bool | None:
    """Whether the surface serves the App at ``uri``; None when ``uri`` is no App's."""
    if app_name_of(uri) is None:
        return None
    if any(key in surface.exclude for key in keys):
        return False
    if surface.expose is not None and any(key in surface.expose for key in keys):
        return True
    return any(
        tool_app_uri(definition.meta) == uri and surface.shows(definition)
        for definition in definitions().values()
    )


def apps_advertised(provider: object) -> dict[str, dict[str, Any]]:
    """The UI extension, while a tool the provider serves names an App (the notebook's
    tools, by the surface's name filters only: asked at each discover, never running a
    tool's ``enabled()``)."""
    definitions = getattr(provider, "_definitions", None)
    surface = getattr(provider, "_surface", None)
    if definitions is None or surface is None or not getattr(provider, "_notebook", False):
        return {}
    found = any(
        tool_app_uri(definition.meta) is not None and surface.passes_filters(name)
        for name, definition in definitions().items()
    )
    return {UI_EXTENSION: {}} if found else {}
