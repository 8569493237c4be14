"""``%mcp prompt``: a prompt's messages as the cell's value; its arguments as text,
required ones checked before any round trip."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError

from workbench.features.prompts import PromptResult

Mcp = Callable[[str], Any]


def test_a_prompt_is_the_cells_value(mcp: Mcp) -> None:
    result, captured = mcp("prompt explain_tool tool=add level=expert")
    assert isinstance(result, PromptResult)
    assert captured.outputs == []  # shown as the cell's value, not on the side
    assert (result.server, result.name) == ("demo", "explain_tool")
    assert result.arguments == {"tool": "add", "level": "expert"}
    assert [m.role for m in result.messages] == ["user", "assistant"]
    assert "`add`" in result.text and "an expert" in result.text


def test_a_server_prompt_id_or_the_server_option(mcp: Mcp) -> None:
    result, _ = mcp('prompt demo.explain_tool tool="add" level=beginner')
    assert result.arguments == {"tool": "add", "level": "beginner"}
    result, _ = mcp("prompt explain_tool tool=add --server demo")
    assert (result.server, result.arguments) == ("demo", {"tool": "add"})


def test_a_missing_required_argument_is_refused_before_sending(mcp: Mcp) -> None:
    with pytest.raises(UsageError) as raised:
        mcp("prompt explain_tool level=expert")
    assert str(raised.value) == (
        "Invalid arguments for demo.explain_tool: tool: required but missing"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("prompt explain_tool tool=add tool=fail", "^%mcp prompt: tool is given twice.$"),
        ("prompt explain_tool add", "^Expected KEY=VALUE, got add.$"),
        ("prompt explain_tool tool=", "^tool= has no value"),
        ("prompt explain_tool tool=add colour=red", "colour: not an argument of this prompt$"),
        ("prompt nosuch", "^No prompt named 'nosuch'.$"),
        ("prompt explain_tool tool=nope", "No demo tool is called 'nope'"),
    ],
)
def test_mistakes_are_one_line_usage_errors(mcp: Mcp, line: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as raised:
        mcp(line)
    assert "\n" not in str(raised.value)


@pytest.mark.integration
def test_a_prompt_of_server_everything(mcp: Mcp, everything: str) -> None:
    result, _ = mcp("prompt args-prompt city=Paris state='Île-de-France'")
    assert result.server == everything
    assert "Paris" in result.text and "Île-de-France" in result.text
    typed, _ = mcp("prompt args-prompt city=007")  # text as typed, not the number 7
    assert typed.arguments == {"city": "007"} and "007" in typed.text
    with pytest.raises(UsageError, match=r"args-prompt: city: required but missing$"):
        mcp("prompt args-prompt")
