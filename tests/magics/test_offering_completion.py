"""Tab completion of what servers offer: resource URIs, a template's variables and values,
prompt names, arguments and values (with the other arguments as context), log levels."""

from __future__ import annotations

from typing import Any

import pytest
from IPython.core.completer import provisionalcompleter
from IPython.core.interactiveshell import InteractiveShell

from workbench.magics.commands.log_level import LEVELS
from workbench.magics.completion import complete
from workbench.magics.offers import Offers


def completions(ip: InteractiveShell, text: str) -> list[tuple[str, str]]:
    """Each completion and the text it replaces."""
    with provisionalcompleter():
        found = ip.Completer.completions(text, len(text))
        return sorted({(c.text, text[c.start : c.end]) for c in found})


def texts(ip: InteractiveShell, text: str) -> list[str]:
    return [completed for completed, _ in completions(ip, text)]


def test_read_completes_uris_and_templates_whole(ip: InteractiveShell) -> None:
    assert {"demo://guide", "demo://chart.png", "demo://numbers/{n}"} <= set(
        texts(ip, "%mcp read ")
    )
    assert completions(ip, "%mcp read demo://g") == [("demo://guide", "demo://g")]


def test_a_templates_variables_and_the_values_the_server_suggests(ip: InteractiveShell) -> None:
    assert "n=" in texts(ip, "%mcp read demo://numbers/{n} ")
    assert "n=" not in texts(ip, "%mcp read demo://numbers/{n} n=4 ")
    assert completions(ip, "%mcp read demo://numbers/{n} n=9") == [
        ("9", "9"),
        *[(str(n), "9") for n in range(90, 100)],
    ]
    assert texts(ip, "obs = %mcp read demo://numbers/{n} n=10") == ["10", "100"]


def test_prompt_names_arguments_and_values(ip: InteractiveShell) -> None:
    assert "explain_tool" in texts(ip, "%mcp prompt ")
    assert texts(ip, "%mcp prompt explain_tool ") == ["--server", "level=", "tool="]
    assert texts(ip, "%mcp prompt explain_tool tool=add ") == ["--server", "level="]
    assert completions(ip, "%mcp prompt explain_tool tool=text") == [("text_stats", "text")]
    assert texts(ip, "%mcp prompt explain_tool tool=add level=") == ["beginner", "expert"]


def test_log_level_completes_servers_then_levels(ip: InteractiveShell) -> None:
    assert "demo" in texts(ip, "%mcp log-level ")
    assert texts(ip, "%mcp log-level demo ") == sorted(LEVELS)
    assert texts(ip, "%mcp log-level demo w") == ["warning"]


def test_resources_and_prompts_complete_servers(ip: InteractiveShell) -> None:
    assert "demo" in texts(ip, "%mcp resources ")
    assert "demo" in texts(ip, "%mcp prompts d")


@pytest.mark.integration
def test_values_of_server_everything_follow_the_other_arguments(
    ip: InteractiveShell, everything: str
) -> None:
    """completable-prompt suggests names from the department given before them."""
    line = "%mcp prompt completable-prompt "
    assert texts(ip, line + "department=S") == ["Sales", "Support"]
    assert texts(ip, line + "department=Sales name=") == ["David", "Eve", "Frank"]
    assert texts(ip, line + "department=Support name=") == ["John", "Kim", "Lee"]
    template = "%mcp read demo://resource/dynamic/text/{resourceId} "
    assert texts(ip, template) == [
        "--server", "--subscribe", "--timeout", "--unsubscribe", "resourceId=",
    ]  # fmt: skip


class Failing:
    """A Workbench whose servers fail every request, counting them."""

    def __init__(self) -> None:
        self.asked = 0

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        self.asked += 1
        raise RuntimeError("the server is gone")

    prompts = resources = resource_templates = complete = _fail


def test_a_failing_server_is_no_completion_and_is_not_asked_again_at_once() -> None:
    now = [0.0]
    offers, failing = Offers(ttl=10, clock=lambda: now[0]), Failing()
    workbench: Any = failing
    for _ in range(3):
        assert complete(workbench, ["prompt"], "", offers) == (["--server"], "")
        assert complete(workbench, ["prompt", "p"], "a=", offers) == ([], "")
        assert complete(workbench, ["read"], "demo:", offers) == ([], "demo:")
    assert failing.asked == 4  # prompts, the value, resources, templates: once each
    now[0] = 11.0
    complete(workbench, ["prompt"], "", offers)
    assert failing.asked == 5


def test_answers_are_kept_a_few_seconds() -> None:
    class Counting:
        asked = 0

        def complete(self, *args: Any, **kwargs: Any) -> list[str]:
            self.asked += 1
            return ["one", "two"]

    now = [0.0]
    offers, counting = Offers(ttl=5, clock=lambda: now[0]), Counting()
    workbench: Any = counting
    for _ in range(3):
        assert offers.values(workbench, "p", "a", "", {}) == ["one", "two"]
    assert counting.asked == 1
    assert offers.values(workbench, "p", "a", "o", {}) == ["one", "two"]  # another prefix
    assert counting.asked == 2
    now[0] = 6.0
    offers.values(workbench, "p", "a", "", {})
    assert counting.asked == 3
