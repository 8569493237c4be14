"""The script's written-out ToolContext keeps the workbench's own rules (it cannot import them:
the script runs without the workbench)."""

from __future__ import annotations

import ast

from workbench.export.runtime import CONTEXT
from workbench.features.log_levels import LOG_LEVELS


def test_the_scripts_log_levels_are_the_workbenchs() -> None:
    context_class = ast.parse(CONTEXT).body[0]
    assert isinstance(context_class, ast.ClassDef)
    [levels] = [
        node.value
        for node in context_class.body
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "LEVELS"
    ]
    assert ast.literal_eval(levels) == LOG_LEVELS


def test_the_scripts_context_has_every_public_method_of_the_workbenchs() -> None:
    from workbench.serving.tool_context import ToolContext

    context_class = ast.parse(CONTEXT).body[0]
    assert isinstance(context_class, ast.ClassDef)
    written = {node.name for node in context_class.body if isinstance(node, ast.FunctionDef)}
    serving = {"sent", "stop_asking"}  # the notebook server's, not a tool's
    public = {name for name in vars(ToolContext) if not name.startswith("_")} - serving
    assert public <= written, sorted(public - written)
