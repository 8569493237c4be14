"""Semantic search mode with the real bundled model: paraphrases, caching, removal, errors."""

from __future__ import annotations

import importlib.util
import logging
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.processes import modules_after
from workbench import Registry
from workbench.errors import WorkbenchError
from workbench.registry.semantic import (
    SemanticIndex,
    SemanticUnavailableError,
    WordLlamaEncoder,
    embed_text,
    load_encoder,
)

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("wordllama") is None,
    reason="the semantic extra is not installed (pip install 'jupyter-mcp-workbench[semantic]')",
)


def tool(name: str, description: str, *params: str) -> dict[str, Any]:
    properties = {param: {"type": "string"} for param in params}
    return {"name": name, "description": description, "inputSchema": {"properties": properties}}


CATALOG: dict[str, list[dict[str, Any]]] = {
    "weather": [
        tool("get_forecast", "Weather forecast for a city for the next days.", "city"),
        tool("get_alerts", "Active severe weather warnings for a US state.", "state"),
    ],
    "github": [
        tool("fork_repository", "Fork a repository to your account.", "owner", "repo"),
        tool("create_issue", "Open a new issue in a repository.", "owner", "repo", "title"),
        tool("merge_pull_request", "Merge a pull request.", "owner", "repo", "pullNumber"),
    ],
    "mail": [
        tool("send_email", "Send an email message to recipients.", "to", "subject", "body"),
        tool("search_inbox", "Search received emails by sender or subject.", "query"),
    ],
    "finance": [tool("get_quote", "Latest price of a stock ticker.", "symbol")],
}


@pytest.fixture(autouse=True)
def _vectors_in_a_temporary_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Registry(semantic=True)`` caches vectors on disk: never in the developer's cache."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))


class CountingEncoder:
    """The real encoder, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        self.encoder = load_encoder()
        self.batches: list[list[str]] = []

    def __call__(self, texts: Sequence[str]) -> Any:
        self.batches.append(list(texts))
        return self.encoder(texts)

    @property
    def texts(self) -> int:
        return sum(len(batch) for batch in self.batches)


def build(catalog: dict[str, list[dict[str, Any]]] = CATALOG) -> tuple[Registry, CountingEncoder]:
    registry = Registry()
    counting = CountingEncoder()
    registry.enable_semantic(SemanticIndex(counting))
    for server, tools in catalog.items():
        registry.add_tools(server, tools)
    return registry, counting


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("will it rain in Paris tomorrow", "weather.get_forecast"),
        ("how much is apple trading at", "finance.get_quote"),
        ("write to my boss", "mail.send_email"),
    ],
)
def test_semantic_finds_a_paraphrase_that_keywords_miss(query: str, expected: str) -> None:
    keyword = Registry()
    for server, tools in CATALOG.items():
        keyword.add_tools(server, tools)
    semantic, _ = build()

    assert expected not in [hit.id for hit in keyword.search(query, 3)]
    hits = semantic.search(query, 3)
    assert hits[0].id == expected
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


def test_keyword_matches_stay_on_top() -> None:
    registry, _ = build()
    hits = registry.search("merge pull request")
    assert hits[0].id == "github.merge_pull_request"
    assert not hits.no_good_match


def test_constructor_option_enables_semantic_mode() -> None:
    registry = Registry(semantic=True)
    registry.add_tools("weather", CATALOG["weather"])
    assert registry.search("will it rain tomorrow", 1)[0].id == "weather.get_forecast"
    assert registry.enable_semantic() is registry.enable_semantic()  # one index, kept


def test_enabling_later_indexes_the_tools_already_there() -> None:
    registry = Registry()
    registry.add_tools("finance", CATALOG["finance"])
    registry.enable_semantic()
    assert registry.search("how much is apple trading at", 1)[0].id == "finance.get_quote"


def test_tools_are_embedded_once_in_one_batch_on_first_search() -> None:
    registry, counting = build()
    assert counting.texts == 0  # adding tools embeds nothing yet
    registry.search("rain tomorrow")
    assert sorted(counting.batches[0]) == sorted(embed_text(entry) for entry in registry)
    assert counting.batches[1] == ["rain tomorrow"]


def test_re_registering_unchanged_tools_embeds_nothing() -> None:
    registry, counting = build()
    registry.search("warm up")
    before = counting.texts

    for server, tools in CATALOG.items():
        registry.add_tools(server, tools)  # new ToolEntry objects, same text
    registry.set_tools("mail", CATALOG["mail"])
    registry.search("rain tomorrow")

    assert counting.texts == before + 1  # only the query


def test_a_changed_tool_is_the_only_one_embedded_again() -> None:
    registry, counting = build()
    registry.search("warm up")
    changed = [*CATALOG["github"][:2], tool("merge_pull_request", "Land a change set.", "id")]
    counting.batches.clear()

    registry.set_tools("github", changed)
    registry.search("land my change")

    assert len(counting.batches[0]) == 1
    assert counting.batches[0][0] == embed_text(registry.get("github.merge_pull_request"))


def test_removed_tools_are_never_returned_and_come_back_without_embedding() -> None:
    registry, counting = build()
    assert registry.search("write to my boss", 1)[0].id == "mail.send_email"
    registry.remove_tools("mail", ["send_email"])
    registry.remove_server("finance")

    ids = [hit.id for hit in registry.search("write an email to my boss about the stock price")]
    assert "mail.send_email" not in ids
    assert not [i for i in ids if i.startswith("finance.")]
    assert len(registry.enable_semantic()) == len(registry) == 6

    before = counting.texts
    registry.add_tools("mail", CATALOG["mail"])
    assert registry.search("write to my boss", 1)[0].id == "mail.send_email"
    assert counting.texts == before + 1  # the query only: the vector was kept


def test_server_filter_applies_to_semantic_hits() -> None:
    registry, _ = build()
    assert {hit.server for hit in registry.search("rain tomorrow", server="mail")} <= {"mail"}
    assert {hit.server for hit in registry.search("server:github rain tomorrow")} <= {"github"}
    assert not registry.search("server:nowhere rain")


def test_results_are_deterministic_whatever_the_insertion_order() -> None:
    first, _ = build()
    second, _ = build(dict(reversed(list(CATALOG.items()))))
    for query in ("rain tomorrow", "a repository", "xyzzy", "send"):
        one, again, other = first.search(query), first.search(query), second.search(query)
        assert [(h.id, h.score) for h in one] == [(h.id, h.score) for h in again]
        assert [(h.id, h.score) for h in one] == [(h.id, h.score) for h in other]
        assert one.no_good_match == other.no_good_match


def test_no_good_match_still_says_when_nothing_fits() -> None:
    registry, _ = build()
    assert registry.search("migration patterns of zebras").no_good_match
    assert registry.search("", 5).no_good_match


def test_hits_carry_what_keyword_hits_carry() -> None:
    registry, _ = build()
    long = tool("summarize", "word " * 300)
    registry.add_tools("notes", [long])
    hit = next(h for h in registry.search("summarize words", 20) if h.id == "notes.summarize")
    assert hit.server == "notes" and hit.name == "summarize"
    assert len(hit.description) <= 200 and hit.description.endswith("…")
    assert registry.search("anything", 0).hits == []


def test_encoder_matches_wordllama_inference() -> None:
    """The unpadded pooling computes what wordllama's own ``embed(norm=True)`` does."""
    texts = [embed_text(entry) for entry in build()[0]] + ["rain", ""]
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        import wordllama  # its __init__ calls logging.basicConfig
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        base = Path(wordllama.__file__).parent
        reference = wordllama.WordLlamaInference(
            load_file(f"{base}/weights/l2_supercat_256.safetensors")["embedding.weight"],
            Tokenizer.from_file(f"{base}/tokenizers/l2_supercat_tokenizer_config.json"),
        )
        with np.errstate(invalid="ignore"):  # wordllama divides the empty text by 0
            expected = reference.embed(texts, norm=True)
    finally:
        root.handlers[:], root.level = handlers, level
    ours = load_encoder()(texts)
    np.testing.assert_allclose(ours[:-1], expected[:-1], atol=1e-6)
    assert not ours[-1].any()  # an empty text is a zero vector, not NaN


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    attempts: list[object] = []

    def refuse(*args: object, **kwargs: object) -> None:
        attempts.append(args)
        raise OSError("network disabled in this test")

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


def test_the_model_loads_and_embeds_without_network(no_network: list[object]) -> None:
    encoder = WordLlamaEncoder()  # not the cached one: load the files again
    vectors = encoder(["open a pull request", "merge a pull request", "weather in Paris"])
    assert vectors.shape == (3, 256)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1, rtol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]
    assert no_network == []


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "wordllama", None)  # what `import wordllama` fails on
    with pytest.raises(
        SemanticUnavailableError, match=r"pip install 'jupyter-mcp-workbench\[semantic\]'"
    ):
        Registry(semantic=True)
    with pytest.raises(WorkbenchError, match="semantic"):
        Registry().enable_semantic()
    with pytest.raises(SemanticUnavailableError):
        WordLlamaEncoder()


@pytest.mark.integration
def test_default_registry_loads_no_model() -> None:
    code = (
        "from workbench import Registry\n"
        "r = Registry()\n"
        "r.add_tools('s', [{'name': 'get_forecast', 'description': 'Weather forecast.'}])\n"
        "r.search('rain tomorrow')\n"
    )
    loaded = modules_after(code)
    assert "numpy" in loaded  # the check can see imports
    assert not loaded & {"wordllama", "tokenizers", "safetensors", "workbench.registry.semantic"}
