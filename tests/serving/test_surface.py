"""The served surface's rules, as plain data: whitelist, blacklist, allow-list, enabled."""

from __future__ import annotations

import pytest

from workbench.errors import ServeWarning
from workbench.serving.surface import Surface, is_enabled
from workbench.tools.from_function import tool


def make(name: str, enabled: object = None) -> object:
    def fn(x: int) -> int:
        """Echo."""
        return x

    fn.__name__ = name
    return tool(fn) if enabled is None else tool(enabled=enabled)(fn)  # type: ignore[arg-type]


def test_the_blacklist_wins_over_the_whitelist() -> None:
    surface = Surface(expose=["a", "b"], exclude=["b"])
    assert [name for name in "abc" if surface.passes_filters(name)] == ["a"]


def test_no_whitelist_serves_everything_not_excluded() -> None:
    surface = Surface(exclude=["c"])
    assert [name for name in "abc" if surface.passes_filters(name)] == ["a", "b"]


def test_unknown_names_are_warned_about_and_skipped() -> None:
    surface = Surface(expose=["a", "ghost"], exclude=["phantom"])
    with pytest.warns(ServeWarning) as caught:
        surface.check(["a", "b"])
    messages = " ".join(str(w.message) for w in caught)
    assert "ghost" in messages and "phantom" in messages
    assert surface.passes_filters("a") and not surface.passes_filters("b")


def test_the_allow_list_narrows_at_run_time_and_none_lifts_it() -> None:
    surface = Surface()
    surface.allow(["a"], ["a", "b"])
    assert not surface.passes_filters("b")
    surface.allow(None, ["a", "b"])
    assert surface.passes_filters("b")
    with pytest.warns(ServeWarning, match="ghost"):
        surface.allow(["ghost"], ["a"])


def test_enabled_is_asked_each_time_and_one_that_raises_hides() -> None:
    switch = {"on": False}
    definition = make("flip", lambda: switch["on"])
    assert not is_enabled(definition)  # type: ignore[arg-type]
    switch["on"] = True
    assert is_enabled(definition)  # type: ignore[arg-type]
    assert not is_enabled(make("boom", lambda: 1 / 0))  # type: ignore[arg-type]
    assert is_enabled(make("plain"))  # type: ignore[arg-type]


def test_enabled_stays_out_of_the_schema() -> None:
    definition = make("flip", lambda: True)
    assert "enabled" not in str(definition.input_schema)  # type: ignore[attr-defined]
    assert "enabled" not in str(definition.to_mcp_tool())  # type: ignore[attr-defined]
