"""``@tool``: the JSON Schema each kind of signature produces, pinned."""

from __future__ import annotations

import asyncio
import enum
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from pydantic import BaseModel, Field

from workbench import Workbench
from workbench.errors import SchemaFallbackWarning, ToolDefinitionError
from workbench.tools import ErrorKind, FunctionTool, Observation, TextContent, tool
from workbench.tools.from_function import WRAP_MARKER, observation_from_value
from workbench.tools.schema import ContentBlock, ImageContent


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Point(BaseModel):
    x: int
    y: int = 0


def obj(properties: dict[str, Any], required: list[str] | None = None, **extra: Any) -> dict:
    schema: dict[str, Any] = {"additionalProperties": False, "properties": properties}
    if required:
        schema["required"] = required
    schema["type"] = "object"
    schema.update(extra)
    return schema


def f_str(text: str): ...
def f_int(n: int): ...
def f_float(x: float): ...
def f_bool(flag: bool): ...
def f_default(n: int = 3): ...
def f_optional(name: Optional[str] = None): ...  # noqa: UP045 - the spelling under test
def f_pipe_none(name: str | None): ...
def f_literal(mode: Literal["fast", "slow"] = "fast"): ...
def f_enum(color: Color): ...
def f_list(tags: list[str]): ...
def f_dict(counts: dict[str, int]): ...
def f_model(point: Point): ...
def f_list_of_models(points: list[Point] = []): ...  # noqa: B006
def f_annotated(n: Annotated[int, Field(description="How many.", ge=1, le=10)]): ...
def f_union(value: Union[int, str]): ...  # noqa: UP007
def f_unannotated(anything): ...
def f_nested_generic(rows: list[dict[str, float]]): ...
def f_tuple(pair: tuple[int, str]): ...
def f_keyword_only(*, limit: int = 10): ...


def f_google(path: str, depth: int = 1):
    """Walk a folder.

    Args:
        path: Folder to walk.
        depth: How deep to go.
    """


def f_numpy(path: str, depth: int = 1):
    """Walk a folder.

    Parameters
    ----------
    path : str
        Folder to walk.
    depth : int
        How deep to go.
    """


def f_rest(path: str, depth: int = 1):
    """Walk a folder.

    :param path: Folder to walk.
    :param depth: How deep to go.
    """


def f_field_beats_docstring(n: Annotated[int, Field(description="From Field.")]):
    """Do it.

    Args:
        n: From the docstring.
    """


WALK = obj(
    {
        "path": {"description": "Folder to walk.", "type": "string"},
        "depth": {"default": 1, "description": "How deep to go.", "type": "integer"},
    },
    ["path"],
)
POINT_DEF = {
    "Point": {
        "properties": {"x": {"type": "integer"}, "y": {"default": 0, "type": "integer"}},
        "required": ["x"],
        "title": "Point",
        "type": "object",
    }
}
NULLABLE_STR = {"anyOf": [{"type": "string"}, {"type": "null"}]}

CASES: list[tuple[Any, dict[str, Any]]] = [
    (f_str, obj({"text": {"type": "string"}}, ["text"])),
    (f_int, obj({"n": {"type": "integer"}}, ["n"])),
    (f_float, obj({"x": {"type": "number"}}, ["x"])),
    (f_bool, obj({"flag": {"type": "boolean"}}, ["flag"])),
    (f_default, obj({"n": {"default": 3, "type": "integer"}})),
    (f_optional, obj({"name": {**NULLABLE_STR, "default": None}})),
    (f_pipe_none, obj({"name": NULLABLE_STR}, ["name"])),
    (f_literal, obj({"mode": {"default": "fast", "enum": ["fast", "slow"], "type": "string"}})),
    (
        f_enum,
        obj(
            {"color": {"$ref": "#/$defs/Color"}},
            ["color"],
            **{"$defs": {"Color": {"enum": ["red", "green"], "title": "Color", "type": "string"}}},
        ),
    ),
    (f_list, obj({"tags": {"items": {"type": "string"}, "type": "array"}}, ["tags"])),
    (
        f_dict,
        obj(
            {"counts": {"additionalProperties": {"type": "integer"}, "type": "object"}},
            ["counts"],
        ),
    ),
    (f_model, obj({"point": {"$ref": "#/$defs/Point"}}, ["point"], **{"$defs": POINT_DEF})),
    (
        f_list_of_models,
        obj(
            {"points": {"default": [], "items": {"$ref": "#/$defs/Point"}, "type": "array"}},
            **{"$defs": POINT_DEF},
        ),
    ),
    (
        f_annotated,
        obj(
            {"n": {"description": "How many.", "maximum": 10, "minimum": 1, "type": "integer"}},
            ["n"],
        ),
    ),
    (f_union, obj({"value": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}, ["value"])),
    (f_unannotated, obj({"anything": {}}, ["anything"])),
    (
        f_nested_generic,
        obj(
            {
                "rows": {
                    "items": {"additionalProperties": {"type": "number"}, "type": "object"},
                    "type": "array",
                }
            },
            ["rows"],
        ),
    ),
    (
        f_tuple,
        obj(
            {
                "pair": {
                    "maxItems": 2,
                    "minItems": 2,
                    "prefixItems": [{"type": "integer"}, {"type": "string"}],
                    "type": "array",
                }
            },
            ["pair"],
        ),
    ),
    (f_keyword_only, obj({"limit": {"default": 10, "type": "integer"}})),
    (f_google, WALK),
    (f_numpy, WALK),
    (f_rest, WALK),
    (
        f_field_beats_docstring,
        obj({"n": {"description": "From Field.", "type": "integer"}}, ["n"]),
    ),
]


@pytest.mark.parametrize(("function", "expected"), CASES, ids=[c[0].__name__ for c in CASES])
def test_input_schema_is_pinned(function: Any, expected: dict[str, Any]) -> None:
    assert tool(function).input_schema == expected


@pytest.mark.parametrize("function", [f_google, f_numpy, f_rest])
def test_description_is_the_docstring_prose_without_sections(function: Any) -> None:
    assert tool(function).description == "Walk a folder."


def test_description_keeps_the_extended_prose() -> None:
    def search(q: str):
        """Search the catalogue.

        Matches titles and authors.

        Args:
            q: words.
        """

    assert tool(search).description == "Search the catalogue.\n\nMatches titles and authors."


def test_docstring_line_breaks_are_reflowed_in_descriptions() -> None:
    """Hard-wrapped lines read as ragged breaks in a card; paragraphs and lists stay."""

    def count(n: int) -> int:
        """Count slowly, reporting progress after every step.

        Use it to watch a progress bar or to interrupt a call: the count stops
        at the next sleep once the call is cancelled.

        Good for:
        - progress bars
        - timeouts

        Args:
            n: how far.
        """
        return n

    assert tool(count).description == (
        "Count slowly, reporting progress after every step.\n\n"
        "Use it to watch a progress bar or to interrupt a call: the count stops at the next "
        "sleep once the call is cancelled.\n\n"
        "Good for:\n- progress bars\n- timeouts"
    )


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (int, {"type": "object", "properties": {"result": {"type": "integer"}},
               "required": ["result"], WRAP_MARKER: True}),
        (dict[str, int], {"additionalProperties": {"type": "integer"}, "type": "object"}),
        (Point, POINT_DEF["Point"]),
        (list[str], {"type": "object",
                     "properties": {"result": {"items": {"type": "string"}, "type": "array"}},
                     "required": ["result"], WRAP_MARKER: True}),
        (str, None),
        (None, None),
        (Observation, None),
        # Content blocks are the result itself, however they are spelled: no schema.
        (ImageContent, None),
        (list[ContentBlock], None),
        (list[TextContent | ImageContent], None),
        (ContentBlock | None, None),
    ],
)  # fmt: skip
def test_output_schema_from_the_return_annotation(annotation: Any, expected: Any) -> None:
    def f() -> None: ...

    f.__annotations__["return"] = annotation
    assert tool(f).output_schema == expected


def test_options_override_what_is_inferred() -> None:
    @tool(
        name="sum_all",
        title="Sum",
        description="Adds.",
        annotations={"readOnlyHint": True},
        tags=["math"],
        output_schema={"type": "object"},
    )
    def add(a: int, b: int) -> int:
        """Ignored."""
        return a + b

    assert (add.name, add.title, add.description, add.tags) == (
        "sum_all",
        "Sum",
        "Adds.",
        ("math",),
    )
    assert add.annotations is not None and add.annotations.read_only_hint is True
    assert add.output_schema == {"type": "object"}


def test_decorated_function_stays_a_function() -> None:
    @tool
    def add(a: int, b: int = 2) -> int:
        """Add."""
        return a + b

    assert isinstance(add, FunctionTool)
    assert add(1) == 3
    assert add(a=1, b=5) == 6
    assert add.__name__ == "add" and add.__doc__ == "Add."


def test_async_function_is_awaitable_as_function_and_as_tool() -> None:
    @tool
    async def double(n: int) -> int:
        """Double."""
        await asyncio.sleep(0)
        return n * 2

    async def scenario() -> tuple[int, Observation]:
        return await double(4), await double.acall({"n": 5})

    raw, observation = asyncio.new_event_loop().run_until_complete(scenario())
    assert raw == 8
    assert observation.structured_content == {"result": 10}
    with pytest.raises(ToolDefinitionError, match="async"):
        double.call({"n": 1})


def test_call_passes_python_objects_and_positional_only_parameters() -> None:
    seen: list[Any] = []

    @tool
    def place(point: Point, color: Color, /, label: str = "") -> str:
        seen.append((point, color, label))
        return f"{label}@{point.x},{point.y}"

    observation = place.call({"point": {"x": 1}, "color": "green", "label": "A"})
    assert observation.text == "A@1,0"
    assert seen == [(Point(x=1), Color.GREEN, "A")]


def test_parameter_named_like_a_pydantic_attribute_keeps_its_name() -> None:
    @tool
    def show(json: str, schema: int = 0) -> str:
        return f"{json}:{schema}"

    assert set(show.input_schema["properties"]) == {"json", "schema"}
    assert show.call({"json": "x", "schema": 2}).text == "x:2"


def test_annotation_without_schema_falls_back_to_any_with_a_warning() -> None:
    class Opaque:
        pass

    def use(thing: Opaque, n: int = 1) -> str:
        return type(thing).__name__

    with pytest.warns(SchemaFallbackWarning, match="'thing'"):
        made = tool(use)
    assert made.input_schema["properties"]["thing"] == {}
    assert made.call({"thing": Opaque()}).text == "Opaque"


@pytest.mark.parametrize("signature", ["def f(*items: int): ...", "def f(**options: int): ..."])
def test_variadic_parameters_are_refused_clearly(signature: str) -> None:
    namespace: dict[str, Any] = {}
    exec(signature, namespace)
    with pytest.raises(ToolDefinitionError, match="named parameters"):
        tool(namespace["f"])


def test_lambda_needs_a_name() -> None:
    with pytest.raises(ToolDefinitionError, match="name="):
        tool(lambda x: x)
    assert tool(name="echo")(lambda x: x).call({"x": "hi"}).text == "hi"


def test_tool_exception_becomes_a_tool_error_observation() -> None:
    @tool
    def explode(n: int) -> int:
        raise ValueError(f"bad n {n}")

    observation = explode.call({"n": 7})
    assert observation.is_error and observation.error_kind is ErrorKind.TOOL_ERROR
    assert "ValueError: bad n 7" in observation.text


@pytest.mark.parametrize(
    ("value", "text", "structured"),
    [
        ("plain", "plain", None),
        ({"a": 1}, '{"a": 1}', {"a": 1}),
        ([1, 2], "[1, 2]", {"result": [1, 2]}),
        (3.5, "3.5", {"result": 3.5}),
        (Point(x=1), '{"x": 1, "y": 0}', {"x": 1, "y": 0}),
        (None, "", None),
    ],
)
def test_return_values_become_observations(value: Any, text: str, structured: Any) -> None:
    observation = observation_from_value(value)
    assert (observation.text, observation.structured_content) == (text, structured)


def test_a_tool_returning_a_list_of_content_blocks_is_called_through_the_workbench() -> None:
    """A list of blocks is the tool's content; a wrapped schema made every call fail with
    "has an output schema but did not return structured content"."""

    @tool
    def pictures() -> list[ContentBlock]:
        """Two blocks."""
        return [TextContent(text="a"), ImageContent(data="aGk=", mime_type="image/png")]

    with Workbench() as wb:
        wb.add_tools(pictures)
        observation = wb.call("notebook.pictures")
    assert not observation.is_error, observation.error_message
    assert [block.type for block in observation.content] == ["text", "image"]


def test_content_blocks_pass_through() -> None:
    blocks = [TextContent(text="a"), TextContent(text="b")]
    assert observation_from_value(blocks).content == blocks
    assert observation_from_value(blocks[0]).content == blocks[:1]


def test_wrapped_output_schema_wraps_dict_results_too() -> None:
    schema = {"type": "object", "properties": {"result": {}}, WRAP_MARKER: True}
    assert observation_from_value({"a": 1}, schema).structured_content == {"result": {"a": 1}}
