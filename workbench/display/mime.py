"""The bridge from views to Jupyter: one base class turns a view into a mime bundle.

Each view renders itself twice, for rich (terminals, ``text/plain``) and as hand-written HTML,
because rich's own HTML export is a ``<pre>`` block that ignores the notebook's theme.

Every JSON mime type is written once, here. Its documents are an API: saved notebooks keep
them and the JupyterLab extension draws them, so each says ``"version": 1`` and only ever
grows additively (a renderer shows an unknown kind or version as a one-line fallback).
"""

from __future__ import annotations

import io
from abc import ABC, abstractmethod
from collections.abc import Callable, Container
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment

from workbench.display.visible import visible_segments

OBSERVATION_MIME = "application/vnd.workbench.observation+json"
"""Action and Observation documents for front ends that render them (``kind`` tells which)."""
TOOL_MIME = "application/vnd.workbench.tool+json"
"""A tool card's document (``kind`` "tool"): what the extension draws in a saved notebook."""
TABLE_MIME = "application/vnd.workbench.table+json"
"""Any other table's document (``kind`` "table"): titled rows of toned cells, and notes."""
SERVERS_MIME = "application/vnd.workbench.servers+json"
"""A server table's document (``kind`` "servers"), its targets masked as in the HTML."""
PROGRESS_MIME = "application/vnd.workbench.progress+json"
"""A long call's progress line (``kind`` "progress"): untrusted copies strip the HTML's
inline styles, which leaves the bar an empty grey track."""
BROWSER_MIME = "application/vnd.workbench.browser+json"
"""The tool browser's snapshot (``kind`` "browser"), saved beside its widget's view."""
APP_MIME = "application/vnd.workbench.app+json"
"""An MCP App drawn under a call's Observation (workbench/apps/hosting.py): its HTML, the
call's input and result; beside the Observation's own types in the same bundle."""

DISPLAY_WIDTH = 100
JSON_VERSION = 1


def render_plain(renderable: RenderableType, width: int = DISPLAY_WIDTH) -> str:
    """Rich output as plain text: no colours, no markup parsing, no trailing spaces."""
    console = Console(
        file=io.StringIO(),
        width=width,
        color_system=None,
        force_terminal=False,
        force_jupyter=False,
        no_color=True,
        highlight=False,
        markup=False,
        emoji=False,
        legacy_windows=False,
    )
    console.print(renderable, crop=False)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    return "\n".join(line.rstrip() for line in output.splitlines()).strip("\n")


class Displayable(ABC):
    """A view with a rich rendering, an HTML rendering and, maybe, a JSON document under
    ``json_mime`` (the mime type the JupyterLab extension renders it from)."""

    json_mime: str = OBSERVATION_MIME

    @abstractmethod
    def rich_parts(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """Rich renderables, for terminals and ``text/plain``."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """``rich_parts`` rendered, with every control character a server's text may hold
        made visible (``visible``): a terminal never obeys one (G5)."""
        for part in self.rich_parts(console, options):
            if isinstance(part, Segment):
                yield from visible_segments([part])
            else:
                yield from visible_segments(console.render(part, options))

    @abstractmethod
    def to_html(self) -> str:
        """Self-contained HTML with inline styles, every string escaped."""

    def to_json(self) -> dict[str, Any] | None:
        """A JSON document for ``json_mime``, or None when the view has none."""
        return None

    def to_plain(self, width: int = DISPLAY_WIDTH) -> str:
        """The rich rendering as plain text."""
        return render_plain(self, width)

    def _repr_mimebundle_(
        self, include: Container[str] | None = None, exclude: Container[str] | None = None
    ) -> dict[str, Any]:
        """IPython's hook; renders only the mime types asked for."""
        producers: dict[str, Callable[[], Any]] = {
            "text/plain": self.to_plain,
            "text/html": self.to_html,
            self.json_mime: self.to_json,
        }
        bundle: dict[str, Any] = {}
        for mime, produce in producers.items():
            if include is not None and mime not in include:
                continue
            if exclude is not None and mime in exclude:
                continue
            value = produce()
            if value is not None:
                bundle[mime] = value
        return bundle
