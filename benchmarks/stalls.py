"""What the stall watchdog (``workbench/bridge/stalls.py``) buys and costs, issue 28 item 3.

One real ipykernel (unpatched) with a Workbench and ``@tool`` notebook tools, called with a
sync ``wb.call`` so the kernel's loop is blocked and the async tool is displaced to a worker
loop. Every figure is taken twice in the same kernel: with the watchdog as shipped, and with
it switched off (``stalls.diagnose`` replaced by a function returning None in the kernel; the
package is not edited).

- stall shapes the watchdog recognises: the tool awaits a cell's fresh ``asyncio.Event``,
  ``Queue`` or ``Lock`` (held by the cell), or work handed to the kernel's loop with
  ``run_coroutine_threadsafe``; plus a cell's Queue already bound to the kernel's loop by an
  earlier wait (asyncio's own "bound to a different event loop" error, no watchdog needed).
  Time from the call to its Observation and the Observation's kind and message, at a per-call
  timeout of 5 s and at the default (60 s; ``--no-default`` skips those, 4 minutes).
- control shapes it must not flag: ``asyncio.sleep``, ``asyncio.to_thread``, a socket read,
  and the tool's own Event or future that another thread sets (``call_soon_threadsafe``, the
  usual bridge from a callback API), each ending after 0.6 s.
- cost on ordinary calls: median and 90th percentile latency of 300 quick calls of an async
  notebook tool (``wb.call``, displaced; the watchdog's timer is armed each call), in
  alternating blocks of 50 with it, without it, and without it and with ``stalls.bound_to``
  (which ``_unbind`` runs after every displaced call) returning nothing; ``await wb.acall``
  (on the kernel's loop, no watchdog) beside them.
- cost per check: CPU time (``time.thread_time``) of one ``diagnose`` on an idle loop with N
  tasks waiting on Events (the full path, which walks ``gc.get_referrers``) and on sleeps
  (stops at the timers), and of ``bound_to`` (also run by ``_unbind`` after every displaced
  call), in the kernel, whose heap size is printed.

    .venv/bin/python benchmarks/stalls.py [--no-default]
"""

from __future__ import annotations

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
import workbench.bridge.stalls as stalls
from workbench import Workbench, tool

wb = Workbench()
kernel_loop = asyncio.get_running_loop()
shipped = stalls.diagnose

def watchdog(on):
    stalls.diagnose = shipped if on else (lambda *args, **kwargs: None)

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

def timed_call(name, on, timeout):
    watchdog(on)
    try:
        started = time.monotonic()
        result = wb.call("notebook." + name, timeout=timeout)
        seconds = time.monotonic() - started
    finally:
        watchdog(True)
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
shipped_bound_to = stalls.bound_to

def latencies(mode, calls):
    watchdog(mode == "on")
    if mode == "off, no bound_to":
        stalls.bound_to = lambda loop: []
    out = []
    try:
        for _ in range(calls):
            started = time.perf_counter()
            assert not wb.call("notebook.quick").is_error
            out.append(time.perf_counter() - started)
    finally:
        watchdog(True)
        stalls.bound_to = shipped_bound_to
    return out

modes = ("on", "off", "off, no bound_to")
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
PER_CHECK = f"""
def per_check(count, shape):
    found = {{}}
    def main():
        loop = asyncio.new_event_loop()
        events = [asyncio.Event() for _ in range(count)]
        async def wait(event):
            if shape == "Event":
                await event.wait()
            else:
                await asyncio.sleep(3600)
        tasks = [loop.create_task(wait(event)) for event in events]
        loop.run_until_complete(asyncio.sleep(0))
        loop.run_until_complete(asyncio.sleep(0))
        reps = max(5, 200 // count)
        started = time.thread_time()
        for _ in range(reps):
            reason = stalls.diagnose(loop, None, ())
        found["diagnose"] = (time.thread_time() - started) / reps
        found["reason"] = (reason or "None")[:40]
        started = time.thread_time()
        for _ in range(reps):
            bound = stalls.bound_to(loop)
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
    for shape in ("Event", "sleep"):
        rows[f"{{count}} {{shape}}"] = per_check(count, shape)
print(json.dumps(rows))
"""


def call(kc: Any, name: str, prepare: str, on: bool, timeout: float | None) -> dict[str, Any]:
    code = (prepare + "\n" if prepare else "") + f"timed_call({name!r}, {on}, {timeout!r})"
    return dict(json.loads(run(kc, code, timeout=(timeout or 60) + 60)))


def cell(outcome: dict[str, Any]) -> str:
    message = " ".join(str(outcome["message"]).split())
    if len(message) > 70:
        message = message[:67] + "..."
    return f"{outcome['seconds']:6.2f} s  {outcome['kind']:<10} {message}"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    timeouts: list[float | None] = [5.0] if "--no-default" in sys.argv else [5.0, None]
    with tempfile.TemporaryDirectory() as work:
        km, kc = start_kernel(Path(work))
        try:
            print(run(kc, SETUP + "\nprint(sys.version.split()[0])", timeout=120).strip())
            print("\n## time from wb.call(...) to its Observation (watchdog on / off)")
            messages: dict[str, str] = {}
            for timeout in timeouts:
                label = f"{timeout:g} s" if timeout else "default (60 s)"
                for shape, name in {**STALLS, **CONTROLS}.items():
                    prepare = PREPARE.get(shape, "")
                    for on in (True, False):
                        if timeout is None and not on and shape in CONTROLS:
                            continue  # same as at 5 s: they end on their own
                        outcome = call(kc, name, prepare, on, timeout)
                        state = "on " if on else "off"
                        print(f"{label:<15} {shape:<33} {state} {cell(outcome)}")
                        text = str(outcome["message"]).replace(name, "<tool>")
                        text = re.sub(r"0x[0-9a-f]+", "0x...", text)
                        if outcome["kind"] != "ok" and text not in messages:
                            messages[text] = f"{shape}, watchdog {state.strip()}, {label}"
            print("\n## the messages in full")
            for text, where in messages.items():
                print(f"- {where}:\n  {text}")
            latency = json.loads(run(kc, LATENCY, timeout=600))
            print(f"\n## {QUICK_CALLS} quick calls of an async notebook tool (ms)")
            print(f"{'':<28}{'median':>8}{'p90':>8}")
            for key, label in (
                ("on", "wb.call, watchdog on"),
                ("off", "wb.call, watchdog off"),
                ("off, no bound_to", "wb.call, off, no _unbind"),
                ("awaited", "await wb.acall (none)"),
            ):
                values = latency[key]
                median = sorted(values)[len(values) // 2] * 1000
                print(f"{label:<28}{median:8.2f}{percentile(values, 0.9) * 1000:8.2f}")
            on, off = (sorted(latency[key])[QUICK_CALLS // 2] for key in ("on", "off"))
            print(f"median on/off: {on / off:.3f}")
            checks = json.loads(run(kc, PER_CHECK, timeout=600))
            print(
                f"\n## CPU per check in the kernel (Python {checks.pop('python')}, "
                f"{checks.pop('objects')} gc objects), microseconds"
            )
            print(f"{'tasks waiting on':<20}{'diagnose':>10}{'bound_to':>10}  verdict")
            for label, row in checks.items():
                print(
                    f"{label:<20}{row['diagnose'] * 1e6:10.0f}{row['bound_to'] * 1e6:10.0f}"
                    f"  {row['reason']} ({row['bound']} objects bound)"
                )
            run(kc, "wb.close()", timeout=30)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
