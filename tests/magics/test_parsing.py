"""Reading a magic's line: words, quotes, JSON objects, key=value pairs, one-line errors."""

from __future__ import annotations

import pytest
from IPython.core.error import UsageError

from workbench.errors import ToolNotFoundError
from workbench.magics.parsing import (
    Token,
    fail,
    json_or_text,
    one_line,
    split_pair,
    tokenize,
    usage_errors,
)


def texts(line: str, **options: bool) -> list[str]:
    return [token.text for token in tokenize(line, **options)]


def test_words_split_on_whitespace_and_group_in_quotes() -> None:
    assert texts("  a  b\tc ") == ["a", "b", "c"]
    assert texts("text='to be' other=\"or not\"") == ["text=to be", "other=or not"]
    assert texts("a'b c'd") == ["ab cd"]


def test_escapes_and_windows_paths() -> None:
    assert texts(r'say="a \"quote\"" two\ words') == ['say=a "quote"', "two words"]
    assert texts(r"path=C:\Users\me") == [r"path=C:\Users\me"]
    assert texts(r"single='\n stays'") == [r"single=\n stays"]


def test_unicode_survives() -> None:
    assert texts("text='héllo wörld ✓' 名前=値") == ["text=héllo wörld ✓", "名前=値"]


@pytest.mark.parametrize("line", ["'open", 'a="open', "a='b' c=\"", "x=" + "'" + "y" * 5000])
def test_unbalanced_quotes_are_one_line_usage_errors(line: str) -> None:
    with pytest.raises(UsageError) as caught:
        tokenize(line)
    assert type(caught.value) is UsageError
    assert "quote" in str(caught.value)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 120


def test_json_objects_are_one_token_with_their_value() -> None:
    tokens = tokenize('demo.add {"a": 2, "b": "x y"} --timeout 5', json_objects=True)
    assert [t.text for t in tokens] == ["demo.add", '{"a": 2, "b": "x y"}', "--timeout", "5"]
    assert tokens[1].value == {"a": 2, "b": "x y"}
    assert tokens[1].is_json and not tokens[0].is_json
    assert not tokenize("{a}")[0].is_json  # only when asked for


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"a": 1', "Bad JSON object"),
        ("{'a': 1}", "Bad JSON object"),
        ('{"a": 1}x', "right after a JSON object"),
    ],
)
def test_bad_json_is_a_one_line_usage_error(line: str, says: str) -> None:
    with pytest.raises(UsageError, match=says) as caught:
        tokenize(line, json_objects=True)
    assert type(caught.value) is UsageError and "\n" not in str(caught.value)


def test_values_are_json_where_they_parse() -> None:
    assert json_or_text("3") == 3
    assert json_or_text("2.5") == 2.5
    assert json_or_text("true") is True
    assert json_or_text("null") is None
    assert json_or_text("[1, 2]") == [1, 2]
    assert json_or_text('{"k": "v"}') == {"k": "v"}
    assert json_or_text('"quoted"') == "quoted"
    assert json_or_text("UTC") == "UTC"
    assert json_or_text("{not json}") == "{not json}"


def test_pairs() -> None:
    assert split_pair(Token("a=1", "a=1")) == ("a", "1")
    assert split_pair(Token("a=b=c", "a=b=c")) == ("a", "b=c")
    assert split_pair(Token("a=", "a=''")) == ("a", "")  # an empty text, written as such


@pytest.mark.parametrize(
    ("token", "says"),
    [
        (Token("a", "a"), "Expected KEY=VALUE"),
        (Token("=1", "=1"), "Missing the name"),
        (Token("a=", "a="), "a= has no value"),
    ],
)
def test_bad_pairs(token: Token, says: str) -> None:
    with pytest.raises(UsageError, match=says) as caught:
        split_pair(token)
    assert type(caught.value) is UsageError


def test_messages_are_one_line_and_short() -> None:
    assert one_line("a\nb   c") == "a b c"
    assert len(one_line("x" * 1000)) == 60
    assert str(fail("one\ntwo")) == "one two"


def test_workbench_errors_become_usage_errors_themselves() -> None:
    with pytest.raises(UsageError) as caught, usage_errors():
        raise ToolNotFoundError("nope", ["demo.add"])
    assert type(caught.value) is UsageError
    assert str(caught.value) == "No tool named 'nope'. Did you mean: demo.add?"


@pytest.mark.parametrize(
    "line",
    ['demo.add {"a": 1, "a": 2}', 'demo.add {"a": 1, "b": {"c": 1, "c": 2}}'],
)
def test_f4_json_duplicate_keys_are_refused_like_a_pair_given_twice(line: str) -> None:
    with pytest.raises(UsageError, match=r"is given twice in \{") as caught:
        tokenize(line, json_objects=True)
    assert type(caught.value) is UsageError and "\n" not in str(caught.value)
    with pytest.raises(UsageError, match="c is given twice"):
        json_or_text('{"c": 1, "c": 2}')  # a JSON value of one key=value pair too
