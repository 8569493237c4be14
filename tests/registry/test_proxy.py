"""The find_tools / call_tool pair: search results, every error path, truncation, summaries."""

from __future__ import annotations

from typing import Any

import pytest

from workbench import Registry
from workbench.registry.proxy import ToolProxy, error_text, estimate_tokens, truncate
from workbench.tools import ErrorKind, ImageContent, Observation, TextContent

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}


@pytest.fixture
def registry() -> Registry:
    made = Registry()
    made.add_tools("github", [
        {"name": "create_issue", "description": "Create an issue in a repository.",
         "inputSchema": SCHEMA},
        {"name": "search_code", "description": "Search code across repositories."},
    ])  # fmt: skip
    made.add_tools("gitlab", [{"name": "create_issue", "description": "Open a GitLab issue."}])
    made.add_tools("files", [{"name": f"tool_{i}", "description": "x"} for i in range(8)])
    return made


class Recorder:
    """Stands in for Workbench.call (tested for real in tests/test_session.py)."""

    def __init__(self, answer: Observation) -> None:
        self.answer = answer
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, tool_id: str, arguments: dict[str, Any]) -> Observation:
        self.calls.append((tool_id, arguments))
        return self.answer


def test_find_tools_returns_ranked_hits_with_schemas(registry: Registry) -> None:
    proxy = ToolProxy(registry, Recorder(Observation()))
    found = proxy.find_tools("create an issue", limit=2)
    assert {hit["id"] for hit in found["tools"]} == {"github.create_issue", "gitlab.create_issue"}
    schemas = {hit["id"]: hit["input_schema"] for hit in found["tools"]}
    assert schemas["github.create_issue"] == SCHEMA
    assert "note" not in found
    assert "note" in proxy.find_tools("quantum teleportation")


def test_call_tool_by_id_and_by_unique_bare_name(registry: Registry) -> None:
    recorder = Recorder(Observation.from_text("done"))
    proxy = ToolProxy(registry, recorder)
    assert proxy.call_tool("github.create_issue", {"q": "x"}) == "done"
    assert proxy.call_tool("search_code") == "done"
    assert recorder.calls == [("github.create_issue", {"q": "x"}), ("github.search_code", {})]


def test_unknown_and_ambiguous_names_suggest_ids(registry: Registry) -> None:
    recorder = Recorder(Observation())
    proxy = ToolProxy(registry, recorder)
    unknown = proxy.call_tool("create_isue")
    assert unknown.startswith("[Tool error] create_isue: not_found: No tool named")
    assert "github.create_issue" in unknown
    ambiguous = proxy.call_tool("create_issue")
    assert "github.create_issue, gitlab.create_issue" in ambiguous
    assert recorder.calls == []


@pytest.mark.parametrize("kind", list(ErrorKind))
def test_failed_calls_read_as_tool_errors(registry: Registry, kind: ErrorKind) -> None:
    proxy = ToolProxy(registry, Recorder(Observation.error(kind, "it broke")))
    assert (
        proxy.call_tool("search_code") == f"[Tool error] github.search_code: {kind.value}: it broke"
    )


def test_long_results_are_truncated_with_a_note(registry: Registry) -> None:
    proxy = ToolProxy(registry, Recorder(Observation.from_text("x" * 100)), result_limit=40)
    text = proxy.call_tool("search_code")
    assert text.startswith("x" * 40 + "\n") and "60 of 100 characters not shown" in text
    assert truncate("short", 40) == "short"


def test_non_text_content_is_named(registry: Registry) -> None:
    answer = Observation(content=[TextContent(text="chart:"),
                                  ImageContent(data="AA==", mime_type="image/png")])  # fmt: skip
    assert ToolProxy(registry, Recorder(answer)).call_tool("search_code") == (
        "chart:\n[image content: image/png]"
    )


def test_server_summary_lists_counts_names_and_instructions(registry: Registry) -> None:
    proxy = ToolProxy(registry, Recorder(Observation()), instructions={
        "github": "Work with GitHub.\nMore detail here.",
    })  # fmt: skip
    assert proxy.server_summary().splitlines() == [
        "- files (8 tools): tool_0, tool_1, tool_2, tool_3, tool_4 (+3 more)",
        "- github (2 tools): create_issue, search_code. Work with GitHub.",
        "- gitlab (1 tools): create_issue",
    ]


def test_definitions_export_and_run(registry: Registry) -> None:
    proxy = ToolProxy(registry, Recorder(Observation.from_text("ok")))
    find, call = proxy.definitions()
    assert find.to_openai_tool()["function"]["name"] == "find_tools"
    assert call.to_anthropic_tool()["input_schema"]["required"] == ["name"]
    assert call.call({"name": "search_code", "arguments": {}}).text == "ok"
    found = find.call({"query": "search code"})
    assert found.structured_content is not None
    assert found.structured_content["tools"][0]["id"] == "github.search_code"
    assert find.call({"query": "x", "limit": 0}).error_kind is ErrorKind.INVALID_ARGUMENTS


def test_token_report_compares_full_schemas_with_the_pair(registry: Registry) -> None:
    for i in range(200):
        registry.add_tools(
            f"s{i}", [{"name": "t", "description": "d" * 400, "inputSchema": SCHEMA}]
        )
    recorder = Recorder(Observation.from_text("ok"))
    report = ToolProxy(registry, recorder).token_report()
    assert recorder.calls == []  # a report never calls a tool
    assert report.tools == len(registry)
    assert report.full_schemas > 20_000 > report.proxy_total
    assert 0.5 < report.saved_fraction < 1
    assert "fewer" in str(report)
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2


def test_error_text_defaults_to_tool_error() -> None:
    assert error_text("s.t", None, "m") == "[Tool error] s.t: tool_error: m"


def test_g9_a_limited_proxy_neither_finds_calls_suggests_nor_counts_hidden_tools(
    registry: Registry,
) -> None:
    recorder = Recorder(Observation(content=[TextContent(text="ok")]))
    seen = ToolProxy(registry, recorder).limited_to(
        lambda tool_id: tool_id != "github.create_issue"
    )

    found = seen.find_tools("create an issue", limit=1)
    assert [hit["id"] for hit in found["tools"]] == ["gitlab.create_issue"]  # limit kept
    assert seen.call_tool("create_issue") == "ok"  # unique among what it sees
    assert recorder.calls == [("gitlab.create_issue", {})]
    hidden = seen.call_tool("github.create_issue")  # as for a tool that is not there
    said = "No tool named 'github.create_issue'. Did you mean: gitlab.create_issue?"
    assert hidden == error_text("github.create_issue", ErrorKind.NOT_FOUND, said)
    typo = seen.call_tool("github.create_isue")
    assert typo.endswith("Did you mean: gitlab.create_issue, github.search_code?")
    assert "- github (1 tools): search_code" in seen.server_summary()
    assert seen.token_report().tools == len(registry) - 1

    nothing_of_github = ToolProxy(registry, recorder).limited_to(
        lambda tool_id: not tool_id.startswith("github.")
    )
    assert "github" not in nothing_of_github.server_summary()
