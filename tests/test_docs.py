"""The documentation site (docs/) builds with warnings as errors, holds every teaching
notebook and the API reference, and loads nothing from the network."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SPHINX = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
NOTEBOOKS = sorted(path.stem for path in (ROOT / "notebooks").glob("*.ipynb"))


def toctree_entries(page: Path) -> list[str]:
    """The documents a MyST page's ```{toctree} blocks list (options and blanks left out)."""
    blocks = re.findall(r"^```\{toctree\}\n(.*?)^```", page.read_text(), re.M | re.S)
    lines = (line.strip() for block in blocks for line in block.splitlines())
    return [line for line in lines if line and not line.startswith(":")]


def test_every_notebook_is_a_page_of_the_docs() -> None:
    """A new notebook in notebooks/ must be listed in docs/notebooks.md's toctree too."""
    listed = toctree_entries(DOCS / "notebooks.md")
    assert NOTEBOOKS, "no notebook in notebooks/"
    missing = [name for name in NOTEBOOKS if f"notebooks/{name}" not in listed]
    assert not missing, f"add them to docs/notebooks.md's toctree: {missing}"
    unknown = [entry for entry in listed if entry.removeprefix("notebooks/") not in NOTEBOOKS]
    assert not unknown, f"docs/notebooks.md lists notebooks that do not exist: {unknown}"


def test_every_guide_page_is_in_the_index() -> None:
    listed = toctree_entries(DOCS / "index.md")
    pages = sorted(f"guide/{path.stem}" for path in (DOCS / "guide").glob("*.md"))
    assert [page for page in pages if page not in listed] == []


@pytest.mark.build
@pytest.mark.timeout(300)
def test_the_site_builds_with_no_warning_and_no_remote_asset(tmp_path: Path) -> None:
    out = tmp_path / "html"
    built = subprocess.run(
        [*SPHINX, "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert built.returncode == 0, built.stdout + built.stderr

    for name in NOTEBOOKS:
        page = (out / "notebooks" / f"{name}.html").read_text()
        assert "highlight-ipython3" in page, name  # its cells, with IPython's lexer
    api = (out / "api" / "workbench.html").read_text()
    for method in ("Workbench.connect_config", "Workbench.call", "Workbench.serve"):
        assert f'id="workbench.{method}"' in api, method
    assert 'id="workbench.tool"' in (out / "api" / "tools.html").read_text()

    remote = re.compile(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=\"(?:https?:)?//")
    fetching = [
        str(page.relative_to(out))
        for page in out.rglob("*.html")
        if remote.search(page.read_text())
    ]
    assert not fetching, f"pages that load something from the network: {fetching}"
