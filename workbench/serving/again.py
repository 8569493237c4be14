"""Serving again keeps what clients were given: the port and the token, unless told
otherwise; and the socket and the token of a new surface.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import warnings
from typing import TYPE_CHECKING

from workbench.config import expand
from workbench.errors import ConfigError, ServeError, ServeWarning
from workbench.secrets import MASK, is_template
from workbench.serving.clients import TOKEN_VARIABLE
from workbench.serving.guard import GuardedSocket

if TYPE_CHECKING:
    from workbench.serving.handle import ServeHandle


def listen_again(
    host: str, port: int, replacing: ServeHandle | None
) -> tuple[GuardedSocket, int | None]:
    """The socket to serve on: the replaced handle's port when none is given (and the same
    host), else ``port``; and the replaced port when it could not be had again."""
    if port or replacing is None or replacing.host != host:
        return listen(host, port), None
    try:
        return listen(host, replacing.port), None
    except ServeError:  # someone took it in the meantime
        return listen(host, 0), replacing.port


def again(replacing: ServeHandle | None, handle: ServeHandle, taken: int | None) -> list[str]:
    """One line on what serving again kept: the address, the token."""
    if replacing is None:
        return []
    same_token = replacing.token == handle.token
    token = (
        "no token" if handle.token is None else "the same token" if same_token else "a new token"
    )
    if replacing.url == handle.url:
        kept = "configs pasted before keep working" if same_token else "clients need it"
        return [f"Still serving at the same address, with {token}: {kept}."]
    why = f" (port {taken} is taken now)" if taken else ""
    return [f"Serving at a new address{why}, with {token}: paste the configs below again."]


def choose_token(
    token: str | None, auth: bool, replacing: ServeHandle | None
) -> tuple[str | None, str | None]:
    """The token clients must send and how it may be shown: the one given, else the
    replaced handle's, else ``$WORKBENCH_TOKEN`` when set, else a random one."""
    if not auth:
        if token is not None:
            raise ServeError("A token was given with auth turned off; drop one of them.")
        warnings.warn(
            "Serving without auth: any program on this machine can call the notebook's tools.",
            ServeWarning,
            stacklevel=4,  # choose_token < serve < Workbench.serve < caller
        )
        return None, None
    if token is None and replacing is not None and replacing.token is not None:
        before = replacing.token_shown or ""
        if not is_template(before):
            return replacing.token, MASK
        with contextlib.suppress(ConfigError):  # its variable is gone: as if never served
            return expand(before), before
    if token is None and os.environ.get(TOKEN_VARIABLE, "").strip():
        token = f"${{env:{TOKEN_VARIABLE}}}"
    if token is None:
        return secrets.token_urlsafe(32), MASK
    try:
        value = expand(token)
    except ConfigError as error:
        raise ServeError(f"token: {error}.") from None
    if not value.strip():
        raise ServeError("The token is empty.")
    return value, (token if is_template(token) else MASK)


def listen(host: str, port: int) -> GuardedSocket:
    """A socket bound to ``host:port`` (0: a free port), or a ServeError saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = GuardedSocket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(128)
        listening.setblocking(False)
    except (OSError, OverflowError) as error:
        listening.close()
        why = getattr(error, "strerror", None) or str(error)
        raise ServeError(f"Cannot listen on {host}:{port}: {why}.") from None
    return listening
