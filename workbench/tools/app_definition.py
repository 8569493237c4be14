"""An MCP App built in the notebook: a name, its HTML, and its ``ui://notebook/<name>`` URI.

An App is a resource of the ``notebook`` server (a ``ResourceDefinition``), served with the
MCP Apps mime type ``text/html;profile=mcp-app`` and, when given, ``_meta.ui`` (``csp``,
``permissions``, ``prefersBorder``), so it takes the path every notebook resource takes:
listed and read on the in-kernel server, offered by ``serve()``, written by ``export``. A tool
names it with ``@tool(ui="NAME")`` / ``%%tool --ui NAME`` (``ui_meta``): its listing gets
``_meta.ui.resourceUri``. Names follow the tool-name rules, so the URI needs no escaping.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from workbench.errors import ToolDefinitionError
from workbench.tools.definition import valid_tool_name
from workbench.tools.resource_definition import ResourceDefinition

APP_MIME_TYPE = "text/html;profile=mcp-app"
"""The mime type MCP Apps hosts render (SEP-1865)."""
APP_URI_PREFIX = "ui://notebook/"
UI_EXTENSION = "io.modelcontextprotocol/ui"
"""The MCP Apps extension's identifier, under ``capabilities.extensions``."""
CSP_KEYS = ("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")
PERMISSIONS = ("camera", "microphone", "geolocation", "clipboardWrite")
Visibility = Literal["model", "app"]


def check_app_name(name: object) -> str:
    """``name`` if it can name an App (the tool-name rules), else a ToolDefinitionError."""
    if not valid_tool_name(name):
        raise ToolDefinitionError(
            f"App name {name!r} is not valid: use 1-128 letters, digits, '_', '-' or '.'."
        )
    return name


def app_uri(name: str) -> str:
    """``ui://notebook/<name>``: where the notebook serves the App ``name``."""
    return APP_URI_PREFIX + check_app_name(name)


def app_name_of(uri: str) -> str | None:
    """The App name of a ``ui://notebook/<name>`` URI, else None."""
    if not uri.startswith(APP_URI_PREFIX):
        return None
    name = uri[len(APP_URI_PREFIX) :]
    return name if valid_tool_name(name) else None


def app_missing(uri: str) -> str:
    """The line a read of an App not defined yet answers with."""
    name = app_name_of(uri) or uri
    return (
        f"The App {name} is not defined: run its %%app {name} cell (or serve App({name!r}, "
        "html=...)) to serve " + uri + "."
    )


class App(ResourceDefinition):
    """An App: its HTML from a string (``html=``) or a file (``path=``, read now).

    ``csp`` is the resource's ``_meta.ui.csp`` (``{"connectDomains": [...], ...}``: no
    network unless declared), ``permissions`` its ``_meta.ui.permissions`` (``{"camera":
    {}}``...), ``prefers_border`` its ``_meta.ui.prefersBorder``. Serve it with ``%%app``,
    ``wb.add_resources(app)`` or a ``%%tool`` cell; name it from a tool with ``ui=``.
    """

    def __init__(
        self,
        name: str,
        html: str | None = None,
        *,
        path: str | os.PathLike[str] | None = None,
        csp: Mapping[str, Sequence[str]] | None = None,
        permissions: Mapping[str, Mapping[str, Any]] | None = None,
        prefers_border: bool | None = None,
        title: str | None = None,
        description: str | None = None,
    ) -> None:
        uri = app_uri(name)
        if (html is None) == (path is None):
            raise ToolDefinitionError(f"App {name!r}: give its HTML as html=... or path=..., one.")
        if path is not None:
            try:
                html = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                raise ToolDefinitionError(
                    f"App {name!r}: cannot read {os.fspath(path)!r}: {error}"
                ) from None
        if not isinstance(html, str):
            raise ToolDefinitionError(
                f"App {name!r}: html must be text, not {type(html).__name__}."
            )
        text: str = html
        super().__init__(
            lambda: text,
            uri,
            name=name,
            title=title,
            description=description or f"The MCP App {name}, built in a notebook.",
            mime_type=APP_MIME_TYPE,
            text=text,
        )
        self.html = text
        self.csp = _csp(name, csp)
        self.permissions = _permissions(name, permissions)
        self.prefers_border = prefers_border

    @property
    def app_name(self) -> str:
        return self.name

    @property
    def html_sha256(self) -> str:
        """The HTML's SHA-256, hex (what a reload push names)."""
        return hashlib.sha256(self.html.encode("utf-8")).hexdigest()

    @property
    def ui(self) -> dict[str, Any]:
        """The resource's ``_meta.ui`` (empty when nothing was declared)."""
        ui: dict[str, Any] = {}
        if self.csp is not None:
            ui["csp"] = self.csp
        if self.permissions is not None:
            ui["permissions"] = self.permissions
        if self.prefers_border is not None:
            ui["prefersBorder"] = self.prefers_border
        return ui

    @property
    def meta(self) -> dict[str, Any] | None:
        """The resource's ``_meta``, listed and on each read's contents."""
        ui = self.ui
        return {"ui": ui} if ui else None

    def __repr__(self) -> str:
        return f"<App {self.name!r} at {self.uri} ({len(self.html)} characters)>"


def ui_meta(
    ui: str | App, visibility: Sequence[Visibility] | None = None, what: str = "@tool"
) -> dict[str, Any]:
    """A tool's ``_meta.ui``: the App's URI (an App or its name) and who may call it."""
    name = ui.name if isinstance(ui, App) else ui
    if not valid_tool_name(name):
        raise ToolDefinitionError(
            f"{what}: ui={name!r} is no App name (1-128 letters, digits, '_', '-' or '.')."
        )
    made: dict[str, Any] = {"resourceUri": app_uri(name)}
    if visibility is not None:
        given = list(visibility)
        if not given or any(v not in ("model", "app") for v in given):
            raise ToolDefinitionError(
                f"{what}: visibility={given!r}: give a non-empty list of 'model' and 'app'."
            )
        made["visibility"] = given
    return made


def with_ui(
    meta: dict[str, Any] | None,
    ui: str | App | None,
    visibility: Sequence[Visibility] | None,
    what: str = "@tool",
) -> dict[str, Any] | None:
    """``meta`` with ``_meta.ui`` added for ``ui=`` (unchanged without it)."""
    if ui is None:
        if visibility is not None:
            raise ToolDefinitionError(f"{what}: visibility= goes with ui=, the App it shows.")
        return meta
    if meta and "ui" in meta:
        raise ToolDefinitionError(f"{what}: give the App as ui=..., not as meta['ui'] too.")
    return {**(meta or {}), "ui": ui_meta(ui, visibility, what)}


def tool_app_uri(meta: Mapping[str, Any] | None) -> str | None:
    """The ``_meta.ui.resourceUri`` a tool's meta names, else None."""
    ui = (meta or {}).get("ui")
    uri = ui.get("resourceUri") if isinstance(ui, Mapping) else None
    return uri if isinstance(uri, str) else None


def _csp(name: str, csp: Mapping[str, Sequence[str]] | None) -> dict[str, list[str]] | None:
    if csp is None:
        return None
    unknown = sorted(set(csp) - set(CSP_KEYS))
    if unknown:
        raise ToolDefinitionError(
            f"App {name!r}: csp keys are {', '.join(CSP_KEYS)}; not {', '.join(unknown)}."
        )
    made: dict[str, list[str]] = {}
    for key, domains in csp.items():
        if isinstance(domains, str) or not all(isinstance(d, str) for d in domains):
            raise ToolDefinitionError(f"App {name!r}: csp[{key!r}] is a list of origins.")
        made[key] = list(domains)
    return made


def _permissions(
    name: str, permissions: Mapping[str, Mapping[str, Any]] | None
) -> dict[str, dict[str, Any]] | None:
    if permissions is None:
        return None
    unknown = sorted(set(permissions) - set(PERMISSIONS))
    if unknown:
        raise ToolDefinitionError(
            f"App {name!r}: permissions are {', '.join(PERMISSIONS)}; not {', '.join(unknown)}."
        )
    return {key: dict(value) for key, value in permissions.items()}
