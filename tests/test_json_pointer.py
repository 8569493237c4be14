"""Local JSON references, as the call form and the workspace loader follow them."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.json_pointer import resolve, unescape

DOCUMENT: dict[str, Any] = {
    "$defs": {"Person": {"type": "object"}, "a/b": 1, "t~x": 2, "with space": 3},
    "items": [{"type": "string"}],
}


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("#", DOCUMENT),
        ("#/$defs/Person", {"type": "object"}),
        ("#/$defs/a~1b", 1),
        ("#/$defs/t~0x", 2),
        ("#/$defs/with%20space", 3),
        ("#/items/0", {"type": "string"}),
    ],
)
def test_a_local_pointer_names_its_value(ref: str, expected: Any) -> None:
    assert resolve(DOCUMENT, ref) == expected


@pytest.mark.parametrize(
    ("ref", "says"),
    [
        ("other.json#/a", "points outside the document"),
        ("#defs", "is not a JSON pointer"),
        ("#/$defs/Nobody", "names nothing in the document"),
        ("#/items/1", "names nothing in the document"),
        ("#/items/x", "names nothing in the document"),
    ],
)
def test_a_pointer_that_names_nothing_is_a_one_line_lookup_error(ref: str, says: str) -> None:
    with pytest.raises(LookupError, match=says):
        resolve(DOCUMENT, ref)


def test_tokens_unescape_tilde_and_slash_in_order() -> None:
    assert unescape("a~1b~0c~01") == "a/b~c~1"
