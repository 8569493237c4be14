"""Every mistake typed into ``%mcp`` is IPython's own UsageError (never a subclass, which
IPython would print with a full traceback), says what is wrong in one line, and changes
nothing: no connection, no tool, no history entry, no variable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

LONG = "x" * 20_000

MISTAKES: dict[str, tuple[str, str]] = {
    # name: (line, a piece of the message)
    "unknown subcommand": ("bogus", "Unknown %mcp subcommand 'bogus'"),
    "typo in subcommand": ("conect demo", "Did you mean connect?"),
    "unicode subcommand": ("連接 demo", "Unknown %mcp subcommand '連接'"),
    "connect without name": ("connect", "give a server name"),
    "connect unknown name": ("connect nosuch", "Nothing to connect for 'nosuch'"),
    "connect unknown flag": ("connect demo --bogus", "unrecognized arguments: --bogus"),
    "connect bad url": ("connect x ftp://example.test", "is not an http(s) URL"),
    "connect url and command": ("connect x https://example.test -- cmd", "not command and url"),
    "connect nothing after --": ("connect x --", "give the command after '--'"),
    "connect three words": ("connect a b c", "unexpected c"),
    "connect header on stdio": (
        "connect x --header A=1 -- cmd",
        "headers option does not apply to a command",
    ),
    "connect env on http": (
        "connect x https://example.test --env A=1",
        "env option does not apply to a URL",
    ),
    "connect token on demo": ("connect demo --token t", "token option does not apply to the demo"),
    "connect bad header": ("connect x https://example.test --header novalue", "KEY=VALUE"),
    "connect unset variable": (
        "connect x https://example.test --token ${env:WORKBENCH_TEST_UNSET}",
        "WORKBENCH_TEST_UNSET is not set",
    ),
    "connect bad timeout": ("connect demo --timeout soon", "invalid seconds value: 'soon'"),
    "connect zero timeout": ("connect demo --timeout 0", "0 is not a positive number"),
    "connect missing config": ("connect --config /nonexistent/mcp.json", "does not exist"),
    "connect config with token": ("connect --config f.json --token t", "not --token"),
    "connect dotted name": ("connect a.b https://example.test", "contain no '.'"),
    "connect unbalanced quote": ("connect 'demo", "No closing ' quote"),
    "servers extra word": ("servers demo now", "unrecognized arguments: now"),
    "disconnect nothing": ("disconnect", "give server names or --all"),
    "disconnect names and all": ("disconnect demo --all", "give server names or --all"),
    "disconnect unknown": ("disconnect nosuch", "No server named 'nosuch' (connected: "),
    "reconnect nothing": ("reconnect", "required: NAME"),
    "reconnect unknown": ("reconnect nosuch", "No server named 'nosuch'"),
    "tools unknown": ("tools nosuch", "No server or tool named 'nosuch'"),
    "tools two words": ("tools a b", "unrecognized arguments: b"),
    "search nothing": ("search", "required: WORDS"),
    "search zero limit": ("search add --limit 0", "0 is not a whole number of at least 1"),
    "search bad limit": ("search add --limit many", "invalid count value: 'many'"),
    "search unknown server": ("search add --server nosuch", "No server named 'nosuch'"),
    "call nothing": ("call", "required: TOOL"),
    "call unknown tool": ("call demo.ad a=1", "No tool named 'demo.ad'. Did you mean: demo.add"),
    "call unknown server": ("call nosuch.add a=1", "No tool named 'nosuch.add'"),
    "call unicode tool": ("call ツール x=1", "No tool named 'ツール'"),
    "call key without value": ("call demo.add a= b=2", "a= has no value"),
    "call value without key": ("call demo.add =1", "Missing the name before '='"),
    "call bare word": ("call demo.add 1 2", "Expected key=value or one JSON object, got 1"),
    "call key twice": ("call demo.add a=1 a=2", "a is given twice"),
    "call bad json": ('call demo.add {"a": 1', "Bad JSON object"),
    "call json and pairs": ('call demo.add {"a": 1} b=2', "not both"),
    "call text after json": ("call demo.add {}x", "right after a JSON object"),
    "call json array": ("call demo.add [1,2]", "got [1,2]"),
    "call json first": ('call {"a": 1} demo.add', "name the tool before its JSON"),
    "call unknown flag": ("call demo.add a=1 --bogus", "unrecognized arguments: --bogus"),
    "call timeout without value": ("call demo.add a=1 --timeout", "expected one argument"),
    "call bad timeout": ("call demo.add a=1 --timeout 1s", "invalid seconds value: '1s'"),
    "call unbalanced quote": ('call demo.add a="1 b=2', 'No closing " quote'),
    "call very long word": (f"call demo.add {LONG}", "Expected key=value"),
    "call very long tool": (f"call {LONG}", "No tool named"),
    "history zero": ("history --last 0", "0 is not a whole number"),
    "history extra": ("history all", "unrecognized arguments: all"),
    "history unwritable": ("history --export /nonexistent/dir/h.json", "cannot write"),
    "help unknown": ("help nosuch", "Unknown %mcp subcommand 'nosuch'"),
}


@pytest.mark.integration
@pytest.mark.parametrize("name", list(MISTAKES))
def test_mistake_is_one_line_usage_error_and_changes_nothing(
    name: str, mcp: Callable[[str], Any], snapshot: Callable[[], Any]
) -> None:
    line, says = MISTAKES[name]
    before = snapshot()
    with pytest.raises(UsageError) as caught:
        mcp(line)
    message = str(caught.value)
    assert type(caught.value) is UsageError
    assert says in message
    assert "\n" not in message and len(message) < 300
    assert snapshot() == before


def test_ipython_prints_one_line_without_a_traceback(ip: InteractiveShell) -> None:
    with capture_output() as captured:
        ip.run_cell("%mcp call demo.add a= b=2")
    printed = (captured.stdout + captured.stderr).strip()
    assert printed == "UsageError: a= has no value; write a='' for an empty text."


def test_a_failed_tool_call_is_an_observation_not_an_exception(
    mcp: Callable[[str], Any],
) -> None:
    observation, _ = mcp("call demo.fail")
    assert observation.is_error and observation.error_kind.value == "tool_error"
    observation, _ = mcp("call demo.add a=one b=2")
    assert observation.error_kind.value == "invalid_arguments"
    assert "a:" in observation.error_message
