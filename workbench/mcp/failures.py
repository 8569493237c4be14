"""Failures explained: exceptions, HTTP statuses and stderr tails to one-paragraph messages.

Pure functions over what a connection saw (the error, the HTTP status its hook noted, the
last lines of the server's stderr): no I/O and no MCP imports, so every message can be
unit-tested with hand-made errors. Exceptions are recognised by the shape the SDKs give
them (a JSON-RPC ``error.code``, a ``response.status_code``, a class name), never by
importing the classes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from workbench.config.spec import ServerSpec
from workbench.secrets import mask_text
from workbench.tools.schema import ErrorKind

# JSON-RPC codes the MCP SDK uses: a request timed out; the connection closed under it.
REQUEST_TIMEOUT = -32001
CONNECTION_CLOSED = -32000

_LOST_CONNECTION_TYPES = frozenset({"ClosedResourceError", "BrokenResourceError", "EndOfStream"})
_UNREACHABLE_TYPES = frozenset({"ConnectError", "ConnectTimeout"})


@dataclass(frozen=True)
class StderrTail:
    """The last lines a stdio server wrote to stderr, and the file holding all of them."""

    log: Path
    lines: tuple[str, ...]

    def __str__(self) -> str:
        """The paragraph's appendix: nothing when the server wrote nothing."""
        if not self.lines:
            return ""
        body = "\n".join(f"  {mask_text(line)}" for line in self.lines)
        return f"\nLast lines of its stderr (full log: {self.log}):\n{body}"


def explain_connect_failure(
    spec: ServerSpec,
    error: BaseException,
    *,
    http_status: int | None = None,
    stderr: StderrTail | None = None,
    said: str | None = None,
) -> str:
    """Why opening ``spec`` failed, and what to do about it (never with a secret of it:
    the server's words and stderr are redacted with what the spec knows is secret)."""
    where = f"Could not connect to server {spec.name!r} ({spec.transport}: {spec.describe()})"
    tail = spec.redact(str(stderr or ""))
    if isinstance(error, FileNotFoundError):
        return (
            f"{where}: the command {spec.redact(spec.command or '')!r} was not found on PATH. "
            "Install it, or give its full path."
        )
    if isinstance(error, TimeoutError):
        return (
            f"{where}: it did not finish starting within {spec.connect_timeout:g} s. "
            "Pass a larger timeout if it is slow to start."
        ) + tail
    if spec.oauth is not None:
        from workbench.mcp.oauth.doctor import damaged_cache, oauth_reason

        chain = error_chain(error)
        why = damaged_cache(spec.name, chain) or oauth_reason(spec.url or "", spec.oauth, chain)
        if why:
            return f"{where}: {spec.redact(why)}"
        if http_status == 403:
            return f"{where}: {spec.redact(refused_after_sign_in(said or ''))}"
    http = http_reason(error, http_status)
    if http:
        return f"{where}: {http}"
    if spec.transport == "stdio" and is_connection_loss(error):
        return f"{where}: the server process exited while starting." + tail
    return f"{where}: {spec.redact(innermost(error))}." + tail


def explain_call_failure(
    server: str,
    tool: str,
    error: BaseException,
    limit: float,
    *,
    stderr: StderrTail | None = None,
) -> tuple[ErrorKind, str]:
    """The kind and message of the error Observation for a call that raised.

    ``ErrorKind.CONNECTION`` means the connection is gone (the caller marks it so).
    """
    code = getattr(getattr(error, "error", None), "code", None)
    if code == REQUEST_TIMEOUT or isinstance(error, TimeoutError):
        return ErrorKind.TIMEOUT, (
            f"{server}.{tool} did not answer within {limit:g} s and was cancelled. "
            "Pass a larger timeout if it is expected to be slow."
        )
    if is_connection_loss(error):
        return ErrorKind.CONNECTION, (
            f"The connection to {server!r} was lost during the call "
            f"({innermost(error)}). The next call reconnects."
        ) + str(stderr or "")
    return ErrorKind.TOOL_ERROR, f"{server}.{tool}: {innermost(error)}"


def json_rpc_error(error: BaseException) -> tuple[int, object] | None:
    """The code and data of the JSON-RPC error a server answered (the SDK's ``error.error``),
    or None when the call failed otherwise."""
    said = getattr(error, "error", None)
    code = getattr(said, "code", None)
    if not isinstance(code, int) or isinstance(code, bool):
        return None
    return code, getattr(said, "data", None)


def refused_after_sign_in(challenge: str) -> str:
    """An OAuth server that still says 403 once signed in: the scope it asks for (its
    ``WWW-Authenticate`` challenge), which signing in again did not grant."""
    kind = ": insufficient_scope" if "insufficient_scope" in challenge else ""
    refused = f"signed in, but the server refused access (HTTP 403{kind})"
    scope = re.search(r'scope="([^"]*)"', challenge)
    if scope is None:
        return f"{refused}. The account or client is not allowed to use this server."
    return (
        f"{refused}: it asks for the scope {scope.group(1)!r}, which signing in did not "
        "grant. Ask for it with oauth={'scopes': [...]} (%mcp connect ... --oauth --scope S), "
        "or sign in with an account allowed to use it."
    )


def http_reason(error: BaseException, seen_status: int | None = None) -> str | None:
    """A person's explanation of an HTTP failure: a status the client saw, or one anywhere
    in the error's chain; None when the failure is not about HTTP."""
    for item in error_chain(error):
        response = getattr(item, "response", None)
        status = seen_status or getattr(response, "status_code", None)
        if status in (401, 403):
            return (
                f"the server refused the request (HTTP {status}). Check the token or "
                "headers; pass token=... for a bearer token."
            )
        if status == 404:
            return "nothing answers at that URL (HTTP 404). Check the path (often /mcp)."
        if isinstance(status, int) and status >= 400:
            return f"the server answered HTTP {status}."
        if type(item).__name__ in _UNREACHABLE_TYPES:
            return f"the URL could not be reached ({innermost(item)})."
    return None


def is_connection_loss(error: BaseException) -> bool:
    """Whether anything in the error's chain says the connection (or process) went away:
    a closed stdio pipe, or an HTTP response stream that ended before its answer (the
    server died mid-call; the SDK gives up with "SSE stream ended ...")."""
    for item in error_chain(error):
        code = getattr(getattr(item, "error", None), "code", None)
        said = str(item).lower()
        if code == CONNECTION_CLOSED and ("closed" in said or "stream" in said):
            return True
        if type(item).__name__ in _LOST_CONNECTION_TYPES:
            return True
        if isinstance(item, ConnectionError) or "not connected" in str(item).lower():
            return True
    return False


def is_stale_session(error: BaseException, status: int | None, said: str) -> bool:
    """Whether an HTTP server refused a request for not knowing its session (it restarted,
    or dropped the session): 404 as the spec says, or 400 "No valid session ID" as some
    servers answer. Such a request was never handled, so a new session may send it again."""
    if status not in (400, 404):
        return False
    return "session" in said.lower() or "session terminated" in str(error).lower()


def innermost(error: BaseException) -> str:
    """The error's own words, without FastMCP's generic prefix (or its type if silent),
    with secrets masked (URLs with credentials, header values a client rejected)."""
    message = str(error) or type(error).__name__
    return mask_text(message.removeprefix("Client failed to connect: "))


def error_chain(error: BaseException) -> list[BaseException]:
    """The error, its causes and contexts, and the members of exception groups: the useful
    part of an MCP failure is often several layers down."""
    seen: list[BaseException] = []
    stack = [error]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.append(current)
        stack.extend(getattr(current, "exceptions", ()))
        stack.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return seen
