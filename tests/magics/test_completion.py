"""Tab completion of ``%mcp`` lines: subcommands, options, servers, tool ids, parameters."""

from __future__ import annotations

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.interactiveshell import InteractiveShell

from workbench.kernel import KernelState
from workbench.magics.completion import candidates
from workbench.magics.router import COMMANDS


def complete(ip: InteractiveShell, text: str) -> list[str]:
    with provisionalcompleter():
        return sorted({c.text for c in ip.Completer.completions(text, len(text))})


def test_subcommands(ip: InteractiveShell) -> None:
    assert complete(ip, "%mcp ") == sorted(COMMANDS)
    assert complete(ip, "%mcp co") == ["connect"]
    assert complete(ip, "%mcp help se") == ["search", "search-eval", "serve", "servers"]


def test_server_names(ip: InteractiveShell, state: KernelState) -> None:
    connected = sorted(info.name for info in state.workbench.servers())
    assert complete(ip, "%mcp search add --server ") == connected
    assert complete(ip, "%mcp reconnect d") == ["demo"]
    remote = [name for name in connected if name != "notebook"]
    assert complete(ip, "%mcp disconnect ") == ["--all", *remote]


def test_tool_ids_and_parameters(ip: InteractiveShell) -> None:
    assert complete(ip, "%mcp call demo.a") == ["demo.add"]
    assert complete(ip, "obs = %mcp call demo.text") == ["demo.text_stats"]
    assert complete(ip, "%mcp call demo.add ") == ["--task", "--timeout", "a=", "b="]
    assert complete(ip, "%mcp call demo.add a=1 ") == ["--task", "--timeout", "b="]
    assert complete(ip, "%mcp call --timeout 5 demo.ad") == ["demo.add"]
    assert "demo.add" in complete(ip, "%mcp tools demo.")


def test_options(ip: InteractiveShell) -> None:
    assert complete(ip, "%mcp history --") == ["--clear", "--export", "--last"]
    assert "--config" in complete(ip, "%mcp connect --c")


@pytest.mark.integration
@pytest.mark.parametrize("text", ["%mcp call demo.add a=", "%mcp search --limit ", "x = 1"])
def test_nothing_of_ours_where_a_value_goes(ip: InteractiveShell, text: str) -> None:
    assert not {"demo", "demo.add", "a=", "connect"} & set(complete(ip, text))


def test_no_workbench_means_no_servers_and_none_is_made() -> None:
    assert list(candidates(None, ["call"])) == ["--timeout", "--task"]
    assert list(candidates(None, ["disconnect"])) == ["--all"]
    assert list(candidates(None, ["nosuch"])) == []
