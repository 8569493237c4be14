"""``_meta.ui`` of MCP Apps (SEP-1865), read as data: a tool's App and a resource's wishes.

A tool names its App with ``_meta.ui.resourceUri`` (a ``ui://`` URI; the older flat key
``_meta["ui/resourceUri"]`` is read too) and who may call it with ``visibility``
(``workbench/registry/visibility.py``). The App's resource says, on its contents, the
``csp`` domains, the ``permissions``, ``prefersBorder`` and ``domain`` it wants. A server's
words are data: anything of the wrong type is ignored, and the reason is kept as one line
(``ToolUi.problem``) for the call's display, never raised into a call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.registry.visibility import visibility
from workbench.tools.app_definition import CSP_KEYS

UI_SCHEME = "ui://"
SHOWN = 80
"""Characters of a server's value quoted in a problem line."""


@dataclass(frozen=True)
class ToolUi:
    """What a tool's listing says of its App: its URI (None: no App) and its audiences."""

    resource_uri: str | None
    visibility: tuple[str, ...]
    problem: str | None = None
    """Why a declared App is not drawn (a URI that is not ``ui://``), one line."""


@dataclass(frozen=True)
class ResourceUi:
    """What an App's resource asks of its host, as given (junk left out)."""

    csp: dict[str, list[str]] | None = None
    permissions: dict[str, Any] | None = None
    prefers_border: bool | None = None
    domain: str | None = None


def tool_ui(meta: object) -> ToolUi:
    """Read a tool's ``_meta``: its App's URI (when a ``ui://`` string) and visibility."""
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    given: Any = ui.get("resourceUri") if isinstance(ui, Mapping) else None
    if given is None and isinstance(meta, Mapping):
        given = meta.get("ui/resourceUri")  # the flat key of the spec's drafts
    audiences = visibility(meta)
    if given is None:
        return ToolUi(None, audiences)
    if not isinstance(given, str) or not given.startswith(UI_SCHEME):
        problem = f"its _meta.ui.resourceUri {shown(given)} is not a ui:// URI"
        return ToolUi(None, audiences, problem)
    return ToolUi(given, audiences)


def resource_ui(meta: object) -> ResourceUi:
    """Read an App resource's ``_meta`` (of its contents, or its listing)."""
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    if not isinstance(ui, Mapping):
        return ResourceUi()
    csp = ui.get("csp")
    permissions = ui.get("permissions")
    border = ui.get("prefersBorder")
    domain = ui.get("domain")
    return ResourceUi(
        csp=_csp(csp) if isinstance(csp, Mapping) else None,
        permissions=dict(permissions) if isinstance(permissions, Mapping) else None,
        prefers_border=border if isinstance(border, bool) else None,
        domain=domain if isinstance(domain, str) else None,
    )


def is_app_mime_type(mime_type: object) -> bool:
    """Whether a resource's mime type is an App's: ``text/html`` with ``profile=mcp-app``
    (parameters in any order, spaces and case as a server writes them)."""
    if not isinstance(mime_type, str):
        return False
    kind, *params = (part.strip().lower() for part in mime_type.split(";"))
    profiles = {value.strip('"') for key, _, value in (p.partition("=") for p in params)
                if key.strip() == "profile"}  # fmt: skip
    return kind == "text/html" and profiles == {"mcp-app"}


def shown(value: object) -> str:
    """A server's value quoted on one line, cut to ``SHOWN`` characters."""
    text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _csp(given: Mapping[str, Any]) -> dict[str, list[str]]:
    """The CSP's known lists of strings, as given; other keys and junk items left out."""
    return {
        key: [item for item in value if isinstance(item, str)]
        for key in CSP_KEYS
        if isinstance(value := given.get(key), list)
    }
