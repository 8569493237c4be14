"""The sidebar's documents (workbench/lab/state.py) and replies (sidebar.py ``answer``) over a
real Workbench with the in-process demo server, checked against the sidebar schema
(workbench/display/schemas/sidebar.schema.json): the shapes the panel's generated types read."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from workbench.display.schemas import validator_for_def
from workbench.kernel import KernelState
from workbench.lab.sidebar import Sidebars
from workbench.lab.state import search_document, served_document, state_document


def assert_reply(data: dict[str, Any]) -> dict[str, Any]:
    check = validator_for_def("sidebar", "reply")
    errors = [f"{error.instance_path}: {error.message}" for error in check.iter_errors(data)]
    assert not errors, f"{data}: {errors}"
    return data


@pytest.fixture(scope="module")
def kernel_state() -> Iterator[KernelState]:
    """A kernel's state outside a kernel, its Workbench connected to the demo server."""
    state = KernelState()
    state.workbench.connect("demo")
    yield state
    state.close()


def test_the_state_before_and_after_a_connection(kernel_state: KernelState) -> None:
    assert assert_reply(state_document(None, None))["tools"] == 0
    workbench = kernel_state.workbench
    state = assert_reply(state_document(workbench, served_document(workbench)))
    assert state["servers"][0]["name"] == "demo" and state["served"] is None


def test_search_answers_with_and_without_good_hits(kernel_state: KernelState) -> None:
    registry = kernel_state.workbench.registry
    for query, limit in (("", 3), ("add numbers", 40), ("zzqx", 40), ("x" * 2_000, 500)):
        assert assert_reply(search_document(registry, query, limit))["type"] == "results"


def test_every_reply_of_the_comm(kernel_state: KernelState) -> None:
    sidebars = Sidebars(kernel_state)
    requests: list[dict[str, Any]] = [
        {"type": "refresh", "seq": 1},
        {"type": "search", "query": "time", "limit": 5, "seq": 2},
        {"type": "template", "id": "demo.add", "mode": "call", "seq": 3},
        {"type": "template", "id": "demo.get_time", "mode": "browse", "seq": 4},
        {"type": "template", "id": "demo.nothing", "mode": "call", "seq": 5},
        {"type": "nonsense", "seq": 6},
    ]
    kinds = [assert_reply(sidebars.answer(request))["type"] for request in requests]
    assert kinds == ["state", "results", "template", "template", "error", "error"]


def test_a_reply_with_an_extra_field_fails() -> None:
    with pytest.raises(AssertionError, match="not valid under any of the schemas"):
        assert_reply({"type": "error", "message": "x", "detail": "y"})
