"""The Workbench's offerings against @modelcontextprotocol/server-everything (TypeScript
SDK), over stdio and over streamable HTTP (its own process on a free 127.0.0.1 port, stopped
at the end of the module): resources, templates, subscriptions, prompts, completions,
elicitation, sampling, roots, ping and the server's log level."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.mcp.conftest import everything_js, everything_stdio
from tests.mcp.test_http import everything_url
from tests.polling import eventually, wait_for
from workbench.errors import InvalidArgumentsError, ListenerWarning
from workbench.features.asking import ElicitationAnswer, SamplingRequest
from workbench.mcp.connection import LogRecord
from workbench.session import Workbench
from workbench.tools.schema import ErrorKind, Observation

pytestmark = pytest.mark.integration

__all__ = ["everything_js", "everything_stdio", "everything_url"]  # fixtures, shared

EV = "ev"
DOC = "demo://resource/static/document/architecture.md"
TEXT = "demo://resource/dynamic/text/{resourceId}"
BLOB = "demo://resource/dynamic/blob/{resourceId}"


@pytest.fixture(params=["stdio", "http"])
def ev(request: pytest.FixtureRequest, everything_stdio: list[str]) -> Iterator[Workbench]:
    with Workbench(log_level="debug") as wb:
        if request.param == "stdio":
            wb.connect(EV, command=everything_stdio[0], args=everything_stdio[1:])
        else:
            wb.connect(EV, url=request.getfixturevalue("everything_url"))
        yield wb


def read_text(observation: Observation) -> str:
    assert not observation.is_error, observation.error_message
    return str(observation.content[0].resource.text)  # type: ignore[union-attr]


def test_resources_templates_and_reads(ev: Workbench) -> None:
    resources = ev.resources()
    assert DOC in [r.uri for r in resources] and resources.next_cursor is None
    assert {t.uri_template for t in ev.resource_templates()} == {TEXT, BLOB}
    assert "architecture" in read_text(ev.read_resource(DOC)).lower()
    assert read_text(ev.read_resource(TEXT, resourceId=3)).startswith("Resource 3:")
    blob = ev.read_resource(BLOB, resourceId=5)
    assert blob.content[0].resource.blob  # type: ignore[union-attr]
    missing = ev.read_resource(TEXT)
    assert missing.error_kind is ErrorKind.INVALID_ARGUMENTS
    unknown = ev.read_resource("demo://resource/static/document/nothing.md")
    assert unknown.is_error and unknown.error_kind is ErrorKind.TOOL_ERROR
    kinds = [(c.kind, c.tool_id, c.observation.is_error) for c in ev.history]
    assert kinds[-2:] == [
        ("resource", TEXT, True),
        ("resource", "demo://resource/static/document/nothing.md", True),
    ]


@pytest.mark.timeout(60)
def test_subscription_follows_updates_until_stopped(ev: Workbench) -> None:
    seen: list[Observation] = []
    subscription = ev.subscribe_resource(DOC, on_update=seen.append)
    toggled = ev.call(f"{EV}.toggle-subscriber-updates")
    assert not toggled.is_error, toggled.error_message
    try:
        wait_for(lambda: subscription.updates >= 1, 20, "a resources/updated notification")
        assert seen and "architecture" in read_text(subscription.latest).lower()
    finally:
        subscription.stop()
        ev.call(f"{EV}.toggle-subscriber-updates")
    assert "stopped" in repr(subscription)


def follow_two_updates(ev: Workbench, on_update: Callable[[Observation], object]) -> Observation:
    """Subscribe to DOC, let the server announce two updates, stop; the latest read."""
    subscription = ev.subscribe_resource(DOC, on_update=on_update)
    toggled = ev.call(f"{EV}.toggle-subscriber-updates")
    assert not toggled.is_error, toggled.error_message
    try:
        wait_for(lambda: subscription.updates >= 2, 30, "two resources/updated notifications")
    finally:
        subscription.stop()
        ev.call(f"{EV}.toggle-subscriber-updates")
    return subscription.latest


@pytest.mark.timeout(60)
@pytest.mark.parametrize("ev", ["stdio"], indirect=True)
def test_a_raising_on_update_is_warned_about_once_and_the_subscription_goes_on(
    ev: Workbench,
) -> None:
    """It was swallowed without a word, unlike every other listener."""
    calls: list[Observation] = []

    def broken(observation: Observation) -> None:
        calls.append(observation)
        raise ZeroDivisionError("view gone")

    said = r"updates \(.*broken\) raised ZeroDivisionError: view gone"
    with pytest.warns(ListenerWarning, match=said) as caught:
        latest = follow_two_updates(ev, broken)
    assert len([w for w in caught if issubclass(w.category, ListenerWarning)]) == 1
    assert len(calls) >= 2 and "architecture" in read_text(latest).lower()


def test_prompts_checked_then_got(ev: Workbench) -> None:
    names = [p.name for p in ev.prompts()]
    assert {"simple-prompt", "args-prompt", "completable-prompt"} <= set(names)
    with pytest.raises(InvalidArgumentsError, match="city: required but missing"):
        ev.get_prompt("args-prompt", {"state": "TX"})
    result = ev.get_prompt("ev.args-prompt", {"city": "Paris", "state": "TX"})
    assert "Paris" in result.text and result.messages[0].role == "user"
    assert ev.complete("completable-prompt", "department", "E") == ["Engineering"]
    team = ev.complete("completable-prompt", "name", "", context={"department": "Engineering"})
    assert team and all(isinstance(n, str) for n in team)
    assert "1" in ev.complete(TEXT, "resourceId", "1")


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (ElicitationAnswer.accept({"name": "Ada Lovelace", "check": True}), "Ada Lovelace"),
        (ElicitationAnswer.decline(), "declined"),
        (ElicitationAnswer.cancel(), "cancelled"),
    ],
)
def test_elicitation_reaches_the_server(
    ev: Workbench, answer: ElicitationAnswer, words: str
) -> None:
    ev.on_elicitation(lambda request: answer)
    result = ev.call(f"{EV}.trigger-elicitation-request")
    assert not result.is_error, result.error_message
    assert words in result.text and f'"action": "{answer.action}"' in result.text


def test_sampling_reaches_the_handler(ev: Workbench) -> None:
    got: list[SamplingRequest] = []

    def reply(request: SamplingRequest) -> str:
        got.append(request)
        return "sampled by the test"

    ev.on_sampling(reply)
    result = ev.call(f"{EV}.trigger-sampling-request", {"prompt": "Say hi", "maxTokens": 50})
    assert "sampled by the test" in result.text
    assert "Say hi" in got[0].last_text and got[0].max_tokens == 50


def test_roots_reach_the_server(ev: Workbench, tmp_path: Path) -> None:
    assert "file://" not in ev.call(f"{EV}.get-roots-list").text  # none offered until set
    ev.roots([tmp_path])
    wait_for(
        lambda: tmp_path.as_uri() in ev.call(f"{EV}.get-roots-list").text,
        10,
        "roots/list_changed to reach the server",
    )


def test_ping_and_servers(ev: Workbench) -> None:
    assert 0 < ev.ping(EV) < 5
    (row,) = ev.servers(ping=True)
    assert row.ping is not None and row.ping > 0


@pytest.mark.timeout(60)
def test_the_server_log_level_is_what_the_server_sends(ev: Workbench) -> None:
    """Each start of the server's simulated logging sends one message at once, at a random
    one of the eight levels (then one every 5 s, never reached here: each start is stopped at
    once). Four starts under "emergency" are four draws the server must filter unless they
    drew emergency (two, five seconds apart, were 5.6 s of waiting); under "debug" one draw
    below emergency must arrive, drawn again while it has not (7 draws in 8 are below)."""
    records: list[LogRecord] = []
    ev.subscribe_logs(records.append)
    running, since = [False], [0]

    def toggle() -> None:
        ev.call(f"{EV}.toggle-simulated-logging")
        running[0] = not running[0]

    def below_emergency() -> bool:
        return any(r.level != "emergency" for r in records[since[0] :])

    ev.set_server_log_level(EV, "emergency")
    try:
        for _ in range(4):
            toggle()
            toggle()
        # What the server sent has arrived (on this machine, within milliseconds).
        time.sleep(1.0)
        simulated = [r for r in records if "-level message" in r.message.lower()
                     or "level-message" in r.message.lower()]  # fmt: skip
        assert {r.level for r in simulated} <= {"emergency"}, simulated
        since[0] = len(records)
        ev.set_server_log_level(EV, "debug")
        for _ in range(20):
            toggle()
            toggle()
            if eventually(below_emergency, 2):
                break
        assert below_emergency(), f"no log below emergency arrived: {records[since[0] :]}"
    finally:
        if running[0]:
            toggle()
