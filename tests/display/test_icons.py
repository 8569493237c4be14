"""Icons in the tool table and the sidebar's hits: a small data: image is drawn (escaped),
nothing hostile, remote or oversize ever becomes a loadable src, and a table's icons stay
within their budget; the documents still match their schemas."""

from __future__ import annotations

import re
from typing import Any

from workbench.display import ToolCard, ToolTable
from workbench.display.icons import ROW_ICON_CHARS, TABLE_ICON_CHARS, IconBudget
from workbench.display.mime import TABLE_MIME, TOOL_MIME
from workbench.display.schemas import validator_for_def, validator_for_mime
from workbench.lab.state import search_document
from workbench.registry import Registry
from workbench.tools.icons import Icon

PNG = "data:image/png;base64,iVBORw0KGgo="
DARK = "data:image/png;base64,ZGFyaw=="
AMP = "data:image/svg+xml,%3Csvg%2F%3E&x=1"
HOSTILE = [
    "javascript:alert(1)",
    'data:image/png;base64,AAAA" onerror="alert(1)',
    "https://tracker.example/pixel.png",
    "data:image/png;base64," + "A" * ROW_ICON_CHARS,
]
SRC = re.compile(r'src="([^"]*)"')


def registry() -> Registry:
    made = Registry()
    made.set_tools(
        "far",
        [
            {"name": "good", "icons": [{"src": PNG}, {"src": DARK, "theme": "dark"}]},
            {"name": "amp", "icons": [{"src": AMP}]},
            *({"name": f"bad{n}", "icons": [{"src": src}]} for n, src in enumerate(HOSTILE)),
            {"name": "plain"},
        ],
    )
    return made


def errors(check: Any, data: Any) -> list[str]:
    return [f"{error.instance_path}: {error.message}" for error in check.iter_errors(data)]


def test_the_tool_table_draws_only_small_data_images_escaped() -> None:
    table = ToolTable(registry())
    html = table.to_html()
    assert SRC.findall(html) == [AMP.replace("&", "&amp;"), PNG]  # rows in id order
    for hostile in HOSTILE:
        assert hostile not in html and "onerror" not in html and "tracker" not in html
    document = table.to_json()
    assert not errors(validator_for_mime(TABLE_MIME), document)
    icons = {row[0]["text"]: row[0].get("icon") for row in document["rows"]}
    assert icons["far.good"] == {"any": PNG, "dark": DARK}
    assert icons["far.amp"] == {"any": AMP}
    assert all(icons[f"far.bad{n}"] is None for n in range(len(HOSTILE)))
    assert "data:" not in table.to_plain()


def test_a_tables_icons_stay_within_its_budget() -> None:
    big = "data:image/png;base64," + "A" * (ROW_ICON_CHARS - 30)
    budget = IconBudget()
    shown = [budget.take([Icon(big)]) for _ in range(10)]
    assert sum(1 for icons in shown if icons) == TABLE_ICON_CHARS // len(big)
    assert budget.chars >= 0


def test_the_sidebars_hits_carry_only_drawable_icons() -> None:
    answer = search_document(registry(), "")
    assert not errors(validator_for_def("sidebar", "reply"), answer)
    icons = {hit["id"]: hit.get("icon") for hit in answer["hits"]}
    assert icons["far.good"] == {"any": PNG, "dark": DARK}
    assert icons["far.plain"] is None
    assert all(icons[f"far.bad{n}"] is None for n in range(len(HOSTILE)))


def test_the_tool_card_draws_its_icon_and_nothing_hostile() -> None:
    entries = {entry.name: entry for entry in registry()}
    card = ToolCard(entries["good"])
    assert SRC.findall(card.to_html()) == [PNG]
    document = card.to_json()
    assert document["icon"] == {"any": PNG, "dark": DARK}
    assert not errors(validator_for_mime(TOOL_MIME), document)
    for n in range(len(HOSTILE)):
        hostile = ToolCard(entries[f"bad{n}"])
        assert "icon" not in hostile.to_json() and "<img" not in hostile.to_html()
