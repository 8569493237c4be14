"""``%load_ext workbench`` and ``%unload_ext workbench``: magics, completion, the cell-id
tracker and (in a kernel) the MCP sidebar's comm target in, and out again.

Loading is idempotent and cheap: it registers the magics and makes no Workbench; the first
magic that needs one makes it (``KernelState.workbench``). Unloading closes its connections.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, cast

from workbench import kernel
from workbench.lab import apps_comm, sidebar

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.magics import WorkbenchMagics

MAGICS = "WorkbenchMagics"
"""The key of the registered instance in IPython's magics registry (its class name)."""


def loaded(shell: InteractiveShell) -> WorkbenchMagics | None:
    """The shell's WorkbenchMagics, if the extension is loaded."""
    return cast("WorkbenchMagics | None", shell.magics_manager.registry.get(MAGICS))


def load(shell: InteractiveShell) -> WorkbenchMagics:
    """Register ``%mcp``, ``%%tool``, their completion and the cell-id tracker, once."""
    existing = loaded(shell)
    if existing is not None:
        return existing
    from workbench.magics import WorkbenchMagics

    magics = WorkbenchMagics(shell, kernel.state_of(shell))
    shell.register_magics(magics)
    shell.events.register("pre_run_cell", magics.state.remember_cell)
    shell.Completer.custom_matchers.append(magics.matcher)
    sidebar.install(shell, magics.state)  # the MCP panel's comm target, in a kernel
    apps_comm.install(shell, magics.state)  # MCP Apps' comm target (workbench/lab/apps_comm.py)
    return magics


def unload(shell: InteractiveShell) -> None:
    """Close the Workbench (stopping its servers) and take the magics out of the shell."""
    magics = loaded(shell)
    if magics is None:
        return
    try:
        kernel.forget(shell)
    finally:
        _remove(shell, magics)


def _remove(shell: InteractiveShell, magics: WorkbenchMagics) -> None:
    sidebar.uninstall(shell)
    apps_comm.uninstall(shell)
    for kind, table in magics.magics.items():
        for name in table:
            registered = shell.magics_manager.magics[kind].get(name)
            if getattr(registered, "__self__", None) is magics:
                del shell.magics_manager.magics[kind][name]
    shell.magics_manager.registry.pop(MAGICS, None)
    with contextlib.suppress(ValueError):  # already gone
        shell.events.unregister("pre_run_cell", magics.state.remember_cell)
    if magics.matcher in shell.Completer.custom_matchers:
        shell.Completer.custom_matchers.remove(magics.matcher)
