"""Serving's figures (issue 13) in one run: a served call's latency against the same notebook
tool called in-process with ``wb.call``, and ``tools/list`` time at 1,000 served tools.

- in-process: ``wb.call("notebook.add", ...)`` from plain Python (the kernel's own path:
  registry -> Action -> in-process notebook server -> Observation -> history);
- served: a ``fastmcp.Client`` in another process calling ``add`` over streamable HTTP with
  the bearer token (the served call then takes that same path inside the workbench), in
  both protocol eras (``legacy``: a handshake session; ``auto``: 2026-07-28);
- tools/list: 1,000 notebook tools served, the whole list walked by ``list_tools()`` with
  100 tools a page (10 requests) and with one 1,000-tool page.

Medians and 95th percentiles of 300 calls after 20 warm-up calls; one run, printed. A plain
FastMCP server served the same way shows the same per-request times (about 11 ms a call for
a handshake-era client, about 50 ms for a 2026-07-28 one): that cost is the libraries'.

    .venv/bin/python benchmarks/serve_latency.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from typing import Any

from workbench.session import Workbench
from workbench.tools.from_function import FunctionTool

CALLS, WARM = 300, 20

CLIENT = r"""
import asyncio, json, statistics, sys, time
from fastmcp import Client

async def main(url, token, mode, calls, warm):
    async with Client(url, auth=token, mode=mode) as client:
        for i in range(warm):
            await client.call_tool("add", {"a": i, "b": 1})
        times = []
        for i in range(calls):
            started = time.perf_counter()
            await client.call_tool("add", {"a": i, "b": 1})
            times.append(time.perf_counter() - started)
        lists = []
        for _ in range(5):
            started = time.perf_counter()
            tools = await client.list_tools()
            lists.append(time.perf_counter() - started)
        print(json.dumps({"calls": times, "lists": lists, "tools": len(tools)}))

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])))
"""


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.95)] * 1000


def outside(url: str, token: str, mode: str, calls: int = CALLS) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", CLIENT, url, token, mode, str(calls), str(WARM)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


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
        for mode in ("legacy", "auto"):
            served = outside(handle.url, handle.token, mode)
            median, p95 = summary(served["calls"])
            print(
                f"  served, {mode:<6} client    {median:7.2f} / {p95:7.2f}"
                f"   x{median / base:.1f} the in-process median"
            )

        echo = [FunctionTool(add, name=f"tool_{i:04d}") for i in range(999)]
        wb.add_tools(*echo)
        print("tools/list of 1,000 served tools, whole list (5 runs), ms (median)")
        for page_size in (100, 1000):
            handle = wb.serve(page_size=page_size)
            assert handle.token is not None
            served = outside(handle.url, handle.token, "auto", calls=1)
            assert served["tools"] == 1000
            pages = -(-1000 // page_size)
            print(
                f"  {page_size:>4} a page ({pages:>2} requests)   "
                f"{statistics.median(served['lists']) * 1000:7.1f}"
            )


if __name__ == "__main__":
    main()
