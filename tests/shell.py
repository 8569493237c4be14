"""One in-process IPython shell (``IPython.testing.globalipapp``) with the extension loaded.

Fixtures for the magics' tests (``tests/magics``) and the extension's (``tests/test_extension.py``),
registered by ``tests/conftest.py``:
- ``ip``: the shell, extension loaded, the demo server connected (once per session).
- ``state``: the kernel's KernelState (its Workbench, cell id, live browsers).
- ``mcp``: ``mcp("call demo.add a=1")`` runs ``%mcp ...`` and returns ``(value, captured)``,
  where captured holds stdout, stderr and every displayed mime bundle.
- ``snapshot``: what a usage error must leave unchanged (servers, tools, history, namespace).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.testing.globalipapp import get_ipython
from IPython.utils.capture import CapturedIO, capture_output

import workbench
from workbench.kernel import KernelState
from workbench.magics import WorkbenchMagics

Mcp = Callable[[str], tuple[Any, CapturedIO]]


@pytest.fixture(scope="session")
def ip() -> Iterator[InteractiveShell]:
    shell: InteractiveShell = get_ipython()
    shell.run_line_magic("load_ext", "workbench")
    shell.run_line_magic("mcp", "connect demo")
    yield shell
    shell.run_line_magic("unload_ext", "workbench")


@pytest.fixture
def state(ip: InteractiveShell) -> KernelState:
    magics = ip.magics_manager.registry["WorkbenchMagics"]
    assert isinstance(magics, WorkbenchMagics)
    return magics.state


@pytest.fixture
def mcp(ip: InteractiveShell) -> Mcp:
    def run(line: str) -> tuple[Any, CapturedIO]:
        with capture_output() as captured:
            value = ip.run_line_magic("mcp", line)
        return value, captured

    return run


@pytest.fixture
def snapshot(ip: InteractiveShell, state: KernelState) -> Callable[[], Any]:
    def take() -> Any:
        wb = state.workbench
        assert wb is workbench.current()
        return (
            [(info.name, info.status, info.tool_count) for info in wb.servers()],
            [entry.id for entry in wb.registry],
            len(wb.history),
            {e.name: wb.tool_owner(e.name) for e in wb.registry if e.server == "notebook"},
            sorted(name for name in ip.user_ns if not name.startswith("_")),
        )

    return take
