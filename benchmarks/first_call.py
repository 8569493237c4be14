"""The first seconds of a notebook, as Run All meets them: ``%load_ext workbench``, the first
``%mcp connect demo`` and the first ``%mcp call demo.add`` in a fresh kernel.

The three cells are queued at once, as Run All queues them, so nothing hides behind a
person's typing. Each figure is measured inside the kernel (``time.perf_counter`` around the
magic) and as the front end sees it (from the previous cell's reply to this one's).

    .venv/bin/python benchmarks/first_call.py [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parents[1]
CELLS = {
    "%load_ext workbench": "%load_ext workbench",
    "first %mcp connect demo": "%mcp connect demo",
    "first %mcp call demo.add": "%mcp call demo.add a=2 b=3",
}
TIMED = "import time as _t\n_s = _t.perf_counter()\n{line}\nprint(_t.perf_counter() - _s)"


def start_kernel(workdir: Path) -> tuple[KernelManager, BlockingKernelClient]:
    """An ipykernel running this interpreter, with its cwd at the project root."""
    spec_dir = workdir / "kernels" / "python3"
    spec_dir.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec = {"argv": argv, "display_name": "bench", "language": "python"}
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    km = KernelManager(
        kernel_name="python3",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(workdir / "kernels")]),
        connection_file=str(workdir / f"kernel-{uuid.uuid4().hex[:8]}.json"),
    )
    env = {**os.environ, "IPYTHONDIR": str(workdir / "ipython")}
    km.start_kernel(cwd=str(ROOT), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=60)
    return km, kc


def run_all(kc: BlockingKernelClient) -> dict[str, tuple[float, float]]:
    """Queue every cell, then wait: ``{label: (in the kernel, reply after previous reply)}``."""
    ids = {kc.execute(TIMED.format(line=line)): label for label, line in CELLS.items()}
    sent = time.monotonic()
    printed: dict[str, float] = {}
    replied: dict[str, float] = {}
    while len(replied) < len(ids):
        try:
            msg = kc.get_iopub_msg(timeout=60)
        except queue.Empty:
            raise TimeoutError(f"no output for 60 s; so far {replied}") from None
        label = ids.get(msg["parent_header"].get("msg_id", ""))
        if label is None:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream" and content["name"] == "stdout":
            printed[label] = float(content["text"].split()[-1])
        elif kind == "error":
            raise RuntimeError(f"{label}: {content['ename']}: {content['evalue']}")
        elif kind == "status" and content["execution_state"] == "idle":
            replied[label] = time.monotonic()
    figures: dict[str, tuple[float, float]] = {}
    previous = sent
    for label in CELLS:
        figures[label] = (printed[label], replied[label] - previous)
        previous = replied[label]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh kernels to time")
    runs = parser.parse_args().runs
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in CELLS}
    for run in range(runs):
        with tempfile.TemporaryDirectory() as folder:
            km, kc = start_kernel(Path(folder))
            try:
                figures = run_all(kc)
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)
        for label, pair in figures.items():
            samples[label].append(pair)
        shown = ", ".join(f"{label} {inner * 1000:.0f} ms" for label, (inner, _) in figures.items())
        print(f"run {run + 1}: {shown}", flush=True)
    print(f"\nmedian of {runs} fresh kernels, cells queued at once (Run All):")
    print(f"{'cell':<28}{'in the kernel':>16}{'reply to reply':>18}")
    for label, pairs in samples.items():
        inner = statistics.median(pair[0] for pair in pairs) * 1000
        outer = statistics.median(pair[1] for pair in pairs) * 1000
        print(f"{label:<28}{inner:>13.0f} ms{outer:>15.0f} ms")


if __name__ == "__main__":
    main()
