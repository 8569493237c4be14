"""Notebook-built MCP Apps in the exported script, served as ``%mcp serve`` serves them.

An App is a notebook resource (``tools/app_definition.py``): ``offers.py`` writes its HTML as
a text resource with its ``_meta.ui`` (``app_meta``), listed and on each read's contents;
its tools keep ``_meta.ui.resourceUri`` in their listings. ``APPS_RUNTIME`` declares the
``io.modelcontextprotocol/ui`` extension when the script serves an App (2026-07-28
``capabilities.extensions``), on top of the script's honest capabilities (``runtime.py``).
"""

from __future__ import annotations

from typing import Any

from workbench.tools.app_definition import APP_MIME_TYPE, UI_EXTENSION
from workbench.tools.resource_definition import ResourceDefinition


def app_meta(definition: ResourceDefinition) -> dict[str, Any] | None:
    """The resource's ``_meta`` as written into the script (an App's ``ui``), or None."""
    meta = getattr(definition, "meta", None)
    return dict(meta) if isinstance(meta, dict) and meta else None


def serves_apps(resources: list[dict[str, Any]]) -> bool:
    """Whether the script's resources hold an App."""
    return any(entry.get("mime_type") == APP_MIME_TYPE for entry in resources)


APPS_RUNTIME = f'''
def _wb_declare_apps(server):
    """Declare the MCP Apps extension: this script serves Apps (2026-07-28 capabilities)."""
    low_level = server._mcp_server
    told = low_level.get_capabilities

    def capabilities(*args, **kwargs):
        made = told(*args, **kwargs)
        extensions = {{**(made.extensions or {{}}), {UI_EXTENSION!r}: {{}}}}
        return made.model_copy(update={{"extensions": extensions}})

    low_level.get_capabilities = capabilities
'''
"""Defines ``_wb_declare_apps(server)``, called once the script's offers are registered."""
