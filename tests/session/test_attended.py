"""Whether a person can answer (workbench/session/attended.py), read from Jupyter messages as
ipykernel keeps them; the real kernel's side is in tests/kernel/test_asking_kernel.py."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.session.attended import NO_INPUT, current_request, reason_of, unattended


def message(kind: str, **content: Any) -> dict[str, Any]:
    return {"header": {"msg_type": kind, "msg_id": "m1"}, "content": content}


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        pytest.param(
            message("execute_request", code="1", allow_stdin=False), NO_INPUT, id="nbclient"
        ),
        pytest.param(message("execute_request", code="1"), NO_INPUT, id="no allow_stdin: false"),
        pytest.param(message("execute_request", code="1", allow_stdin=True), None, id="lab"),
        pytest.param(message("comm_msg", comm_id="c", data={}), None, id="a widget's click"),
        pytest.param({}, None, id="no request yet"),
        pytest.param(None, None, id="no kernel"),
    ],
)
def test_only_an_execute_request_without_input_is_unattended(
    request_: dict[str, Any] | None, reason: str | None
) -> None:
    assert reason_of(request_) == reason


def test_outside_a_kernel_a_person_may_answer() -> None:
    assert current_request() is None  # pytest's IPython, if loaded, has no kernel
    assert unattended() is None
