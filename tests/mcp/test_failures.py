"""Every failure explanation, from hand-made errors shaped like the SDKs' (no server, no I/O).

The explanations recognise errors by shape (a JSON-RPC ``error.code``, an HTTP
``response.status_code``, a class name), so these stand-ins are what the real ones look like.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.processes import modules_after
from workbench.config.spec import ServerSpec
from workbench.mcp.failures import (
    StderrTail,
    error_chain,
    explain_call_failure,
    explain_connect_failure,
    http_reason,
    innermost,
    is_connection_loss,
    is_stale_session,
    json_rpc_error,
    refused_after_sign_in,
)
from workbench.tools.schema import ErrorKind

STDIO = ServerSpec("files", "stdio", command="files-server", args=("--root", "/tmp"))
HTTP = ServerSpec("remote", "http", url="https://example.test/mcp", connect_timeout=5)
LOG = Path("/tmp/workbench-logs-x/files.stderr.log")
TAIL = StderrTail(LOG, ("Traceback (most recent call last):", "ImportError: no module x"))


class McpError(Exception):
    """The MCP SDK's error: a message and a JSON-RPC ``error`` with a code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.error = SimpleNamespace(code=code, message=message)


class HTTPStatusError(Exception):
    """httpx's error for a failed status: the response rides along."""

    def __init__(self, status: int) -> None:
        super().__init__(f"Client error '{status}'")
        self.response = SimpleNamespace(status_code=status)


class ConnectError(Exception):
    """httpx's error when nothing listens at the address."""


class ClosedResourceError(Exception):
    """anyio's error when the other end of a stream is gone."""


class Group(Exception):
    """An exception group (``ExceptionGroup`` is Python 3.11+): members in ``exceptions``."""

    def __init__(self, *members: BaseException) -> None:
        super().__init__("unhandled errors in a TaskGroup")
        self.exceptions = members


def caused(error: BaseException, cause: BaseException) -> BaseException:
    error.__cause__ = cause
    return error


# -- opening a connection -------------------------------------------------------------------


def test_a_command_not_on_path_says_so_without_a_stderr_tail() -> None:
    message = explain_connect_failure(STDIO, FileNotFoundError("files-server"), stderr=TAIL)
    assert message == (
        "Could not connect to server 'files' (stdio: files-server --root /tmp): the command "
        "'files-server' was not found on PATH. Install it, or give its full path."
    )


def test_a_server_exiting_at_start_shows_the_end_of_its_stderr() -> None:
    error = McpError("Connection closed", -32000)
    message = explain_connect_failure(STDIO, error, stderr=TAIL)
    assert message == (
        "Could not connect to server 'files' (stdio: files-server --root /tmp): the server "
        "process exited while starting.\n"
        f"Last lines of its stderr (full log: {LOG}):\n"
        "  Traceback (most recent call last):\n"
        "  ImportError: no module x"
    )


def test_an_exit_found_deep_in_a_group_is_still_an_exit() -> None:
    error = Group(RuntimeError("cleanup"), caused(RuntimeError("outer"), ClosedResourceError()))
    message = explain_connect_failure(STDIO, error, stderr=StderrTail(LOG, ()))
    assert message.endswith("the server process exited while starting.")  # silent stderr


def test_a_slow_start_names_the_timeout_and_the_stderr() -> None:
    spec = ServerSpec("slow", "stdio", command="slow-server", connect_timeout=2.5)
    message = explain_connect_failure(spec, TimeoutError(), stderr=TAIL)
    assert "it did not finish starting within 2.5 s. Pass a larger timeout" in message
    assert message.endswith("  ImportError: no module x")


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_request_points_at_the_token(status: int) -> None:
    message = explain_connect_failure(
        HTTP, McpError("Session terminated", -32600), http_status=status
    )
    assert message == (
        "Could not connect to server 'remote' (http: https://example.test/mcp): the server "
        f"refused the request (HTTP {status}). Check the token or headers; pass token=... "
        "for a bearer token."
    )


def test_a_404_points_at_the_path() -> None:
    message = explain_connect_failure(HTTP, RuntimeError("boom"), http_status=404)
    assert message.endswith("nothing answers at that URL (HTTP 404). Check the path (often /mcp).")


def test_a_status_anywhere_in_the_chain_counts() -> None:
    error = caused(RuntimeError("Client failed to connect: boom"), HTTPStatusError(404))
    assert http_reason(error) == (
        "nothing answers at that URL (HTTP 404). Check the path (often /mcp)."
    )
    assert http_reason(HTTPStatusError(500)) == "the server answered HTTP 500."


def test_an_unreachable_url_says_so() -> None:
    error = caused(
        RuntimeError("Client failed to connect"), ConnectError("All connection attempts failed")
    )
    message = explain_connect_failure(HTTP, error)
    assert message.endswith("the URL could not be reached (All connection attempts failed).")
    assert http_reason(ConnectError()) == "the URL could not be reached (ConnectError)."


def test_anything_else_gives_the_errors_own_words_and_the_stderr() -> None:
    error = RuntimeError("Client failed to connect: unsupported protocol version")
    message = explain_connect_failure(STDIO, error, stderr=TAIL)
    assert message.startswith(
        "Could not connect to server 'files' (stdio: files-server --root /tmp): "
        "unsupported protocol version.\nLast lines of its stderr"
    )


def test_a_lost_http_connection_is_not_called_a_process_exit() -> None:
    message = explain_connect_failure(HTTP, ClosedResourceError())
    assert message.endswith(": ClosedResourceError.")


def test_without_a_log_or_lines_nothing_is_appended() -> None:
    assert str(StderrTail(LOG, ())) == ""
    assert explain_connect_failure(STDIO, ValueError("bad"), stderr=None).endswith(": bad.")


# -- calling a tool -------------------------------------------------------------------------


@pytest.mark.parametrize("error", [McpError("Timed out", -32001), TimeoutError()])
def test_a_call_past_its_limit_is_a_timeout(error: Exception) -> None:
    assert explain_call_failure("files", "read", error, 7.5, stderr=TAIL) == (
        ErrorKind.TIMEOUT,
        "files.read did not answer within 7.5 s and was cancelled. Pass a larger timeout if "
        "it is expected to be slow.",
    )


@pytest.mark.parametrize(
    "error",
    [
        McpError("Connection closed", -32000),
        ClosedResourceError(),
        BrokenPipeError("pipe"),
        RuntimeError("Client is not connected"),
        Group(ValueError("x"), caused(RuntimeError("y"), ConnectionResetError())),
    ],
)
def test_a_lost_connection_says_the_next_call_reconnects(error: Exception) -> None:
    kind, message = explain_call_failure("files", "read", error, 10, stderr=TAIL)
    assert kind is ErrorKind.CONNECTION
    assert message.startswith(
        f"The connection to 'files' was lost during the call ({innermost(error)})."
    )
    assert "The next call reconnects.\nLast lines of its stderr" in message


@pytest.mark.parametrize(
    "said",
    [
        "SSE stream ended and reconnection attempts were exhausted",
        "SSE stream ended without a response",
        "SSE stream failed: peer closed connection",
    ],
)
def test_f12_an_http_stream_dropped_mid_call_is_a_lost_connection(said: str) -> None:
    kind, message = explain_call_failure("web", "slow", McpError(said, -32000), 10)
    assert kind is ErrorKind.CONNECTION
    assert f"lost during the call ({said})" in message  # the SDK's own words stay


def test_f12_a_session_the_server_no_longer_knows_is_stale() -> None:
    refused = McpError("Server returned an error response", -32603)
    assert is_stale_session(refused, 400, "Bad Request: No valid session ID provided")
    assert is_stale_session(McpError("Session terminated", -32600), 404, "")
    assert not is_stale_session(refused, 400, "Invalid params: a must be a number")
    assert not is_stale_session(refused, 500, "session store is down")
    assert not is_stale_session(McpError("Not Found", -32601), 404, "")


def test_any_other_call_failure_is_the_tools_error() -> None:
    assert explain_call_failure("files", "read", McpError("Unknown tool", -32602), 10) == (
        ErrorKind.TOOL_ERROR,
        "files.read: Unknown tool",
    )
    assert explain_call_failure("files", "read", KeyError(), 10)[1] == "files.read: KeyError"


def test_a_json_rpc_error_keeps_its_code_and_data() -> None:
    assert json_rpc_error(McpError("Unknown tool", -32602)) == (-32602, None)
    assert json_rpc_error(KeyError()) is None


# -- the pieces ----------------------------------------------------------------------------


def test_the_chain_walks_causes_contexts_and_groups_once() -> None:
    inner = ValueError("inner")
    context = KeyError("context")
    middle = caused(RuntimeError("middle"), inner)
    middle.__context__ = context
    group = Group(middle, inner)
    inner.__context__ = group  # a cycle must not loop forever
    chain = error_chain(group)
    assert sorted(map(str, chain)) == sorted(map(str, [group, middle, inner, context]))
    assert len(chain) == 4


def test_plain_errors_are_not_connection_losses() -> None:
    assert not is_connection_loss(ValueError("closed"))  # "closed" needs the JSON-RPC code
    assert not is_connection_loss(McpError("Invalid params", -32000))
    assert http_reason(ValueError("x")) is None


@pytest.mark.integration
def test_the_module_stays_pure() -> None:
    loaded = modules_after("import workbench.mcp.failures")
    assert "workbench.mcp.failures" in loaded  # the check can see imports
    assert not loaded & {"fastmcp", "mcp", "httpx", "httpx2", "anyio"}


def test_an_oauth_server_refusing_after_sign_in_names_the_scope_it_asks_for() -> None:
    """Not "check the token or headers": the sign-in worked; a scope is missing."""
    challenge = 'Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="x"'
    said = refused_after_sign_in(challenge)
    assert "HTTP 403: insufficient_scope" in said and "'mcp:admin'" in said
    assert "--scope" in said and "token=" not in said
    assert "not allowed" in refused_after_sign_in("")
