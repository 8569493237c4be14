"""Per-call latency through the bridge against raw client calls, and concurrent connects.

Prints median and p95 per call for: a raw ``await client.call_tool`` on one loop, the
bridge's sync call (``Workbench.call``), and the bridge's awaited call (``Workbench.acall``
from another loop); in-memory and over stdio. Then the time to connect five stdio servers
from one config against the slowest single connect. Ratios are taken within one run.

    .venv/bin/python benchmarks/bridge_latency.py [--calls 400]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from workbench.mcp.bridge import Bridge
from workbench.mcp.demo import build_demo_server
from workbench.session import Workbench

STDIO = [sys.executable, "-m", "workbench.mcp.demo"]
EVERYTHING = (
    Path(__file__).resolve().parents[1]
    / ".cache/servers/npm/node_modules/@modelcontextprotocol/server-everything"
)
ARGS = {"a": 1, "b": 2}


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95) - 1] * 1000


async def timed_async(call: Callable[[], Awaitable[object]], count: int) -> list[float]:
    samples = []
    for _ in range(count):
        started = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - started)
    return samples


def raw_client_samples(transport: object, count: int) -> list[float]:
    async def run() -> list[float]:
        async with Client(transport) as client:
            await timed_async(lambda: client.call_tool("add", ARGS), 20)  # warm up
            return await timed_async(lambda: client.call_tool("add", ARGS), count)

    loop = asyncio.new_event_loop()
    try:
        return loop.run_until_complete(run())
    finally:
        loop.close()


def bridge_samples(transport: object, count: int) -> dict[str, list[float]]:
    """The bridge alone: a client living on the bridge loop, called sync and awaited."""
    with Bridge() as bridge:
        client = Client(transport)
        bridge.run(client.__aenter__())
        try:
            for _ in range(20):
                bridge.run(client.call_tool("add", ARGS))
            sync = []
            for _ in range(count):
                started = time.perf_counter()
                bridge.run(client.call_tool("add", ARGS))
                sync.append(time.perf_counter() - started)
            loop = asyncio.new_event_loop()
            try:
                awaited = loop.run_until_complete(
                    timed_async(lambda: bridge.arun(client.call_tool("add", ARGS)), count)
                )
            finally:
                loop.close()
        finally:
            bridge.run(client.close())
    return {"bridge sync": sync, "bridge await": awaited}


def workbench_samples(connect: Callable[[Workbench], object], count: int) -> dict[str, list[float]]:
    """The whole call path: registry, validation, connection, Observation, history."""
    with Workbench() as wb:
        connect(wb)
        tool_id = f"{wb.servers()[0].name}.add"
        for _ in range(20):
            wb.call(tool_id, ARGS)
        sync = []
        for _ in range(count):
            started = time.perf_counter()
            wb.call(tool_id, ARGS)
            sync.append(time.perf_counter() - started)
        loop = asyncio.new_event_loop()
        try:
            awaited = loop.run_until_complete(timed_async(lambda: wb.acall(tool_id, ARGS), count))
        finally:
            loop.close()
    return {"workbench sync": sync, "workbench await": awaited}


def latency(count: int) -> None:
    print(f"Per-call latency of 'add', {count} sequential calls each (ms)")
    print(f"{'transport':<11}{'path':<16}{'median':>9}{'p95':>9}{'ratio':>8}")
    setups = {
        "in-memory": (lambda: build_demo_server(), lambda wb: wb.connect("demo")),
        "stdio": (
            lambda: StdioTransport(STDIO[0], STDIO[1:], keep_alive=False),
            lambda wb: wb.connect("stdio_demo", command=STDIO[0], args=STDIO[1:]),
        ),
    }
    for transport, (make_raw, connect) in setups.items():
        results = {"raw await": raw_client_samples(make_raw(), count)}
        results |= bridge_samples(make_raw(), count)
        results |= workbench_samples(connect, count)
        raw_median = summary(results["raw await"])[0]
        for path, samples in results.items():
            median, p95 = summary(samples)
            ratio = median / raw_median
            print(f"{transport:<11}{path:<16}{median:>9.3f}{p95:>9.3f}{ratio:>8.2f}")


def connect_command() -> list[str]:
    """server-everything (Node, as `make test` installs it) when present, else the demo.

    The demo is a Python process whose start is mostly CPU (imports), so on two cores five of
    them cannot start in parallel; a Node server shows what the workbench itself adds.
    """
    package = EVERYTHING / "package.json"
    node = shutil.which("node")
    if node and package.is_file():
        script = json.loads(package.read_text())["bin"]["mcp-server-everything"]
        return [node, str(EVERYTHING / script), "stdio"]
    return STDIO


def concurrent_connects(servers: int, command: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "mcp.json"
        entries = {f"s{i}": {"command": command[0], "args": command[1:]} for i in range(servers)}
        config.write_text(json.dumps({"mcpServers": entries}))
        singles = []
        for i in range(servers):
            with Workbench() as wb:
                started = time.perf_counter()
                wb.connect(f"s{i}", command=command[0], args=command[1:])
                singles.append(time.perf_counter() - started)
        with Workbench() as wb:
            started = time.perf_counter()
            wb.connect_config(config)
            together = time.perf_counter() - started
    slowest = max(singles)
    print(f"\nServer: {' '.join(command)}")
    print(f"Connecting {servers} stdio servers from one config: {together:.2f} s; "
          f"slowest single connect {slowest:.2f} s; ratio {together / slowest:.2f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--servers", type=int, default=5)
    options = parser.parse_args()
    latency(options.calls)
    if options.servers:
        command = connect_command()
        concurrent_connects(options.servers, command)
        # The same server behind a 1.5 s wait: a start that waits rather than computes (a
        # network round trip, a slow disk), where two cores do not limit the overlap.
        waiting = ["/bin/sh", "-c", 'sleep 1.5; exec "$0" "$@"', *command]
        concurrent_connects(options.servers, waiting)


if __name__ == "__main__":
    main()
