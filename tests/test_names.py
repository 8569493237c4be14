"""Server names: the reserved ones and the rule every name obeys."""

from __future__ import annotations

import pytest

from workbench.errors import ServerNameError, WorkbenchError
from workbench.names import (
    DEMO_SERVER,
    LOCAL_SERVER,
    RESERVED,
    check_new_server_name,
    check_server_name,
)


def test_the_reserved_names() -> None:
    assert RESERVED == {LOCAL_SERVER, DEMO_SERVER} == {"notebook", "demo"}


@pytest.mark.parametrize("name", ["github", "my-server_2", "時間", "ü", "a" * 64, "_", "-x"])
def test_a_good_name_comes_back(name: str) -> None:
    assert check_server_name(name) == name


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "must be 1 to 64 letters, digits"),
        ("a.b", "no '.'"),
        (42, "must be a string, not int"),
        (None, "must be a string, not NoneType"),
    ],
)
def test_a_bad_name_is_a_one_line_error(name: object, says: str) -> None:
    with pytest.raises(ServerNameError, match=says) as raised:
        check_server_name(name)
    assert isinstance(raised.value, WorkbenchError) and isinstance(raised.value, ValueError)
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(
    "name",
    ["a b", " ", "x\n", "demo ", "x/y", "../x", "/tmp/escaped", "a\\b", "a:b", "a" * 65, "\u202e"],
)
def test_f3_a_name_is_a_short_identifier(name: str) -> None:
    with pytest.raises(ServerNameError, match="1 to 64 letters, digits, '_' or '-'") as raised:
        check_server_name(name)
    assert "\n" not in str(raised.value) and len(str(raised.value)) < 200


def test_f6_the_reserved_names_cannot_be_taken() -> None:
    with pytest.raises(ServerNameError, match="'notebook' is reserved") as raised:
        check_new_server_name(LOCAL_SERVER, settings_given=False)
    assert "\n" not in str(raised.value)
    with pytest.raises(ServerNameError, match="'demo' is reserved for the embedded demo"):
        check_new_server_name(DEMO_SERVER, settings_given=True)
    assert check_new_server_name(DEMO_SERVER, settings_given=False) == DEMO_SERVER
    assert check_new_server_name("time", settings_given=True) == "time"
