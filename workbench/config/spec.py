"""ServerSpec: everything needed to (re)open one named connection, as plain data.

``server_spec`` is the one place a server's settings are checked, whoever gives them
(``Workbench.connect``, ``%mcp connect``, an mcp.json entry), before anything starts.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

from workbench.config.oauth import OAuthSettings
from workbench.errors import ConfigError, ServerSpecError
from workbench.names import DEMO_SERVER, check_new_server_name
from workbench.secrets import (
    hidden_values,
    mask_args,
    mask_text,
    mask_url,
    redact,
    template_values,
)

DEFAULT_CALL_TIMEOUT = 60.0
DEFAULT_CONNECT_TIMEOUT = 30.0

Transport = Literal["stdio", "http", "in-process"]

# What a stdio child gets of the kernel's environment unless told otherwise: the MCP SDK's
# default (HOME, LOGNAME, PATH, SHELL, TERM, USER; its Windows list there), locale and time
# zone. Never the kernel's tokens (JUPYTERHUB_API_TOKEN, OPENAI_API_KEY, ...).
_PASSED = frozenset({"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LANGUAGE", "TZ"})
_PASSED_WINDOWS = frozenset({
    "APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT",
    "PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE",
})  # fmt: skip
_PASSED_PREFIXES = ("LC_",)


@dataclass(frozen=True, repr=False)
class ServerSpec:
    """How to reach one server; kept so a connection can reconnect without retyping.

    ``shown`` is the target as the user wrote it (``${env:KEY}`` templates unexpanded),
    and ``secrets`` the values expanded from them: both only for display, which never
    prints a secret (``describe``, ``redact``, the repr).
    """

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
    inherit_env: bool = False
    shown: str | None = None
    secrets: tuple[str, ...] = ()
    oauth: OAuthSettings | None = None

    def describe(self) -> str:
        """A short human description for tables: the command, the URL, or the server,
        with every secret masked (templates shown as written)."""
        if self.shown is not None:
            text = mask_text(self.shown, command_line=self.transport == "stdio")
        elif self.transport == "stdio":
            text = " ".join(mask_args([self.command or "", *self.args])).strip()
        elif self.transport == "http":
            text = mask_url(self.url or "")
        elif self.server is None:
            return f"in-process {self.name}"  # the embedded demo, built when it connects
        else:
            return f"in-process {getattr(self.server, 'name', type(self.server).__name__)}"
        return self.redact(text)

    def redact(self, text: str) -> str:
        """``text`` (an error, a stderr tail) without any secret this spec knows of: the
        token, header and ``env`` values, expanded templates, and what ``describe`` masks
        in the command line or URL."""
        known = [*self.secrets, *self.env.values(), *self.headers.values(), self.token or ""]
        words = [self.command or "", *self.args]
        pairs = [*zip(words, mask_args(words), strict=True), (self.url or "", "")]
        for original, masked in pairs:
            known += hidden_values(original, masked or mask_url(original))
        return redact(text, known)

    def __repr__(self) -> str:
        target = self.describe()
        return f"ServerSpec(name={self.name!r}, transport={self.transport!r}, target={target!r})"

    def child_environment(self) -> dict[str, str]:
        """The stdio child's environment: a few harmless variables of the kernel (or all of
        them with ``inherit_env``, which hands the server every token the kernel has), plus
        the spec's ``env``."""
        if self.inherit_env:
            return {**os.environ, **self.env}
        passed = _PASSED_WINDOWS if sys.platform == "win32" else _PASSED
        inherited = {
            key: value
            for key, value in os.environ.items()
            if key in passed or key.startswith(_PASSED_PREFIXES)
        }
        return {**inherited, **self.env}


class ConnectOptions(TypedDict, total=False):
    """What ``Workbench.connect`` and ``aconnect`` take besides the name: the settings
    ``server_spec`` checks (all but ``secrets``, which config files add)."""

    command: str | None
    args: Sequence[str] | None
    env: Mapping[str, str] | None
    cwd: str | None
    url: str | None
    headers: Mapping[str, str] | None
    token: str | None
    server: Any
    timeout: float | None
    connect_timeout: float | None
    inherit_env: bool
    shown: str | None
    oauth: object


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
    inherit_env: bool = False,
    shown: str | None = None,
    secrets: Sequence[str] = (),
    oauth: object = None,
) -> ServerSpec:
    """A checked ServerSpec: a stdio ``command``, an HTTP ``url``, an in-process ``server``,
    or the demo server by its name. Raises a one-line ServerSpecError saying what is wrong.

    ``inherit_env`` passes the kernel's whole environment to a stdio server (its tokens
    too: only for servers you trust). ``shown`` is the target as written, templates
    unexpanded; the values of the variables its templates name join ``secrets`` (see
    ``ServerSpec``). ``oauth`` (True, a mapping or OAuthSettings) signs in to a URL server
    with OAuth; its client secret and private key join ``secrets`` too.
    """
    if shown is not None:
        secrets = [*secrets, *template_values(shown)]
    given = [kind for kind, value in (("command", command), ("url", url), ("server", server))
             if value is not None]  # fmt: skip
    check_new_server_name(name, settings_given=bool(given))
    if len(given) > 1:
        raise ServerSpecError(f"Give one of command, url or server, not {' and '.join(given)}.")
    settings = _oauth_settings(oauth)
    if settings is not None:
        if url is None:
            raise ServerSpecError("The oauth option applies to a URL server only.")
        if token is not None:
            raise ServerSpecError("Give token or oauth, not both: OAuth gets its own token.")
        secrets = [*secrets, *settings.secrets()]
    call_timeout = _seconds("timeout", timeout, DEFAULT_CALL_TIMEOUT)
    start_timeout = _seconds("connect_timeout", connect_timeout, DEFAULT_CONNECT_TIMEOUT)
    env, headers, token = _env(env), _headers(headers), _token(token)
    for option, value in (("command", command), ("url", url)):
        if value is not None and not isinstance(value, str):
            raise ServerSpecError(f"{option} must be a string, not {type(value).__name__}.")
    if command is not None:
        _not_for("a command", headers=headers, token=token)
        if not command.strip():
            raise ServerSpecError(f"The command of server {name!r} is empty.")
        if isinstance(args, str):
            raise ServerSpecError(
                f"args must be a list of words, not the string {mask_text(args)!r}; "
                f"write {mask_args(args.split())!r}."
            )
        if not all(isinstance(arg, str) for arg in args or ()):
            raise ServerSpecError("args must be a list of strings.")
        return ServerSpec(name, "stdio", command=command, args=tuple(args or ()),
                          env=dict(env or {}), cwd=cwd, call_timeout=call_timeout,
                          connect_timeout=start_timeout, inherit_env=inherit_env,
                          shown=shown, secrets=tuple(secrets))  # fmt: skip
    if url is not None:
        if not url.startswith(("http://", "https://")):
            raise ServerSpecError(
                f"{mask_url(shown or url)!r} is not an http(s) URL; a stdio server is a "
                "command (and its args)."
            )
        _not_for("a URL", env=env, cwd=cwd, args=args, inherit_env=inherit_env)
        return ServerSpec(name, "http", url=url, headers=dict(headers or {}), token=token,
                          call_timeout=call_timeout, connect_timeout=start_timeout,
                          shown=shown, secrets=tuple(secrets), oauth=settings)  # fmt: skip
    _not_for("an in-process server" if server is not None else "the demo server",
             env=env, cwd=cwd, args=args, headers=headers, token=token,
             inherit_env=inherit_env)  # fmt: skip
    if server is None and name != DEMO_SERVER:
        raise ServerSpecError(
            f"Nothing to connect for {name!r}: give a command, a URL or an in-process server "
            f"(or use the name {DEMO_SERVER!r} for the embedded demo server)."
        )
    return ServerSpec(name, "in-process", server=server, call_timeout=call_timeout,
                      connect_timeout=start_timeout)  # fmt: skip


# Control characters (C0, DEL, C1): an HTTP client refuses them in a header, and logs the
# refused value at DEBUG before anyone can mask it (G21). NUL cannot be in an environment.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _text_mapping(option: str, value: object) -> dict[str, str]:
    """``env`` or ``headers`` as a dict of strings, or a one-line error naming the key;
    the values are never echoed (they are often secrets)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise ServerSpecError(
            f"{option} must be a mapping of names to strings, not {type(value).__name__}."
        )
    word = "header" if option == "headers" else option
    for key, item in value.items():
        if not isinstance(key, str):
            raise ServerSpecError(f"{word} names must be strings, not {type(key).__name__}.")
        if not isinstance(item, str):
            raise ServerSpecError(
                f"The {word} {key!r} must be a string, not {type(item).__name__}: "
                f"{word} values must be strings."
            )
    return dict(value)


def _env(value: object) -> dict[str, str]:
    """Environment variables: names without ``=`` or NUL, values without NUL (newlines are
    fine: a PEM key may sit in a variable)."""
    env = _text_mapping("env", value)
    for key, item in env.items():
        if not key or "=" in key or "\0" in key:
            name, equals, _ = key.partition("=")  # what follows '=' may be a value
            raise ServerSpecError(
                f"The env name {name + ('=...' if equals else '')!r} cannot be used: env "
                "names must be strings without '=' or NUL."
            )
        if "\0" in item:
            raise ServerSpecError(
                f"The env value of {key!r} holds a NUL character: env values must be strings "
                "without NUL."
            )
    return env


def _headers(value: object) -> dict[str, str]:
    """HTTP headers: names and values without control characters (a newline would end
    the header), refused here so the request is never made."""
    headers = _text_mapping("headers", value)
    for key, item in headers.items():
        if not key.strip() or _CONTROL.search(key):
            raise ServerSpecError(
                f"The header name {mask_text(repr(key))} cannot be sent: header names must be "
                "strings without control characters."
            )
        if _CONTROL.search(item):
            raise ServerSpecError(
                f"The header {key!r} has a control character (a newline, say) in its value: "
                "header values must be strings without control characters."
            )
    return headers


def _token(value: object) -> str | None:
    """A bearer token: text without control characters (it is sent as a header)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise ServerSpecError(f"token must be a string, not {type(value).__name__}.")
    if _CONTROL.search(value):
        raise ServerSpecError(
            "The token has a control character (a newline, say): a token must be a string "
            "without control characters."
        )
    return value


def _oauth_settings(value: object) -> OAuthSettings | None:
    """The settings of ``oauth=``; None and False mean none."""
    if value is None or value is False:
        return None
    try:
        return OAuthSettings.from_value(value)
    except ConfigError as error:
        raise ServerSpecError(str(error)) from None


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
