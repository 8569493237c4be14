"""App-only tools (``_meta.ui.visibility`` without ``model``) in the registry: gettable and
listed, never a search hit, and the index pays nothing for them (registry/visibility.py)."""

from __future__ import annotations

from workbench.registry import Registry
from workbench.registry.visibility import app_visible, model_visible


def tool(name: str, visibility: object = None) -> dict[str, object]:
    ui = {} if visibility is None else {"visibility": visibility}
    return {"name": name, "description": f"{name} the widget", "_meta": {"ui": ui}}


def test_app_only_tools_are_listed_but_never_found() -> None:
    registry = Registry()
    registry.set_tools("s", [tool("spin"), tool("turn", ["app"]), tool("twist", ["model"])])
    assert {hit.id for hit in registry.search("widget")} == {"s.spin", "s.twist"}
    assert registry.get("s.turn").name == "turn" and len(registry) == 3
    registry.set_tools("s", [tool("turn")])  # listed again, now for models too
    assert [hit.id for hit in registry.search("turn widget")] == ["s.turn"]
    assert len(registry) == 1
    registry.remove_server("s")
    assert len(registry) == 0 and not registry.search("widget")


def test_visibility_reads_junk_as_both() -> None:
    assert model_visible(None) and app_visible(None)
    assert model_visible({"ui": {"visibility": "app"}})
    assert not model_visible({"ui": {"visibility": ["app"]}})
    assert not app_visible({"ui": {"visibility": ["model"]}})
