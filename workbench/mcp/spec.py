"""ServerSpec: everything needed to (re)open one named connection, as plain data.

``server_spec`` is the one place a server's settings are checked, whoever gives them
(``Workbench.connect``, ``%mcp connect``, an mcp.json entry), before anything starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from workbench.errors import ServerSpecError
from workbench.names import DEMO_SERVER, check_server_name

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


def server_spec(
    name: str,
    *,
    command: str | None = None,
    args: Sequence[str] | None = None,
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    token: str | None = None,
    server: Any = None,
    timeout: float | None = None,
    connect_timeout: float | None = None,
) -> ServerSpec:
    """A checked ServerSpec: a stdio ``command``, an HTTP ``url``, an in-process ``server``,
    or the demo server by its name. Raises a one-line ServerSpecError saying what is wrong."""
    check_server_name(name)
    given = [kind for kind, value in (("command", command), ("url", url), ("server", server))
             if value is not None]  # fmt: skip
    if len(given) > 1:
        raise ServerSpecError(f"Give one of command, url or server, not {' and '.join(given)}.")
    call_timeout = _seconds("timeout", timeout, DEFAULT_CALL_TIMEOUT)
    start_timeout = _seconds("connect_timeout", connect_timeout, DEFAULT_CONNECT_TIMEOUT)
    if command is not None:
        _not_for("a command", headers=headers, token=token)
        if not command.strip():
            raise ServerSpecError(f"The command of server {name!r} is empty.")
        return ServerSpec(name, "stdio", command=command, args=tuple(args or ()),
                          env=dict(env or {}), cwd=cwd, call_timeout=call_timeout,
                          connect_timeout=start_timeout)  # fmt: skip
    if url is not None:
        if not url.startswith(("http://", "https://")):
            raise ServerSpecError(
                f"{url!r} is not an http(s) URL; a stdio server is a command (and its args)."
            )
        _not_for("a URL", env=env, cwd=cwd, args=args)
        return ServerSpec(name, "http", url=url, headers=dict(headers or {}), token=token,
                          call_timeout=call_timeout, connect_timeout=start_timeout)  # fmt: skip
    _not_for("an in-process server" if server is not None else "the demo server",
             env=env, cwd=cwd, args=args, headers=headers, token=token)  # fmt: skip
    if server is None and name == DEMO_SERVER:
        from workbench.mcp.demo import build_demo_server

        server = build_demo_server()
    if server is None:
        raise ServerSpecError(
            f"Nothing to connect for {name!r}: give a command, a URL or an in-process server "
            f"(or use the name {DEMO_SERVER!r} for the embedded demo server)."
        )
    return ServerSpec(name, "in-process", server=server, call_timeout=call_timeout,
                      connect_timeout=start_timeout)  # fmt: skip


def _not_for(kind: str, **given: object) -> None:
    for option, value in given.items():
        if value:
            raise ServerSpecError(f"The {option} option does not apply to {kind}.")


def _seconds(option: str, value: object, default: float) -> float:
    """Seconds above 0 (callers may pass anything: a bool or NaN is refused, not used)."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise ServerSpecError(f"{option} must be a number of seconds above 0, not {value!r}.")
    return float(value)
