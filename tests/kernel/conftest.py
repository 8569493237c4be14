"""Start real ipykernels (from this interpreter) and run cells in them.

Fixtures:
- ``kernel``: a fresh kernel for one test (shut down afterwards).
- ``kernel_launcher``: session-scoped factory, ``kernel_launcher(env=None) -> KernelSession``,
  for module- or class-scoped kernels; every kernel it launched is shut down at session end.
- ``record_timing`` (from ``tests/conftest.py``): ``record_timing(label, seconds)``, listed
  in a "kernel timings" section of the terminal summary.

A :class:`KernelSession` has ``execute(code, timeout) -> (status, stdout, error)``, plus
``send(code) -> msg_id``, ``wait_for_stdout(msg_id, text)`` and ``collect(msg_id, timeout)``
to act (e.g. ``interrupt()``) mid-cell.
"""

from __future__ import annotations

import json
import os
import queue
import re
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

ROOT = Path(__file__).resolve().parents[2]
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def collect(
    kc: BlockingKernelClient,
    msg_id: str,
    timeout: float = 30.0,
    others: list[dict[str, Any]] | None = None,
) -> tuple[str, str, str]:
    """Gather one execute request's output until the kernel goes idle, then read its reply.

    Returns ``(status, stdout_text, error_text)``: status is the reply's ``ok``/``error``/
    ``aborted``; stdout_text is the ``stdout`` stream; error_text is the ``stderr`` stream plus
    any error (``ename: evalue`` and the traceback, ANSI codes stripped). iopub messages that
    belong to other requests are appended to ``others`` if given, else dropped.
    """
    deadline = time.monotonic() + timeout
    stdout: list[str] = []
    errors: list[str] = []

    def left() -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(
                f"cell did not finish within {timeout} s; stdout so far: {''.join(stdout)!r}, "
                f"errors so far: {''.join(errors)!r}"
            )
        return remaining

    while True:
        try:
            msg = kc.get_iopub_msg(timeout=min(left(), 1.0))
        except queue.Empty:
            continue
        if msg["parent_header"].get("msg_id") != msg_id:
            if others is not None:
                others.append(msg)
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            (stdout if content["name"] == "stdout" else errors).append(content["text"])
        elif kind == "error":
            errors.append(f"{content['ename']}: {content['evalue']}\n")
            errors.append(_ANSI.sub("", "\n".join(content["traceback"])) + "\n")
        elif kind == "status" and content["execution_state"] == "idle":
            break
    while True:
        try:
            reply = kc.get_shell_msg(timeout=min(left(), 1.0))
        except queue.Empty:
            continue
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply["content"]["status"], "".join(stdout), "".join(errors)


def execute(kc: BlockingKernelClient, code: str, timeout: float = 30.0) -> tuple[str, str, str]:
    """Run one cell and return ``(status, stdout_text, error_text)`` (see :func:`collect`)."""
    return collect(kc, kc.execute(code), timeout)


@dataclass
class KernelSession:
    """A running kernel and a connected client."""

    km: KernelManager
    kc: BlockingKernelClient
    log_path: Path
    _log: IO[str] | None = field(default=None, repr=False)

    def execute(self, code: str, timeout: float = 30.0) -> tuple[str, str, str]:
        return execute(self.kc, code, timeout)

    def send(self, code: str) -> str:
        """Start a cell without waiting; pair with :meth:`collect`."""
        msg_id: str = self.kc.execute(code)
        return msg_id

    def collect(
        self, msg_id: str, timeout: float = 30.0, others: list[dict[str, Any]] | None = None
    ) -> tuple[str, str, str]:
        return collect(self.kc, msg_id, timeout, others)

    def wait_for_stdout(self, msg_id: str, text: str, timeout: float = 30.0) -> str:
        """Block until a running cell has printed ``text``; return its stdout so far.

        The messages read here are consumed: a later :meth:`collect` sees only what follows.
        """
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while text not in "".join(seen):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{text!r} not printed within {timeout} s: {''.join(seen)!r}")
            try:
                msg = self.kc.get_iopub_msg(timeout=min(remaining, 1.0))
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "stream" and content["name"] == "stdout":
                seen.append(content["text"])
            elif kind == "error" or (kind == "status" and content["execution_state"] == "idle"):
                raise AssertionError(f"cell ended before printing {text!r}: {''.join(seen)!r}")
        return "".join(seen)

    def interrupt(self) -> None:
        self.km.interrupt_kernel()

    def kernel_log(self) -> str:
        """The kernel process's own stdout/stderr (not the cells' output)."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def shutdown(self) -> None:
        self.kc.stop_channels()
        if self.km.has_kernel:
            self.km.shutdown_kernel(now=True)
        if self._log is not None:
            self._log.close()
            self._log = None


def launch_kernel(workdir: Path, env: dict[str, str] | None = None) -> KernelSession:
    """Start an ipykernel running this interpreter (the venv's), with cwd at the project root."""
    spec_dir = workdir / "kernels" / "python3"
    spec_dir.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "workbench tests",
        "language": "python",
        "interrupt_mode": "signal",
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    km = KernelManager(
        kernel_name="python3",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(workdir / "kernels")]),
        connection_file=str(workdir / f"kernel-{uuid.uuid4().hex[:8]}.json"),
    )
    assert km.kernel_spec is not None
    assert km.kernel_spec.argv[0] == sys.executable
    kernel_env = {
        **os.environ,
        "IPYTHONDIR": str(workdir / "ipython"),
        "JUPYTER_RUNTIME_DIR": str(workdir / "runtime"),
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        **(env or {}),
    }
    log_path = workdir / "kernel.log"
    log = log_path.open("w")
    km.start_kernel(env=kernel_env, cwd=str(ROOT), stdout=log, stderr=log)
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=60)
    except Exception:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
        log.close()
        raise
    return KernelSession(km=km, kc=kc, log_path=log_path, _log=log)


@pytest.fixture(scope="session")
def kernel_launcher(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., KernelSession]]:
    sessions: list[KernelSession] = []

    def launch(env: dict[str, str] | None = None) -> KernelSession:
        session = launch_kernel(tmp_path_factory.mktemp("kernel"), env)
        sessions.append(session)
        return session

    yield launch
    for session in sessions:
        session.shutdown()


@pytest.fixture
def kernel(kernel_launcher: Callable[..., KernelSession]) -> Iterator[KernelSession]:
    session = kernel_launcher()
    yield session
    session.shutdown()


NEST_PATCHES = {
    "no patch": "",
    "nest_asyncio": "import nest_asyncio\nnest_asyncio.apply()",
    "nest_asyncio2": "import nest_asyncio2\nnest_asyncio2.apply()",
}


@dataclass(frozen=True)
class NestPatch:
    """How a kernel's loop is patched before a test's setup runs: the name and its code."""

    name: str
    code: str


@pytest.fixture(scope="module", params=list(NEST_PATCHES))
def nest_patch(request: pytest.FixtureRequest) -> NestPatch:
    """Each kernel scenario runs unpatched, under nest_asyncio and under nest-asyncio2."""
    return NestPatch(request.param, NEST_PATCHES[request.param])
