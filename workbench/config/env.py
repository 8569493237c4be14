"""``${env:VAR}`` and ``${VAR}`` in server settings: one expansion for mcp.json entries,
``%mcp connect`` and ``%mcp serve``. Values put in are secrets to mask, never to print."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from workbench.errors import ConfigError

_VARIABLE = re.compile(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}")


def expand(
    value: str, environ: Mapping[str, str] | None = None, found: list[str] | None = None
) -> str:
    """Replace ``${env:VAR}`` and ``${VAR}``; an unset variable is an error naming it.
    The values put in are appended to ``found`` (they are shown masked, never printed)."""
    source = os.environ if environ is None else environ

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in source:
            raise ConfigError(f"environment variable {name} is not set")
        if found is not None:
            found.append(source[name])
        return source[name]

    return _VARIABLE.sub(substitute, value)
