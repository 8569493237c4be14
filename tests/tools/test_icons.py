"""Icons: which one may be drawn (only small data: images), by theme, and how a notebook tool
declares them (data: URI, https URL, a local file read into a data: URI)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from workbench.errors import ToolDefinitionError
from workbench.registry import ToolEntry
from workbench.tools import tool
from workbench.tools.icons import (
    MAX_ICON_CHARS,
    MAX_ICON_FILE,
    MAX_ICONS,
    Icon,
    declared_icons,
    drawable,
    icons_of,
    shown_icon,
    shown_icons,
)

PNG = "data:image/png;base64," + base64.b64encode(b"\x89PNG\r\n\x1a\n tiny").decode()
SVG = "data:image/svg+xml;base64," + base64.b64encode(b"<svg xmlns='x'/>").decode()
DARK = "data:image/png;base64,ZGFyaw=="
HOSTILE = [
    "javascript:alert(1)",
    'data:image/png;base64,AAAA" onerror="alert(1)',
    "data:image/png;base64,AAAA onerror=alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data:image/svg+xml,<svg onload=alert(1)>",
    "data:image/png;base64,AA<AA",
    "https://icons.example/tool.png",
    "http://icons.example/tool.png",
    "//icons.example/tool.png",
    "file:///etc/passwd",
    "data:image/png;base64," + "A" * MAX_ICON_CHARS,
]


@pytest.mark.parametrize("src", HOSTILE, ids=range(len(HOSTILE)))
def test_no_hostile_or_remote_or_oversize_src_is_ever_drawn(src: str) -> None:
    assert not drawable(Icon(src))
    assert shown_icon([Icon(src)]) is None
    assert shown_icons([Icon(src), Icon(src, theme="dark")]) == {}


def test_small_data_images_are_drawn_and_a_non_image_declared_type_is_not() -> None:
    assert shown_icon([Icon(PNG)]) == PNG
    assert shown_icon([Icon(SVG)]) == SVG
    for kind in ("jpeg", "jpg", "gif", "webp"):  # MCP: clients MUST take png, jpeg and jpg
        assert drawable(Icon(f"data:image/{kind};base64,AAAA"))
    assert shown_icon([Icon("data:image/svg+xml,%3Csvg%2F%3E")]) is not None
    assert shown_icon([Icon(PNG, mime_type="text/html")]) is None
    just_fits = "data:image/png;base64," + "A" * (MAX_ICON_CHARS - 24)
    assert len(just_fits) <= MAX_ICON_CHARS and drawable(Icon(just_fits))
    assert not drawable(Icon(PNG), max_chars=10)


def test_the_icon_is_picked_by_theme_else_any_theme_else_the_first_drawable() -> None:
    icons = [Icon("https://x.example/a.png"), Icon(DARK, theme="dark"), Icon(PNG)]
    assert shown_icon(icons, "dark") == DARK
    assert shown_icon(icons, "light") == PNG
    assert shown_icon(icons) == PNG
    only_dark = [Icon(DARK, theme="dark")]
    assert shown_icon(only_dark, "light") == DARK  # better some icon than none
    assert shown_icon(only_dark) == DARK
    assert shown_icons(icons) == {"any": PNG, "dark": DARK}  # light is any's


def test_a_listing_is_read_defensively_and_bounded() -> None:
    listed = [
        {"src": PNG, "mimeType": "image/png", "sizes": ["16x16", 3], "theme": "dark"},
        {"src": 5},
        "not an icon",
        {"src": DARK, "theme": "purple"},
    ]
    assert icons_of(listed) == (
        Icon(PNG, "image/png", ("16x16",), "dark"),
        Icon(DARK),
    )
    assert icons_of("nope") == () and icons_of(None) == ()
    assert len(icons_of([{"src": PNG}] * 100)) == MAX_ICONS


def test_a_registry_entry_keeps_a_listings_icons() -> None:
    entry = ToolEntry.from_tool(
        "far", {"name": "t", "icons": [{"src": "https://x.example/i.png", "theme": "light"}]}
    )
    assert entry.icons == (Icon("https://x.example/i.png", theme="light"),)


def test_declared_icons_take_data_uris_https_urls_and_local_files(tmp_path: Path) -> None:
    (tmp_path / "logo.svg").write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    made = declared_icons(
        [PNG, "https://x.example/i.png", {"src": "logo.svg", "theme": "dark"}], base=tmp_path
    )
    assert made[0] == Icon(PNG)
    assert made[1] == Icon("https://x.example/i.png")
    assert made[2].theme == "dark" and made[2].mime_type == "image/svg+xml"
    assert made[2].src.startswith("data:image/svg+xml;base64,")
    assert base64.b64decode(made[2].src.split(",", 1)[1]).startswith(b"<svg")
    assert shown_icon(made, "dark") == made[2].src


@pytest.mark.parametrize(
    ("src", "says"),
    [
        ("javascript:alert(1)", "https: URL, a data: URI or a local image file"),
        ("http://x.example/i.png", "https: URL, a data: URI or a local image file"),
        ("data:text/html,hi", "png, jpeg, gif, webp or svg+xml"),
        ("missing.png", "cannot be read"),
        ("notes.txt", "use a .png"),
    ],
)
def test_a_bad_declaration_is_one_line(src: str, says: str, tmp_path: Path) -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        declared_icons([src], base=tmp_path)
    assert says in str(raised.value) and "\n" not in str(raised.value)


def test_an_oversize_icon_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "big.png").write_bytes(b"\0" * (MAX_ICON_FILE + 1))
    with pytest.raises(ToolDefinitionError, match="bytes"):
        declared_icons(["big.png"], base=tmp_path)
    (tmp_path / "fits.png").write_bytes(b"\0" * MAX_ICON_FILE)
    assert drawable(declared_icons(["fits.png"], base=tmp_path)[0])


def test_tool_icons_reach_the_mcp_listing_and_the_registry() -> None:
    @tool(icons=[PNG, {"src": "https://x.example/i.png", "sizes": ["48x48"], "theme": "light"}])
    def greet(name: str) -> str:
        """Say hello."""
        return name

    listed = greet.to_mcp_tool().model_dump(by_alias=True, exclude_none=True)
    assert listed["icons"] == [
        {"src": PNG},
        {"src": "https://x.example/i.png", "sizes": ["48x48"], "theme": "light"},
    ]
    assert ToolEntry.from_tool("notebook", greet).icons == greet.icons

    @tool
    def plain() -> str:
        return ""

    assert "icons" not in plain.to_mcp_tool().model_dump(by_alias=True, exclude_none=True)
