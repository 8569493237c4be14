"""Drive JupyterLab and Notebook 7 in Debian's Chromium (never a downloaded browser).

Every test in this directory is marked ``browser`` (``-m "not browser"`` leaves them out).

Fixtures:
- ``chromium``: session-scoped, the browser binary's path (``$WORKBENCH_CHROMIUM``, else
  /usr/bin/chromium, else ``chromium`` on PATH). None found is an error in every browser
  test's setup, with the install command: a missing browser must never pass as a skip.
- ``jupyter_server``: session-scoped :class:`~jupyter_browser.JupyterServer`, ``jupyter lab``
  from this venv on 127.0.0.1 with a random token; its per-user directories are temporary.
- ``browser``: module-scoped Playwright ``Browser`` (Chromium, headless); see its docstring.
- ``lab``: a :class:`~jupyter_browser.LabPage` for one test: a fresh browser context (viewport
  1400x2000), its own copy of ``notebooks/`` on the server, screenshots under
  ``test-artifacts/browser/<test>/``. Afterwards its kernels are shut down; if the test failed
  a ``failure.png`` and ``failure.txt`` are saved; page errors nobody allowed fail the test.
- ``record_timing`` (from ``tests/conftest.py``): ``record_timing(label, seconds)``, listed
  under "browser timings" in the terminal summary (``lab`` records open and run-all times).
"""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.browser.jupyter_browser import (
    ARTIFACTS,
    CHROMIUM_ARGS,
    ROOT,
    VIEWPORT,
    ChromiumMissing,
    JupyterServer,
    LabPage,
    chromium_path,
    slug,
    start_jupyter_server,
)

HERE = Path(__file__).parent
_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report, so the ``lab`` fixture knows whether its test failed."""
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    return report


@pytest.fixture(scope="session")
def chromium() -> str:
    try:
        return chromium_path()
    except ChromiumMissing as error:
        missing = str(error)
    pytest.fail(missing, pytrace=False)  # outside `except`: no chained traceback


@pytest.fixture(scope="session")
def jupyter_server(
    tmp_path_factory: pytest.TempPathFactory, timing_section: Callable[[str], Callable[..., None]]
) -> Iterator[JupyterServer]:
    server = start_jupyter_server(tmp_path_factory.mktemp("jupyter"))
    timing_section("browser")("jupyter lab: start until /api/status answers", server.started_in)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    """Per module, not per session: Playwright's sync API keeps its event loop marked as
    running in the main thread until it stops, and later tests (bridge, demo) need none."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def lab(
    request: pytest.FixtureRequest,
    browser: Browser,
    jupyter_server: JupyterServer,
    record_timing: Callable[[str, float], None],
) -> Iterator[LabPage]:
    name = slug(request.node.name)
    workdir = jupyter_server.root_dir / name
    shutil.rmtree(workdir, ignore_errors=True)
    shutil.copytree(
        ROOT / "notebooks",
        workdir / "notebooks",
        ignore=shutil.ignore_patterns(".ipynb_checkpoints"),
    )
    artifacts = ARTIFACTS / name
    shutil.rmtree(artifacts, ignore_errors=True)
    context = browser.new_context(viewport=VIEWPORT)
    page = LabPage(
        page=context.new_page(),
        server=jupyter_server,
        name=name,
        workdir=workdir,
        artifacts=artifacts,
        record_timing=record_timing,
    )
    try:
        yield page
        reports = request.node.stash.get(_REPORTS, {})
        if "call" in reports and reports["call"].failed:
            with contextlib.suppress(Exception):  # evidence only; the failure is reported
                page.write_failure_report()
        else:
            unexpected = page.unexpected_errors()
            assert not unexpected, "the page reported errors:\n" + "\n".join(unexpected)
    finally:
        context.close()
        with contextlib.suppress(OSError):  # a dead server already fails the test
            jupyter_server.shutdown_sessions(under=f"{name}/")
