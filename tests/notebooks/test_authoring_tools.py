"""The authoring notebook runs top to bottom in a real kernel and shows what it teaches:
schemas from hints and docstrings, annotations, error Observations, async tools, `%%tool`
and the four export formats. The notebook runs once; each test reads its outputs."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.notebooks.executed import (
    Outputs,
    by_cell,
    check_saved,
    documents,
    execute,
    observation,
    read,
    shown_by,
)
from workbench.display.mime import TABLE_MIME as TABLE
from workbench.display.mime import TOOL_MIME as TOOL

NAME = "authoring_tools.ipynb"

pytestmark = pytest.mark.kernel


@pytest.fixture(scope="module")
def cells() -> Outputs:
    notebook = read(NAME)
    execute(notebook)  # a cell that raises fails here (nbclient's CellExecutionError)
    return by_cell(notebook)


def printed_json(cells: Outputs, cell_id: str) -> Any:
    return json.loads(shown_by(cells[cell_id]))


def test_saved_without_outputs_and_shaped_for_teaching() -> None:
    check_saved(NAME)


def test_hints_and_docstrings_make_the_schema(cells: Outputs) -> None:
    schema = printed_json(cells, "schema-convert")
    assert schema["$defs"]["Unit"]["enum"] == ["celsius", "fahrenheit"]  # Enum
    to = schema["properties"]["to"]
    assert to == {
        "$ref": "#/$defs/Unit",
        "default": "fahrenheit",
        "description": "The unit to convert to.",
    }
    precision = schema["properties"]["precision"]
    assert precision["enum"] == [0, 1, 2] and precision["default"] == 1  # Literal, default
    assert precision["description"] == "How many decimals the answer keeps."  # docstring
    assert schema["required"] == ["value"]
    assert "(70.7, 21.0)" in shown_by(cells["plain-convert"])  # still a function


def test_pydantic_models_and_field_descriptions(cells: Outputs) -> None:
    schema = printed_json(cells, "define-scale")
    grams = schema["$defs"]["Ingredient"]["properties"]["grams"]
    assert grams == {"description": "Weight in grams.", "exclusiveMinimum": 0, "type": "number"}
    assert schema["properties"]["ingredients"]["items"] == {"$ref": "#/$defs/Ingredient"}
    servings = schema["properties"]["servings"]
    assert servings["description"] == "How many people to cook for."
    assert (servings["minimum"], servings["maximum"], servings["default"]) == (1, 50, 4)
    scaled = observation(cells, "call-scale")
    assert not scaled["isError"]
    assert scaled["structuredContent"] == {
        "result": [{"name": "flour", "grams": 600.0}, {"name": "sugar", "grams": 150.0}]
    }


def test_annotations(cells: Outputs) -> None:
    shown = shown_by(cells["define-delete"])
    assert "{'destructiveHint': True, 'idempotentHint': True}" in shown
    assert "['read-only', 'idempotent']" in shown


def test_invalid_arguments_name_every_bad_field(cells: Outputs) -> None:
    invalid = observation(cells, "call-invalid")
    assert invalid["isError"] and invalid["errorKind"] == "invalid_arguments"
    message = invalid["errorMessage"]
    for field in (
        "ingredients.0.grams: Input should be greater than 0",
        "ingredients.1.name: required but missing",
        "servings: Input should be greater than or equal to 1",
        "extra: unexpected argument",
    ):
        assert field in message, (field, message)


def test_a_tool_that_raises(cells: Outputs) -> None:
    failed = observation(cells, "define-divide")
    assert failed["isError"] and failed["errorKind"] == "tool_error"
    assert "ZeroDivisionError: float division by zero" in failed["errorMessage"]
    # IPython may break the tuple over lines: read it with its spaces folded.
    shown = " ".join(shown_by(cells["failed-fields"]).split())
    assert "(True, 'tool_error', 'divide: ZeroDivisionError" in shown
    # The error names where in the notebook's own code it was raised.
    assert re.search(r"\(cell \[\d+\], line \d+: return a / b\)'\)$", shown), shown


def test_async_tools(cells: Outputs) -> None:
    echoed = observation(cells, "define-async")
    assert echoed["content"] == [{"type": "text", "text": "hello after a pause"}]
    assert echoed["duration"] >= 0.2  # it really waited
    assert "'called through the workbench'" in shown_by(cells["add-tools"])


def test_tool_cell_serves_its_public_functions(cells: Outputs) -> None:
    [card] = documents(cells["define-vowels"], TOOL)
    shown = shown_by(cells["define-vowels"])
    assert "notebook.count_vowels" in shown and "read-only · idempotent" in shown
    assert "_is_vowel" not in json.dumps(card)  # a helper, not a tool
    called = observation(cells, "call-vowels")
    assert called["toolId"] == "notebook.count_vowels"
    assert called["structuredContent"] == {"result": 4}  # a, u, o, i
    bad = observation(cells, "call-vowels-bad")
    assert bad["errorKind"] == "invalid_arguments"
    assert "txt: unexpected argument" in bad["errorMessage"]
    assert "text: required but missing" in bad["errorMessage"]
    [table] = documents(cells["list-notebook"], TABLE)
    listed = shown_by(cells["list-notebook"])
    assert "3 tools" in listed and table
    for tool_id in ("notebook.convert_temperature", "notebook.count_vowels", "notebook.slow_echo"):
        assert tool_id in listed


def test_four_export_formats(cells: Outputs) -> None:
    shown = shown_by(cells["export-all"])
    assert "'mcp': ['description', 'inputSchema', 'name', 'outputSchema']" in shown
    assert "'openai': ['function', 'type']" in shown
    assert "'responses': ['description', 'name', 'parameters', 'type']" in shown
    assert "'anthropic': ['description', 'input_schema', 'name']" in shown
    assert shown_by(cells["export-same-schema"]).strip() == "True"
    anthropic = printed_json(cells, "export-anthropic")
    assert anthropic["name"] == "convert_temperature"
    assert anthropic["input_schema"]["required"] == ["value"]
