"""Registry: atomic per-server changes, resolution, did-you-mean, registration patterns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from typing_extensions import Self

from workbench import Registry
from workbench.errors import (
    AmbiguousToolError,
    ServerNameError,
    ToolDefinitionError,
    ToolListError,
    ToolNotFoundError,
    UnknownServerError,
    WorkbenchWarning,
)
from workbench.tools import Action, Observation, ToolDefinition, tool


def tools(*names: str) -> list[dict[str, Any]]:
    return [{"name": n, "description": f"The {n} tool.", "inputSchema": {"type": "object"}}
            for n in names]  # fmt: skip


@pytest.fixture
def registry() -> Registry:
    made = Registry()
    made.add_tools("git", tools("git_status", "git_log", "git_diff"))
    made.add_tools("github", tools("create_issue", "get_file_contents", "search_code"))
    made.add_tools("gitlab", tools("create_issue", "list_projects"))
    return made


def test_ids_are_server_dot_tool(registry: Registry) -> None:
    assert [entry.id for entry in registry.tools("gitlab")] == [
        "gitlab.create_issue",
        "gitlab.list_projects",
    ]
    assert len(registry) == 8
    assert registry.servers() == ["git", "github", "gitlab"]


def test_add_tools_merges_and_set_tools_replaces(registry: Registry) -> None:
    registry.add_tools("git", tools("git_commit"))
    assert {e.name for e in registry.tools("git")} == {"git_status", "git_log", "git_diff",
                                                       "git_commit"}  # fmt: skip
    registry.set_tools("git", tools("git_show"))
    assert [e.name for e in registry.tools("git")] == ["git_show"]
    assert "git.git_status" not in registry
    assert registry.search("status", server="git").hits == []


def test_replacing_a_tool_updates_lookup_and_search(registry: Registry) -> None:
    registry.add_tools("git", [{"name": "git_log", "description": "Shows commit history."}])
    assert registry.get("git.git_log").description == "Shows commit history."
    assert registry.search("history")[0].id == "git.git_log"
    assert len(registry) == 8


def test_remove_tools_and_servers(registry: Registry) -> None:
    registry.remove_tools("git", ["git_log", "no_such_tool"])
    assert [e.name for e in registry.tools("git")] == ["git_diff", "git_status"]
    registry.remove_server("gitlab")
    assert registry.servers() == ["git", "github"]
    assert registry.get("create_issue").id == "github.create_issue"  # no longer ambiguous
    registry.remove_server("never-added")  # a no-op
    assert len(registry) == 5


def test_a_bad_tool_leaves_the_server_untouched(registry: Registry) -> None:
    before = [entry.id for entry in registry]
    with pytest.raises(ToolListError, match="no name"):
        registry.set_tools("git", [*tools("git_blame"), {"description": "nameless"}])
    with pytest.raises(ToolListError, match="twice"):
        registry.add_tools("git", tools("a", "a"))
    assert [entry.id for entry in registry] == before


@pytest.mark.parametrize("server", ["", "my.server"])
def test_server_names_cannot_break_ids(server: str) -> None:
    with pytest.raises(ServerNameError, match=r"contain no '\.'"):
        Registry().add_tools(server, tools("t"))


def test_get_by_id_and_unique_bare_name(registry: Registry) -> None:
    assert registry.get("git.git_status").id == "git.git_status"
    assert registry.get("search_code").id == "github.search_code"
    assert "git_log" in registry and "git.nope" not in registry and 3 not in registry


def test_tool_names_containing_dots_resolve() -> None:
    registry = Registry()
    registry.add_tools("docs", tools("pages.search"))
    assert registry.get("docs.pages.search").name == "pages.search"
    assert registry.get("pages.search").id == "docs.pages.search"


def test_ambiguous_bare_name_lists_candidates(registry: Registry) -> None:
    with pytest.raises(AmbiguousToolError) as caught:
        registry.get("create_issue")
    assert caught.value.candidates == ["github.create_issue", "gitlab.create_issue"]
    assert "github.create_issue, gitlab.create_issue" in str(caught.value)


@pytest.mark.parametrize(
    ("ref", "first"),
    [
        ("git_statsu", "git.git_status"),
        ("git.git_stat", "git.git_status"),
        ("list_project", "gitlab.list_projects"),
        ("file_contents", "github.get_file_contents"),
    ],
)
def test_misses_suggest_close_ids(registry: Registry, ref: str, first: str) -> None:
    with pytest.raises(ToolNotFoundError) as caught:
        registry.get(ref)
    assert caught.value.suggestions[0] == first
    assert len(caught.value.suggestions) <= 5
    assert f"Did you mean: {first}" in str(caught.value)


def test_suggestions_are_capped_at_five() -> None:
    registry = Registry()
    registry.add_tools("s", tools(*(f"tool_{i}" for i in range(20))))
    assert len(registry.suggest("tool_")) == 5


def test_unknown_server_is_an_error(registry: Registry) -> None:
    with pytest.raises(UnknownServerError):
        registry.tools("jira")
    with pytest.raises(UnknownServerError):
        registry.search("x", server="jira")


class CountAction(Action):
    step: int = 1


class CounterTool(ToolDefinition[CountAction, Observation]):
    @classmethod
    def create(cls, start: int = 0) -> Sequence[Self]:
        state = {"value": start}

        def count(action: CountAction) -> Observation:
            state["value"] += action.step
            return Observation.from_text(str(state["value"]))

        return [cls(name="count", action_type=CountAction, executor=count)]


def test_register_an_instance_a_class_and_a_factory() -> None:
    registry = Registry()

    @tool
    def echo(text: str) -> str:
        return text

    registry.register(echo)
    registry.register(CounterTool, start=5)
    registry.register(lambda prefix: [tool(name=f"{prefix}_upper")(str.upper)], prefix="txt")
    assert [e.id for e in registry] == ["notebook.count", "notebook.echo", "notebook.txt_upper"]
    definition = registry.get("count").definition
    assert definition is not None and definition.call({"step": 2}).text == "7"


def test_register_refuses_what_is_not_a_tool() -> None:
    with pytest.raises(ToolDefinitionError, match="not a ToolDefinition"):
        Registry().register(lambda: ["nope"])
    with pytest.raises(ToolDefinitionError, match="not a tool"):
        Registry().register(42)  # type: ignore[arg-type]


def test_listeners_hear_each_change_until_unsubscribed(registry: Registry) -> None:
    heard: list[str] = []
    unsubscribe = registry.subscribe(heard.append)
    registry.add_tools("time", tools("now"))
    registry.remove_server("git")
    unsubscribe()
    registry.remove_server("time")
    assert heard == ["time", "git"]


def test_search_contract(registry: Registry) -> None:
    hits = registry.search("create an issue", limit=15)
    assert [hit.id for hit in hits][:2] == ["github.create_issue", "gitlab.create_issue"]
    assert hits[0].score >= hits[1].score > 0
    assert len(registry.search("git", limit=2)) == 2


@pytest.mark.integration
def test_changes_from_another_thread_do_not_break_searches() -> None:
    import sys

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, so an unguarded race shows
    try:
        _search_while_another_thread_changes_the_registry()
    finally:
        sys.setswitchinterval(interval)


def _search_while_another_thread_changes_the_registry() -> None:
    import threading

    registry = Registry()
    registry.add_tools("base", tools("read_file", "write_file"))
    failures: list[BaseException] = []
    stop = threading.Event()

    def churn() -> None:
        try:
            for i in range(300):
                registry.set_tools("churn", tools(*(f"file_tool_{i}_{j}" for j in range(20))))
        except BaseException as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            stop.set()

    worker = threading.Thread(target=churn)
    worker.start()
    searches = 0
    while not stop.is_set():
        try:
            assert registry.search("read file")[0].id == "base.read_file"
            registry.tools()
        except BaseException as error:
            failures.append(error)
            break
        searches += 1
    worker.join()
    assert failures == [] and searches > 0


@pytest.mark.parametrize("name", ["t\nopen('x')\n#", "trailing\n", "a\rb", "nul\x00", "ls\u2028"])
def test_g16_a_listed_tool_named_with_a_control_character_is_left_out_with_a_warning(
    name: str,
) -> None:
    registry = Registry()
    with pytest.warns(WorkbenchWarning) as caught:
        entries = registry.set_tools("evil", [*tools("good"), *tools(name)])
    assert [entry.id for entry in entries] == ["evil.good"]
    assert [entry.id for entry in registry] == ["evil.good"]
    (warning,) = caught
    message = str(warning.message)
    assert "\n" not in message and "\r" not in message and repr(name) in message
    assert "left out" in message
    with pytest.warns(WorkbenchWarning):
        registry.add_tools("evil", tools(name, "other"))
    assert [entry.id for entry in registry] == ["evil.good", "evil.other"]
