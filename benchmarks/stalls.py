"""Stuck notebook tools without a watchdog, issue 28 item 3: what the timeout gives, what
``_unbind`` costs.

One real ipykernel (unpatched) with a Workbench and ``@tool`` notebook tools, called with a
sync ``wb.call`` so the kernel's loop is blocked and the async tool is displaced to a worker
loop. The package guesses nothing: a displaced tool stuck on what only the kernel's loop
could provide runs until its call's timeout, whose message then says to ``await`` the call.

- stuck shapes: the tool awaits a cell's fresh ``asyncio.Event``, ``Queue`` or ``Lock`` (held
  by the cell), or work handed to the kernel's loop with ``run_coroutine_threadsafe``; plus a
  cell's Queue already bound to the kernel's loop by an earlier wait (asyncio's own "bound to
  a different event loop" error, at once). Time from the call to its Observation, its kind
  and message, at a per-call timeout of ``--timeout`` s (5 by default).
- shapes that only look stuck: ``asyncio.sleep``, ``asyncio.to_thread``, a socket read, and
  the tool's own Event or future that another thread sets (``call_soon_threadsafe``, the
  usual bridge from a callback API; the watchdog stopped the Event one as stuck at 0.59 s),
  each ending after 0.6 s.
- cost on ordinary calls: median and 90th percentile latency of 300 quick calls of an async
  notebook tool (``wb.call``, displaced), in alternating blocks of 50 as shipped and with
  ``bound_to`` (which ``_unbind`` runs after every displaced call) returning nothing;
  ``await wb.acall`` (on the kernel's loop, no worker) beside them.
- cost of ``bound_to`` alone: CPU time (``time.thread_time``) of one call on a loop with N
  tasks waiting on Events, in the kernel, whose heap size is printed.

    .venv/bin/python benchmarks/stalls.py [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from first_call import start_kernel
from reliability import run

QUICK_CALLS = 300
BLOCK = 50
TASK_COUNTS = (1, 10, 100, 1000)
SETUP = """
import asyncio, gc, json, socket, statistics, sys, threading, time
import workbench.bridge.notebook as notebook
from workbench import Workbench, tool

wb = Workbench()
kernel_loop = asyncio.get_running_loop()

@tool
async def wait_event() -> str:
    "Waits on a cell's Event."
    await cell_event.wait()
    return "set"

@tool
async def wait_queue() -> str:
    "The next item of a cell's Queue."
    return str(await cell_queue.get())

@tool
async def wait_lock() -> str:
    "Takes a Lock a cell holds."
    async with cell_lock:
        return "locked"

@tool
async def hand_over() -> str:
    "Runs a coroutine on the kernel's loop and waits for it."
    async def on_kernel():
        return "ran on the kernel's loop"
    return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(on_kernel(), kernel_loop))

@tool
async def sleep() -> str:
    "asyncio.sleep(0.6)"
    await asyncio.sleep(0.6)
    return "slept"

@tool
async def in_thread() -> str:
    "asyncio.to_thread(time.sleep, 0.6)"
    await asyncio.to_thread(time.sleep, 0.6)
    return "slept in a thread"

@tool
async def read_socket() -> str:
    "A socket read another thread answers after 0.6 s."
    mine, theirs = socket.socketpair()
    mine.setblocking(False)
    threading.Timer(0.6, theirs.send, args=(b"x",)).start()
    try:
        return (await asyncio.get_running_loop().sock_recv(mine, 1)).decode()
    finally:
        mine.close()
        theirs.close()

@tool
async def thread_sets_event() -> str:
    "Its own Event, set by another thread through call_soon_threadsafe after 0.6 s."
    event, loop = asyncio.Event(), asyncio.get_running_loop()
    threading.Timer(0.6, loop.call_soon_threadsafe, args=(event.set,)).start()
    await event.wait()
    return "set by a thread"

@tool
async def thread_sets_future() -> str:
    "Its own future, set by another thread through call_soon_threadsafe after 0.6 s."
    loop = asyncio.get_running_loop()
    future = loop.create_future()
    threading.Timer(0.6, loop.call_soon_threadsafe, args=(future.set_result, "set")).start()
    return await future

@tool
async def quick() -> str:
    "Returns at once."
    return "ok"

wb.add_tools(
    wait_event, wait_queue, wait_lock, hand_over, sleep, in_thread, read_socket,
    thread_sets_event, thread_sets_future, quick,
)

def timed_call(name, timeout):
    started = time.monotonic()
    result = wb.call("notebook." + name, timeout=timeout)
    seconds = time.monotonic() - started
    kind = result.error_kind.value if result.is_error else "ok"
    text = result.error_message if result.is_error else result.text
    print(json.dumps({"seconds": seconds, "kind": kind, "message": text}))
"""
PREPARE = {
    "fresh Event": "cell_event = asyncio.Event()",
    "fresh Queue": "cell_queue = asyncio.Queue()",
    "fresh Lock (held by the cell)": "cell_lock = asyncio.Lock()\nawait cell_lock.acquire()",
    "run_coroutine_threadsafe": "",
    "Queue bound to the kernel's loop": (
        "cell_queue = asyncio.Queue()\n"
        "try:\n    await asyncio.wait_for(cell_queue.get(), 0.01)\n"
        "except asyncio.TimeoutError:\n    pass"
    ),
}
STALLS = {
    "fresh Event": "wait_event",
    "fresh Queue": "wait_queue",
    "fresh Lock (held by the cell)": "wait_lock",
    "run_coroutine_threadsafe": "hand_over",
    "Queue bound to the kernel's loop": "wait_queue",
}
CONTROLS = {
    "asyncio.sleep": "sleep",
    "asyncio.to_thread": "in_thread",
    "socket read": "read_socket",
    "own Event a thread sets": "thread_sets_event",
    "own future a thread sets": "thread_sets_future",
}
LATENCY = f"""
shipped_bound_to = notebook.bound_to

def latencies(mode, calls):
    if mode == "no bound_to":
        notebook.bound_to = lambda loop: []
    out = []
    try:
        for _ in range(calls):
            started = time.perf_counter()
            assert not wb.call("notebook.quick").is_error
            out.append(time.perf_counter() - started)
    finally:
        notebook.bound_to = shipped_bound_to
    return out

modes = ("shipped", "no bound_to")
times = {{mode: [] for mode in modes}}
for block in range({QUICK_CALLS // BLOCK}):
    for mode in modes:
        times[mode].extend(latencies(mode, {BLOCK}))
awaited = []
for _ in range({QUICK_CALLS}):
    started = time.perf_counter()
    assert not (await wb.acall("notebook.quick")).is_error
    awaited.append(time.perf_counter() - started)
times["awaited"] = awaited
print(json.dumps(times))
"""
PER_CALL = f"""
def per_call(count):
    found = {{}}
    def main():
        loop = asyncio.new_event_loop()
        events = [asyncio.Event() for _ in range(count)]
        tasks = [loop.create_task(event.wait()) for event in events]
        loop.run_until_complete(asyncio.sleep(0))
        reps = max(5, 200 // count)
        started = time.thread_time()
        for _ in range(reps):
            bound = notebook.bound_to(loop)
        found["bound_to"] = (time.thread_time() - started) / reps
        found["bound"] = len(bound)
        for task in tasks:
            task.cancel()
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
        loop.close()
    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    return found

rows = {{"objects": len(gc.get_objects()), "python": sys.version.split()[0]}}
for count in {TASK_COUNTS!r}:
    rows[str(count)] = per_call(count)
print(json.dumps(rows))
"""


def call(kc: Any, name: str, prepare: str, timeout: float) -> dict[str, Any]:
    code = (prepare + "\n" if prepare else "") + f"timed_call({name!r}, {timeout!r})"
    return dict(json.loads(run(kc, code, timeout=timeout + 60)))


def cell(outcome: dict[str, Any]) -> str:
    message = " ".join(str(outcome["message"]).split())
    if len(message) > 70:
        message = message[:67] + "..."
    return f"{outcome['seconds']:6.2f} s  {outcome['kind']:<10} {message}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=5.0, help="per-call timeout (s)")
    timeout = parser.parse_args().timeout
    with tempfile.TemporaryDirectory() as work:
        km, kc = start_kernel(Path(work))
        try:
            print(run(kc, SETUP + "\nprint(sys.version.split()[0])", timeout=120).strip())
            print(f"\n## time from wb.call(..., timeout={timeout:g}) to its Observation")
            messages: dict[str, str] = {}
            for shape, name in {**STALLS, **CONTROLS}.items():
                outcome = call(kc, name, PREPARE.get(shape, ""), timeout)
                print(f"{shape:<33} {cell(outcome)}")
                text = str(outcome["message"]).replace(name, "<tool>")
                text = re.sub(r"0x[0-9a-f]+", "0x...", text)
                if outcome["kind"] != "ok" and text not in messages:
                    messages[text] = shape
            print("\n## the messages in full")
            for text, where in messages.items():
                print(f"- {where}:\n  {text}")
            latency = json.loads(run(kc, LATENCY, timeout=600))
            print(f"\n## {QUICK_CALLS} quick calls of an async notebook tool (ms)")
            print(f"{'':<34}{'median':>8}{'p90':>8}")
            for key, label in (
                ("shipped", "wb.call (displaced, _unbind)"),
                ("no bound_to", "wb.call, bound_to returning []"),
                ("awaited", "await wb.acall (kernel's loop)"),
            ):
                values = latency[key]
                median = sorted(values)[len(values) // 2] * 1000
                print(f"{label:<34}{median:8.2f}{percentile(values, 0.9) * 1000:8.2f}")
            shipped, bare = (
                sorted(latency[key])[QUICK_CALLS // 2] for key in ("shipped", "no bound_to")
            )
            print(f"median shipped / without bound_to: {shipped / bare:.1f}")
            checks = json.loads(run(kc, PER_CALL, timeout=600))
            print(
                f"\n## CPU of one bound_to in the kernel (Python {checks.pop('python')}, "
                f"{checks.pop('objects')} gc objects)"
            )
            print(f"{'tasks waiting on Events':<26}{'ms':>8}")
            for label, row in checks.items():
                print(f"{label:<26}{row['bound_to'] * 1e3:8.1f}  ({row['bound']} objects bound)")
            run(kc, "wb.close()", timeout=30)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
