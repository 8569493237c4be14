"""ToolDefinition: both construction patterns, validation errors, execution paths."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import Self

from workbench.errors import InvalidArgumentsError, ToolDefinitionError
from workbench.tools import Action, ErrorKind, Observation, ToolDefinition, tool
from workbench.tools.definition import valid_tool_name


class Address(BaseModel):
    city: str
    zip: str = Field(pattern=r"^\d{5}$")


class ShipAction(Action):
    item: str
    count: int = Field(ge=1)
    speed: Literal["normal", "express"] = "normal"
    to: Address


def ship(action: ShipAction) -> Observation:
    return Observation.from_text(f"{action.count} x {action.item} to {action.to.city}")


SHIP = ToolDefinition(name="ship", action_type=ShipAction, executor=ship, description="Ship.")
GOOD = {"item": "book", "count": 2, "to": {"city": "Oslo", "zip": "01234"}}


class CounterAction(Action):
    step: int = 1


class Counter:
    """A stateful executor: the count survives between calls."""

    def __init__(self, start: int) -> None:
        self.value = start

    def __call__(self, action: CounterAction) -> Observation:
        self.value += action.step
        return Observation.from_text(str(self.value))


class CounterTool(ToolDefinition[CounterAction, Observation]):
    @classmethod
    def create(cls, start: int = 0) -> Sequence[Self]:
        counter = Counter(start)
        return [cls(name="count", action_type=CounterAction, executor=counter)]


def test_direct_instantiation_calls_the_executor() -> None:
    observation = SHIP.call(GOOD)
    assert not observation.is_error
    assert observation.text == "2 x book to Oslo"
    assert observation.duration is not None and observation.duration >= 0


def test_subclass_with_create_factory_keeps_state() -> None:
    (counter,) = CounterTool.create(start=10)
    assert counter.call({}).text == "11"
    assert counter.call({"step": 5}).text == "16"


def test_create_without_factory_is_a_clear_error() -> None:
    with pytest.raises(ToolDefinitionError, match="no create"):
        ToolDefinition.create()


def test_input_schema_comes_from_the_action() -> None:
    schema = SHIP.input_schema
    assert schema["required"] == ["item", "count", "to"]
    assert schema["properties"]["count"] == {"minimum": 1, "type": "integer"}
    assert schema["$defs"]["Address"]["properties"]["zip"] == {
        "pattern": r"^\d{5}$",
        "type": "string",
    }
    assert "title" not in schema


@pytest.mark.parametrize(
    ("arguments", "problems"),
    [
        ({**GOOD, "item": None}, [("item", "Input should be a valid string (got None)")]),
        ({k: v for k, v in GOOD.items() if k != "item"}, [("item", "required but missing")]),
        ({k: v for k, v in GOOD.items() if k != "count"}, [("count", "required but missing")]),
        ({**GOOD, "count": 0}, [("count", "Input should be greater than or equal to 1 (got 0)")]),
        ({**GOOD, "count": "two"}, [("count", "Input should be a valid integer, unable to parse "
                                              "string as an integer (got 'two')")]),
        ({**GOOD, "speed": "warp"}, [("speed", "Input should be 'normal' or 'express' "
                                              "(got 'warp')")]),
        ({**GOOD, "to": {"city": "Oslo"}}, [("to.zip", "required but missing")]),
        ({**GOOD, "to": {"city": "Oslo", "zip": "x"}},
         [("to.zip", "String should match pattern '^\\d{5}$' (got 'x')")]),
        ({**GOOD, "colour": "red"}, [("colour", "unexpected argument")]),
        ({"count": -1, "extra": 1}, [("item", "required but missing"),
                                     ("count", "Input should be greater than or equal to 1 "
                                               "(got -1)"),
                                     ("to", "required but missing"),
                                     ("extra", "unexpected argument")]),
    ],
)  # fmt: skip
def test_every_bad_field_is_named(arguments: dict[str, Any], problems: list[Any]) -> None:
    with pytest.raises(InvalidArgumentsError) as caught:
        SHIP.action_from_arguments(arguments)
    assert caught.value.problems == problems
    observation = SHIP.call(arguments)
    assert observation.is_error and observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    for field, _why in problems:
        assert field in observation.text


def test_non_mapping_arguments_are_invalid_not_a_crash() -> None:
    observation = SHIP.call(None)
    assert observation.error_kind is ErrorKind.INVALID_ARGUMENTS
    assert "item: required but missing" in observation.text


def test_executor_exception_is_a_tool_error_observation() -> None:
    def broken(action: CounterAction) -> Observation:
        raise RuntimeError("disk on fire")

    failing = ToolDefinition(name="broken", action_type=CounterAction, executor=broken)
    observation = failing.call({})
    assert observation.error_kind is ErrorKind.TOOL_ERROR
    assert observation.text == "broken: RuntimeError: disk on fire"


def test_missing_executor_is_a_definition_error() -> None:
    bare = ToolDefinition(name="bare", action_type=CounterAction)
    with pytest.raises(ToolDefinitionError, match="no executor"):
        bare.call({})


def test_async_executor_runs_with_acall_and_refuses_sync_call() -> None:
    async def later(action: CounterAction) -> Observation:
        await asyncio.sleep(0)
        return Observation.from_text(f"step {action.step}")

    slow = ToolDefinition(name="later", action_type=CounterAction, executor=later)
    loop = asyncio.new_event_loop()
    try:
        assert loop.run_until_complete(slow.acall({"step": 3})).text == "step 3"
        invalid = loop.run_until_complete(slow.acall({"step": "x"}))
        assert invalid.error_kind is ErrorKind.INVALID_ARGUMENTS
    finally:
        loop.close()
    with pytest.raises(ToolDefinitionError, match="acall"):
        slow.call({})


@pytest.mark.parametrize("name", ["", "has space", "x" * 129, "semi;colon"])
def test_invalid_names_are_refused(name: str) -> None:
    with pytest.raises(ToolDefinitionError, match="not valid"):
        ToolDefinition(name=name, action_type=CounterAction)


def test_annotations_accept_dicts() -> None:
    made = ToolDefinition(name="ro", action_type=CounterAction, annotations={"readOnlyHint": True})
    assert made.annotations is not None and made.annotations.read_only_hint is True


@pytest.mark.parametrize("name", ["abc\n", "abc\r\n", "a\nb", "\nabc", "abc\x00", "ab\u2028"])
def test_g16_a_name_with_a_line_break_or_control_character_is_refused(name: str) -> None:
    with pytest.raises(ToolDefinitionError, match="not valid"):
        ToolDefinition(name=name, action_type=CounterAction)
    with pytest.raises(ToolDefinitionError, match="not valid"):
        tool(name=name)(lambda step: step)
    assert not valid_tool_name(name)
    assert valid_tool_name(name.strip("\n\r\x00\u2028").replace("\n", "_"))
