"""The tool browser's rows carry a tool's drawable icon (data: images only, by theme, within
a budget) and never a URL the page would fetch."""

from __future__ import annotations

from workbench.display.browser_snapshot import ResultRow
from workbench.display.icons import ROW_ICON_CHARS, TABLE_ICON_CHARS
from workbench.display.mime import BROWSER_MIME
from workbench.display.schemas import validator_for_mime
from workbench.registry import Registry
from workbench.session import Workbench
from workbench.tools import tool
from workbench.widgets.browser import ToolBrowser
from workbench.widgets.tool_list import ToolList

PNG = "data:image/png;base64,iVBORw0KGgo="
DARK = "data:image/png;base64,ZGFyaw=="
BIG = "data:image/png;base64," + "A" * (ROW_ICON_CHARS - 30)


def test_rows_carry_only_drawable_icons_within_a_budget() -> None:
    registry = Registry()
    registry.set_tools(
        "far",
        [
            {"name": "a_good", "icons": [{"src": "https://x.example/i.png"}, {"src": PNG},
                                         {"src": DARK, "theme": "dark"}]},
            {"name": "b_remote", "icons": [{"src": "https://x.example/i.png"}]},
            {"name": "c_hostile", "icons": [{"src": 'data:image/png;base64,A" onerror="x'}]},
            *({"name": f"d_big{n}", "icons": [{"src": BIG}]} for n in range(5)),
        ],
    )  # fmt: skip
    for answer in (ToolList(registry).answer, ToolList(registry, query="big").answer):
        icons = {row["id"]: row.get("icon") for row in answer["rows"]}
        assert icons.get("far.a_good", {"any": PNG, "dark": DARK}) == {"any": PNG, "dark": DARK}
        assert icons.get("far.b_remote") is None and icons.get("far.c_hostile") is None
        assert "https:" not in repr(answer) and "onerror" not in repr(answer)
        big = [tool for tool, icon in icons.items() if tool.startswith("far.d_big") and icon]
        assert len(big) <= TABLE_ICON_CHARS // len(BIG) < 5
    assert ToolList(registry).answer["rows"][0]["icon"] == {"any": PNG, "dark": DARK}


def test_the_saved_snapshot_keeps_the_rows_and_the_open_cards_icon(wb: Workbench) -> None:
    @tool(icons=["https://x.example/i.png", PNG])
    def spin(x: int) -> int:
        """Spin a number."""
        return x

    wb.add_tools(spin)
    browser = ToolBrowser(wb)
    browser.open("notebook.spin")
    doc = browser._repr_mimebundle_()[BROWSER_MIME]
    check = validator_for_mime(BROWSER_MIME)
    assert not [error.message for error in check.iter_errors(doc)]
    assert doc["results"][0]["icon"] == {"any": PNG} and doc["open"]["icon"] == {"any": PNG}
    html = browser._repr_mimebundle_()["text/html"]
    assert f'src="{PNG}"' in html and "x.example" not in html


def test_a_saved_rows_icon_is_read_back_only_when_drawable() -> None:
    hostile = {"any": 'data:image/png;base64,A" onerror="x', "dark": PNG}
    assert ResultRow.from_row({"id": "a.b", "icon": hostile}).icon == ()
    assert ResultRow.from_row({"id": "a.b", "icon": {"any": PNG, "dark": "javascript:x"}}).icon == (
        ("any", PNG),
    )
