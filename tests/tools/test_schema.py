"""Content blocks, Action and Observation."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from tests.processes import modules_after, run_python
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


def test_action_arguments() -> None:
    class Greet(Action):
        name: str
        times: int = 1

    assert Greet(name="Ada").to_arguments() == {"name": "Ada", "times": 1}


@pytest.mark.integration
def test_the_model_room_imports_no_view_and_shows_a_repr_until_one_is_installed() -> None:
    code = (
        "from workbench.tools.schema import ErrorKind, Observation\n"
        "obs = Observation.error(ErrorKind.NOT_FOUND, 'no tool named x', duration=0.0123)\n"
        "print(obs._repr_mimebundle_()['text/plain'][:12])\n"
    )
    modules = modules_after(code)
    assert "rich" not in modules and "workbench.display" not in modules
    assert run_python(code).stdout.strip() == "Observation("


def test_a_terminal_and_a_notebook_show_the_same_header_error_and_duration() -> None:
    import workbench.display  # installs the views

    observation = Observation.error(
        ErrorKind.NOT_FOUND, "no tool named x", duration=0.0123, tool_id="demo.x"
    )
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(observation)  # what rich.print(observation) shows in a terminal
    terminal = console.file.getvalue()  # type: ignore[attr-defined]
    bundle = observation._repr_mimebundle_()
    html = bundle["text/html"]
    for piece in ("demo.x", "Error · not_found", "no tool named x", "12.3 ms"):
        assert piece in terminal and piece in html and piece in bundle["text/plain"]
    assert bundle[workbench.display.OBSERVATION_MIME]["errorKind"] == "not_found"


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


def test_text_includes_embedded_text_resources_but_not_blobs() -> None:
    """A resource read is an Observation of embedded resources: its text is the read's."""
    observation = Observation.model_validate(
        {
            "content": [
                {"type": "text", "text": "first"},
                {"type": "resource", "resource": {"uri": "demo://guide", "text": "# Guide"}},
                {"type": "resource", "resource": {"uri": "demo://chart.png", "blob": "iVBO"}},
            ]
        }
    )
    assert observation.text == "first\n# Guide"
