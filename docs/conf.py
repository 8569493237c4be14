"""Sphinx configuration of the documentation site (``make docs``).

The site is built offline: nothing is fetched at build time (no intersphinx, no remote
images) and the pages load nothing from a CDN (Furo's system font stack, MyST-NB's widget
scripts left out). ``sphinx-build -W`` keeps it free of warnings.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's package, also where it is not installed

from workbench.__about__ import __version__  # noqa: E402

if TYPE_CHECKING:
    from sphinx.application import Sphinx

NOTEBOOKS = ROOT / "notebooks"
PAGES = Path(__file__).resolve().parent / "notebooks"


def copy_notebooks() -> None:
    """The teaching notebooks as pages: copies in docs/notebooks/ (git-ignored), not links.

    Sphinx resolves links to their real path, so a notebook reached through a symbolic link
    would sit outside the site and its links to the other notebooks would break. A copy is
    written only when it differs (warm builds stay warm), with IPython's lexer named, as a
    run notebook has it, so ``%mcp`` lines are not read as broken Python.
    """
    PAGES.mkdir(exist_ok=True)
    wanted = set()
    for source in sorted(NOTEBOOKS.glob("*.ipynb")):
        notebook = json.loads(source.read_text(encoding="utf-8"))
        notebook["metadata"].setdefault("language_info", {"name": "python"})["pygments_lexer"] = (
            "ipython3"
        )
        text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
        page = PAGES / source.name
        wanted.add(page)
        if not page.exists() or page.read_text(encoding="utf-8") != text:
            partial = page.with_suffix(f".{os.getpid()}.partial")
            partial.write_text(text, encoding="utf-8")
            partial.replace(page)
    for stale in set(PAGES.glob("*.ipynb")) - wanted:  # a notebook removed from notebooks/
        stale.unlink()


copy_notebooks()

project = "workbench"
author = "The workbench developers"
copyright = "the workbench developers"
version = release = __version__

extensions = [
    "myst_nb",  # MyST Markdown pages and the notebooks (it loads myst_parser itself)
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",  # the package's docstrings are Google style (Args:, Returns:)
]

exclude_patterns = ["_build", "**/.ipynb_checkpoints", "notebooks/*.partial"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}

# Nothing runs at build time: the notebooks are shown as saved (their cells, no outputs).
nb_execution_mode = "off"
# MyST-NB would add require.js and the widget manager from a CDN to a page with saved widget
# state; the site loads nothing from the network.
nb_ipywidgets_js: dict[str, dict[str, str]] = {}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
# Types go beside the parameters the docstring names, so signatures stay readable.
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_default_options = {
    "members": True,
    "exclude-members": "model_config, model_fields, model_computed_fields",
}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"workbench {release}"
html_static_path: list[str] = []
# No "view source" links to a forge: the repository's address is not known yet.
html_show_sourcelink = False
html_copy_source = False

# Docstrings are also printed as plain text (`%mcp help`, `help()`), so they write file
# patterns such as tools/*.py bare; in reST a star after a slash opens an emphasis.
_GLOB_STAR = re.compile(r"(?<=/)\*(?=[\w.])")


def _escape_glob_stars(
    app: Sphinx, what: str, name: str, obj: object, options: object, lines: list[str]
) -> None:
    for index, line in enumerate(lines):
        parts = line.split("``")  # odd parts are inline literals: left as they are
        parts[::2] = [_GLOB_STAR.sub(r"\\*", part) for part in parts[::2]]
        lines[index] = "``".join(parts)


def setup(app: Sphinx) -> None:
    app.connect("autodoc-process-docstring", _escape_glob_stars)
