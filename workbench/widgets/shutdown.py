"""Whether this process is shutting down, so the tool browser freezes at its last live state.

Shutting a kernel down takes its Workbench apart piece by piece: ipykernel's shutdown_request
terminates the kernel's child processes (stdio servers drop one by one), then the exit hooks
close every connection (``mcp/release.py``). Each step is a registry change. A browser that
followed them would show "No servers yet" in its live cell and write that over the saved
snapshot with ``update_display``, which marks the notebook modified: the next save keeps a
torn-down browser instead of what the person browsed.

The first sign of shutdown is the shell's ``exit_now``, which ipykernel's ``do_shutdown``
sets before anything is torn down (and ``exit`` sets too); then come the exit hooks (this
module's, registered when a browser is first made, runs before the Workbench's own when the
Workbench is older) and interpreter finalisation.
"""

from __future__ import annotations

import atexit
import sys

_exiting = False


def _at_exit() -> None:
    global _exiting
    _exiting = True


atexit.register(_at_exit)


def shutting_down() -> bool:
    """Whether the kernel (or interpreter) is shutting down; cheap enough for every change."""
    if _exiting or sys.is_finalizing():
        return True
    from IPython import get_ipython

    shell = get_ipython()
    return bool(getattr(shell, "exit_now", False))
