"""The figures of issue 12 in one run, each in real kernels: how fast an interrupt frees the
kernel for every way of waiting on a call, the first call of a Run All, search time against
query length, the kernel's memory after large results, and the saved notebook's size.

- interrupt to idle: a 30 s ``demo.slow_count`` is interrupted (``interrupt_kernel()``)
  about 1 s after it started, for ``wb.call``, ``%mcp call``, ``await wb.acall``,
  ``wb.submit().result()`` and ``await asyncio.wrap_future(wb.submit(...))``, 3 times each;
  the time from the interrupt to the kernel's idle status, and how the history recorded it.
- first call: ``%load_ext``, ``%mcp connect demo``, ``%mcp call demo.add`` queued at once in a
  fresh kernel (``first_call.py``'s measurement).
- search: ``Registry.search`` at 10,000 tools for 1 to 100,000 characters
  (``search_query_length.py``'s catalog and queries; the slowest of its three shapes).
- memory: the kernel's VmRSS (``/proc``) before and after 8 ``%mcp call`` cells of a notebook
  tool returning 5 MB, and what the history holds whole.
- notebook size: a notebook calling notebook tools that return 10 MB of text and 10 MB of
  structured content, executed with nbclient and saved, against the same notebook with the
  output bound (``MAX_BYTES``) lifted.

    .venv/bin/python benchmarks/reliability.py
"""

from __future__ import annotations

import json
import queue
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import nbformat
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from first_call import run_all, start_kernel
from search_query_length import LENGTHS, ROOT, median_ms, shapes  # ROOT: now on sys.path

from tests.catalogs import synthetic_catalog

SLOW = '"demo.slow_count", {"seconds": 30, "steps": 30}'
WAYS = {
    "wb.call": f"wb.call({SLOW})",
    "%mcp call": "%mcp call demo.slow_count seconds=30 steps=30",
    "await wb.acall": f"await wb.acall({SLOW})",
    "wb.submit().result()": f"wb.submit({SLOW}).result()",
    "await asyncio.wrap_future(wb.submit())": f"await asyncio.wrap_future(wb.submit({SLOW}))",
}
SETUP = (
    "%load_ext workbench\n"
    "import asyncio, os, workbench\n"
    "wb = workbench.current()\n"
    'wb.connect("demo")\n'
    "print(os.getpid())"
)
BIG_TOOL = (
    "%%tool\n"
    "def big(n: int = 5_000_000) -> str:\n"
    '    """Return n characters, a large result."""\n'
    '    return "x" * n\n'
)
IDLE_LIMIT = 45.0
REPEATS = 3


def run(kc: BlockingKernelClient, code: str, timeout: float = 60.0) -> str:
    """Run a cell and return its stdout; raise on an error or a timeout."""
    msg_id = kc.execute(code)
    out: list[str] = []
    deadline = time.monotonic() + timeout
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=max(deadline - time.monotonic(), 0.01))
        except queue.Empty:
            raise TimeoutError(f"cell did not finish in {timeout} s: {code[:60]!r}") from None
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream" and content["name"] == "stdout":
            out.append(content["text"])
        elif kind == "error":
            raise RuntimeError(f"{content['ename']}: {content['evalue']} in {code[:60]!r}")
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(out)


def wait_idle(kc: BlockingKernelClient, msg_id: str, limit: float) -> float | None:
    """Seconds until the cell ``msg_id`` ends (idle), or None past ``limit``."""
    started = time.monotonic()
    while time.monotonic() - started < limit:
        try:
            msg = kc.get_iopub_msg(timeout=0.05)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return time.monotonic() - started
    return None


def wait_stdout(kc: BlockingKernelClient, msg_id: str, text: str, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    seen = ""
    while text not in seen:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{text!r} not printed in {limit} s")
        try:
            msg = kc.get_iopub_msg(timeout=0.2)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "stream":
            seen += msg["content"]["text"]


def kernel(work: Path) -> tuple[KernelManager, BlockingKernelClient]:
    folder = Path(tempfile.mkdtemp(dir=work))
    return start_kernel(folder)


def stop(km: KernelManager, kc: BlockingKernelClient) -> None:
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def interrupt_once(km: KernelManager, kc: BlockingKernelClient, line: str) -> tuple[float, str]:
    """Start a slow call, interrupt it after 1 s: (seconds to idle or inf, history status)."""
    count = int(run(kc, "print(len(wb.history.last()))").strip())
    msg_id = kc.execute(f'print("started", flush=True)\n{line}')
    wait_stdout(kc, msg_id, "started")
    time.sleep(1.0)
    km.interrupt_kernel()
    idle = wait_idle(kc, msg_id, IDLE_LIMIT)
    if idle is None:
        return float("inf"), "kernel still busy"
    time.sleep(0.5)
    status = run(
        kc,
        f"calls = wb.history.last()[{count}:]\n"
        'print(calls[0].status if calls else "still running")',
    ).strip()
    return idle, status


def interrupts(work: Path) -> list[tuple[str, str, str, str]]:
    """(way, median and slowest interrupt to idle, history statuses) per way of waiting."""
    km, kc = kernel(work)
    rows = []
    try:
        run(kc, SETUP)
        for label, line in WAYS.items():
            idles, statuses = [], set()
            for _ in range(REPEATS):
                idle, status = interrupt_once(km, kc, line)
                idles.append(idle)
                statuses.add(status)
                if idle == float("inf"):  # stuck in this call: the rest need a new kernel
                    stop(km, kc)
                    km, kc = kernel(work)
                    run(kc, SETUP)
            row = (label, seconds(statistics.median(idles)), seconds(max(idles)))
            rows.append((*row, ", ".join(sorted(statuses))))
            print(f"  interrupt {label}: {row[1]} (slowest {row[2]}), {rows[-1][3]}", flush=True)
    finally:
        stop(km, kc)
    return rows


def seconds(value: float) -> str:
    return f"{value:.2f} s" if value != float("inf") else f"> {IDLE_LIMIT:.0f} s"


def first_call(work: Path) -> dict[str, tuple[float, float]]:
    km, kc = kernel(work)
    try:
        return run_all(kc)
    finally:
        stop(km, kc)


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"VmRSS:\s+(\d+) kB", status)
    return int(match.group(1)) / 1000 if match else float("nan")


def memory(work: Path) -> list[tuple[str, str]]:
    km, kc = kernel(work)
    rows = []
    try:
        pid = int(run(kc, "import os; print(os.getpid())").strip())
        rows.append(("fresh kernel", f"{rss_mb(pid):.0f} MB"))
        run(kc, SETUP)
        run(kc, BIG_TOOL)
        run(kc, "%mcp call notebook.big n=10")
        rows.append(("demo connected, notebook.big defined", f"{rss_mb(pid):.0f} MB"))
        for _ in range(8):
            run(kc, "%mcp call notebook.big")
        rows.append(("after 8 calls of 5 MB", f"{rss_mb(pid):.0f} MB"))
        held = run(
            kc,
            "h = wb.history\nprint(sum(c.trimmed for c in h.last()), len(h), h.held, h.budget)",
        ).split()
        rows.append(
            (
                "history: trimmed / calls, held / budget",
                f"{held[0]} / {held[1]}, {int(held[2]) / 1e6:.0f} M / {int(held[3]) / 1e6:.0f} M",
            )
        )
    finally:
        stop(km, kc)
    return rows


ROWS_TOOL = (
    "%%tool\n"
    "def rows(n: int = 280_000) -> dict[str, list[dict[str, object]]]:\n"
    '    """Return n rows, about 10 MB of structured content."""\n'
    '    return {"rows": [{"id": i, "name": f"row {i}"} for i in range(n)]}\n'
)
NOTEBOOK_CALLS = {
    "10 MB text": "%mcp call notebook.big n=10000000",
    "10 MB structured": "%mcp call notebook.rows",
}


def saved_notebook(work: Path, bounded: bool) -> dict[str, int]:
    """Bytes of each 10 MB call's output in a saved notebook, and of the whole file."""
    cells = ["%load_ext workbench", BIG_TOOL, ROWS_TOOL, *NOTEBOOK_CALLS.values()]
    if not bounded:
        cells.insert(1, "import workbench.display.observation as o\no.MAX_BYTES = 10**9")
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    client = NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(ROOT)}}
    )
    client.execute()
    target = work / f"big-{'bounded' if bounded else 'unbounded'}.ipynb"
    nbformat.write(notebook, str(target))
    sizes = {"whole file": target.stat().st_size}
    for label, code in NOTEBOOK_CALLS.items():
        cell = next(c for c in notebook.cells if c.source == code)
        sizes[label] = len(json.dumps(cell.outputs, ensure_ascii=False).encode())
    return sizes


def search() -> list[tuple[int, float]]:
    registry = synthetic_catalog()
    rows = []
    for length in LENGTHS:
        times = [median_ms(registry.search, query) for query in shapes(length)]
        rows.append((length, max(times)))
    return rows


def table(title: str, rows: list[tuple[Any, ...]], heads: tuple[str, ...]) -> None:
    print(f"\n{title}")
    widths = [max(len(str(x)) for x in column) for column in zip(heads, *rows, strict=True)]
    for row in (heads, *rows):
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths, strict=True)).rstrip())


def main() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        print("interrupts ...", flush=True)
        stops = interrupts(work)
        print("first call ...", flush=True)
        first = first_call(work)
        print("memory ...", flush=True)
        rss = memory(work)
        print("saved notebooks ...", flush=True)
        bounded = saved_notebook(work, bounded=True)
        unbounded = saved_notebook(work, bounded=False)
    print("search ...", flush=True)
    searched = search()

    table(
        f"interrupt 1 s into a 30 s demo.slow_count ({REPEATS} times each)",
        stops,
        ("way", "median to idle", "slowest", "history"),
    )
    table(
        "first cells of a Run All (fresh kernel)",
        [(k, f"{a * 1000:.0f} ms", f"{b * 1000:.0f} ms") for k, (a, b) in first.items()],
        ("cell", "in the kernel", "reply to reply"),
    )
    table(
        "search at 10,000 tools (slowest of prose / one word / distinct words)",
        [(f"{n:,}", f"{ms:.2f} ms") for n, ms in searched],
        ("characters", "median"),
    )
    table("kernel memory, 8 %mcp call cells of 5 MB", rss, ("moment", "value"))
    table(
        "saved notebook with a 10 MB text and a 10 MB structured result",
        [
            (
                label,
                f"{bounded[label] / 1000:,.1f} kB",
                f"{unbounded[label] / 1000:,.1f} kB",
                f"x{unbounded[label] / bounded[label]:,.1f}",
            )
            for label in bounded
        ],
        ("bytes of", "bounded (100 kB)", "bound lifted", "lifted / bounded"),
    )
    print(f"\nwhole run: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
