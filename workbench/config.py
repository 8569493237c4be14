"""mcp.json readers: the config files people already have, one ServerSpec per server.

Formats: Claude Desktop / Cursor (``{"mcpServers": {...}}``) and VS Code
(``{"servers": {...}}`` with ``type``). Strings may use ``${env:VAR}`` or ``${VAR}``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from workbench.errors import ConfigError, WorkbenchError
from workbench.mcp.spec import ServerSpec, server_spec

_VARIABLE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")


def expand(value: str, environ: Mapping[str, str] | None = None) -> str:
    """Replace ``${env:VAR}`` and ``${VAR}``; an unset variable is an error naming it."""
    source = os.environ if environ is None else environ

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in source:
            raise ConfigError(f"environment variable {name} is not set")
        return source[name]

    return _VARIABLE.sub(substitute, value)


def read_config(path: str | Path) -> dict[str, dict[str, Any]]:
    """The raw server entries of a config file, by name (disabled ones left out)."""
    file = Path(path).expanduser()
    try:
        data = json.loads(file.read_text())
    except FileNotFoundError:
        raise ConfigError(f"Config file {str(file)!r} does not exist.") from None
    except json.JSONDecodeError as error:
        raise ConfigError(f"Config file {str(file)!r} is not valid JSON: {error}.") from None
    servers = data.get("mcpServers", data.get("servers")) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ConfigError(
            f"Config file {str(file)!r} has neither an 'mcpServers' (Claude Desktop, Cursor) "
            "nor a 'servers' (VS Code) object."
        )
    return {
        name: entry
        for name, entry in servers.items()
        if isinstance(entry, dict) and not entry.get("disabled")
    }


def spec_from_entry(
    name: str,
    entry: Mapping[str, Any],
    *,
    base_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> ServerSpec:
    """One config entry as a ServerSpec; raises ConfigError naming the server and why."""
    try:
        return _spec(name, entry, base_dir, environ)
    except WorkbenchError as error:  # ConfigError, or the settings' own check
        reason = str(error).rstrip(".")
        raise ConfigError(f"Server {name!r} in the config: {reason}.") from None


def _spec(
    name: str,
    entry: Mapping[str, Any],
    base_dir: Path | None,
    environ: Mapping[str, str] | None,
) -> ServerSpec:
    def text(value: Any) -> str:
        return expand(str(value), environ)

    kind = str(entry.get("type", "")).lower()
    timeout = _number(entry, "timeout")
    if "url" in entry or kind in {"http", "streamable-http", "streamablehttp"}:
        if "url" not in entry:
            raise ConfigError("type is http but there is no 'url'")
        if kind == "sse":
            raise ConfigError("the SSE transport is deprecated; use streamable HTTP")
        return server_spec(
            name,
            url=text(entry["url"]),
            headers={k: text(v) for k, v in dict(entry.get("headers") or {}).items()},
            timeout=timeout,
        )
    if "command" not in entry:
        raise ConfigError("it has neither a 'command' nor a 'url'")
    cwd = entry.get("cwd")
    if cwd is not None and base_dir is not None:
        cwd = str((base_dir / text(cwd)).resolve())
    return server_spec(
        name,
        command=text(entry["command"]),
        args=[text(arg) for arg in entry.get("args") or ()],
        env={k: text(v) for k, v in dict(entry.get("env") or {}).items()},
        cwd=cwd,
        timeout=timeout,
        connect_timeout=_number(entry, "connectTimeout"),
    )


def _number(entry: Mapping[str, Any], key: str) -> float | None:
    """A number of seconds from the entry (checked by ``server_spec``), or None if absent."""
    value = entry.get(key)
    if value is None:
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{key} must be a number of seconds, not {value!r}") from None
