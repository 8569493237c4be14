"""`make html NOTEBOOK=... EXECUTE=1`: a run notebook as one HTML file that renders offline.

The browse notebook (workbench tables, the tool browser widget) is run and exported in a
scratch folder with the scripts `make test` unpacked into .cache/html (nothing is downloaded
here). The file must reference no http(s) script, style or CDN; opened from file:// in
Debian's Chromium with every request that is not file: or data: aborted and recorded, it
must ask for nothing but itself, draw the widget from its saved state (the browser's title,
its tool list) and show the workbench's tables from their text/html, with no page error.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import Route, sync_playwright

from tests.browser.jupyter_browser import ARTIFACTS, CHROMIUM_ARGS, ChromiumMissing, chromium_path
from tests.workshop.make import ROOT, make_command

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

CDNS = ("cdn.jsdelivr.net", "cdnjs.cloudflare.com", "unpkg.com")
SCRIPT_SRC = re.compile(r"<script[^>]*\bsrc\s*=\s*[\"']?([^\"' >]+)", re.I)


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not list((ROOT / ".cache/html").glob("*/.complete")):
        pytest.fail(
            "make html's scripts are not unpacked in .cache/html: run `make test` and try again.",
            pytrace=False,
        )
    tmp = tmp_path_factory.mktemp("html")
    notebook = shutil.copy(ROOT / "notebooks/browse.ipynb", tmp / "browse.ipynb")
    done = subprocess.run(
        make_command(ROOT, "html", f"NOTEBOOK={notebook}", "EXECUTE=1", f"EXPORTS={tmp / 'out'}"),
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    page = tmp / "out/browse.html"
    assert done.stdout.strip().endswith(str(page)), done.stdout
    return page


def test_the_page_references_no_remote_script(exported: Path) -> None:
    html = exported.read_text(encoding="utf-8")
    sources = SCRIPT_SRC.findall(html)
    assert sources, "no script tags at all: not the page make html writes"
    assert all(src.startswith("data:") for src in sources), [s[:60] for s in sources]
    assert not [cdn for cdn in CDNS if cdn in html]
    assert 'type="application/vnd.jupyter.widget-state+json"' in html  # the saved state


def test_offline_in_chromium_it_draws_the_widget_and_the_tables(exported: Path) -> None:
    try:
        chromium = chromium_path()
    except ChromiumMissing as error:
        pytest.fail(str(error), pytrace=False)
    asked: list[str] = []
    errors: list[str] = []

    def only_local(route: Route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            asked.append(url[:80])
            route.continue_()
        else:
            asked.append(url)
            route.abort()

    artifacts = ARTIFACTS.parent / "workshop"
    artifacts.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium, args=CHROMIUM_ARGS, headless=True
        )
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 2400})
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.route("**/*", only_local)
            page.goto(exported.as_uri())
            page.get_by_text("MCP tool browser").first.wait_for(timeout=60_000)
            page.screenshot(path=artifacts / "html-export.png")
            assert page.locator(".widget-vbox").count() > 0  # drawn by the widget manager
            assert page.get_by_text("demo.add").count() > 1  # the tables, and the tool list
            text = page.inner_text("body")
        finally:
            browser.close()
    assert "VBox(" not in text and "Loading widget" not in text
    assert "11 tools" in text  # `%mcp connect demo`'s table, from its text/html
    assert [url for url in asked if not url.startswith(("file:", "data:"))] == []
    assert [url for url in asked if url.startswith("file:")] == [exported.as_uri()]
    assert errors == []
