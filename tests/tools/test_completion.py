"""Completers: candidate lists filtered by prefix, functions given the value (and context)."""

from __future__ import annotations

import pytest

from workbench.tools.completion import MAX_VALUES, finish, start_completion


def test_a_list_is_filtered_by_the_typed_prefix_case_insensitively() -> None:
    assert start_completion(["Alice", "bob", "albert"], "al", {}) == ["Alice", "albert"]


def test_a_function_gets_the_value_and_the_context_when_it_takes_two() -> None:
    assert start_completion(lambda v: [v + "!"], "a", {"x": "1"}) == ["a!"]
    assert start_completion(lambda v, ctx: [v + ctx["x"]], "a", {"x": "1"}) == ["a1"]


def test_finish_caps_and_refuses_a_string() -> None:
    assert finish(None) == []
    assert finish(range(150)) == [str(n) for n in range(MAX_VALUES)]
    with pytest.raises(TypeError, match="string"):
        finish("abc")
