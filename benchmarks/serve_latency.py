"""Serving's figures (issues 13 and 29) in one run: a served call's latency against the same
tool on a plain FastMCP server and called in-process with ``wb.call``, and ``tools/list`` time
at 1,000 tools, served and plain.

- in-process: ``wb.call("notebook.add", ...)`` from plain Python (the kernel's own path:
  registry -> Action -> in-process notebook server -> Observation -> history);
- served: a ``fastmcp.Client`` in another process calling ``add`` over streamable HTTP with
  the bearer token (the served call then takes that same path inside the workbench), in
  both protocol eras (``legacy``: a handshake session; ``auto``: 2026-07-28);
- plain: the same function as a tool of a bare ``FastMCP`` server (``run(transport="http")``
  in a process of its own), called by the same client process in the same era, in turn
  with the served one call after call; issue 29's goal is served/plain at most 1.5 in both
  eras;
- tools/list: 1,000 tools, the whole list walked by ``list_tools()`` with 100 tools a page
  (10 requests) and with one 1,000-tool page, in both eras, served and plain (the goal:
  served/plain at most 2).

Medians and 95th percentiles of 300 calls after 20 warm-up calls; one run, printed.

    .venv/bin/python benchmarks/serve_latency.py
"""

from __future__ import annotations

import contextlib
import json
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

from workbench.session import Workbench
from workbench.tools.from_function import FunctionTool

CALLS, WARM = 300, 20

CLIENT = r"""
import asyncio, json, sys, time
from fastmcp import Client

async def main(targets, mode, calls, warm, lists):
    # One client per server, call after call in turn, so drift on a shared machine hits all.
    clients = [Client(url, auth=token, mode=mode) for url, token in targets]
    for client in clients:
        await client.__aenter__()
    times, listed, tools = [[] for _ in clients], [[] for _ in clients], []
    for round_ in range(warm + calls):
        for client, spent in zip(clients, times):
            started = time.perf_counter()
            await client.call_tool("add", {"a": round_, "b": 1})
            if round_ >= warm:
                spent.append(time.perf_counter() - started)
    for _ in range(lists):
        for client, spent in zip(clients, listed):
            started = time.perf_counter()
            tools.append(len(await client.list_tools()))
            spent.append(time.perf_counter() - started)
    for client in clients:
        await client.__aexit__(None, None, None)
    print(json.dumps({"calls": times, "lists": listed, "tools": tools}))

mode, calls, warm, lists, *rest = sys.argv[1:]
targets = list(zip(rest[::2], rest[1::2]))
asyncio.run(main(targets, mode, int(calls), int(warm), int(lists)))
"""


PLAIN = r"""
import sys
from fastmcp import FastMCP

def add(a: int, b: int) -> int:
    "Add two numbers."
    return a + b

port, tools, page = (int(arg) for arg in sys.argv[1:4])
mcp = FastMCP("plain", list_page_size=page or None)
mcp.tool(add)
for i in range(tools - 1):
    mcp.tool(add, name=f"tool_{i:04d}")
mcp.run(transport="http", host="127.0.0.1", port=port, show_banner=False, log_level="warning")
"""


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def outside(
    targets: list[tuple[str, str]], mode: str, calls: int = CALLS, lists: int = 0
) -> dict[str, Any]:
    """From a client process: per target (url, token), ``calls`` call times and ``lists``
    whole-list times, the targets interleaved call by call."""
    flat = [part for target in targets for part in target]
    args = [mode, str(calls), str(WARM), str(lists), *flat]
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@contextlib.contextmanager
def plain_server(tools: int = 1, page_size: int = 0) -> Iterator[str]:
    """The URL of a plain FastMCP server serving ``add`` (and ``tools - 1`` copies) in a
    process of its own, for as long as the block runs."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    args = [sys.executable, "-c", PLAIN, str(port), str(tools), str(page_size)]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the plain FastMCP server did not start")
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def main() -> None:
    with Workbench() as wb:
        wb.add_tools(add)
        for i in range(WARM):
            wb.call("notebook.add", {"a": i, "b": 1})
        local = []
        for i in range(CALLS):
            started = time.perf_counter()
            wb.call("notebook.add", {"a": i, "b": 1})
            local.append(time.perf_counter() - started)
        handle = wb.serve()
        assert handle.token is not None
        print(f"{CALLS} calls of notebook.add, ms (median / p95)")
        base, base95 = summary(local)
        print(f"  in-process wb.call        {base:7.2f} / {base95:7.2f}")
        with plain_server() as plain_url:
            for mode in ("legacy", "auto"):
                timed = outside([(handle.url, handle.token), (plain_url, "unused")], mode)
                served, plain = (summary(times) for times in timed["calls"])
                print(
                    f"  served, {mode:<6} client    {served[0]:7.2f} / {served[1]:7.2f}"
                    f"   x{served[0] / base:.1f} the in-process median"
                )
                print(
                    f"  plain,  {mode:<6} client    {plain[0]:7.2f} / {plain[1]:7.2f}"
                    f"   served/plain {served[0] / plain[0]:.2f}"
                )

        echo = [FunctionTool(add, name=f"tool_{i:04d}") for i in range(999)]
        wb.add_tools(*echo)
        print("tools/list of 1,000 tools, whole list (5 runs), ms (median)")
        for page_size in (100, 1000):
            handle = wb.serve(page_size=page_size)
            assert handle.token is not None
            pages = -(-1000 // page_size)
            with plain_server(1000, page_size) as plain_url:
                for mode in ("legacy", "auto"):
                    targets = [(handle.url, handle.token), (plain_url, "unused")]
                    listed = outside(targets, mode, calls=1, lists=5)
                    assert set(listed["tools"]) == {1000}
                    mine, theirs = (statistics.median(t) * 1000 for t in listed["lists"])
                    print(
                        f"  {page_size:>4} a page ({pages:>2} requests), {mode:<6}  served "
                        f"{mine:7.1f}  plain {theirs:7.1f}  served/plain {mine / theirs:.2f}"
                    )


if __name__ == "__main__":
    main()
