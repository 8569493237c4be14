"""The two anywidget lists' page side: the shared core put before each list's own part, in
one text per widget (anywidget loads ``_esm`` from a ``blob:`` URL, so no file may import
another). The browser tests (tests/browser/test_browse*.py) run them in a real page."""

from __future__ import annotations

import re

import pytest

from workbench.widgets.offering_list import OfferingList
from workbench.widgets.static_text import STATIC, joined
from workbench.widgets.tool_list import ToolList

LISTS = [
    pytest.param(ToolList, "tool_list", id="tools"),
    pytest.param(OfferingList, "offering_list", id="offerings"),
]


@pytest.mark.parametrize(("widget", "name"), LISTS)
def test_each_list_is_the_core_then_its_own_part(widget: type, name: str) -> None:
    core = (STATIC / "list_core.js").read_text(encoding="utf-8")
    own = (STATIC / f"{name}.js").read_text(encoding="utf-8")
    assert str(widget._esm) == f"{core}\n{own}"
    assert str(widget._css) == joined("list_core.css", f"{name}.css")
    assert str(widget._css).startswith((STATIC / "list_core.css").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("widget", "name"), LISTS)
def test_one_module_that_imports_nothing_and_uses_the_cores_functions(
    widget: type, name: str
) -> None:
    text = str(widget._esm)
    assert not re.search(r"^\s*import\b", text, re.MULTILINE)
    assert text.count("export default") == 1
    assert "export" not in (STATIC / "list_core.js").read_text(encoding="utf-8")
    own = (STATIC / f"{name}.js").read_text(encoding="utf-8")
    for used in ("element(", "listProtocol("):
        assert used in own
        assert f"function {used}" not in own  # defined once, in the core
