"""One asyncio event loop, in a daemon thread, that owns every MCP client.

Why a thread: a Jupyter kernel already runs a loop in its main thread, cells may be synchronous
(plain code, widget callbacks) or asynchronous (top-level ``await``), and an MCP session works
only on the loop it was entered on. So every client lives on the bridge's loop, and callers either
block on it (:meth:`Bridge.run`) or await it from their own loop (:meth:`Bridge.arun`). Nothing
here runs the caller's loop (no ``run_until_complete``), so the bridge behaves the same in plain
scripts, in sync and async cells, and with or without ``nest_asyncio``/``nest-asyncio2``.

This package is the only place in the workbench that creates, runs or touches an event loop, and
the only one that starts threads (:func:`start_daemon_thread` for background work such as
warm-ups). The rest of the workbench imports it from here, never from its modules:

- ``core``: :class:`Bridge`, the loop's thread and the ways to run a coroutine on it;
- ``jobs``: one submitted coroutine, its task and the interruptible future callers hold;
- ``waiting``: waits cut into slices, and the SIGINT handler that cancels a blocked call;
- ``loops``: the bridge's nest_asyncio-proof loop class and the kernel's loop (``Host``);
- ``notebook``: where async notebook tools run: the kernel's loop when it is free, else (a
  sync call blocks it) a worker loop, which gives back the asyncio objects the tool bound to
  it and tells the caller the tool was displaced. Such a tool waiting on what only the
  kernel's loop could provide runs until its call's timeout: nothing guesses it earlier.
"""

from workbench.bridge.core import Bridge, start_daemon_thread
from workbench.bridge.loops import send_to_loop
from workbench.bridge.notebook import bound_to_another_loop, run_in_notebook
from workbench.errors import BridgeError

__all__ = [
    "Bridge",
    "BridgeError",
    "bound_to_another_loop",
    "run_in_notebook",
    "send_to_loop",
    "start_daemon_thread",
]
