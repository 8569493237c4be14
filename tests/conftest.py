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
import time
from collections import defaultdict
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest

from tests.shell import ip, mcp, snapshot, state
from workbench.mcp.warm_up import defer_iri_grammar
from workbench.session import Workbench

# The IRI grammar that importing jsonschema builds (about 3 s of CPU, in each pytest process,
# while it collects: nbformat imports jsonschema) waits until a test checks an ``iri`` format,
# as it does in a kernel where the workbench connects (workbench/mcp/warm_up.py; its own tests
# run fresh interpreters).
defer_iri_grammar()

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


# The slow kinds first: a module's rank is the sum of its tests' markers' weights (the binder
# image, build and kernel, first of all). Building venvs and wheels takes minutes; browsers and
# kernels tens of seconds; most unmarked modules well under one.
_WEIGHTS = {"build": 8, "browser": 4, "kernel": 2, "integration": 1}


@pytest.hookimpl(trylast=True)  # after the directories' own hooks have added their markers
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slowest modules first, each module's tests in their own order. make test hands a
    module to a worker in this order (``--dist loadscope --no-loadscope-reorder``): a long
    module started last would keep one worker busy while the other has nothing left, and
    xdist's own reordering (most tests first) puts the few-test builds and browsers last."""
    ranks: dict[str, int] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        marks = {mark.name for mark in item.iter_markers()} & _WEIGHTS.keys()
        ranks[module] = max(ranks.get(module, 0), sum(_WEIGHTS[name] for name in marks))
    items.sort(key=lambda item: -ranks[item.nodeid.split("::", 1)[0]])  # stable: ties keep order


_TIMINGS_DIR = "WORKBENCH_TEST_TIMINGS"  # the folder, inherited by xdist's workers


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput") and _TIMINGS_DIR not in os.environ:
        os.environ[_TIMINGS_DIR] = tempfile.mkdtemp(prefix="workbench-timings-")


Recorder = Callable[[str, float], None]


def _rows_file() -> Path:
    """This process's file of timing rows in the run's folder."""
    return Path(os.environ[_TIMINGS_DIR]) / f"{os.getpid()}.jsonl"


_MODULES = "modules"  # the section of each module's wall time (its fixtures included)
_SLOWEST_MODULES = 25
_module_seconds: defaultdict[str, float] = defaultdict(float)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """Add each test's wall time (setup and teardown included, so a module's fixtures too)
    to its module's: the summary lists the slowest modules and each process's busy time, to
    keep ``make test`` inside its time."""
    started = time.monotonic()
    try:
        return (yield)
    finally:
        _module_seconds[item.nodeid.split("::", 1)[0]] += time.monotonic() - started


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get(_TIMINGS_DIR)
    if folder and _module_seconds:
        worker = getattr(session.config, "workerinput", {}).get("workerid", "main")
        with _rows_file().open("a") as out:
            for module, seconds in _module_seconds.items():
                out.write(json.dumps([_MODULES, f"{worker} {module}", seconds]) + "\n")


@pytest.fixture(scope="session")
def timing_section() -> Callable[[str], Recorder]:
    """``timing_section("browser")`` -> a recorder for that section (for session fixtures)."""
    rows = _rows_file()

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
    modules = sections.pop(_MODULES, [])
    for section, timings in sections.items():
        terminalreporter.section(f"{section} timings")
        for label, seconds in timings:
            terminalreporter.write_line(f"{seconds * 1000:8.0f} ms  {label}")
    if modules:
        _summarise_modules(terminalreporter, modules)


def _summarise_modules(reporter: pytest.TerminalReporter, rows: list[tuple[str, float]]) -> None:
    """Each process's busy time, then the slowest modules and the process that ran each."""
    busy: defaultdict[str, float] = defaultdict(float)
    for label, seconds in rows:
        busy[label.split(" ", 1)[0]] += seconds
    reporter.section(f"slowest {_SLOWEST_MODULES} modules (wall time, fixtures included)")
    shown = ", ".join(f"{worker} {seconds:.0f} s" for worker, seconds in sorted(busy.items()))
    reporter.write_line(f"busy: {shown}")
    for label, seconds in sorted(rows, key=lambda row: -row[1])[:_SLOWEST_MODULES]:
        worker, module = label.split(" ", 1)
        reporter.write_line(f"{seconds:8.1f} s  {worker:<5} {module}")
