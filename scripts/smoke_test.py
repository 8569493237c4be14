"""Smoke test of an installed workbench: run with the Python of a venv that has the wheel and
JupyterLab (`make dist` and tests/workshop/test_wheelhouse.py do), never this checkout's.

It checks what a person who runs `pip install jupyter-mcp-workbench jupyterlab` meets first:
JupyterLab lists the extension enabled, and in a real kernel `%load_ext workbench` loads and a
demo tool answers. Exits non-zero with the reason on the first thing that fails.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

EXTENSION = "mcp-workbench"
CELLS = [
    "%load_ext workbench",
    "%mcp connect demo",
    "result = %mcp call demo.add a=2 b=3\nprint('sum:', result.structured_content)",
]
TIMEOUT = 120.0


def fail(message: str) -> None:
    print(f"smoke test failed: {message}", file=sys.stderr)
    raise SystemExit(1)


def check_installed_outside_the_checkout() -> None:
    import workbench

    checkout = Path(__file__).resolve().parents[1]
    if Path(workbench.__file__).resolve().parent == checkout / "workbench":
        fail(f"workbench is imported from this checkout ({workbench.__file__}), not the wheel")


def check_extension_listed() -> None:
    listed = subprocess.run(
        [sys.executable, "-m", "jupyterlab.labextensions", "list"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", listed.stdout + listed.stderr)
    if not re.search(rf"{EXTENSION} v\S+ enabled\s+OK", text):
        fail(f"JupyterLab does not list {EXTENSION} enabled:\n{text}")
    print(f"ok: JupyterLab lists {EXTENSION} enabled")


def run_cell(client: Any, code: str) -> str:
    """Run one cell to its end; what it printed and displayed, or fail on an error."""
    msg_id = client.execute(code)
    shown: list[str] = []
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        try:
            msg = client.get_iopub_msg(timeout=1)
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "error":
            fail(f"{code!r} raised {content['ename']}: {content['evalue']}")
        if kind == "stream":
            shown.append(content["text"])
        elif kind in ("display_data", "execute_result"):
            shown.append(content["data"].get("text/plain", ""))
        elif kind == "status" and content["execution_state"] == "idle":
            return "".join(shown)
    fail(f"{code!r} did not finish in {TIMEOUT:.0f} s")
    return ""


def check_kernel() -> None:
    from jupyter_client.manager import KernelManager

    manager = KernelManager(kernel_name="python3", transport="ipc")
    manager.start_kernel()
    client = manager.client()
    client.start_channels()
    client.wait_for_ready(timeout=TIMEOUT)
    try:
        shown = [run_cell(client, code) for code in CELLS]
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    if not re.search(r"sum: \{'result': 5(\.0)?\}", shown[-1]):
        fail(f"demo.add a=2 b=3 did not answer 5: {shown[-1]!r}")
    print("ok: in a kernel, %load_ext workbench, %mcp connect demo and demo.add answered 5")


def main() -> None:
    check_installed_outside_the_checkout()
    check_extension_listed()
    check_kernel()


if __name__ == "__main__":
    main()
