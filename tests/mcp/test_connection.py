"""Connection: a named server's calls, straight through the facade (no Workbench checks)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from workbench.session import Workbench
from workbench.tools import ErrorKind


@pytest.fixture
def wb() -> Iterator[Workbench]:
    workbench = Workbench()
    workbench.connect("demo")
    yield workbench
    workbench.close()


@pytest.mark.parametrize("timeout", [0, -1, float("nan"), "1", False])
def test_f5_a_connection_refuses_a_timeout_that_is_no_limit(wb: Workbench, timeout: object) -> None:
    connection = wb._manager.get("demo")
    started = time.perf_counter()
    observation = wb._bridge.run(
        connection.call("slow_count", {"seconds": 5, "steps": 5}, timeout=timeout)  # type: ignore[arg-type]
    )
    assert time.perf_counter() - started < 2  # 0 is never "no limit"
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "demo.slow_count: timeout:" in observation.text
