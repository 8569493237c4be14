"""The template App that ``%app NAME`` starts from, and the MCP Apps SDK inlined into an App.

The template (``app.html``) is a small vanilla-JS page: it shows the tool's result, has a
button calling a tool, and follows the host's theme, using ``@modelcontextprotocol/ext-apps``'
``App`` class. No CDN and no network: the lab extension's build copies the package's
self-contained browser module (``app-with-deps.js``) to ``workbench/labextension/app-sdk/``
(``jlpm build:app-sdk``), and ``inline_sdk`` puts it where an App's HTML has the marker
``<!-- workbench:app-sdk -->``, as a module script that sets ``globalThis.McpApps``. Without
the built file the marker becomes a comment saying so, and the template says so in one line.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from workbench.tools.app_definition import check_app_name

TEMPLATE = Path(__file__).with_name("app.html")
SDK_FILE = Path("app-sdk", "app-with-deps.js")
"""The ext-apps package's browser build, copied beside the built extension by its build."""
MARKER = re.compile(r"<!--\s*workbench:app-sdk\b.*?-->", re.DOTALL)
_EXPORTS = re.compile(r"export\s*\{([^{}]*)\}\s*;?\s*(//[^\n]*\s*)?\Z")
SDK_GLOBAL = "McpApps"


def html(name: str) -> str:
    """The template App's HTML for the App ``name``, with the SDK marker (not inlined)."""
    return TEMPLATE.read_text(encoding="utf-8").replace("{{name}}", check_app_name(name))


def cell(name: str) -> str:
    """A ``%%app NAME`` cell holding the template."""
    return f"%%app {check_app_name(name)}\n{html(name)}"


def inline_sdk(page: str) -> str:
    """``page`` with its SDK marker replaced by the bundled SDK (or, when the lab extension
    was not built, by a comment saying so); a page without the marker is returned as is."""
    if MARKER.search(page) is None:
        return page
    script = sdk_script()
    return MARKER.sub(lambda _match: script, page, count=1)


def sdk_script() -> str:
    """The SDK as a module script setting ``globalThis.McpApps`` (its exports by name)."""
    found = sdk_path()
    if found is None:
        return (
            "<!-- The MCP Apps SDK is not bundled: build the lab extension "
            "(cd labextension && jlpm build:app-sdk). -->"
        )
    return _script(found, found.stat().st_mtime_ns)


def sdk_path() -> Path | None:
    """The bundled SDK: beside the package in a checkout (``workbench/labextension``), else
    where the wheel installs the extension (``share/jupyter/labextensions``); None if absent."""
    places = [Path(__file__).resolve().parents[2] / "labextension"]
    try:
        from jupyter_core.paths import jupyter_path

        places += [Path(p, "mcp-workbench") for p in jupyter_path("labextensions")]
    except ImportError:  # pragma: no cover - jupyter_core comes with the kernel
        pass
    return next((p / SDK_FILE for p in places if (p / SDK_FILE).is_file()), None)


@functools.lru_cache(maxsize=2)
def _script(path: Path, stamp: int) -> str:
    """The module as a script; read again when the file changes (``stamp``)."""
    code = path.read_text(encoding="utf-8")
    found = _EXPORTS.search(code)
    if found is None:
        raise ValueError(f"{path} ends in no export list; is it the ext-apps browser build?")
    pairs = []
    for item in found.group(1).split(","):
        local, _, exported = item.strip().partition(" as ")
        pairs.append(f"{(exported or local).strip()}:{local.strip()}")
    body = code[: found.start()] + f"globalThis.{SDK_GLOBAL}={{{','.join(pairs)}}};"
    safe = body.replace("</script", "<\\/script")  # never ends the script element early
    return f'<script type="module">{safe}</script>'
