"""Prompts as plain data (workbench/features/prompts.py): the argument checks made before
any round trip, and a result's text and MCP messages."""

from __future__ import annotations

from workbench.features.prompts import Prompt, PromptArgument, PromptMessage, PromptResult
from workbench.tools.schema import TextContent

TEAM = Prompt(
    "everything",
    "completable-prompt",
    arguments=(
        PromptArgument("department", "Choose the department.", required=True),
        PromptArgument("name", required=True),
        PromptArgument("note"),
    ),
)


def test_missing_lists_required_arguments_without_a_value() -> None:
    assert TEAM.missing({}) == ["department", "name"]
    assert TEAM.missing({"department": "Sales"}) == ["name"]
    assert TEAM.missing({"department": "Sales", "name": ""}) == ["name"]
    assert TEAM.missing({"department": None, "name": "Ada"}) == ["department"]
    assert TEAM.missing({"department": "Sales", "name": "Ada"}) == []


def test_optional_arguments_are_never_missing() -> None:
    assert "note" not in TEAM.missing({})
    assert Prompt("s", "simple").missing({}) == []


def test_unknown_lists_names_the_prompt_does_not_take() -> None:
    assert TEAM.unknown({"department": "Sales", "note": "x"}) == []
    assert TEAM.unknown({"departement": "Sales", "extra": 1}) == ["departement", "extra"]
    assert Prompt("s", "simple").unknown({"anything": 1}) == ["anything"]


def test_result_text_and_messages() -> None:
    result = PromptResult(
        server="s",
        name="p",
        messages=[
            PromptMessage(role="user", content=TextContent(type="text", text="Hi")),
            PromptMessage.model_validate(
                {"role": "assistant", "content": {"type": "image", "data": "AA==",
                                                  "mimeType": "image/png"}}
            ),
        ],
    )  # fmt: skip
    assert result.text == "user: Hi\n\nassistant: [image]"
    assert result.to_messages() == [
        {"role": "user", "content": {"type": "text", "text": "Hi"}},
        {
            "role": "assistant",
            "content": {"type": "image", "data": "AA==", "mimeType": "image/png"},
        },
    ]
