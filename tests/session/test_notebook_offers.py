"""The Workbench's own resources and prompts (``notebook_offers.py``): owned per cell on the
``notebook`` server, read through its connection, and announced to ``subscribe_changes``
followers (the browser relists) when a cell re-runs."""

from __future__ import annotations

import pytest

from workbench.mcp.connection import ServerChange
from workbench.session import Workbench
from workbench.tools.prompt_definition import prompt
from workbench.tools.resource_definition import resource


@resource("data://greeting")
def greeting() -> str:
    return "hello"


@resource("data://greeting")
def greeting_again() -> str:
    return "hello again"


@prompt
def review(code: str) -> str:
    """Review code."""
    return f"Review: {code}"


def test_a_re_run_cell_replaces_what_it_defined_and_followers_hear_of_it(wb: Workbench) -> None:
    heard: list[ServerChange] = []
    wb.subscribe_changes(heard.append)
    wb.set_owned_offers("cell:1", [greeting], [review])
    assert heard == [ServerChange("notebook", "resources"), ServerChange("notebook", "prompts")]
    assert wb.read_resource("data://greeting").content[0].resource.text == "hello"  # type: ignore[union-attr]
    heard.clear()
    change = wb.set_owned_offers("cell:1", [greeting_again])
    assert (change.replaced_resources, change.removed_prompts) == (["data://greeting"], ["review"])
    assert heard == [
        ServerChange("notebook", "resource", "data://greeting"),
        ServerChange("notebook", "resources"),
        ServerChange("notebook", "prompts"),
    ]
    assert wb.read_resource("data://greeting").content[0].resource.text == "hello again"  # type: ignore[union-attr]
    assert [p.name for p in wb.prompts("notebook")] == []
    assert (wb.resource_owner("data://greeting"), wb.prompt_owner("review")) == ("cell:1", None)


def test_add_and_remove_by_hand(wb: Workbench) -> None:
    wb.add_resources(greeting)
    wb.add_prompts(review)
    assert [r.uri for r in wb.notebook_resources()] == ["data://greeting"]
    assert wb.remove_resource("data://greeting") and not wb.remove_resource("data://greeting")
    assert wb.remove_prompt("review") and not wb.remove_prompt("review")
    with pytest.raises(TypeError, match="@resource definitions"):
        wb.add_resources(greeting.fn)  # type: ignore[arg-type]
