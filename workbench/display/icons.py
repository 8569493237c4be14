"""Icons in views: the drawable ones of ``workbench/tools/icons.py``, as ``<img>`` and as data.

Which icon may be drawn is decided there (only small ``data:`` images; an https icon is never
loaded). Here a view spends a byte budget on them, since a saved notebook keeps every icon it
shows: a table of a thousand tools of one server must not carry a thousand large icons.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from workbench.display import markup
from workbench.tools.icons import THEMES, Icon, drawable, shown_icons

ICON_PX = 16
"""The size an icon is drawn at, in CSS pixels."""
ROW_ICON_CHARS = 16 * 1024
"""The longest icon a row of a table shows."""
TABLE_ICON_CHARS = 40_000
"""What all the icons of one table may add to each rendering of it (HTML, JSON)."""

Shown = tuple[tuple[str, str], ...]
"""The drawable icon by theme key (``any``, ``light``, ``dark``), a theme's only when it
differs from ``any``: what a table cell carries."""


class IconBudget:
    """The characters a view has left for icons; an icon that does not fit is left out."""

    def __init__(self, chars: int = TABLE_ICON_CHARS, per_icon: int = ROW_ICON_CHARS) -> None:
        self.chars = chars
        self.per_icon = per_icon

    def take(self, icons: Iterable[Icon]) -> Shown:
        """The icons to show by theme, or ``()`` when none may be drawn or they do not fit."""
        shown = tuple(shown_icons(icons, self.per_icon).items())
        cost = sum(len(src) for _, src in shown)
        if cost > self.chars:
            return ()
        self.chars -= cost
        return shown


def drawable_shown(icon: Mapping[str, object]) -> Shown:
    """An icon mapping read back (a saved row's): its drawable sources only, ``any`` first;
    ``()`` without a drawable ``any``."""
    shown = tuple(
        (key, src)
        for key in ("any", *THEMES)
        if isinstance(src := icon.get(key), str) and drawable(Icon(src))
    )
    return shown if shown and shown[0][0] == "any" else ()


def icon_html(src: str) -> str:
    """An ``<img>`` of a drawable ``data:`` icon (escaped in its attribute); no alt text, as
    the name beside it says what it is."""
    style = f"vertical-align:middle;margin-right:4px;width:{ICON_PX}px;height:{ICON_PX}px"
    return f'<img src="{markup.esc(src)}" alt="" style="{style}">'
