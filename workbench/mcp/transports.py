"""Building the fastmcp transport of a ServerSpec: stdio, streamable HTTP or in-process.

Also what the transports leave for explaining failures: a stderr log file per stdio server
(in one folder per process, removed at exit) and an HTTP hook that notes failed statuses.
fastmcp is imported only when a transport is built, never when this module is.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from workbench.config.spec import ServerSpec
from workbench.mcp.failures import StderrTail
from workbench.secrets import mask_text

if TYPE_CHECKING:
    from workbench.mcp.oauth.signin import SignInRouter

STDERR_TAIL_LINES = 15

HttpStatusHook = Callable[[int], None]
# A failed status and what the server said in its body (its own message, when it gave one).
HttpRefusalHook = Callable[[int, str], None]
SAID_LIMIT = 500


def make_transport(
    spec: ServerSpec,
    *,
    on_http_status: HttpStatusHook,
    on_http_refusal: HttpRefusalHook | None = None,
    sign_in: SignInRouter | None = None,
) -> tuple[Any, Path | None]:
    """The transport for ``spec`` and, for stdio, the file its server's stderr goes to.

    An OAuth server gets its provider as ``auth``; ``sign_in`` routes its authorization
    URL (nobody's: the link is printed and only the local listener can finish it).

    Raises FileNotFoundError before starting anything when a stdio command is not on the
    child's PATH (the SDK would report it as a bare connection failure).
    """
    if spec.transport == "in-process":
        from fastmcp.client.transports import FastMCPTransport

        return FastMCPTransport(spec.server), None
    if spec.transport == "http":
        from fastmcp.client.transports import StreamableHttpTransport

        _mask_http_logs()
        auth: Any = spec.token
        mcp_only: str | None = None
        if spec.oauth is not None:
            from workbench.mcp.oauth.provider import build_auth
            from workbench.mcp.oauth.routing import NOBODY

            auth = build_auth(spec.name, spec.url or "", spec.oauth, sign_in or NOBODY)
            mcp_only = spec.url
        factory = http_client_factory(on_http_status, on_http_refusal, mcp_only=mcp_only)
        http = StreamableHttpTransport(
            spec.url or "",
            headers=dict(spec.headers),
            auth=auth,
            httpx_client_factory=cast(Any, factory),
        )
        return http, None
    from fastmcp.client.transports import StdioTransport

    env = spec.child_environment()
    command = spec.command or ""
    if shutil.which(command, path=env.get("PATH")) is None:
        raise FileNotFoundError(command)
    log = stderr_log_path(spec.name)
    log.write_text("")
    _log_owners[log] = spec  # its tail is shown redacted with what the spec knows
    stdio = StdioTransport(
        command, list(spec.args), env=env, cwd=spec.cwd, keep_alive=False, log_file=log
    )
    return stdio, log


def http_client_factory(
    on_status: HttpStatusHook,
    on_refusal: HttpRefusalHook | None = None,
    *,
    mcp_only: str | None = None,
) -> Callable[..., Any]:
    """A factory of the SDK's HTTP client plus a hook reporting failed statuses: the SDK
    replaces an HTTP 401 or 404 with a bare JSON-RPC error, and people need the status.
    ``on_refusal`` also gets the server's own words (a restarted server's "No valid session
    ID", which the SDK replaces with "Server returned an error response").

    ``mcp_only`` (an OAuth server's URL): only that URL's statuses count, and not its 401,
    which asks for the sign-in; the sign-in's own 401s and 404s (metadata looked for at
    several addresses) would blame the wrong thing. The OAuth doctor explains those."""

    def make(**options: Any) -> Any:
        import httpx2
        from mcp.shared._httpx_utils import MCP_DEFAULT_SSE_READ_TIMEOUT, MCP_DEFAULT_TIMEOUT

        options.setdefault(
            "timeout", httpx2.Timeout(MCP_DEFAULT_TIMEOUT, read=MCP_DEFAULT_SSE_READ_TIMEOUT)
        )
        client = httpx2.AsyncClient(**options)

        async def note(response: Any) -> None:
            if mcp_only is not None and (
                response.status_code == 401
                or str(response.request.url).rstrip("/") != mcp_only.rstrip("/")
            ):
                return
            if response.status_code >= 400:
                on_status(response.status_code)
                if on_refusal is not None:
                    challenge = response.headers.get("www-authenticate", "")
                    said = challenge if mcp_only and challenge else await _said(response)
                    on_refusal(response.status_code, said)

        client.event_hooks["response"].append(note)
        return client

    return make


async def _said(response: Any) -> str:
    """The message in a small error body: JSON-RPC's ``error.message``, a ``message``
    field, or the text itself; read here, the SDK still reads the same body after."""
    import json

    length = response.headers.get("content-length")
    kind = response.headers.get("content-type", "")
    too_long = length is not None and (not length.isdigit() or int(length) > 65_536)
    if too_long or not kind.startswith(("application/json", "text/plain")):
        return ""
    try:
        text = (await response.aread()).decode(errors="replace")
    except Exception:  # a body that cannot be read says nothing
        return ""
    with contextlib.suppress(ValueError):
        body = json.loads(text)
        if isinstance(body, dict):
            inner = body.get("error")
            found = inner.get("message") if isinstance(inner, dict) else body.get("message")
            text = found if isinstance(found, str) else text
    return mask_text(" ".join(text.split()))[:SAID_LIMIT]


_log_dir: Path | None = None
_log_owners: dict[Path, ServerSpec] = {}


def stderr_log_path(name: str) -> Path:
    """One stderr log per server name, in a folder made once per process and removed when
    the process exits (every kernel that starts a server would otherwise leave one)."""
    global _log_dir
    if _log_dir is None:
        _log_dir = Path(tempfile.mkdtemp(prefix="workbench-logs-"))
        atexit.register(shutil.rmtree, _log_dir, ignore_errors=True)
    # Names are checked identifiers already; this keeps the file in the folder anyway.
    safe = re.sub(r"[^\w-]", "_", name)[:64] or "server"
    path = _log_dir / f"{safe}.stderr.log"
    if path.resolve().parent != _log_dir.resolve():
        raise ValueError(f"server name {name!r} cannot name a log file")
    return path


class _MaskSecrets(logging.Filter):
    """Masks secrets in the HTTP client's log lines (it logs every URL at INFO)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_text(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True


def _mask_http_logs() -> None:
    """Once: the HTTP clients' loggers mask URL credentials and key-like query values."""
    for name in ("httpx", "httpx2"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _MaskSecrets) for f in logger.filters):
            logger.addFilter(_MaskSecrets())


def read_stderr_tail(log: Path | None, lines: int = STDERR_TAIL_LINES) -> StderrTail | None:
    """The last ``lines`` of a stderr log, for failure messages; None without a log."""
    if log is None or not log.exists():
        return None
    text = log.read_text(errors="replace")
    owner = _log_owners.get(log)
    tail = text.splitlines()[-lines:]
    return StderrTail(log, tuple(owner.redact(line) if owner else line for line in tail))
