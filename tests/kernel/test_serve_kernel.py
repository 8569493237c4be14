"""Serving from a real kernel (issue 13): an outside client process calls the notebook's
tools while the kernel is idle and while a cell sleeps in plain synchronous code (serving
runs on the bridge loop, the tools in workers), the kernel is interrupted, serving stops;
nothing hangs and no port stays open."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

import pytest

from tests.kernel.conftest import KernelSession
from tests.processes import port_is_free
from tests.serving.conftest import Outside

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


def test_stop_closes_the_port(served: tuple[KernelSession, str]) -> None:
    kernel, url = served
    status, out, error = kernel.execute("%mcp serve --stop", timeout=30)
    assert status == "ok", error
    assert "Stopped serving" in out
    assert port_is_free(urlsplit(url).port or 0)
