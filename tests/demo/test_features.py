"""The demo server beyond plain tools, from a real in-memory FastMCP client: resources, the
resource template, the prompt, argument completion, elicitation and sampling (on 2026-07-28,
where a tool asks by returning InputRequiredResult, and on the 2025-11-25 handshake)."""

import base64
import json
import struct
import warnings
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client
from fastmcp.client.client import CallToolResult
from fastmcp.client.elicitation import ElicitResult
from mcp import MCPDeprecationWarning, MCPError
from mcp.types import (
    BlobResourceContents,
    CreateMessageRequestParams,
    ElicitRequestFormParams,
    PromptReference,
    ResourceTemplateReference,
    SamplingMessage,
    TextContent,
    TextResourceContents,
)

from tests.demo.test_demo import TOOLS
from workbench.demo import build_demo_server

pytestmark = pytest.mark.anyio

ERAS = {"auto": "2026-07-28", "legacy": "2025-11-25"}
NUMBERS = ResourceTemplateReference(uri="demo://numbers/{n}")
EXPLAIN = PromptReference(name="explain_tool")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client() -> AsyncIterator[Client[Any]]:
    async with Client(build_demo_server()) as connected:
        assert connected.protocol_version == "2026-07-28"
        yield connected


def _text(result: CallToolResult) -> str:
    (block,) = result.content
    assert isinstance(block, TextContent)
    return block.text


async def test_resources_and_the_template_are_listed_with_titles_and_types(
    client: Client[Any],
) -> None:
    resources = {str(r.uri): r for r in await client.list_resources()}
    assert {uri: r.mime_type for uri, r in resources.items()} == {
        "demo://guide": "text/markdown",
        "demo://chart.png": "image/png",
    }
    (template,) = await client.list_resource_templates()
    assert (template.uri_template, template.mime_type) == ("demo://numbers/{n}", "application/json")
    for listed in [*resources.values(), template]:
        assert listed.title and listed.description, listed.name


async def test_the_guide_is_markdown_that_names_every_feature(client: Client[Any]) -> None:
    (contents,) = await client.read_resource("demo://guide")
    assert isinstance(contents, TextResourceContents)
    assert contents.mime_type == "text/markdown"
    assert contents.text.startswith("# The demo server")
    for name in [*TOOLS, "demo://chart.png", "demo://numbers/{n}", "explain_tool"]:
        assert f"`{name}`" in contents.text, name
    assert 15 <= len(contents.text.splitlines()) <= 30


async def test_the_chart_is_a_png_blob(client: Client[Any]) -> None:
    (contents,) = await client.read_resource("demo://chart.png")
    assert isinstance(contents, BlobResourceContents)
    assert contents.mime_type == "image/png"
    data = base64.b64decode(contents.blob)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", data[16:24]) == (320, 200)


@pytest.mark.parametrize(
    ("n", "facts"),
    [
        (42, {"parity": "even", "is_prime": False, "prime_factors": [2, 3, 7], "binary": "101010"}),
        (97, {"parity": "odd", "is_prime": True, "prime_factors": [97], "hexadecimal": "61"}),
        (1, {"is_prime": False, "prime_factors": []}),
        (-12, {"square": 144, "cube": -1728, "prime_factors": [2, 2, 3], "binary": "-1100"}),
    ],
)
async def test_the_numbers_template_reads_json_facts_about_n(
    client: Client[Any], n: int, facts: dict[str, Any]
) -> None:
    (contents,) = await client.read_resource(f"demo://numbers/{n}")
    assert isinstance(contents, TextResourceContents)
    assert (str(contents.uri), contents.mime_type) == (f"demo://numbers/{n}", "application/json")
    read = json.loads(contents.text)
    assert read["n"] == n and read["square"] == n * n
    assert {key: read[key] for key in facts} == facts


@pytest.mark.parametrize(("n", "error"), [("abc", "int"), ("10000000000", "between")])
async def test_the_numbers_template_rejects_bad_n(client: Client[Any], n: str, error: str) -> None:
    with pytest.raises(MCPError, match=error):
        await client.read_resource(f"demo://numbers/{n}")


@pytest.mark.parametrize(
    ("typed", "values"),
    [
        ("", [str(n) for n in range(1, 101)]),
        ("4", ["4", *(str(n) for n in range(40, 50))]),
        ("10", ["10", "100"]),
        ("x", []),
    ],
)
async def test_the_template_argument_completes_numbers_by_prefix(
    client: Client[Any], typed: str, values: list[str]
) -> None:
    completion = await client.complete(NUMBERS, {"name": "n", "value": typed})
    assert completion.values == values


@pytest.mark.parametrize(
    ("argument", "typed", "values"),
    [
        ("tool", "", sorted(TOOLS)),
        ("tool", "s", ["slow_count", "summarize"]),
        ("tool", "BOOK", ["book_table"]),
        ("level", "", ["beginner", "expert"]),
        ("level", "e", ["expert"]),
        ("nothing", "", []),
    ],
)
async def test_the_prompt_arguments_complete_by_prefix(
    client: Client[Any], argument: str, typed: str, values: list[str]
) -> None:
    completion = await client.complete(EXPLAIN, {"name": argument, "value": typed})
    assert completion.values == values


async def test_other_references_complete_to_nothing(client: Client[Any]) -> None:
    other = PromptReference(name="no_such_prompt")
    assert (await client.complete(other, {"name": "tool", "value": ""})).values == []


async def test_the_prompt_is_listed_with_one_required_argument(client: Client[Any]) -> None:
    (prompt,) = await client.list_prompts()
    assert (prompt.name, prompt.title) == ("explain_tool", "Explain a demo tool")
    assert prompt.description
    assert {a.name: a.required for a in prompt.arguments or []} == {"tool": True, "level": False}


@pytest.mark.parametrize(("level", "reader"), [(None, "a beginner"), ("expert", "an expert")])
async def test_the_prompt_renders_a_user_and_an_assistant_message(
    client: Client[Any], level: str | None, reader: str
) -> None:
    arguments = {"tool": "text_stats"} | ({"level": level} if level else {})
    result = await client.get_prompt("explain_tool", arguments)

    assert [message.role for message in result.messages] == ["user", "assistant"]
    user, assistant = (message.content for message in result.messages)
    assert isinstance(user, TextContent) and isinstance(assistant, TextContent)
    assert f"`text_stats` of the demo server to {reader}." in user.text
    assert "Count characters, words, lines and sentences" in user.text  # the tool's description
    assert '"top"' in user.text  # and its arguments
    assert "`text_stats` (Text statistics)" in assistant.text


@pytest.mark.parametrize(
    ("arguments", "error"),
    [
        ({}, "Missing required arguments"),
        ({"level": "expert"}, "Missing required arguments"),
        ({"tool": "no_such_tool"}, "No demo tool is called 'no_such_tool'"),
        ({"tool": "add", "level": "guru"}, "level"),
    ],
)
async def test_the_prompt_rejects_missing_or_bad_arguments(
    client: Client[Any], arguments: dict[str, str], error: str
) -> None:
    with pytest.raises(MCPError, match=error):
        await client.get_prompt("explain_tool", arguments)


class _Asked:
    """An elicitation and a sampling handler that record what they were asked."""

    def __init__(self, elicited: Any = None, sampled: Any = "A one-sentence summary.") -> None:
        self.elicited, self.sampled = elicited, sampled
        self.forms: list[ElicitRequestFormParams] = []
        self.samples: list[CreateMessageRequestParams] = []

    async def elicit(self, message: str, response_type: Any, params: Any, context: Any) -> Any:
        assert isinstance(params, ElicitRequestFormParams) and params.message == message
        self.forms.append(params)
        return self.elicited

    async def sample(
        self, messages: list[SamplingMessage], params: CreateMessageRequestParams, context: Any
    ) -> Any:
        self.samples.append(params)
        return self.sampled


async def _call(mode: str, asked: _Asked | None, tool: str, arguments: dict[str, Any]) -> Any:
    handlers: dict[str, Any] = {}
    if asked is not None:
        handlers = {"elicitation_handler": asked.elicit, "sampling_handler": asked.sample}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", MCPDeprecationWarning)
        async with Client(build_demo_server(), mode=mode, **handlers) as client:
            assert client.protocol_version == ERAS[mode]
            result = await client.call_tool(tool, arguments, raise_on_error=False)
    assert not [w for w in caught if issubclass(w.category, MCPDeprecationWarning)]
    return result


ANSWERS = [
    (
        {"party_size": 4, "time": "19:30", "terrace": True},
        "Booked a table at Chez Ada for 4 people at 19:30, on the terrace.",
    ),
    (
        ElicitResult(action="accept", content={"party_size": 1, "time": "18:00"}),
        "Booked a table at Chez Ada for 1 person at 18:00, inside.",
    ),
    (
        ElicitResult(action="decline"),
        "Declined: the user said no, so no table is booked at Chez Ada.",
    ),
    (
        ElicitResult(action="cancel"),
        "Cancelled: the form was dismissed, so no table is booked at Chez Ada.",
    ),
]


@pytest.mark.integration
@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize(("answer", "said"), ANSWERS)
async def test_book_table_elicits_and_reports_each_action(
    mode: str, answer: Any, said: str
) -> None:
    asked = _Asked(elicited=answer)
    result = await _call(mode, asked, "book_table", {"restaurant": "Chez Ada"})

    assert not result.is_error
    assert _text(result) == said
    (form,) = asked.forms
    assert "Chez Ada" in form.message
    properties = form.requested_schema["properties"]
    assert properties["party_size"]["type"] == "integer"
    assert properties["time"]["enum"] == ["18:00", "19:30", "21:00"]
    assert properties["terrace"]["type"] == "boolean"


@pytest.mark.parametrize("mode", ERAS)
async def test_book_table_rejects_an_answer_outside_the_form(mode: str) -> None:
    """Whoever checks the answer first, the call ends in an error naming the field and its
    limit: the MCP client library itself (mcp >= 2.3 validates an answer against the requested
    schema and raises before sending it) or the demo server (older clients, the handshake)."""
    asked = _Asked(
        elicited=ElicitResult(action="accept", content={"party_size": 40, "time": "18:00"})
    )
    try:
        result = await _call(mode, asked, "book_table", {"restaurant": "Chez Ada"})
    except MCPError as refused_by_the_client:
        message = str(refused_by_the_client)
    else:
        assert result.is_error
        message = _text(result)
    assert "party_size" in message and "12" in message, message


@pytest.mark.parametrize("mode", ERAS)
async def test_summarize_asks_the_client_model(mode: str) -> None:
    asked = _Asked()
    result = await _call(mode, asked, "summarize", {"text": "MCP lets tools talk to models."})

    assert not result.is_error
    assert _text(result) == "A one-sentence summary."
    (params,) = asked.samples
    assert params.system_prompt and "one" in params.system_prompt
    assert params.max_tokens > 0
    (message,) = params.messages
    assert message.role == "user"
    assert isinstance(message.content, TextContent)
    assert message.content.text.endswith("MCP lets tools talk to models.")


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize(
    ("tool", "arguments", "feature"),
    [
        ("summarize", {"text": "Some text."}, "sampling"),
        ("book_table", {"restaurant": "X"}, "elicitation"),
    ],
)
async def test_a_client_without_the_capability_gets_a_clear_error(
    mode: str, tool: str, arguments: dict[str, Any], feature: str
) -> None:
    result = await _call(mode, None, tool, arguments)
    assert result.is_error
    assert _text(result).startswith(f"This client does not support {feature}")
    assert f"{feature}_handler=" in _text(result)
