"""Registries filled from real servers for the search lab's tests.

The demo server runs in-process (FastMCP's in-memory transport); its tools reach the
registry exactly as a connection's ``tools/list`` hands them over.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from workbench import Registry
from workbench.demo.server import build_demo_server


def listed_tools(server: Any) -> list[Any]:
    """The MCP ``Tool`` objects a real server lists, over the in-memory transport."""

    async def listing() -> list[Any]:
        async with Client(server) as client:
            return list(await client.list_tools())

    return asyncio.run(listing())


@pytest.fixture(scope="session")
def demo_tools() -> list[Any]:
    return listed_tools(build_demo_server())


@pytest.fixture
def demo_registry(demo_tools: list[Any]) -> Registry:
    registry = Registry()
    registry.add_tools("demo", demo_tools)
    return registry


@pytest.fixture(autouse=True)
def _vectors_in_a_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Embedders cache vectors on disk: never in the developer's cache."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))


# The real stdio servers that `make test` installs (a missing one fails, never skips).
from tests.mcp.conftest import everything_js, everything_stdio, time_server  # noqa: E402

__all__ = ["everything_js", "everything_stdio", "time_server"]
