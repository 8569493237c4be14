"""Per-call latency through the bridge against raw client calls, and concurrent connects.

Prints median and p95 per call for: a raw ``await client.call_tool`` on one loop, the
bridge's sync call (``Workbench.call``), and the bridge's awaited call (``Workbench.acall``
from another loop); in-memory and over stdio. Then the time to connect five stdio servers
from one config against the slowest single connect. Ratios are taken within one run.

A ratio moves by about 0.1 from one process to the next on a quiet 2-core machine (which core
each thread lands on, the heap's layout), far more than within a process, so ``--repeats K``
measures K fresh processes one after another and prints each one's ratios and their median,
the figure to quote.

    .venv/bin/python benchmarks/bridge_latency.py [--calls 400] [--repeats 5]
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from fastmcp import Client
from fastmcp.client.transports import StdioTransport

from workbench.bridge import Bridge
from workbench.demo import build_demo_server
from workbench.session import Workbench

STDIO = [sys.executable, "-m", "workbench.demo"]
EVERYTHING = (
    Path(__file__).resolve().parents[1]
    / ".cache/servers/npm/node_modules/@modelcontextprotocol/server-everything"
)
ARGS = {"a": 1, "b": 2}
Samples = dict[str, list[float]]
Connect = Callable[[Workbench], object]
WARM_UP = 100  # calls before timing, so each path meets a warmed-up server and client


def summary(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95) - 1] * 1000


async def timed(call: Callable[[], Awaitable[object] | object]) -> float:
    """Seconds one call takes, awaiting it when it returns an awaitable."""
    started = time.perf_counter()
    result = call()
    if inspect.isawaitable(result):
        await result
    return time.perf_counter() - started


async def interleaved(
    make_transport: Callable[[], object], connect: Connect, count: int
) -> Samples:
    """Every path in turn, call after call, so drift on a shared machine hits all alike.

    Runs on a loop of its own that stands for the kernel's: the raw client lives on it; the
    bridge's client and the Workbench's connection live on their bridge loops.
    """
    async with Client(make_transport()) as raw:
        with Bridge() as bridge, Workbench() as wb:
            bridged = Client(make_transport())
            bridge.run(bridged.__aenter__())
            connect(wb)
            tool_id = f"{wb.servers()[0].name}.add"
            paths: dict[str, Callable[[], Awaitable[object] | object]] = {
                "raw await": lambda: raw.call_tool("add", ARGS),
                "bridge sync": lambda: bridge.run(bridged.call_tool("add", ARGS)),
                "bridge await": lambda: bridge.arun(bridged.call_tool("add", ARGS)),
                "workbench sync": lambda: wb.call(tool_id, ARGS),
                "workbench await": lambda: wb.acall(tool_id, ARGS),
            }
            samples: Samples = {path: [] for path in paths}
            try:
                for round_ in range(WARM_UP + count):
                    for path, call in paths.items():
                        seconds = await timed(call)
                        if round_ >= WARM_UP:
                            samples[path].append(seconds)
            finally:
                bridge.run(bridged.close())
    return samples


def latency(count: int, show: bool = True) -> dict[str, float]:
    """Measure every path; print its table (when ``show``) and return each path's ratio to
    the raw call, keyed ``"transport path"``."""
    ratios: dict[str, float] = {}
    if show:
        print(f"Per-call latency of 'add', {count} calls per path, paths interleaved (ms)")
        print(f"{'transport':<11}{'path':<16}{'median':>9}{'p95':>9}{'ratio':>8}")
    setups: dict[str, tuple[Callable[[], object], Connect]] = {
        "in-memory": (build_demo_server, lambda wb: wb.connect("demo")),
        "stdio": (
            lambda: StdioTransport(STDIO[0], STDIO[1:], keep_alive=False),
            lambda wb: wb.connect("stdio_demo", command=STDIO[0], args=STDIO[1:]),
        ),
    }
    for transport, (make_transport, connect) in setups.items():
        loop = asyncio.new_event_loop()
        try:
            results = loop.run_until_complete(interleaved(make_transport, connect, count))
        finally:
            loop.close()
        raw_median = summary(results["raw await"])[0]
        for path, samples in results.items():
            median, p95 = summary(samples)
            ratio = ratios[f"{transport} {path}"] = median / raw_median
            if show:
                print(f"{transport:<11}{path:<16}{median:>9.3f}{p95:>9.3f}{ratio:>8.2f}")
    return ratios


def repeated(count: int, repeats: int) -> None:
    """Each repeat in a fresh process, one after another; each one's ratios and the median."""
    runs: list[dict[str, float]] = []
    for _ in range(repeats):
        argv = [sys.executable, __file__, "--calls", str(count), "--servers", "0", "--ratios"]
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout.splitlines()[-1]))
    print(f"Ratio to a raw 'await client.call_tool' of 'add', {count} calls per path, "
          f"{repeats} processes")  # fmt: skip
    print(f"{'transport path':<27}{'runs':<{6 * repeats}}{'median':>7}")
    for key in runs[0]:
        values = [run[key] for run in runs]
        shown = "".join(f"{value:<6.2f}" for value in values)
        print(f"{key:<27}{shown}{statistics.median(values):>7.2f}")


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
    parser.add_argument(
        "--repeats", type=int, default=1, help="fresh processes to measure the calls in"
    )
    parser.add_argument("--ratios", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.ratios:  # one repeat of a --repeats run: its ratios as a JSON line
        print(json.dumps(latency(options.calls, show=False)))
        return
    if options.repeats > 1:
        repeated(options.calls, options.repeats)
    else:
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
