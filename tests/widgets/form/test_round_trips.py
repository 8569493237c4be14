"""Whole tool schemas through FormView both ways: the demo server's, the real servers'
(server-everything, time), and the demo calendar clicked in as a person would."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.widgets.form.form_schemas import demo_schemas, list_tools, problems, schemas_of, verdict
from tests.widgets.form.form_screen import box_of, errors, field_input, the
from workbench.errors import FormError
from workbench.widgets.form import (
    ArrayField,
    BooleanField,
    ChoiceField,
    ConstField,
    FormField,
    FormView,
    JsonField,
    NumberField,
    ObjectField,
    StringField,
    build_form,
)

ROOT = Path(__file__).resolve().parents[3]
SERVERS = ROOT / ".cache" / "servers"
EVERYTHING_JS = SERVERS / "npm/node_modules/@modelcontextprotocol/server-everything"
TIME_SERVER = SERVERS / "venv" / "bin" / "mcp-server-time"

_OMIT = object()


def sample(field: FormField) -> Any:
    """Arguments that fill every field of a form (optional ones too), to round-trip."""
    if isinstance(field, ConstField):
        return field.value
    if isinstance(field, StringField):
        return _sample_text(field)
    if isinstance(field, NumberField):
        return _sample_number(field)
    if isinstance(field, BooleanField):
        return True
    if isinstance(field, ArrayField):
        count = max(1, field.min_items or 0)
        count = count if field.max_items is None else min(count, field.max_items)
        return [sample(field.item) for _ in range(count)]
    if isinstance(field, ObjectField):
        found = {p.name: sample(p) for p in field.properties}
        found = {k: v for k, v in found.items() if v is not _OMIT}
        # An optional object with nothing filled in is left out (values.py's rule), not {}.
        return found if found or field.required or not field.properties else _OMIT
    if isinstance(field, ChoiceField):
        return sample(field.options[0])
    assert isinstance(field, JsonField)
    return {"any": [1, "two"]} if field.required else _OMIT


def _sample_text(field: StringField) -> str:
    if field.choices:
        return str(field.choices[-1])
    formats = {
        "date": "2025-05-01",
        "time": "10:00:00",
        "date-time": "2025-05-01T10:00:00Z",
        "email": "ada@example.org",
        "uri": "https://example.org/a",
        "url": "https://example.org/a",
        "uuid": "123e4567-e89b-12d3-a456-426614174000",
    }
    text = formats.get(field.format or "", "words")
    if field.pattern:  # a few common shapes; a pattern none fits leaves the tool unsampled
        shapes = ("ada@example.org", "words", "ABC", "abc-123", "123", "2025-05-01", text)
        text = next((t for t in shapes if re.search(field.pattern, t)), text)
    text = text.ljust(field.min_length or 0, "x")
    return text[: field.max_length] if field.max_length else text


def _sample_number(field: NumberField) -> int | float:
    if field.choices:
        return field.choices[-1]
    number: float = 3
    if field.minimum is not None:
        number = field.minimum
    elif field.exclusive_minimum is not None:
        number = field.exclusive_minimum + 1
    elif field.maximum is not None:
        number = min(number, field.maximum)
    if field.multiple_of:
        number = field.multiple_of * max(1, round(number / field.multiple_of))
    if field.integer:
        return int(number)
    return (
        2.5 if field.minimum is None and field.maximum is None and not field.multiple_of else number
    )


def round_trips(schema: Any) -> str:
    """Fill a form with sample arguments both ways and read them back; what happened."""
    form = build_form(schema)
    arguments = sample(form)
    if not isinstance(arguments, dict) or problems(schema, arguments):
        return "unsampled"  # a pattern or a constraint this sampler does not meet
    view = FormView(schema)
    view.set_arguments(arguments)
    assert view.arguments() == arguments
    assert FormView(schema, arguments=arguments).arguments() == arguments
    view.json_mode = True
    assert json.loads(the(view, "wb-json-editor").value) == arguments
    view.json_mode = False
    assert view.arguments() == arguments
    return "complete" if form.is_complete else "fallback"


def test_demo_tools_round_trip_through_their_forms() -> None:
    schemas = demo_schemas()
    assert len(schemas) >= 9
    outcomes = {name: round_trips(schema) for name, schema in schemas.items()}
    assert set(outcomes.values()) == {"complete"}, outcomes


def test_the_demo_calendar_form_takes_an_event_clicked_in() -> None:
    schema = demo_schemas()["create_event"]
    view = FormView(schema, validate=verdict(schema))
    field_input(view, "event.title").value = "Review"
    field_input(view, "event.when.date").value = "2025-05-01"
    field_input(view, "event.when.start").value = "10:00"
    add = field_input(view, "event.attendees", "wb-add-item")
    add.click()
    field_input(view, "event.attendees[0].name").value = "Ada"
    email = field_input(view, "event.attendees[0].email")
    email.value = "not an address"
    field_input(view, "event.when.date").value = "2025-13-01"
    assert sorted(view.check()) == [
        ("event.attendees.0.email", "must be an e-mail address (e.g. ada@example.org)"),
        ("event.when.date", "must be a date (e.g. 2025-05-01)"),
    ]
    (error,) = box_of(view, email).children[-1:]
    assert "wb-error" in error._dom_classes and 'title="format: email"' in error.value
    assert "^[^@" not in error.value  # the pattern is not the message
    email.value = "ada@example.org"
    field_input(view, "event.when.date").value = "2025-05-01"
    assert view.check() == [] and errors(view) == []
    arguments = view.arguments()
    assert arguments["event"]["when"] == {
        "date": "2025-05-01",
        "start": "10:00",
        "duration_minutes": 60,
    }
    assert problems(schema, arguments) == []


def test_the_calendar_form_shows_every_problem_in_one_round() -> None:
    # newcomer-3 friction 12: a whole number that does not convert hid the rest until the
    # next Call; now the validator judges everything else at once.
    schema = demo_schemas()["create_event"]
    view = FormView(schema, validate=verdict(schema))
    field_input(view, "event.title").value = "MCP workshop"
    field_input(view, "event.when.date").value = "tomorrow"
    field_input(view, "event.when.start").value = "9.30"
    field_input(view, "event.when.duration_minutes").value = "ninety"
    field_input(view, "event.attendees", "wb-add-item").click()
    field_input(view, "event.attendees[0].name").value = "Ada"
    field_input(view, "event.attendees[0].email").value = "ada-at-example.org"
    with pytest.raises(FormError) as raised:
        view.arguments()
    assert str(raised.value) == "4 problems in the form: see under the fields."
    assert sorted(view.problems) == [
        ("event.attendees.0.email", "must be an e-mail address (e.g. ada@example.org)"),
        ("event.when.date", "must be a date (e.g. 2025-05-01)"),
        ("event.when.duration_minutes", "'ninety' is not a whole number"),
        ("event.when.start", "must be a time (e.g. 14:30)"),
    ]
    assert len(errors(view)) == 4  # each under its own field
    bare = FormView(schema)  # no validator: every value that does not convert, at once
    bare.set_arguments({"event": {"title": "x", "when": {"date": "2025-05-01"}}})
    field_input(bare, "event.when.duration_minutes").value = "ninety"
    field_input(bare, "event.tags", "wb-add-item").click()
    with pytest.raises(FormError, match="2 problems"):
        bare.arguments()
    assert sorted(bare.problems) == [
        ("event.tags.0", "needs a value (or remove the item)"),
        ("event.when.duration_minutes", "'ninety' is not a whole number"),
    ]


def real_server_schemas() -> dict[str, dict[str, Any]]:
    """Tool schemas of the real servers ``make test`` installs (server-everything, time)."""
    from fastmcp.client.transports import StdioTransport

    node = shutil.which("node")
    manifest = EVERYTHING_JS / "package.json"
    if node is None or not manifest.is_file() or not TIME_SERVER.is_file():
        pytest.fail(f"the real MCP servers are not installed in {SERVERS} (run `make servers`)")
    script = EVERYTHING_JS / json.loads(manifest.read_text())["bin"]["mcp-server-everything"]
    everything = StdioTransport(node, [str(script), "stdio"], keep_alive=False)
    time_server = StdioTransport(str(TIME_SERVER), [], keep_alive=False)
    return {
        "everything": schemas_of(list_tools(everything)),
        "time": schemas_of(list_tools(time_server)),
    }


@pytest.mark.integration
def test_real_servers_tools_round_trip_through_their_forms() -> None:
    outcomes: dict[str, str] = {}
    for server, schemas in real_server_schemas().items():
        for name, schema in schemas.items():
            outcomes[f"{server}.{name}"] = round_trips(schema)
    assert len(outcomes) >= 10
    assert sum(outcome == "unsampled" for outcome in outcomes.values()) <= 2, outcomes
