"""Words of tool search: identifiers, stems, synonyms, typo distance."""

from __future__ import annotations

import pytest

from workbench.registry.vocabulary import (
    SYNONYMS,
    deletions,
    edit_distance_at_most_one,
    stem,
    swaps,
    synonyms,
    terms,
    words,
)


def test_words_keep_non_ascii_letters_whole() -> None:
    assert words("Größe café HTTPServer") == ["größe", "café", "http", "server"]


def test_terms_drop_filler_words_unless_asked() -> None:
    assert terms("show me the list of files") == ["show", "list", "fil"]
    assert terms("get_file", keep_stopwords=True) == ["get", "fil"]


def test_synonyms_are_symmetric_and_exclude_the_term() -> None:
    for term, others in SYNONYMS.items():
        assert term not in others
        for other in others:
            assert term in SYNONYMS[other]
    assert stem("ticket") in synonyms(stem("issue"))
    assert synonyms("zzzz") == frozenset()


@pytest.mark.parametrize(
    ("a", "b", "close"),
    [
        ("status", "statsu", True),  # swap
        ("screenshot", "screnshot", True),  # deletion
        ("chart", "chrt", True),
        ("orderbook", "orderbok", True),
        ("repo", "repos", True),  # insertion
        ("cat", "cut", True),  # substitution
        ("status", "stature", False),
        ("abc", "abcde", False),
    ],
)
def test_edit_distance_at_most_one(a: str, b: str, close: bool) -> None:
    assert edit_distance_at_most_one(a, b) is close
    assert edit_distance_at_most_one(b, a) is close


def test_deletions() -> None:
    assert deletions("abc") == {"bc", "ac", "ab"}


def test_swaps_exchange_each_neighbouring_pair() -> None:
    assert swaps("abc") == {"bac", "acb"}
    assert swaps("a") == set()


@pytest.mark.parametrize("verb", ["get", "give", "use", "using"])
def test_verbs_tools_are_named_for_are_not_filler(verb: str) -> None:
    assert terms(f"{verb} the dashboard")[0] == stem(verb)
