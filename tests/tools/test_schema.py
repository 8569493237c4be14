"""Content blocks, Action and Observation."""

from __future__ import annotations

from rich.console import Console

from workbench.tools import (
    Action,
    EmbeddedResource,
    ErrorKind,
    ImageContent,
    Observation,
    ResourceLink,
    TextContent,
)
from workbench.tools.schema import is_structured_twin


def render(renderable: object) -> str:
    console = Console(width=100, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


MCP_RESULT = {
    "content": [
        {"type": "text", "text": "hello"},
        {"type": "image", "data": "iVBORw0K", "mimeType": "image/png"},
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
        {
            "type": "resource_link",
            "uri": "file:///a.txt",
            "name": "a.txt",
            "mimeType": "text/plain",
        },
        {"type": "resource", "resource": {"uri": "mem://x", "text": "body"}},
        {"type": "resource", "resource": {"uri": "mem://y", "blob": "AAAA"}},
    ],
    "structuredContent": {"n": 1},
    "isError": False,
}


def test_an_mcp_call_result_validates_into_an_observation() -> None:
    observation = Observation.model_validate(MCP_RESULT)
    kinds = [type(block).__name__ for block in observation.content]
    assert kinds == [
        "TextContent",
        "ImageContent",
        "AudioContent",
        "ResourceLink",
        "EmbeddedResource",
        "EmbeddedResource",
    ]
    image = observation.content[1]
    assert isinstance(image, ImageContent) and image.mime_type == "image/png"
    assert observation.structured_content == {"n": 1}


def test_to_llm_content_round_trips_mcp_blocks() -> None:
    observation = Observation.model_validate(MCP_RESULT)
    assert observation.to_llm_content() == MCP_RESULT["content"]


def test_to_llm_content_adds_text_for_structured_only_results() -> None:
    observation = Observation(structured_content={"a": [1, 2]})
    assert observation.to_llm_content() == [{"type": "text", "text": '{"a": [1, 2]}'}]


def test_text_joins_text_blocks_and_falls_back_to_the_error_message() -> None:
    observation = Observation(content=[TextContent(text="a"), TextContent(text="b")])
    assert observation.text == "a\nb"
    assert Observation(is_error=True, error_message="boom").text == "boom"
    assert Observation().text == ""


def test_error_constructor_sets_kind_message_and_text() -> None:
    observation = Observation.error(ErrorKind.TIMEOUT, "took too long", duration=60.0)
    assert observation.is_error and observation.error_kind is ErrorKind.TIMEOUT
    assert observation.text == observation.error_message == "took too long"
    assert observation.duration == 60.0


def test_from_text_accepts_other_fields() -> None:
    observation = Observation.from_text("hi", structured_content={"x": 1})
    assert observation.text == "hi" and observation.structured_content == {"x": 1}


def test_observation_visualize_shows_error_kind_content_and_duration() -> None:
    text = render(Observation.error(ErrorKind.NOT_FOUND, "no tool named x", duration=0.0123))
    assert "Error (not_found)" in text and "no tool named x" in text and "12.3 ms" in text


def test_observation_visualize_does_not_repeat_the_structured_twin() -> None:
    observation = Observation.from_text('{"a": 1}', structured_content={"a": 1})
    assert render(observation).count("'a'") + render(observation).count('"a"') == 1


def test_observation_visualize_names_non_text_blocks() -> None:
    text = render(Observation.model_validate(MCP_RESULT))
    assert "[image: image/png]" in text
    assert "[resource link: file:///a.txt]" in text
    assert "[resource: mem://x]" in text


def test_action_arguments_and_visualize() -> None:
    class Greet(Action):
        name: str
        times: int = 1

    action = Greet(name="Ada")
    assert action.to_arguments() == {"name": "Ada", "times": 1}
    text = render(action)
    assert "name" in text and "'Ada'" in text and "times" in text


def test_blocks_dump_in_mcp_spelling() -> None:
    link = ResourceLink(uri="u://1", name="one", mime_type="text/plain")
    assert link.model_dump(by_alias=True, exclude_none=True) == {
        "type": "resource_link",
        "uri": "u://1",
        "name": "one",
        "mimeType": "text/plain",
    }
    assert (
        EmbeddedResource.model_validate(
            {"type": "resource", "resource": {"uri": "u://2", "text": "t"}}
        ).resource.uri
        == "u://2"
    )


def test_structured_twin() -> None:
    assert is_structured_twin('{"a": 1}', {"a": 1})
    assert is_structured_twin("5", {"result": 5})
    assert not is_structured_twin("null", {"a": 1})
    assert not is_structured_twin("not json", {"a": 1})
    assert not is_structured_twin('{"a": 1}', None)
