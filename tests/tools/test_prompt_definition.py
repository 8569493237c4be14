"""``@prompt`` and ``%%prompt`` templates: arguments, messages and completers."""

from __future__ import annotations

import pytest

from workbench.errors import ToolDefinitionError
from workbench.tools.prompt_definition import (
    Message,
    PromptArgument,
    placeholders,
    prompt,
    text_prompt,
)


def test_the_arguments_come_from_the_signature_and_the_docstring() -> None:
    @prompt
    def review(code: str, language: str = "python") -> str:
        """Review some code.

        Args:
            code: The code to review.
        """
        return f"Review this {language}: {code}"

    assert review.name == "review"
    assert review.description == "Review some code."
    assert review.arguments == [
        PromptArgument("code", "The code to review.", True),
        PromptArgument("language", None, False),
    ]
    assert review.messages(review(code="x")) == [Message("user", "Review this python: x")]


def test_arguments_are_checked_and_converted() -> None:
    @prompt(name="count")
    def counting(n: int) -> str:
        return "x" * n

    assert counting.check_arguments({"n": "3"}) == {"n": 3}
    with pytest.raises(ValueError, match="needs the argument n"):
        counting.check_arguments({})
    with pytest.raises(ValueError, match="has no argument m"):
        counting.check_arguments({"n": "1", "m": "2"})


def test_a_list_of_messages_takes_strings_pairs_and_dicts() -> None:
    chat = prompt(lambda: "", name="chat")
    value = ["hi", ("assistant", "hello"), {"role": "user", "content": {"text": "more"}}]
    assert chat.messages(value) == [
        Message("user", "hi"),
        Message("assistant", "hello"),
        Message("user", "more"),
    ]
    with pytest.raises(ValueError, match="role 'system'"):
        chat.messages([("system", "no")])
    with pytest.raises(TypeError, match="return a str or a list"):
        chat.messages(42)


def test_a_text_prompt_fills_its_placeholders() -> None:
    greet = text_prompt("greet", "Hello {name}, {{literally}} {name}. Topic: {topic}")
    assert [a.name for a in greet.arguments] == ["name", "topic"]
    assert greet(name="Ann", topic="MCP") == "Hello Ann, {literally} Ann. Topic: MCP"
    assert greet.template is not None
    with pytest.raises(ToolDefinitionError, match="no argument name"):
        placeholders("{0} and {a.b}")


def test_completers_name_an_argument() -> None:
    @prompt(complete={"language": ["python", "perl"]})
    def review(code: str, language: str) -> str:
        return code

    assert review.completers == {"language": ["python", "perl"]}
    with pytest.raises(ToolDefinitionError, match="no argument 'lang'"):
        review.add_completer("lang", [])


def test_content_blocks_become_messages_of_their_own() -> None:
    from workbench.tools import EmbeddedResource, ImageContent, TextResourceContents

    shown = prompt(lambda: "", name="shown")
    image = ImageContent(data="AAAA", mimeType="image/png")
    embedded = EmbeddedResource(resource=TextResourceContents(uri="data://x", text="x"))
    found = shown.messages([image, ("assistant", embedded), {"role": "user", "content": "ok"}])
    assert found[0] == Message(
        "user", content={"type": "image", "data": "AAAA", "mimeType": "image/png"}
    )
    assert found[1].role == "assistant" and found[1].content is not None
    assert found[1].content["resource"]["uri"] == "data://x"
    assert found[2] == Message("user", "ok")
