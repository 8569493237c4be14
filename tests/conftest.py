"""Plumbing every test directory shares: a fresh Workbench (``wb``), and measured timings
listed in the terminal summary.

``record_timing(label, seconds)`` files a timing under the test's directory ("kernel
timings", "browser timings"), so latencies measured by slow tests show up in CI logs. They
are reported, never asserted: performance targets live in ``benchmarks/``. ``make test`` runs
the suite on pytest-xdist workers, so each process appends its timings to a file of its own
in a folder the first process made, and that process lists them all at the end.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

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


_TIMINGS_DIR = "WORKBENCH_TEST_TIMINGS"  # the folder, inherited by xdist's workers


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and _TIMINGS_DIR not in os.environ:
        os.environ[_TIMINGS_DIR] = tempfile.mkdtemp(prefix="workbench-timings-")


Recorder = Callable[[str, float], None]


@pytest.fixture(scope="session")
def timing_section() -> Callable[[str], Recorder]:
    """``timing_section("browser")`` -> a recorder for that section (for session fixtures)."""
    rows = Path(os.environ[_TIMINGS_DIR]) / f"{os.getpid()}.jsonl"

    def section(name: str) -> Recorder:
        def record(label: str, seconds: float) -> None:
            with rows.open("a") as out:
                out.write(json.dumps([name, label, seconds]) + "\n")

        return record

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
    folder = os.environ.get(_TIMINGS_DIR)
    if hasattr(config, "workerinput") or not folder:
        return
    sections: dict[str, list[tuple[str, float]]] = {}
    for rows in sorted(Path(folder).glob("*.jsonl")):
        for line in rows.read_text().splitlines():
            name, label, seconds = json.loads(line)
            sections.setdefault(name, []).append((label, seconds))
    shutil.rmtree(folder, ignore_errors=True)
    for section, timings in sections.items():
        terminalreporter.section(f"{section} timings")
        for label, seconds in timings:
            terminalreporter.write_line(f"{seconds * 1000:8.0f} ms  {label}")
