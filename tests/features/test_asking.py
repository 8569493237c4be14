"""What a server asks and what goes back (workbench/features/asking.py): what a handler may
return, turned into the one answer type each request has."""

from __future__ import annotations

import pytest

from workbench.features.asking import (
    Declined,
    ElicitationAnswer,
    ElicitationRequest,
    SamplingMessage,
    SamplingReply,
    SamplingRequest,
    as_answer,
    as_reply,
)


def test_an_answer_stays_itself() -> None:
    for answer in (
        ElicitationAnswer.accept({"name": "Ada"}),
        ElicitationAnswer.decline(),
        ElicitationAnswer.cancel(),
    ):
        assert as_answer(answer) is answer


def test_a_dict_accepts_with_a_copy_of_it() -> None:
    content = {"name": "Ada", "age": 36}
    answer = as_answer(content)
    assert answer == ElicitationAnswer("accept", {"name": "Ada", "age": 36})
    content["name"] = "changed later"
    assert answer.content == {"name": "Ada", "age": 36}
    assert as_answer({}) == ElicitationAnswer("accept", {})


def test_none_declines() -> None:
    assert as_answer(None) == ElicitationAnswer("decline", None)


@pytest.mark.parametrize("wrong", ["yes", True, ["Ada"], 3])
def test_anything_else_is_a_type_error_naming_it(wrong: object) -> None:
    with pytest.raises(TypeError, match=type(wrong).__name__):
        as_answer(wrong)


def test_accept_without_content_is_empty_content() -> None:
    assert ElicitationAnswer.accept() == ElicitationAnswer("accept", {})
    assert ElicitationAnswer.cancel() == ElicitationAnswer("cancel", None)


def test_text_is_a_reply() -> None:
    assert as_reply("Paris.") == SamplingReply("Paris.", "workbench-user", "endTurn")
    reply = SamplingReply("Paris.", model="gpt", stop_reason="maxTokens")
    assert as_reply(reply) is reply


def test_none_declines_sampling() -> None:
    with pytest.raises(Declined, match="declined"):
        as_reply(None)


@pytest.mark.parametrize("wrong", [{"text": "Paris."}, 42, ElicitationAnswer.decline()])
def test_anything_else_is_not_a_reply(wrong: object) -> None:
    with pytest.raises(TypeError, match=type(wrong).__name__):
        as_reply(wrong)


def test_request_conveniences() -> None:
    form = ElicitationRequest("s", "Who?", {"type": "object", "properties": {"a": {}, "b": {}}})
    assert form.fields == ["a", "b"]
    assert ElicitationRequest("s", "Open", mode="url", url="https://x.test").fields == []
    assert ElicitationRequest("s", "Odd", {"properties": ["a"]}).fields == []
    messages = [SamplingMessage("user", "first"), SamplingMessage("user", "last")]
    assert SamplingRequest("s", messages).last_text == "last"
    assert SamplingRequest("s", []).last_text == ""
