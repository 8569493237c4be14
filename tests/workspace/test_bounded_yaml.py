"""The bounded YAML loader: what ``yaml.safe_load`` gives for ordinary documents (anchors,
merge keys), and a one-line refusal with its line for bombs, self-containing documents and
deep nesting (G6, G7)."""

from __future__ import annotations

import pytest
import yaml

from workbench.workspace.bounded_yaml import MAX_ALIAS_NODES, MAX_DEPTH, YamlRefused, load

ORDINARY = """
base: &base {type: object, properties: {id: {type: string}}}
copy: *base
merged:
  <<: *base
  required: [id]
when: 2024-01-02
list: &l [1, 2, {a: b}]
again: [*l, *l]
"""


def test_ordinary_documents_load_as_safe_load_loads_them() -> None:
    assert load(ORDINARY) == yaml.safe_load(ORDINARY)
    assert load("") is None


@pytest.mark.integration
def test_aliases_up_to_the_budget_load_and_one_more_alias_is_refused() -> None:
    leaves = MAX_ALIAS_NODES // 10  # each alias of a 9-item list stands for 10 nodes
    within = "x: &x [" + ", ".join("a" * 9) + "]\ny: [" + ", ".join(["*x"] * leaves) + "]\n"
    assert len(load(within)["y"]) == leaves
    with pytest.raises(YamlRefused, match="stand for more than") as caught:
        load(within.replace("y: [", "y: [a, [b], *x, "))
    assert caught.value.line == 2


def test_a_merge_key_bomb_is_counted_like_any_alias() -> None:
    lines = ["a0: &a0 {" + ", ".join(f"k{i}: v" for i in range(10)) + "}"]
    for level in range(1, 8):
        keys = ", ".join(f"m{i}: *a{level - 1}" for i in range(10))
        lines.append(f"a{level}: &a{level} {{<<: *a{level - 1}, {keys}}}")
    with pytest.raises(YamlRefused, match="alias bomb"):
        load("\n".join(lines))


def test_an_alias_inside_its_own_anchor_is_refused_with_its_line() -> None:
    with pytest.raises(YamlRefused, match=r"\*me refers to itself") as caught:
        load("a: 1\nb: &me\n  c:\n    - *me\n")
    assert caught.value.line == 4


def test_nesting_is_bounded_but_the_limit_itself_loads() -> None:
    at_limit = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    assert load(f"x: {at_limit}") is not None
    with pytest.raises(YamlRefused, match=f"deeper than {MAX_DEPTH}"):
        load(f"x: [{at_limit}]")
