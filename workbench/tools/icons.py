"""Icons of tools and servers (MCP 2025-11-25, SEP-973): kept as data, drawn only when safe.

A server's icons are its words, so they are data. The one rule every view follows
(:func:`shown_icon` and :func:`shown_icons`, behind the tables, the tool card, the tool
browser and the sidebar; the extension and the browser's script check ``src`` again):

- only a ``data:`` URI of an image (png, jpeg or jpg, gif, webp or svg+xml), at most
  ``MAX_ICON_CHARS`` long and made only of URI characters (no quote, space or ``<``), is
  ever drawn, as the ``src`` of an ``<img>`` (an SVG in an ``<img>`` runs no script), and
  the caller still escapes it in the attribute;
- an ``https:`` (or any other) URL is never loaded: not by the kernel, and not by the page,
  since fetching a URL a server named tells that third party who is looking and when;
- by theme: the icon made for the front end's theme when it knows one, else one made for
  any theme, else the first that may be drawn. A page that knows its theme is sent the
  choice for ``any`` theme and, where they differ, for ``light`` and ``dark``.

Declaring a notebook tool's icons (:func:`declared_icons`, ``@tool(icons=[...])``) takes a
``data:`` URI, an ``https:`` URL, or a local image file read once, at definition time, into
a ``data:`` URI (its type from its suffix), so the served tool carries it inline.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

from workbench.errors import ToolDefinitionError

Theme = Literal["light", "dark"]
THEMES: tuple[Theme, ...] = ("light", "dark")
IMAGE_TYPES = frozenset(
    {"image/png", "image/jpeg", "image/jpg", "image/gif", "image/webp", "image/svg+xml"}
)
"""The mime types an icon may be drawn as: what MCP says a client MUST (png, jpeg, jpg) and
SHOULD (svg+xml, webp) support, and gif."""
SUFFIX_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
}
MAX_ICON_CHARS = 64 * 1024
"""The longest ``data:`` URI drawn: a 16-pixel icon needs far less, and a saved notebook
keeps every one it shows."""
MAX_ICON_FILE = MAX_ICON_CHARS * 3 // 4 - 64
"""The largest image file a declaration reads: its ``data:`` URI stays under the cap."""
MAX_ICONS = 16
"""Icons kept of one tool or server; a listing's further ones are dropped."""
_DATA_URI = re.compile(
    r"\Adata:(?P<mime>[A-Za-z0-9.+\-]+/[A-Za-z0-9.+\-]+)"
    r"(?P<params>(?:;[A-Za-z0-9.+\-]+=[A-Za-z0-9.+\-]+)*)(?P<base64>;base64)?,"
    r"(?P<payload>[A-Za-z0-9!$&()*+,\-./:;=?@_~%]*)\Z"
)
_BASE64 = re.compile(r"\A[A-Za-z0-9+/]*={0,2}\Z")


@dataclass(frozen=True)
class Icon:
    """One icon as MCP lists it: ``src`` (a URL or ``data:`` URI), optional type, sizes
    (``48x48`` or ``any``) and the theme it is made for."""

    src: str
    mime_type: str | None = None
    sizes: tuple[str, ...] = ()
    theme: Theme | None = None

    def to_mcp(self) -> dict[str, Any]:
        """The icon in MCP's JSON shape (absent fields left out)."""
        made: dict[str, Any] = {"src": self.src}
        if self.mime_type:
            made["mimeType"] = self.mime_type
        if self.sizes:
            made["sizes"] = list(self.sizes)
        if self.theme:
            made["theme"] = self.theme
        return made


IconLike: TypeAlias = "Icon | str | Mapping[str, Any]"
"""What a declaration takes: an Icon, a ``src`` string or an MCP-shaped mapping."""


def icons_of(listed: object) -> tuple[Icon, ...]:
    """A listing's ``icons`` as Icons, read defensively: anything that is not an icon with
    a string ``src`` is skipped, and at most ``MAX_ICONS`` are kept."""
    if not isinstance(listed, (list, tuple)):
        return ()
    found: list[Icon] = []
    for item in listed:
        data = _as_mapping(item)
        icon = _icon_from(data) if data is not None else None
        if icon is not None:
            found.append(icon)
        if len(found) >= MAX_ICONS:
            break
    return tuple(found)


def drawable(icon: Icon, max_chars: int = MAX_ICON_CHARS) -> bool:
    """Whether the icon may be drawn: a well-formed ``data:`` image URI under the cap whose
    declared type, if any, is an image type too."""
    if len(icon.src) > max_chars:
        return False
    match = _DATA_URI.match(icon.src)
    if match is None or match["mime"].lower() not in IMAGE_TYPES:
        return False
    if icon.mime_type is not None and icon.mime_type.lower() not in IMAGE_TYPES:
        return False
    return not match["base64"] or _BASE64.match(match["payload"]) is not None


def shown_icon(
    icons: Iterable[Icon], theme: Theme | None = None, max_chars: int = MAX_ICON_CHARS
) -> str | None:
    """The ``src`` to draw for ``theme`` (``None``: the front end does not know it), or None
    when no icon may be drawn (see the module's rule)."""
    safe = [icon for icon in icons if drawable(icon, max_chars)]
    for wanted in (theme, None) if theme else (None,):
        for icon in safe:
            if icon.theme == wanted:
                return icon.src
    return safe[0].src if safe else None


def shown_icons(icons: Iterable[Icon], max_chars: int = MAX_ICON_CHARS) -> dict[str, str]:
    """The drawable icon for an unknown theme (``any``) and, only where it differs, for
    ``light`` and ``dark``: what a front end that picks by its theme is sent; empty when
    none may be drawn."""
    listed = list(icons)
    chosen = shown_icon(listed, None, max_chars)
    if chosen is None:
        return {}
    shown = {"any": chosen}
    for theme in THEMES:
        themed = shown_icon(listed, theme, max_chars)
        if themed is not None and themed != chosen:
            shown[theme] = themed
    return shown


def declared_icons(
    declared: Sequence[IconLike] | None, base: Path | None = None
) -> tuple[Icon, ...]:
    """A notebook tool's declared icons, each ``src`` a ``data:`` image URI, an ``https:``
    URL or a local image file (relative to ``base``, else the working folder) read now into
    a ``data:`` URI. Anything else is a one-line ToolDefinitionError."""
    if declared is None:
        return ()
    if isinstance(declared, (str, Mapping, Icon)):
        declared = [declared]
    made: list[Icon] = []
    for item in declared:
        if isinstance(item, Icon):
            icon = item
        elif isinstance(item, str):
            icon = Icon(item)
        elif isinstance(item, Mapping):
            read = _icon_from(item)
            if read is None:
                raise ToolDefinitionError(f"An icon needs a string 'src': {dict(item)!r}")
            icon = read
        else:
            raise ToolDefinitionError(f"An icon is a URL, a data: URI or a path, not {item!r}.")
        made.append(_resolved(icon, base))
    if len(made) > MAX_ICONS:
        raise ToolDefinitionError(f"A tool has at most {MAX_ICONS} icons, not {len(made)}.")
    return tuple(made)


def _resolved(icon: Icon, base: Path | None) -> Icon:
    src = icon.src.strip()
    if src.startswith("data:"):
        if not drawable(Icon(src)):
            raise ToolDefinitionError(
                "An icon's data: URI must be a png, jpeg, gif, webp or svg+xml image of at "
                f"most {MAX_ICON_CHARS} characters."
            )
        return Icon(src, icon.mime_type, icon.sizes, icon.theme)
    if src.lower().startswith("https://"):
        return Icon(src, icon.mime_type, icon.sizes, icon.theme)
    if ":" in src.split("/", 1)[0] and not Path(src).exists():
        raise ToolDefinitionError(
            f"An icon is an https: URL, a data: URI or a local image file, not {src[:80]!r}."
        )
    path = Path(src).expanduser()
    if base is not None and not path.is_absolute():
        path = base / path
    mime = SUFFIX_TYPES.get(path.suffix.lower())
    if mime is None:
        raise ToolDefinitionError(
            f"Icon file {src!r}: use a .png, .jpg, .gif, .webp or .svg image."
        )
    try:
        size = path.stat().st_size
        if size > MAX_ICON_FILE:
            raise ToolDefinitionError(
                f"Icon file {src!r} has {size} bytes; an icon may have {MAX_ICON_FILE}."
            )
        data = path.read_bytes()
    except OSError as error:
        raise ToolDefinitionError(f"Icon file {src!r} cannot be read: {error.strerror}") from None
    encoded = base64.b64encode(data).decode("ascii")
    return Icon(f"data:{mime};base64,{encoded}", mime, icon.sizes, icon.theme)


def _icon_from(data: Mapping[str, Any]) -> Icon | None:
    src = data.get("src")
    if not isinstance(src, str) or not src:
        return None
    mime = data.get("mimeType", data.get("mime_type"))
    sizes = data.get("sizes")
    theme = data.get("theme")
    return Icon(
        src=src,
        mime_type=mime if isinstance(mime, str) else None,
        sizes=tuple(size for size in sizes if isinstance(size, str))
        if isinstance(sizes, (list, tuple))
        else (),
        theme=theme if theme in THEMES else None,
    )


def _as_mapping(item: object) -> Mapping[str, Any] | None:
    if isinstance(item, Mapping):
        return item
    if isinstance(item, Icon):
        return item.to_mcp()
    dump = getattr(item, "model_dump", None)
    if callable(dump):
        dumped = dump(by_alias=True, exclude_none=True)
        return dumped if isinstance(dumped, Mapping) else None
    return None
