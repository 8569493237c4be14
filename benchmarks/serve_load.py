"""Served notebook under load (G3's benchmark): many concurrent authorised calls from several
client processes, and what became of each, against a plain FastMCP server in the same run.

Each call carries its own number ``n``; the tool itself notes every ``n`` it runs, so the
figures say how many calls were sent, how many ran on the server (and whether any ran twice),
and how many the client library lost (an error at the client, whether or not the call ran).
The reliability probe found that fastmcp's client loses about half of 250 concurrent calls
on one session against both servers, while every call that arrived ran exactly once: the
last column says whether that still holds.

- ``workbench serve``: ``wb.serve()`` in this process (uvicorn on the bridge loop, bearer
  token, connection guard), a sync notebook tool ``work(n)``;
- ``plain FastMCP``: the same tool in a FastMCP server of its own process, served by uvicorn
  with FastMCP's ``http_app()`` (no auth).

Each load is ``PROCESSES x SESSIONS x CALLS`` (calls at once per session, all sessions of a
process at once). Defaults: the probe's 4 x 1 x 250, then 4 x 25 x 10. One run, printed.

    .venv/bin/python benchmarks/serve_load.py [--loads 4x1x250,4x25x10] [--mode auto|legacy]

One run on the shared 2-core machine (G3's fix in): 4 x 1 x 250, workbench 500 answered, 500
lost by the client (496 of them ran), 996 ran; plain FastMCP 509 answered, 491 lost (all
ran), 1,000 ran. 4 x 25 x 10: workbench 915 answered, 966 ran; plain 1,000 and 1,000. No call
ran twice and none was answered without running, on either server. The losses are the
client's and vary from run to run: four more 4 x 25 x 10 loads against ``wb.serve()`` lost
303 and 139 calls with the connection guard swapped out, 10 and 0 with it.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastmcp import Client

from workbench.session import Workbench

CLIENT = r"""
import asyncio, json, sys
from fastmcp import Client

async def session(url, token, mode, numbers):
    ok, errors = [], {}
    try:
        async with Client(url, auth=token, mode=mode, timeout=300) as client:
            async def one(n):
                try:
                    await client.call_tool("work", {"n": n})
                    ok.append(n)
                except Exception as error:
                    errors[n] = f"{type(error).__name__}: {error}"[:120]
            await asyncio.gather(*(one(n) for n in numbers))
    except Exception as error:  # the session itself failed (connect, or on closing)
        for n in numbers:
            if n not in ok:
                errors.setdefault(n, f"session: {type(error).__name__}: {error}"[:120])
    return ok, errors

async def main(url, token, mode, first, sessions, calls):
    token = None if token == "-" else token
    found = await asyncio.gather(*(
        session(url, token, mode, range(first + s * calls, first + (s + 1) * calls))
        for s in range(sessions)
    ))
    ok = [n for done, _ in found for n in done]
    errors = {n: e for _, failed in found for n, e in failed.items() if n not in set(ok)}
    print(json.dumps({"ok": ok, "errors": errors}))

asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], *map(int, sys.argv[4:7])))
"""

PLAIN = r"""
import json, socket, sys, threading
import uvicorn
from fastmcp import FastMCP

mcp = FastMCP("plain")
ran, lock = [], threading.Lock()

@mcp.tool
def work(n: int) -> int:
    "Note n as run."
    with lock:
        ran.append(n)
    return n

@mcp.tool
def executed() -> list[int]:
    "Every n run so far."
    with lock:
        return list(ran)

listening = socket.socket()
listening.bind(("127.0.0.1", 0))
print(json.dumps({"port": listening.getsockname()[1]}), flush=True)
config = uvicorn.Config(mcp.http_app(path="/mcp"), log_level="error", access_log=False)
uvicorn.Server(config).run(sockets=[listening])
"""


@dataclass
class Outcome:
    sent: int = 0
    ok: set[int] = field(default_factory=set)
    errors: dict[int, str] = field(default_factory=dict)
    ran: collections.Counter[int] = field(default_factory=collections.Counter)
    wall: float = 0.0


def load(url: str, token: str | None, mode: str, shape: tuple[int, int, int]) -> Outcome:
    """Fire one load from ``processes`` client processes at once; what each client saw."""
    processes, sessions, calls = shape
    per_process = sessions * calls
    outcome = Outcome(sent=processes * per_process)
    started = time.perf_counter()
    clients = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT, url, token or "-", mode, *numbers(p, shape)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for p in range(processes)
    ]
    for p, client in enumerate(clients):
        try:
            out, _ = client.communicate(timeout=600)
            seen = json.loads(out.strip().splitlines()[-1])
        except (subprocess.TimeoutExpired, ValueError, IndexError) as error:
            client.kill()
            client.communicate()
            why = f"client process: {error!r}"[:120]
            first = p * per_process
            seen = {"ok": [], "errors": dict.fromkeys(range(first, first + per_process), why)}
        outcome.ok.update(seen["ok"])
        outcome.errors.update({int(n): message for n, message in seen["errors"].items()})
    outcome.wall = time.perf_counter() - started
    return outcome


def numbers(process: int, shape: tuple[int, int, int]) -> list[str]:
    """A client process's arguments: its first call number, sessions, calls a session."""
    _, sessions, calls = shape
    return [str(process * sessions * calls), str(sessions), str(calls)]


def report(name: str, outcome: Outcome) -> None:
    arrived = len(outcome.ran)
    twice = sum(1 for count in outcome.ran.values() if count > 1)
    lost = len(outcome.errors)
    lost_after_running = sum(1 for n in outcome.errors if n in outcome.ran)
    answered_unrun = len(outcome.ok - set(outcome.ran))
    once = twice == 0 and answered_unrun == 0
    print(
        f"  {name:<16} {outcome.sent:>5} sent {len(outcome.ok):>5} answered {lost:>5} lost "
        f"by the client ({lost_after_running} of them ran) {arrived:>5} ran {twice:>3} twice  "
        f"{outcome.wall:6.1f} s  every call that arrived ran once: {'yes' if once else 'NO'}"
    )
    if outcome.errors:
        common = collections.Counter(outcome.errors.values()).most_common(2)
        print("  " + " " * 17 + "; ".join(f"{count} x {message}" for message, count in common))


def served(mode: str, shapes: list[tuple[int, int, int]]) -> list[Outcome]:
    ran: collections.Counter[int] = collections.Counter()
    lock = threading.Lock()

    def work(n: int) -> int:
        """Note n as run."""
        with lock:
            ran[n] += 1
        return n

    outcomes = []
    with Workbench() as wb:
        wb.add_tools(work)
        handle = wb.serve()
        for shape in shapes:
            ran.clear()
            outcome = load(handle.url, handle.token, mode, shape)
            with lock:
                outcome.ran = collections.Counter(ran)
            outcomes.append(outcome)
        print(f"  (workbench connection guard: {handle.guard.counts})")
    return outcomes


def plain(mode: str, shapes: list[tuple[int, int, int]]) -> list[Outcome]:
    outcomes = []
    for shape in shapes:  # a fresh server each load: its notes start empty
        server = subprocess.Popen([sys.executable, "-c", PLAIN], stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            url = f"http://127.0.0.1:{json.loads(server.stdout.readline())['port']}/mcp"
            outcome = load(url, None, mode, shape)
            outcome.ran = collections.Counter(ask(url, lambda c: c.call_tool("executed", {})))
            outcomes.append(outcome)
        finally:
            server.terminate()
            server.wait(15)
    return outcomes


def ask(url: str, call: Callable[[Client[Any]], Any]) -> Any:
    async def main() -> Any:
        async with Client(url) as client:
            result = await call(client)
            return result.data

    return asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", default="4x1x250,4x25x10")
    parser.add_argument("--mode", default="auto", choices=["auto", "legacy"])
    options = parser.parse_args()
    shapes = [
        (int(p), int(s), int(c))
        for p, s, c in (load.split("x") for load in options.loads.split(","))
    ]
    print(f"fastmcp client, mode {options.mode}; a sync tool that notes each call it runs")
    ours, theirs = served(options.mode, shapes), plain(options.mode, shapes)
    for shape, mine, baseline in zip(shapes, ours, theirs, strict=True):
        print("{} processes x {} sessions x {} calls at once".format(*shape))
        report("workbench serve", mine)
        report("plain FastMCP", baseline)


if __name__ == "__main__":
    main()
