"""ToolAnnotations: both spellings in, MCP's spelling out."""

from __future__ import annotations

import mcp.types
import pytest

from workbench.errors import ToolAnnotationsError
from workbench.tools import ToolAnnotations


def test_snake_and_camel_case_both_work() -> None:
    a = ToolAnnotations(read_only_hint=True, title="Read")
    b = ToolAnnotations.model_validate({"readOnlyHint": True, "title": "Read"})
    assert a == b
    assert a.to_mcp() == {"title": "Read", "readOnlyHint": True}


def test_badges_name_the_true_hints() -> None:
    hints = ToolAnnotations(destructive_hint=True, idempotent_hint=False, open_world_hint=True)
    assert hints.badges() == ["destructive", "open-world"]


def test_coerce_reads_mcp_sdk_objects_dicts_and_none() -> None:
    sdk = mcp.types.ToolAnnotations(read_only_hint=True, open_world_hint=False)
    assert ToolAnnotations.coerce(sdk) == ToolAnnotations(
        read_only_hint=True, open_world_hint=False
    )
    assert ToolAnnotations.coerce({"idempotentHint": True}) == ToolAnnotations(idempotent_hint=True)
    assert ToolAnnotations.coerce(None) is None
    with pytest.raises(ToolAnnotationsError, match="from int"):  # a WorkbenchError, one line
        ToolAnnotations.coerce(42)


def test_unknown_hints_are_kept() -> None:
    hints = ToolAnnotations.model_validate({"readOnlyHint": True, "x-cost": "high"})
    assert hints.to_mcp() == {"readOnlyHint": True, "x-cost": "high"}
