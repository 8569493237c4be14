"""A form's click waits for the form's last keystrokes to arrive.

In the browser, ipywidgets holds back a field's state update while its previous update is
unanswered (``_pending_msgs``), but sends a button's click at once. So a click made a few
milliseconds after the last key can reach the kernel *before* the value it was meant to
send: the form would answer with the text minus its last letters.

``Settling`` watches a panel's widgets for updates that come from the browser (ipywidgets
applies those under ``_property_lock``; changes made in Python do not count) and runs a
click's action only once no such update has arrived for ``QUIET`` seconds. A click long
after the last keystroke, or a click made in Python, acts at once; a quick one waits a
fraction of a second on a timer thread, while the kernel goes on taking the held-back
update.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

QUIET = 0.3
"""Seconds without a browser update before a click acts: far above a local round trip
(the held-back update leaves the browser as soon as the kernel answers the one before)."""


class Settling:
    """When the browser last changed any widget under a root, and clicks that wait for it."""

    def __init__(self, root: Any, quiet: float = QUIET) -> None:
        self.quiet = quiet
        self._last_remote = float("-inf")
        self._watched: set[int] = set()
        self._lock = threading.Lock()
        self.watch(root)

    def watch(self, widget: Any) -> None:
        """Follow ``widget`` and everything under it, and children added later."""
        if id(widget) in self._watched or not hasattr(widget, "observe"):
            return
        self._watched.add(id(widget))
        widget.observe(self._changed)
        for child in getattr(widget, "children", ()) or ():
            self.watch(child)

    def _changed(self, change: Any) -> None:
        owner = change.get("owner") if isinstance(change, dict) else change.owner
        if getattr(owner, "_property_lock", None):  # applied from a browser message
            with self._lock:
                self._last_remote = time.monotonic()
        if change["name"] == "children":
            for child in change["new"] or ():
                self.watch(child)

    def since_last(self) -> float:
        """Seconds since the browser last changed a watched widget."""
        with self._lock:
            return time.monotonic() - self._last_remote

    def then(self, action: Callable[[], object]) -> None:
        """Run ``action`` now if the form is quiet, else once it has been quiet long enough."""
        wait = self.quiet - self.since_last()
        if wait <= 0:
            action()
            return
        timer = threading.Timer(wait, self.then, args=(action,))
        timer.daemon = True
        timer.start()
