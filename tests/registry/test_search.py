"""Ranking behaviour of the keyword index."""

from __future__ import annotations

from typing import Any

import pytest

from workbench import Registry
from workbench.registry.search import (
    MAX_QUERY_TERMS,
    TYPO_MAX_LENGTH,
    SearchIndex,
    SearchResults,
    shorten,
    stem,
    words,
)
from workbench.registry.vocabulary import deletions


def make(name: str, description: str = "", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, **extra}


@pytest.fixture
def registry() -> Registry:
    made = Registry()
    made.add_tools(
        "filesystem",
        [
            make("read_file", "Read the complete contents of a file from the file system."),
            make("readMultipleFiles", "Read the contents of several files at once."),
            make("write_file", "Create a new file or overwrite an existing one."),
            make("list_directory", "List the entries of a directory."),
        ],
    )
    made.add_tools(
        "git",
        [
            make("git_status", "Shows the working tree status."),
            make("git_log", "Shows the commit logs."),
            make(
                "git_show",
                "Shows the contents of a commit.",
                inputSchema={
                    "type": "object",
                    "properties": {"revision": {"type": "string", "description": "A sha."}},
                },
            ),
        ],
    )
    return made


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("readFile", ["read", "file"]),
        ("git_status", ["git", "status"]),
        ("list-directory", ["list", "directory"]),
        ("getHTTPResponse2", ["get", "http", "response", "2"]),
        ("s3ListBuckets", ["s", "3", "list", "buckets"]),
    ],
)
def test_identifiers_split_into_words(text: str, expected: list[str]) -> None:
    assert words(text) == expected


def test_stemming_meets_inflections() -> None:
    assert stem("files") == stem("file")
    assert stem("created") == stem("creates") == stem("create")
    assert stem("listing") == stem("list")
    assert stem("issues") == stem("issue")
    assert stem("process") == "process"


def test_name_outweighs_description(registry: Registry) -> None:
    registry.add_tools("notes", [make("status_report", "Writes a report.")])
    registry.add_tools("misc", [make("summarize", "Summarize the status of things.")])
    ids = [hit.id for hit in registry.search("status")]
    assert ids.index("notes.status_report") < ids.index("misc.summarize")


def test_identifier_fragments_find_their_tool(registry: Registry) -> None:
    assert registry.search("readFile")[0].id == "filesystem.read_file"
    assert registry.search("git_log")[0].id == "git.git_log"


def test_prefix_matches_while_typing(registry: Registry) -> None:
    assert registry.search("directo")[0].id == "filesystem.list_directory"
    assert registry.search("stat")[0].id == "git.git_status"


def test_parameters_are_searchable(registry: Registry) -> None:
    assert registry.search("revision sha")[0].id == "git.git_show"


def test_server_filter_as_parameter_and_in_query(registry: Registry) -> None:
    everywhere = {hit.server for hit in registry.search("contents")}
    assert everywhere == {"filesystem", "git"}
    assert {hit.server for hit in registry.search("contents", server="git")} == {"git"}
    assert {hit.server for hit in registry.search("server:git contents")} == {"git"}


def test_server_name_is_a_field(registry: Registry) -> None:
    assert {hit.server for hit in registry.search("git", limit=3)} == {"git"}


def test_nothing_matching_says_so(registry: Registry) -> None:
    results = registry.search("quantum teleportation")
    assert len(results) == 0 and results.no_good_match
    assert not registry.search("file").no_good_match


def test_ties_break_by_id() -> None:
    registry = Registry()
    same = "Return the thing."
    registry.add_tools("b", [make("fetch", same)])
    registry.add_tools("a", [make("fetch", same)])
    hits = registry.search("fetch")
    assert hits[0].score == hits[1].score
    assert [hit.id for hit in hits] == ["a.fetch", "b.fetch"]


def test_limit_and_hit_fields(registry: Registry) -> None:
    hits = registry.search("file", limit=2)
    assert len(hits) == 2
    first = hits[0]
    assert (first.server, first.name) == tuple(first.id.split(".", 1))
    assert registry.search("file", limit=0).hits == []


def test_hit_descriptions_are_cut_at_a_word_boundary() -> None:
    long = "word " * 100
    assert shorten(long) == ("word " * 39).strip() + "…"
    assert len(shorten(long)) <= 200
    assert shorten("short  text\nhere") == "short text here"


def test_index_updates_incrementally() -> None:
    index = SearchIndex()
    registry = Registry()
    registry.add_tools("one", [make("alpha_tool", "first")])
    for entry in registry:
        index.add(entry)
    index.add(registry.get("alpha_tool"))  # re-adding replaces, does not duplicate
    assert len(index) == 1
    index.remove("one.alpha_tool")
    index.remove("one.alpha_tool")  # removing twice is harmless
    assert len(index) == 0
    assert index.search("alpha").hits == []


@pytest.fixture
def catalog() -> Registry:
    made = Registry()
    made.add_tools("tracker", [
        make("create_issue", "Create a new issue in a project."),
        make("list_issues", "List the issues of a project."),
    ])  # fmt: skip
    made.add_tools("billing", [
        make("create_invoice", "Create an invoice for a customer."),
        make("create_invoice_item", "Add a line item to a draft invoice for a customer."),
    ])  # fmt: skip
    made.add_tools("pager", [make("get_current_oncall_users", "Who is currently on duty.")])
    made.add_tools("browser", [make("take_screenshot", "Capture the visible page as PNG.")])
    made.add_tools("git", [make("git_status", "Shows the working tree status.")])
    return made


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("git_statsu", "git.git_status"),  # a swapped pair of letters
        ("screnshot of the page", "browser.take_screenshot"),  # a missing letter
        ("open a new ticket", "tracker.create_issue"),  # synonyms: open/create, ticket/issue
        ("who is on call", "pager.get_current_oncall_users"),  # "on call" -> "oncall"
        ("create an invoice", "billing.create_invoice"),  # the name covered whole ranks first
    ],
)
def test_typos_synonyms_compounds_and_name_coverage(
    catalog: Registry, query: str, expected: str
) -> None:
    assert catalog.search(query)[0].id == expected


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("lsit my repositoreis", "code.search_repositories"),  # "repositorei" != "repository"
        ("postgress", "postgres.query"),  # "postgress" keeps its "ss" when stemmed
    ],
)
def test_a_typo_that_stems_apart_is_fixed_as_typed(
    catalog: Registry, query: str, expected: str
) -> None:
    catalog.add_tools("code", [make("search_repositories", "Search for repositories.")])
    catalog.add_tools("postgres", [make("query", "Run a read-only SQL query.")])
    assert catalog.search(query)[0].id == expected


def test_a_synonym_counts_less_than_the_word_itself(catalog: Registry) -> None:
    catalog.add_tools("tickets", [make("open_ticket", "Open a ticket.")])
    hits = catalog.search("create issue")
    assert hits[0].id == "tracker.create_issue"
    assert [h.id for h in hits].index("tickets.open_ticket") > 0


def test_no_good_match_when_the_best_hit_misses_the_rare_words(catalog: Registry) -> None:
    weak = catalog.search("translate this poem into klingon")
    assert weak.no_good_match
    assert not catalog.search("list the issues of my project").no_good_match


def test_each_hit_says_whether_it_is_weak_by_the_same_rule() -> None:
    """The rule behind no_good_match, hit by hit: the tool list shows only credible hits."""
    registry = Registry()
    registry.add_tools("tracker", [make("create_issue", "Create a new issue in a project.")])
    registry.add_tools("billing", [
        make("create_invoice", "Create an invoice for a customer."),
        make("create_invoice_item", "Add a line item to a draft invoice for a customer."),
    ])  # fmt: skip
    hits = registry.search("create invoice customer", limit=40)
    assert [(hit.id, hit.weak) for hit in hits] == [
        ("billing.create_invoice", False),
        ("billing.create_invoice_item", False),
        ("tracker.create_issue", True),  # "create" only: not what was asked
    ]
    assert not hits.no_good_match


def test_a_word_no_tool_has_weighs_as_the_rarest(catalog: Registry) -> None:
    catalog.add_tools("queue", [make("send_message", "Send a message to a queue.")])
    assert catalog.search("send an SMS to my mom").no_good_match
    assert not catalog.search("send a message to the queue").no_good_match


def test_removing_and_re_adding_a_server_gives_the_same_ranking(catalog: Registry) -> None:
    before = [(h.id, h.score) for h in catalog.search("create invoice customer")]
    catalog.remove_server("billing")
    assert all(h.server != "billing" for h in catalog.search("create invoice customer"))
    catalog.add_tools("billing", [
        make("create_invoice", "Create an invoice for a customer."),
        make("create_invoice_item", "Add a line item to a draft invoice for a customer."),
    ])  # fmt: skip
    assert [(h.id, h.score) for h in catalog.search("create invoice customer")] == before


def test_index_scales_to_thousands_of_tools() -> None:
    registry = Registry()
    for i in range(300):
        registry.add_tools(f"s{i}", [make(f"tool_{j}_{i}", f"Does thing {j}.") for j in range(10)])
    registry.add_tools("special", [make("frobnicate_widget", "Frobnicates a widget.")])
    assert len(registry) == 3001
    assert registry.search("frobnicate widgets")[0].id == "special.frobnicate_widget"
    assert len(registry.search("thing", limit=15)) == 15


def test_f10_a_100000_character_query_answers_with_bounded_typo_work(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    import workbench.registry.search as search_module

    typo_words: list[int] = []  # the length of every word whose deletions are made

    def counted(term: str) -> set[str]:
        typo_words.append(len(term))
        return deletions(term)

    monkeypatch.setattr(search_module, "deletions", counted)
    one_word = registry.search("q" * 100_000)
    assert isinstance(one_word, SearchResults) and one_word.no_good_match
    sentence = registry.search("read the file contents " + "qwertzuiop " * 10_000)
    assert len("qwertzuiop " * 10_000) == 110_000
    assert sentence[0].id == "filesystem.read_file"
    assert typo_words, "typo fixes were never tried"
    assert max(typo_words) <= TYPO_MAX_LENGTH + 1  # the index's words, the query's
    assert len(typo_words) <= len(registry._index._postings) + 2 * MAX_QUERY_TERMS  # type: ignore[attr-defined]


def test_the_request_s_verb_picks_the_tool_named_for_it() -> None:
    # Both tools hold "dashboard"; only the verb tells them apart, and the list tool's id
    # sorts first, so a ranking that drops "get" as filler answers with the wrong one.
    made = Registry()
    made.add_tools(
        "grafana",
        [
            make("dashboards_list", "Every dashboard of the organisation."),
            make("get_dashboard", "One dashboard by its uid."),
        ],
    )
    assert made.search("get the sales dashboard")[0].id == "grafana.get_dashboard"


def test_a_request_that_is_a_tool_s_name_finds_that_tool_first() -> None:
    # The other tool's description says "file" and "read" again and again; the request is
    # read_file's name in other words' company, so read_file comes first.
    made = Registry()
    made.add_tools(
        "drive",
        [
            make(
                "fetch_file_content",
                "Fetch the content of a file: read a file, read its text, file after file.",
            )
        ],
    )
    made.add_tools("filesystem", [make("read_file", "Return the contents of a path as text.")])
    assert made.search("read a file")[0].id == "filesystem.read_file"
    # Words beyond the name (other than its server's) are not the name: no bonus.
    assert made.search("read a file from drive")[0].id == "drive.fetch_file_content"
