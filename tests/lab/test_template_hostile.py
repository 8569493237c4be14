"""G1 and G18: a server's listing is data in the cells the panel inserts, and odd schemas
never break the template.

Each cell is read as IPython reads it (``str.splitlines``, IPython's ``TransformerManager``,
then Python's parser) and its one code line is run through the real ``%mcp`` router and
``%mcp call`` parser against a Workbench stand-in that records the call, so what reaches the
tool is exactly the server's value. ``test_template_kernel.py`` runs such cells in a real
kernel against a hostile server.
"""

from __future__ import annotations

import ast
import json
import unicodedata
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any
from unittest.mock import patch

import pytest
from fastmcp import FastMCP
from fastmcp.server.middleware import Middleware
from fastmcp.tools import ToolResult
from hypothesis import given, settings
from hypothesis import strategies as st
from IPython.core.error import UsageError
from IPython.core.inputtransformer2 import TransformerManager
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from workbench.errors import ToolNotFoundError, WorkbenchError
from workbench.lab.template import browse_cell, call_cell
from workbench.magics import WorkbenchMagics, router
from workbench.magics.arguments import parse_line
from workbench.magics.commands import call as call_command
from workbench.magics.commands.browse import browse
from workbench.magics.commands.call import unfilled as real_unfilled
from workbench.registry import ToolEntry
from workbench.session import Workbench
from workbench.tools.schema import Observation

BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
"""Every character ``str.splitlines`` (hence IPython) ends a line at."""
UNSAFE = {"Cc", "Cs", "Zl", "Zp"}
NASTY = list(BREAKS + "\x00\x07\x7f\x9f'\"\\ \t=-{}[?#%!$.(;\xa0\u3000é\U0001f600")
"""Characters a quoting, a parser or IPython may treat specially."""
HOSTILE = [
    "x\nopen('PWNED', 'w').write('x')  #",
    "a=1\nPWNED = 1\n#",
    "x\r\nPWNED = 1",
    "x\u2028PWNED = 1",
    "-h", "--help", "a -h b", "x --help y", "what?", "what??", "a?\n", "--", "-x", "-1",
    "{not json}", '{"a": 1}', "5", "true", "null", "", " ", "'", '"', "\\", "x\\", "%mcp",
    "%%bash", "!ls", "'''", '"""', "# c", "a b", "\x00", "<q>",
]  # fmt: skip
texts = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(
        st.one_of(st.sampled_from(NASTY), st.characters(exclude_categories=["Cs"])), max_size=12
    ),
)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
    max_leaves=6,
)


def unsafe(text: str) -> bool:
    return any(unicodedata.category(char) in UNSAFE for char in text)


@st.composite
def parameter(draw: st.DrawFn) -> tuple[dict[str, Any], Any]:
    """A parameter's schema and the value the template must write for it."""
    kind = draw(st.sampled_from(["default", "const", "examples", "enum", "string"]))
    if kind == "string":
        text = draw(texts)
        return {"type": "string", "default": text}, text
    value = draw(json_values)
    if kind in ("examples", "enum"):
        return {kind: [value, *draw(st.lists(json_values, max_size=2))]}, value
    return {kind: value}, value


@st.composite
def hostile_tool(draw: st.DrawFn) -> tuple[ToolEntry, dict[str, Any]]:
    """A tool as a hostile server lists it (every name and value its own), and the arguments
    its inserted cell must send."""
    required = draw(st.dictionaries(texts, parameter(), max_size=4))
    optional = draw(st.dictionaries(texts, parameter(), max_size=3))
    properties = {name: schema for name, (schema, _) in {**optional, **required}.items()}
    schema = {"type": "object", "properties": properties, "required": list(required)}
    name = draw(texts.filter(lambda text: bool(text) and not unsafe(text)))
    entry = ToolEntry(server="evil", name=name, description=draw(texts), input_schema=schema)
    return entry, {name: value for name, (_, value) in required.items()}


def code_line(cell: str) -> str:
    """The cell's one line of code, checked to be all IPython runs: every other line is a
    comment, and IPython turns the cell into exactly one ``%mcp`` call with that line."""
    lines = cell.splitlines()
    assert all(line.startswith("# ") for line in lines[:-1]), lines
    assert lines[-1].startswith("%mcp "), lines
    tree = ast.parse(TransformerManager().transform_cell(cell))
    assert len(tree.body) == 1, ast.dump(tree)
    statement = tree.body[0]
    assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
    called = statement.value
    assert ast.unparse(called.func) == "get_ipython().run_line_magic"
    assert [type(arg) for arg in called.args] == [ast.Constant, ast.Constant]
    magic, line = (arg.value for arg in called.args)  # type: ignore[attr-defined]
    assert (magic, line) == ("mcp", lines[-1][len("%mcp ") :])
    return str(line)


def called_with(entry: ToolEntry, line: str) -> tuple[str, dict[str, Any]]:
    """What the real ``%mcp`` router and ``%mcp call`` send for ``line``: a stand-in
    Workbench knows only ``entry`` (by its exact id) and records the call."""
    calls: list[tuple[str, dict[str, Any]]] = []

    def get(ref: str) -> ToolEntry:
        if ref != entry.id:
            raise ToolNotFoundError(ref)
        return entry

    def call(tool_id: str, arguments: dict[str, Any], **_: Any) -> Observation:
        calls.append((tool_id, arguments))
        return Observation.from_text("ok")

    parsed: list[dict[str, Any]] = []

    def unfilled(arguments: dict[str, Any], where: str = "") -> list[str]:
        """The magic's own check, seeing what it parsed: blanks to fill (``<q>``) stop the
        call with one line before anything is sent, so their arguments are read here."""
        if not where:
            parsed.append(arguments)
        return real_unfilled(arguments, where)

    state = SimpleNamespace(workbench=SimpleNamespace(registry=SimpleNamespace(get=get), call=call))
    with capture_output() as shown, patch.object(call_command, "unfilled", unfilled):
        try:
            result = router.dispatch(state, line)  # type: ignore[arg-type]
        except UsageError as error:
            result = error
    if isinstance(result, UsageError) and "fill in the placeholders first" in str(result):
        (arguments,) = parsed
        assert real_unfilled(arguments) and calls == [], line  # refused before any call
        return entry.id, arguments
    assert isinstance(result, Observation), (line, shown.stdout)  # not help, not a usage error
    (made,) = calls
    return made


@pytest.mark.integration
@settings(max_examples=300, deadline=None)
@given(hostile_tool())
def test_g1_a_hostile_listing_gives_one_call_line_that_sends_exactly_its_values(
    made: tuple[ToolEntry, dict[str, Any]],
) -> None:
    entry, expected = made
    cell = call_cell(entry)
    assert called_with(entry, code_line(cell)) == (entry.id, expected)


NAME2 = "a=1\nopen('PWNED', 'w')\n#"


@pytest.mark.parametrize(
    ("name", "schema", "sent"),
    [
        ("inject_default", {"properties": {"q": {"type": "string"}, "opt": {"type": "string",
         "default": "x\nimport os; open('PWNED', 'w').write('x')  #"}}, "required": ["q"]},
         {"q": "<q>"}),
        ("inject_name2", {"properties": {NAME2: {"type": "string"}}, "required": [NAME2]},
         {NAME2: f"<{NAME2}>"}),
        ("inject_enum", {"properties": {"mode": {"enum": ["fast\nPWNED = 1"]}},
         "required": ["mode"]}, {"mode": "fast\nPWNED = 1"}),
        ("inject_cr", {"properties": {"q": {"default": "x\rPWNED = 1"}}, "required": ["q"]},
         {"q": "x\rPWNED = 1"}),
    ],
)  # fmt: skip
def test_g1_the_probes_vectors_stay_in_comments_and_arguments(
    name: str, schema: dict[str, Any], sent: dict[str, Any]
) -> None:
    entry = ToolEntry(server="evil", name=name, description="Looks\nharmless.", input_schema=schema)
    assert called_with(entry, code_line(call_cell(entry))) == (entry.id, sent)


def test_g1_the_probes_tool_name_vector_is_refused() -> None:
    entry = ToolEntry(server="evil", name="t\nopen('PWNED', 'w')\n#")
    with pytest.raises(WorkbenchError, match="control character"):
        call_cell(entry)


class Echo(Middleware):
    """Answers every ``tools/call``, listed or not, with the name and arguments it got."""

    async def on_call_tool(self, context: Any, call_next: Any) -> ToolResult:
        got = {"tool": context.message.name, "arguments": context.message.arguments}
        return ToolResult(content=json.dumps(got, ensure_ascii=False))


@pytest.fixture(scope="module")
def echo(ip: InteractiveShell) -> Iterator[Workbench]:
    """The shell's Workbench with an in-process server that echoes each call, as ``fuzz``."""
    magics = ip.magics_manager.registry["WorkbenchMagics"]
    assert isinstance(magics, WorkbenchMagics)
    workbench = magics.state.workbench
    workbench.connect("fuzz", server=FastMCP("fuzz", middleware=[Echo()]))
    yield workbench
    workbench.disconnect("fuzz")


@pytest.mark.integration
@settings(max_examples=60, deadline=None)
@given(made=hostile_tool())
def test_g1_inserted_cells_run_by_ipython_send_the_servers_values_and_run_nothing_else(
    echo: Workbench, ip: InteractiveShell, made: tuple[ToolEntry, dict[str, Any]]
) -> None:
    entry, expected = made
    listing = {"name": entry.name, "description": entry.description,
               "inputSchema": entry.input_schema}  # fmt: skip
    (listed,) = echo.registry.set_tools("fuzz", [listing])
    with capture_output():
        result = ip.run_cell(call_cell(listed))  # type: ignore[no-untyped-call]
    assert result.error_before_exec is None and result.error_in_exec is None
    observation = result.result
    assert isinstance(observation, Observation) and not observation.is_error, observation
    assert json.loads(observation.text) == {"tool": entry.name, "arguments": expected}
    assert "PWNED" not in ip.user_ns


@pytest.mark.parametrize(
    "tool_id_parts", [("evil", "a\nb"), ("evil", "nul\x00"), ("evil", "ls\u2028"), ("-x", "t")]
)
def test_g1_an_id_no_call_line_can_name_is_refused_in_one_line(
    tool_id_parts: tuple[str, str],
) -> None:
    server, name = tool_id_parts
    entry = ToolEntry(server=server, name=name)
    with pytest.raises(WorkbenchError) as refused:
        call_cell(entry)
    assert not unsafe(str(refused.value))


@pytest.mark.integration
@settings(max_examples=200, deadline=None)
@given(texts.filter(bool))
def test_g1_the_browse_cell_is_one_line_whose_query_is_the_names_words(name: str) -> None:
    cell = browse_cell(ToolEntry(server="evil", name=name))
    line = code_line(cell)
    assert not router._asks_for_help(line)
    args = parse_line(browse, line[len("browse ") :])
    assert args.server == "evil"
    query = " ".join(args.words)
    assert not unsafe(query)
    kept = [char for char in name if not unsafe(char) and not char.isspace()]
    assert "".join(query.split()) == "".join(kept).lstrip("-")


# -- G18: the template reads any schema -----------------------------------------------------


@pytest.mark.parametrize(
    "schema",
    [
        {"allOf": 5},
        {"allOf": [{"properties": [1]}]},
        {"allOf": [{"$ref": "#"}]},
        {"allOf": [{"$ref": "#"}, {"$ref": "#"}], "properties": {"a": {"allOf": [{"$ref": "#"}]}},
         "required": ["a"]},
        {"allOf": [{"required": 5}, {"required": ["a"], "properties": {"a": {"type": "integer"}}}],
         "required": "a"},
        {"properties": {"a": {"$ref": "#/properties/a"}}, "required": ["a", "a"]},
    ],
)  # fmt: skip
def test_g18_odd_all_of_is_ignored_and_loops_stop(schema: dict[str, Any]) -> None:
    entry = ToolEntry(server="srv", name="tool", input_schema=schema)
    assert code_line(call_cell(entry)).startswith("call srv.tool")


def test_g18_parts_that_make_sense_are_still_merged() -> None:
    schema = {
        "allOf": [5, {"properties": [1]}, {"$ref": "#"}, {"$ref": "#/$defs/A"}],
        "$defs": {"A": {"properties": {"n": {"type": "integer", "minimum": 2}},
                        "required": ["n"]}},
    }  # fmt: skip
    entry = ToolEntry(server="srv", name="tool", input_schema=schema)
    assert call_cell(entry) == "%mcp call srv.tool n=2"


KEYWORDS = [
    "type",
    "properties",
    "required",
    "allOf",
    "anyOf",
    "oneOf",
    "$ref",
    "$defs",
    "items",
    "default",
    "const",
    "enum",
    "examples",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "minLength",
    "maxLength",
    "minItems",
    "format",
    "a",
    "b",
]
REFS = [
    "#",
    "#/",
    "#/$defs/a",
    "#/$defs/b",
    "#/properties/a",
    "#/allOf/0",
    "#/allOf/²",
    "#/items",
    "http://127.0.0.1:9/x.json",
    "a",
    "",
]
json_schemas = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["object", "array", "string", "integer", "number", "null", "date", *REFS])
    | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(KEYWORDS) | st.text(max_size=3), inner, max_size=5)
    ),
    max_leaves=30,
)


@pytest.mark.integration
@settings(max_examples=600, deadline=None)
@given(json_schemas, texts)
def test_g18_any_json_schema_gives_a_cell_and_never_raises(schema: Any, description: str) -> None:
    entry = ToolEntry(server="srv", name="tool", description=description, input_schema=schema)
    code_line(call_cell(entry))
    code_line(browse_cell(entry))
