"""Fixtures for serving tests: a Workbench serving notebook tools, and outside clients.

An outside client is a real ``fastmcp.Client`` in another process (``outside_client.py``),
driven one JSON line at a time, so nothing in this process stands in for the network.

``served`` is the conformance kernel: the fixture notebooks (tests/fixtures/conformance*.ipynb,
in name order) run in a real kernel and served with `%mcp serve --no-auth`. It is
session-scoped on purpose: test_conformance.py (suite 0.1.16) and test_conformance_sets.py
(the next suite's requirement sets) both use it, and `make test` runs under pytest-xdist
``--dist loadscope``, a module's tests to one worker. A module-scoped fixture would start one
kernel per module even when both modules land on the same worker; a session-scoped one is
started once per worker that needs it (at most one per worker, none on a worker that never
asks) and stopped when that worker's session ends.
"""

from __future__ import annotations

import asyncio
import re
import socket
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastmcp import Client

from tests.clients import ROOT, conformance_js, conformance_next_js
from tests.kernel.conftest import KernelSession, launch_kernel
from tests.processes import JsonLines

SCRIPT = Path(__file__).with_name("outside_client.py")
T = TypeVar("T")


class Outside(JsonLines):
    """One outside client process; ``ask(line)`` sends a command and returns its answer."""

    def __init__(self, url: str, token: str | None, mode: str = "legacy") -> None:
        super().__init__(
            [sys.executable, str(SCRIPT), url, token or "-", mode], stderr=subprocess.PIPE
        )
        assert self.read(60) == {"ready": True}

    def close(self) -> None:
        self.quit()

    def silence(self) -> str:
        self.process.kill()
        _, err = self.process.communicate(timeout=10)
        return f"the outside client gave no answer:\n{err[-3000:]}"


@pytest.fixture
def outside() -> Iterator[type[Outside]]:
    """Start outside clients with ``outside(url, token, mode)``; all are stopped after."""
    started: list[Outside] = []

    class Tracked(Outside):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            started.append(self)

    yield Tracked
    for client in started:
        client.close()


def with_client(
    url: str, token: str | None, work: Callable[[Client[Any]], Awaitable[T]], mode: str = "auto"
) -> T:
    """Run ``work(client)`` with a real ``fastmcp.Client`` over HTTP, on a loop of the test's
    own (the server runs on the Workbench's bridge loop, in another thread)."""

    async def main() -> T:
        async with Client(url, auth=token, mode=mode) as client:  # type: ignore[arg-type]
            return await work(client)

    return asyncio.run(main())


CONFORMANCE_NOTEBOOKS = sorted((ROOT / "tests" / "fixtures").glob("conformance*.ipynb"))
SERVE = "%mcp serve --no-auth"
URL = "import workbench\nprint(workbench.current().served.url)"
STOP = "%mcp serve --stop"


@pytest.fixture(scope="session")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The conformance fixture notebooks run in a real kernel and served; yields the URL."""
    import nbformat  # here: the 3.10/3.13 bridge runs (scripts/test_pythons.py) load this file

    conformance_js()  # a missing client fails here, before a kernel starts
    conformance_next_js()
    kernel: KernelSession = launch_kernel(tmp_path_factory.mktemp("conformance-kernel"))
    try:
        for path in CONFORMANCE_NOTEBOOKS:
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type != "code":
                    continue
                status, _, error = kernel.execute(cell.source, timeout=60)
                assert status == "ok", f"{path.name}: fixture cell failed:\n{cell.source}\n{error}"
        status, stdout, error = kernel.execute(SERVE, timeout=30)
        assert status == "ok" and "No auth" in stdout, stdout + error
        status, stdout, error = kernel.execute(URL, timeout=30)
        url = stdout.strip()
        assert status == "ok" and re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", url), stdout + error
        yield url
        status, stdout, error = kernel.execute(STOP, timeout=30)
        assert status == "ok" and "Stopped serving" in stdout, stdout + error
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
    finally:
        kernel.shutdown()
