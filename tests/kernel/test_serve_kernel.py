"""Serving from a real kernel (issue 13): an outside client process calls the notebook's
tools while the kernel is idle and while a cell sleeps in plain synchronous code (serving
runs on the bridge loop, the tools in workers), the kernel is interrupted, serving stops;
nothing hangs and no port stays open."""

from __future__ import annotations

import re
import secrets
import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from fastmcp import Client

from tests.kernel.conftest import KernelSession
from tests.processes import port_is_free
from tests.serving.conftest import Outside, with_client

pytestmark = pytest.mark.kernel

TOKEN = secrets.token_urlsafe(24)

TOOLS = '''%%tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b

async def aping() -> str:
    """Answer from the kernel's loop, or a worker's while the kernel is busy."""
    return "pong"
'''


@pytest.fixture(scope="module")
def served(kernel_launcher: Callable[..., KernelSession]) -> Iterator[tuple[KernelSession, str]]:
    kernel = kernel_launcher(env={"SERVE_KERNEL_TOKEN": TOKEN})
    status, _, error = kernel.execute("%load_ext workbench", timeout=60)
    assert status == "ok", error
    status, _, error = kernel.execute(TOOLS, timeout=60)
    assert status == "ok", error
    status, out, error = kernel.execute(
        "%mcp serve --token ${env:SERVE_KERNEL_TOKEN}\n"
        "import workbench\nprint('URL', workbench.current().served.url)",
        timeout=60,
    )
    assert status == "ok", error
    assert TOKEN not in out and TOKEN not in error
    [url] = [line.split()[1] for line in out.splitlines() if line.startswith("URL ")]
    yield kernel, url
    kernel.shutdown()


def test_calls_from_outside_while_idle_busy_and_after_an_interrupt(
    served: tuple[KernelSession, str], record_timing: Callable[..., None]
) -> None:
    kernel, url = served
    client = Outside(url, TOKEN)
    try:
        calls_from_outside(kernel, client, record_timing)
    finally:
        client.close()


def calls_from_outside(
    kernel: KernelSession, client: Outside, record_timing: Callable[..., None]
) -> None:
    assert client.ask("list") == {"names": ["add", "aping"]}
    assert client.ask('call add {"a": 1, "b": 2}')["text"] == "3"  # idle (warms the client)
    started = time.perf_counter()
    assert client.ask('call add {"a": 2, "b": 2}')["text"] == "4"
    record_timing("served call, kernel idle", time.perf_counter() - started)

    busy = kernel.send("import time\nprint('sleeping', flush=True)\ntime.sleep(60)")
    kernel.wait_for_stdout(busy, "sleeping")
    started = time.perf_counter()
    assert client.ask('call add {"a": 3, "b": 4}', timeout=10)["text"] == "7"
    record_timing("served sync call, kernel in time.sleep", time.perf_counter() - started)
    assert client.ask("call aping {}", timeout=10)["text"] == "pong"

    kernel.interrupt()
    status, _, error = kernel.collect(busy, timeout=20)
    assert status == "error" and "KeyboardInterrupt" in error
    assert client.ask('call add {"a": 5, "b": 5}', timeout=10)["text"] == "10"

    status, out, error = kernel.execute(
        "wb = workbench.current()\n"
        "print(sorted({c.source for c in wb.history}), wb.served.clients)\n"
        "%mcp servers",
        timeout=30,
    )
    assert status == "ok", error
    assert "['outside'] 1" in out


@pytest.mark.integration
def test_no_output_holds_the_token_and_the_route_it_prints_works(
    served: tuple[KernelSession, str],
) -> None:
    kernel, url = served
    status, out, error = kernel.execute("%mcp serve --new-token", timeout=60)
    assert status == "ok", error
    assert out.startswith("Still serving at the same address, with a new token")
    export = re.search(r'export WORKBENCH_TOKEN="\$\(cat [^)]+\)"', out)
    assert export is not None, out
    shell = subprocess.run(
        ["bash", "-c", export.group(0) + '; printf %s "$WORKBENCH_TOKEN"'],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    token = shell.stdout
    assert len(token) > 20 and token not in out and token not in error

    async def names(client: Client[Any]) -> list[str]:
        return sorted(tool.name for tool in await client.list_tools())

    assert with_client(url, token, names) == ["add", "aping"]


def test_exercise_5_mistakes_are_one_line(served: tuple[KernelSession, str]) -> None:
    kernel, _ = served
    status, _, error = kernel.execute(
        "from workbench import Workbench\n"
        "client = Workbench()\n"
        "client.connect('mine', url=workbench.current().served.url)",
        timeout=60,
    )
    assert status == "error"
    assert error.startswith("ConnectionFailedError: Could not connect to server 'mine'")
    assert "HTTP 401" in error and "Traceback" not in error and ".py" not in error, error


def test_stop_closes_the_port(served: tuple[KernelSession, str]) -> None:
    kernel, url = served
    status, out, error = kernel.execute("%mcp serve --stop", timeout=30)
    assert status == "ok", error
    assert "Stopped serving" in out
    assert port_is_free(urlsplit(url).port or 0)
    status, _, error = kernel.execute("workbench.current().served.url", timeout=30)
    assert status == "error"
    assert error.startswith("NotServedError: Nothing is served: run %mcp serve (or wb.serve())")
    assert "Traceback" not in error, error
