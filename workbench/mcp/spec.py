"""ServerSpec: everything needed to (re)open one named connection, as plain data."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

DEFAULT_CALL_TIMEOUT = 60.0
DEFAULT_CONNECT_TIMEOUT = 30.0

Transport = Literal["stdio", "http", "in-process"]

# Variables a kernel sets for itself that a server child should not inherit.
_KERNEL_ONLY_PREFIXES = ("JPY_", "JUPYTER_", "IPY_", "PYDEVD_", "MPLBACKEND", "CLICOLOR")


@dataclass(frozen=True)
class ServerSpec:
    """How to reach one server; kept so a connection can reconnect without retyping."""

    name: str
    transport: Transport
    command: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    token: str | None = None
    server: Any = None
    call_timeout: float = DEFAULT_CALL_TIMEOUT
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT

    def describe(self) -> str:
        """A short human description for tables: the command, the URL, or the server."""
        if self.transport == "stdio":
            return " ".join([self.command or "", *self.args]).strip()
        if self.transport == "http":
            return self.url or ""
        return f"in-process {getattr(self.server, 'name', type(self.server).__name__)}"

    def child_environment(self) -> dict[str, str]:
        """The stdio child's environment: the kernel's, minus kernel-only variables, plus
        the spec's ``env``. (FastMCP's default keeps only HOME, PATH, SHELL, TERM and USER,
        which breaks servers that need LANG, proxies, or a virtualenv.)"""
        inherited = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(_KERNEL_ONLY_PREFIXES)
        }
        return {**inherited, **self.env}
