"""A tool's task mode: True, False or a mode by name; anything else is refused."""

from __future__ import annotations

import pytest

from workbench.errors import ToolDefinitionError
from workbench.tools.from_function import tool
from workbench.tools.task_support import task_support


@pytest.mark.parametrize(
    ("given", "mode"),
    [(True, "optional"), (False, "forbidden"), ("required", "required"), (None, "forbidden")],
)
def test_task_support(given: object, mode: str) -> None:
    assert task_support(given) == mode


def test_a_wrong_task_mode_is_a_definition_error() -> None:
    with pytest.raises(ToolDefinitionError, match="task is True, False"):
        task_support("sometimes")


def test_tool_takes_it() -> None:
    @tool(task=True)
    async def wait() -> str:
        """Wait."""
        return "waited"

    @tool
    def plain() -> str:
        """No task."""
        return "plain"

    assert wait.task == "optional"
    assert plain.task == "forbidden"
