"""The ``workbench.apps`` comm: MCP Apps drawn in the notebook ask the kernel's Workbench.

The extension opens one comm per kernel, shared by every App output of the notebook, and
sends requests, each answered on the same comm with its ``seq`` echoed
(``workbench/display/schemas/apps-comm.schema.json``):

- ``call`` {server, tool, arguments} -> ``result`` {result: CallToolResult JSON}: the
  Workbench's one call path, recorded with the history source ``app``; refused unless the
  server is connected, has the tool, and the tool's visibility names ``app``;
- ``read`` {server, uri} -> ``resource`` {contents}: recorded like ``wb.read_resource``;
- ``html`` {server, uri} -> ``html`` {html, html_sha256, csp, permissions, prefers_border};
- ``note`` {call_id, kind: message | model_context, payload} -> ``ok``: kept on that call's
  history record (``ToolCall.app_notes``);
- any failure -> ``error`` {message} on one line.

The kernel pushes ``reload`` {server, uri, html_sha256} when an App's HTML changed (its
server's ``resources/updated``, or ``push_reload`` from a re-run ``%%app`` cell).

Handlers run on the kernel's main thread and never wait for a server: calls, reads and HTML
go to the bridge (``AppHost``) and are answered from its thread when done (``comm.send`` is
safe from any thread), so the person may run cells while an App's call runs.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from workbench.errors import WorkbenchError
from workbench.lab.comms import KernelComms, Unsubscribe, install_target, uninstall_target

if TYPE_CHECKING:
    from IPython.core.interactiveshell import InteractiveShell

    from workbench.kernel import KernelState
    from workbench.session import Workbench

TARGET = "workbench.apps"
"""The comm target the extension opens (labextension/src/apps)."""
NOTE_KINDS = {"message", "model_context"}
MAX_NOTE = 100_000
"""Characters of one note's payload (as JSON) the history keeps."""

Reply = dict[str, Any]


class AppsComms(KernelComms):
    """The open ``workbench.apps`` comms of one kernel."""

    def received(self, comm: Any, data: dict[str, Any]) -> None:
        seq = data.get("seq")

        def reply(answer: Reply) -> None:
            with contextlib.suppress(Exception):  # a comm closing meanwhile
                comm.send({**answer, "seq": seq})

        try:
            self.follow()
            self.answer(data, reply)
        except Exception as error:  # the App shows it; the kernel goes on
            reply(_error(error))

    def answer(self, request: dict[str, Any], reply: Callable[[Reply], None]) -> None:
        """Answer one request through ``reply``, now or from the bridge's thread."""
        kind = request.get("type")
        if kind not in ("call", "read", "html", "note"):
            raise WorkbenchError(f"Unknown request {_shown(kind)}.")
        workbench = self._workbench()
        if kind == "note":
            reply(_note(workbench, request))
            return
        server, text = _text(request, "server"), _text(request, "uri" if kind != "call" else "tool")
        _check_connected(workbench, server)
        host = workbench.app_host
        if kind == "call":
            _answer_later(_call(workbench, server, text, request.get("arguments")), reply, _result)
        elif kind == "read":
            _answer_later(host.read(server, text), reply, _resource)
        else:
            _answer_later(host.html(server, text), reply, html_reply)

    def push(self, message: Reply) -> None:
        """Send a message to every open comm (from any thread)."""
        for comm in self.comms():
            with contextlib.suppress(Exception):
                comm.send(message)

    def _workbench(self) -> Workbench:
        workbench = self._state.existing
        if workbench is None or workbench.closed:
            raise WorkbenchError("This kernel has no Workbench: nothing is connected.")
        return workbench

    def subscribe(self, workbench: Workbench) -> Unsubscribe:
        """Push the reloads of the kernel's Workbench."""
        return workbench.app_host.reloads.subscribe(self._reloaded)

    def _reloaded(self, change: tuple[str, str, str]) -> None:
        server, uri, sha = change
        self.push({"type": "reload", "server": server, "uri": uri, "html_sha256": sha})


def html_reply(outcome: Any) -> Reply:
    """The ``html`` answer of an App's HTML (a refusal raises its line)."""
    from workbench.apps.cache import Refusal

    if isinstance(outcome, Refusal):
        raise WorkbenchError(outcome.line)
    return {
        "type": "html",
        "html": outcome.html,
        "html_sha256": outcome.sha256,
        "csp": outcome.ui.csp,
        "permissions": outcome.ui.permissions,
        "prefers_border": outcome.ui.prefers_border,
    }


def _call(
    workbench: Workbench, server: str, tool: str, arguments: object
) -> concurrent.futures.Future[Any]:
    """Submit an App's call: the one call path, refused unless the tool is the App's to
    call (its server's, with ``app`` in its visibility)."""
    from workbench.apps.hosting import from_app
    from workbench.registry.visibility import app_visible

    if arguments is not None and not isinstance(arguments, dict):
        raise WorkbenchError("The call's arguments must be a JSON object.")
    entry = next((e for e in workbench.registry.tools(server) if e.name == tool), None)
    if entry is None:
        raise WorkbenchError(f"{server!r} has no tool {_shown(tool)}.")
    if not app_visible(entry.meta):
        raise WorkbenchError(f"{entry.id} is not callable by an App (its visibility).")
    with from_app():  # the bridge copies this context into the call
        return workbench.submit(entry.id, arguments or {})


def _result(observation: Any) -> Reply:
    from workbench.apps.hosting import result_json

    return {"type": "result", "result": result_json(observation)}


def _resource(observation: Any) -> Reply:
    if observation.is_error:
        raise WorkbenchError(observation.error_message or observation.text)
    contents = [getattr(block, "resource", None) for block in observation.content]
    dumped = [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in contents if c]
    return {"type": "resource", "contents": dumped}


def _note(workbench: Workbench, request: dict[str, Any]) -> Reply:
    kind, payload, call_id = request.get("kind"), request.get("payload"), request.get("call_id")
    if kind not in NOTE_KINDS:
        raise WorkbenchError(f"A note's kind is message or model_context, not {_shown(kind)}.")
    if not isinstance(payload, dict):
        raise WorkbenchError("A note's payload must be a JSON object.")
    if len(json.dumps(payload, default=str)) > MAX_NOTE:
        raise WorkbenchError(f"A note may hold {MAX_NOTE:,} characters; this one is larger.")
    number = int(call_id) if isinstance(call_id, int | str) and str(call_id).isdigit() else None
    if number is None or workbench.history.note(number, kind, payload) is None:
        raise WorkbenchError(f"No call {_shown(call_id)} in the history to keep the note on.")
    return {"type": "ok"}


def _answer_later(
    future: concurrent.futures.Future[Any],
    reply: Callable[[Reply], None],
    make: Callable[[Any], Reply],
) -> None:
    """Reply when the bridge's work is done, from whichever thread finishes it."""

    def done(finished: concurrent.futures.Future[Any]) -> None:
        try:
            reply(make(finished.result()))
        except BaseException as error:  # cancelled, failed: one line to the App
            reply(_error(error))

    future.add_done_callback(done)


def _check_connected(workbench: Workbench, server: str) -> None:
    rows = {row.name: row.status for row in workbench.servers()}
    if rows.get(server) != "connected":
        raise WorkbenchError(f"{_shown(server)} is not connected.")


def _text(request: dict[str, Any], key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str) or not value:
        raise WorkbenchError(f"The request needs {key} (text).")
    return value


def _shown(value: object) -> str:
    from workbench.lab.state import one_line

    return one_line(repr(value), 80)


def _error(error: BaseException) -> Reply:
    from workbench.lab.state import one_line

    if isinstance(error, WorkbenchError):
        return {"type": "error", "message": one_line(str(error))}
    if isinstance(error, concurrent.futures.CancelledError):
        return {"type": "error", "message": "The request was cancelled."}
    return {"type": "error", "message": one_line(f"{type(error).__name__}: {error}")}


_INSTALLED: weakref.WeakKeyDictionary[InteractiveShell, AppsComms] = weakref.WeakKeyDictionary()


def install(shell: InteractiveShell, state: KernelState) -> AppsComms | None:
    """Register the comm target, once per shell (in a kernel); ``%load_ext`` calls it."""
    return install_target(shell, TARGET, _INSTALLED, lambda: AppsComms(state))


def uninstall(shell: InteractiveShell) -> None:
    uninstall_target(shell, TARGET, _INSTALLED)


def push_reload(server: str, uri: str, sha: str | None = None) -> None:
    """An App's HTML changed (a re-run ``%%app`` cell): every App output showing
    (server, uri) fetches it again with ``html`` and reloads with its input and result.
    The kernel's cache reads it again; ``sha`` (the new HTML's SHA-256) is sent as given,
    or, when None, once the HTML was read again."""
    for comms in list(_INSTALLED.values()):
        workbench = comms._state.existing
        if workbench is not None and not workbench.closed and sha is None:
            comms.follow()
            workbench.app_host.push_reload(server, uri)  # reloads arrive through _reloaded
            continue
        if workbench is not None and not workbench.closed:
            workbench.app_host.cache.forget(server, uri)
        comms.push({"type": "reload", "server": server, "uri": uri, "html_sha256": sha})
