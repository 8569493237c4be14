"""Server names: the reserved ones and the rule every name obeys."""

from __future__ import annotations

import pytest

from workbench.errors import ServerNameError, WorkbenchError
from workbench.names import DEMO_SERVER, LOCAL_SERVER, RESERVED, check_server_name


def test_the_reserved_names() -> None:
    assert RESERVED == {LOCAL_SERVER, DEMO_SERVER} == {"notebook", "demo"}


@pytest.mark.parametrize("name", ["github", "my-server_2", "時間"])
def test_a_good_name_comes_back(name: str) -> None:
    assert check_server_name(name) == name


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "must be non-empty"),
        ("a.b", "contain no '.'"),
        (42, "must be a string, not int"),
        (None, "must be a string, not NoneType"),
    ],
)
def test_a_bad_name_is_a_one_line_error(name: object, says: str) -> None:
    with pytest.raises(ServerNameError, match=says) as raised:
        check_server_name(name)
    assert isinstance(raised.value, WorkbenchError) and isinstance(raised.value, ValueError)
    assert "\n" not in str(raised.value)
