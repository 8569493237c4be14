"""The Workbench over streamable HTTP, against servers running in their own processes.

- @modelcontextprotocol/server-everything in its ``streamableHttp`` mode (npm, TypeScript SDK);
- a FastMCP server of ours behind a bearer token (``StaticTokenVerifier``), served by uvicorn.

Each server binds 127.0.0.1 on a port the OS picks, reports it, and exits by itself when its
stdin closes, so it cannot outlive the test process; teardown also kills it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import port_is_free, unused_port
from workbench.errors import ConnectionFailedError
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind

START_TIMEOUT = 30.0
TOKEN = "s3cret-test-token"

# Preloaded into node (``node -r``): bind 127.0.0.1 instead of every interface (the server
# has no host option), report the port the OS picked (the server only logs $PORT), and exit
# when stdin closes (the test process died or let go).
NODE_PRELOAD = """\
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || typeof args[0] === "string") {
    if (typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
    this.once("listening", () => process.stderr.write(`LISTENING ${this.address().port}\\n`));
  }
  return listen.apply(this, args);
};
process.stdin.on("end", () => process.exit(0));
process.stdin.on("error", () => process.exit(0));
process.stdin.resume();
"""

# A FastMCP server of our own, behind a bearer token; argv: the token.
AUTH_SERVER = """\
import asyncio
import os
import socket
import sys
import threading

import uvicorn
from fastmcp import FastMCP
from fastmcp.server.auth import StaticTokenVerifier


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
verifier = StaticTokenVerifier(tokens={sys.argv[1]: {"client_id": "tests", "scopes": []}})
mcp = FastMCP("secured", auth=verifier)


@mcp.tool
def add(a: int, b: int) -> int:
    \"\"\"Add two integers.\"\"\"
    return a + b


async def serve():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(mcp.http_app(), log_level="warning")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            await task
            raise SystemExit("uvicorn stopped before it started")
        await asyncio.sleep(0.02)
    print(f"LISTENING {sock.getsockname()[1]}", file=sys.stderr, flush=True)
    await task


asyncio.run(serve())
"""


def start_server(
    command: list[str], log: Path, env: dict[str, str]
) -> tuple[subprocess.Popen[bytes], int]:
    """Start a server whose stderr says ``LISTENING <port>``; wait until the port accepts."""
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=sink, stderr=subprocess.STDOUT, env=env
        )
    deadline = time.monotonic() + START_TIMEOUT
    port = None
    while port is None:
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("LISTENING "):
                port = int(line.split()[1])
        if port is None and (process.poll() is not None or time.monotonic() > deadline):
            stop(process)
            pytest.fail(f"{command} did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.02)
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process, port
        except OSError:
            if time.monotonic() > deadline:
                stop(process)
                pytest.fail(f"Port {port} of {command} never accepted a connection.")
            time.sleep(0.02)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None:
        process.stdin.close()  # the server's own watchdog exits on this
    try:
        process.wait(timeout=3)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=5)


@pytest.fixture(scope="module")
def everything_url(everything_js: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("everything-http")
    preload = folder / "preload.cjs"
    preload.write_text(NODE_PRELOAD)
    command = ["node", "-r", str(preload), str(everything_js), "streamableHttp"]
    process, port = start_server(command, folder / "server.log", {**os.environ, "PORT": "0"})
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(process)
        assert process.returncode is not None and port_is_free(port)


@pytest.fixture(scope="module")
def secured_port(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    folder = tmp_path_factory.mktemp("secured-http")
    script = folder / "secured_server.py"
    script.write_text(AUTH_SERVER)
    env = {**os.environ, "FASTMCP_LOG_LEVEL": "WARNING"}
    process, port = start_server([sys.executable, str(script), TOKEN], folder / "server.log", env)
    try:
        yield port
    finally:
        stop(process)


# -- server-everything over streamable HTTP -----------------------------------------------


@pytest.mark.integration
def test_everything_over_streamable_http(workbench: Workbench, everything_url: str) -> None:
    info = workbench.connect("web", url=everything_url)

    assert (info.transport, info.target, info.status) == ("http", everything_url, "connected")
    assert info.tool_count >= 13
    echo = workbench.call("web.echo", {"message": "over HTTP"})
    assert not echo.is_error, echo.error_message
    assert echo.text == "Echo: over HTTP"

    progress: list[float] = []
    slow = workbench.call(
        "web.trigger-long-running-operation",
        {"duration": 0.3, "steps": 3},
        on_progress=lambda done, total, message: progress.append(done),
    )
    assert not slow.is_error, slow.error_message
    assert progress == [1, 2, 3]

    weather = workbench.call("web.get-structured-content", {"location": "New York"})
    assert weather.structured_content == {"temperature": 33, "conditions": "Cloudy", "humidity": 82}

    failed = workbench.call("web.get-resource-reference", {"resourceId": 0})
    assert failed.error_kind is ErrorKind.TOOL_ERROR


# -- a FastMCP server behind a bearer token -----------------------------------------------


def url_of(port: int, path: str = "/mcp") -> str:
    return f"http://127.0.0.1:{port}{path}"


@pytest.mark.integration
@pytest.mark.parametrize("how", ["token", "header"])
def test_the_right_token_connects_and_calls(
    workbench: Workbench, secured_port: int, how: str
) -> None:
    if how == "token":
        info = workbench.connect("secured", url=url_of(secured_port), token=TOKEN)
    else:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        info = workbench.connect("secured", url=url_of(secured_port), headers=headers)

    assert (info.status, info.tool_count) == ("connected", 1)
    observation = workbench.call("secured.add", {"a": 2, "b": 3})
    assert not observation.is_error, observation.error_message
    assert observation.text == "5"
    assert observation.structured_content == {"result": 5}


@pytest.mark.parametrize("token", ["not-the-token", None], ids=["wrong", "missing"])
def test_a_wrong_or_missing_token_says_so(
    workbench: Workbench, secured_port: int, token: str | None
) -> None:
    with pytest.raises(ConnectionFailedError) as failure:
        workbench.connect("secured", url=url_of(secured_port), token=token, connect_timeout=10)

    message = str(failure.value)
    assert "'secured'" in message and url_of(secured_port) in message
    assert "HTTP 401" in message or "HTTP 403" in message, message
    assert "token" in message, message
    assert "not-the-token" not in message  # never echo a secret
    (info,) = workbench.servers()
    assert (info.status, info.tool_count, info.last_error) == ("failed", 0, message)
    assert "secured.add" not in workbench.registry


def test_a_wrong_path_says_404(workbench: Workbench, secured_port: int) -> None:
    url = url_of(secured_port, "/no-such-endpoint")
    with pytest.raises(ConnectionFailedError) as failure:
        workbench.connect("secured", url=url, token=TOKEN, connect_timeout=10)

    message = str(failure.value)
    assert url in message
    assert "404" in message, message


def test_an_unreachable_port_says_it_could_not_be_reached(workbench: Workbench) -> None:
    url = url_of(unused_port())
    started = time.monotonic()
    with pytest.raises(ConnectionFailedError) as failure:
        workbench.connect("nowhere", url=url, connect_timeout=10)

    message = str(failure.value)
    assert url in message
    assert "could not be reached" in message, message
    assert time.monotonic() - started < 5


# -- servers that die: restarted between calls, killed during one --------------------------


def start_everything(
    everything_js: Path, folder: Path, port: int = 0
) -> tuple[subprocess.Popen[bytes], int]:
    """server-everything over HTTP on ``port`` (0: one the OS picks)."""
    preload = folder / "preload.cjs"
    preload.write_text(NODE_PRELOAD)
    command = ["node", "-r", str(preload), str(everything_js), "streamableHttp"]
    log = folder / f"server-{time.monotonic_ns()}.log"
    return start_server(command, log, {**os.environ, "PORT": str(port)})


def kill(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    process.wait(timeout=5)


@pytest.mark.integration
def test_f12_a_restarted_http_server_is_reconnected_and_the_call_sent_again(
    workbench: Workbench, everything_js: Path, tmp_path: Path
) -> None:
    process, port = start_everything(everything_js, tmp_path)
    try:
        workbench.connect("web", url=f"http://127.0.0.1:{port}/mcp")
        assert workbench.call("web.echo", {"message": "before"}).text == "Echo: before"
        kill(process)  # the new process knows nothing of the old session
        process, _ = start_everything(everything_js, tmp_path, port)

        after = workbench.call("web.echo", {"message": "after"})
        assert not after.is_error, after.error_message
        assert after.text == "Echo: after"
        assert workbench.call("web.echo", {"message": "again"}).text == "Echo: again"
        assert [info.status for info in workbench.servers()] == ["connected"]
    finally:
        kill(process)


@pytest.mark.integration
def test_f12_a_stream_dropped_mid_call_is_a_connection_observation(
    workbench: Workbench, everything_js: Path, tmp_path: Path
) -> None:
    process, port = start_everything(everything_js, tmp_path)
    try:
        workbench.connect("web", url=f"http://127.0.0.1:{port}/mcp")
        started = threading.Event()
        future = workbench.submit(
            "web.trigger-long-running-operation",
            {"duration": 30, "steps": 30},
            on_progress=lambda done, total, message: started.set(),
        )
        assert started.wait(15), "the long call never reported progress"
        kill(process)

        observation = future.result(timeout=30)
        assert observation.error_kind is ErrorKind.CONNECTION, observation.text
        assert "lost during the call (SSE stream ended" in observation.text
        assert [call.status for call in workbench.history] == ["connection"]
    finally:
        kill(process)
