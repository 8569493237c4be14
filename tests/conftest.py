"""Plumbing every test directory shares: a fresh Workbench (``wb``), and measured timings
listed in the terminal summary.

``record_timing(label, seconds)`` files a timing under the test's directory ("kernel
timings", "browser timings"), so latencies measured by slow tests show up in CI logs. They
are reported, never asserted: performance targets live in ``benchmarks/``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from tests.shell import ip, mcp, snapshot, state
from workbench.session import Workbench

__all__ = ["ip", "mcp", "snapshot", "state"]  # the shell's fixtures, for every test module


@pytest.fixture(scope="session", autouse=True)
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The workbench's data folder (served tokens, OAuth caches) in a test folder, for
    kernels started by tests too, never the user's."""
    given = os.environ.get("WORKBENCH_DATA_DIR")
    os.environ["WORKBENCH_DATA_DIR"] = given or str(tmp_path_factory.mktemp("data"))
    yield
    if given is None:
        os.environ.pop("WORKBENCH_DATA_DIR", None)


@pytest.fixture
def wb() -> Iterator[Workbench]:
    """A fresh Workbench, closed (with every server it started) after the test. A module
    that wants more (say the demo connected) overrides it as ``def wb(wb): ...``."""
    with Workbench() as workbench:
        yield workbench


_TIMINGS = pytest.StashKey[dict[str, list[tuple[str, float]]]]()


Recorder = Callable[[str, float], None]


@pytest.fixture(scope="session")
def timing_section(request: pytest.FixtureRequest) -> Callable[[str], Recorder]:
    """``timing_section("browser")`` -> a recorder for that section (for session fixtures)."""

    def section(name: str) -> Recorder:
        rows = request.config.stash.setdefault(_TIMINGS, {}).setdefault(name, [])
        return lambda label, seconds: rows.append((label, seconds))

    return section


@pytest.fixture
def record_timing(
    request: pytest.FixtureRequest, timing_section: Callable[[str], Recorder]
) -> Recorder:
    """A recorder for the section named after the test's directory."""
    return timing_section(request.path.parent.name)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    for section, rows in config.stash.get(_TIMINGS, {}).items():
        if rows:
            terminalreporter.section(f"{section} timings")
            for label, seconds in rows:
                terminalreporter.write_line(f"{seconds * 1000:8.0f} ms  {label}")
