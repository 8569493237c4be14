"""What the kernel's comm targets share: the open comms of one target, the kernel's
Workbench they follow, and registering the target once per shell.

``workbench.sidebar`` (``sidebar.py``) and ``workbench.apps`` (``apps_comm.py``) each
subclass ``KernelComms`` and say what to do with a message (``received``) and what of the
Workbench to follow (``subscribe``); the bookkeeping is here once.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.kernel import KernelState
    from workbench.session import Workbench

Unsubscribe = Callable[[], None]


class KernelComms:
    """The open comms of one target in one kernel, and the Workbench they follow."""

    def __init__(self, state: KernelState) -> None:
        self._state = state
        self._comms: dict[str, Any] = {}  # comm id -> comm
        self._lock = threading.Lock()
        self._followed: weakref.ref[Workbench] | None = None
        self._unsubscribe: Unsubscribe | None = None

    # -- what a target says ---------------------------------------------------------------

    def received(self, comm: Any, data: dict[str, Any]) -> None:
        """A message from the front end on one of the comms."""
        raise NotImplementedError

    def subscribe(self, workbench: Workbench) -> Unsubscribe | None:
        """Start following ``workbench``; return what stops it (None: nothing to follow)."""
        return None

    def opened(self, comm_id: str) -> None:
        """A comm opened (after it is kept and the Workbench followed)."""

    def forget(self, comm_id: str | None) -> None:
        """A comm closed (None: all of them); drop what was kept for it. Lock held."""

    # -- the bookkeeping ------------------------------------------------------------------

    def open(self, comm: Any, message: dict[str, Any]) -> None:
        """The target's handler: the front end opened a comm."""
        comm_id = str(comm.comm_id)
        with self._lock:
            self._comms[comm_id] = comm
        comm.on_msg(self._on_message)
        comm.on_close(self._on_close)
        self.follow()
        self.opened(comm_id)

    def comms(self) -> list[Any]:
        with self._lock:
            return list(self._comms.values())

    def follow(self) -> None:
        """Follow the kernel's Workbench (again, if it was replaced)."""
        workbench = self._state.existing
        if workbench is (self._followed() if self._followed is not None else None):
            return
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._followed = None
        if workbench is not None:
            self._unsubscribe = self.subscribe(workbench)
            self._followed = weakref.ref(workbench)

    def close(self) -> None:
        """Stop following, and close every comm (``%unload_ext``)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        with self._lock:
            comms = list(self._comms.values())
            self._comms.clear()
            self.forget(None)
        for comm in comms:
            with contextlib.suppress(Exception):
                comm.close()

    def _on_close(self, message: dict[str, Any]) -> None:
        comm_id = str(message.get("content", {}).get("comm_id", ""))
        with self._lock:
            self._comms.pop(comm_id, None)
            self.forget(comm_id)

    def _on_message(self, message: dict[str, Any]) -> None:
        content = message.get("content", {})
        comm = self._comms.get(str(content.get("comm_id", "")))
        data = content.get("data")
        if comm is not None and isinstance(data, dict):
            self.received(comm, data)


C = TypeVar("C", bound=KernelComms)


def comm_manager(shell: InteractiveShell) -> Any:
    """The kernel's comm manager, or None outside a kernel (a terminal IPython, tests)."""
    return getattr(getattr(shell, "kernel", None), "comm_manager", None)


def install_target(
    shell: InteractiveShell,
    target: str,
    installed: weakref.WeakKeyDictionary[InteractiveShell, C],
    make: Callable[[], C],
) -> C | None:
    """Register ``target`` once per shell (in a kernel); the same comms on a second call."""
    manager = comm_manager(shell)
    if manager is None:
        return None
    existing = installed.get(shell)
    if existing is not None:
        return existing
    comms = installed[shell] = make()
    manager.register_target(target, comms.open)
    return comms


def uninstall_target(
    shell: InteractiveShell,
    target: str,
    installed: weakref.WeakKeyDictionary[InteractiveShell, C],
) -> C | None:
    """Undo ``install_target``: the target goes and its comms are closed."""
    comms = installed.pop(shell, None)
    if comms is None:
        return None
    manager = comm_manager(shell)
    if manager is not None:
        with contextlib.suppress(Exception):
            manager.unregister_target(target, comms.open)
    comms.close()
    return comms
