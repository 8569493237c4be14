"""A real JupyterLab server and a Chromium page driving it, for the browser tests.

Everything here is plain helpers; ``conftest.py`` turns them into fixtures. (Not called
``jupyter.py``, which reads as jupyter_core's top-level ``jupyter`` module.)

- :func:`chromium_path` finds Debian's Chromium (``$WORKBENCH_CHROMIUM`` first); Playwright's
  own browser download is never used.
- :func:`start_jupyter_server` starts ``jupyter lab`` from this interpreter on 127.0.0.1 with a
  random token and every per-user directory in a temporary one; :class:`JupyterServer` talks
  to its REST API and stops it.
- :class:`LabPage` is one test's page: open a notebook in JupyterLab or Notebook 7, run it,
  wait for the kernel, read outputs, take screenshots, and collect the page's errors.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, NoReturn

import jupyterlab
from playwright.sync_api import ConsoleMessage, Error, Locator, Page, ViewportSize

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "browser"

# Sized for a shared 2-core machine: a cold JupyterLab page plus a kernel start takes 5-10 s.
SERVER_START_TIMEOUT = 60.0
KERNEL_READY_TIMEOUT = 90.0
RUN_TIMEOUT = 120.0
ACTION_TIMEOUT_MS = 30_000
VIEWPORT: ViewportSize = {
    "width": 1400,
    "height": 2000,
}  # tall: Lab scrolls inside its panel, not the page

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHROMIUM_MISSING = (
    "the browser tests need Chromium and found none (looked at $WORKBENCH_CHROMIUM, "
    "/usr/bin/chromium and `chromium` on PATH). Install it with `sudo apt-get install "
    "chromium` (or `make browser`), or point WORKBENCH_CHROMIUM at a Chromium binary. "
    "Never `playwright install`: these tests use the system's browser."
)

# Stock Notebook 7 (no extension of ours involved) throws this once while loading a notebook.
NOTEBOOK7_KNOWN_PAGE_ERRORS = ("Cannot read properties of undefined (reading 'schema')",)
# And this once too, but only after the same server has served a JupyterLab page:
# jupyterlab_server's LabHandler writes `treePath`, `workspace` and `mode` into the server's
# shared page_config_data, Notebook 7's handler copies that dict, and its page then tries to
# open Lab's last tree path with a file browser command it does not have.
NOTEBOOK7_AFTER_LAB_PAGE_ERRORS = ("Command 'filebrowser:open-path' not registered.",)
# And a 403 for a static file both front ends ship under the same name (a font): jupyter_server's
# FileFindHandler caches where it found a file by its relative path alone, in one dict shared by
# every static handler, so after Lab served the file Notebook 7's handler finds Lab's copy,
# outside its own root, and refuses it ("is not in root static directory").
_NOTEBOOK7_STATIC_403 = re.compile(
    r"status of 403 \(Forbidden\) \(http://[^)]*/static/notebook/([^)/?]+)"
)
# jupyter_server adds a kernel to its table before it sets the kernel's `last_activity`, so a
# GET /api/kernels (Lab polls it) that lands in between fails with a 500 and this traceback in
# the server's log (jupyter-server/enterprise_gateway#1395, jupyter/notebook#5345). Opening
# several notebooks at once starts several kernels and can hit it; the next poll succeeds.
_KERNEL_LIST_500 = re.compile(
    r"status of 500 \(Internal Server Error\) \(http://[^)]*/api/kernels\?"
)
_KERNEL_LIST_UNCAUGHT = "Uncaught exception GET /api/kernels?"


def _kernel_list_race_count(server_log: str) -> int:
    """How many of the server's uncaught GET /api/kernels exceptions are the race: a
    traceback through ``kernel_model`` that fails on ``last_activity`` (an AttributeError, or
    a traitlets TraitError where jupyter_server made it a trait)."""
    count = 0
    for block in server_log.split(_KERNEL_LIST_UNCAUGHT)[1:]:
        traceback = block.split("\n[", 1)[0]  # up to the next log record
        if "kernel_model" in traceback and "'last_activity'" in traceback:
            count += 1
    return count


def kernel_list_races(messages: Iterable[str], server_log: str) -> set[str]:
    """The ``messages`` that are 500s of jupyter_server's kernel-list race (see
    ``_KERNEL_LIST_500``): at most as many as the server's log shows that traceback; any
    other 500 stays an error."""
    excused = _kernel_list_race_count(server_log)
    races = set()
    for message in messages:
        if excused and _KERNEL_LIST_500.search(message):
            races.add(message)
            excused -= 1
    return races


UI = Literal["lab", "notebook"]


class ChromiumMissing(RuntimeError):
    pass


def chromium_path() -> str:
    """``$WORKBENCH_CHROMIUM``, else /usr/bin/chromium, else ``chromium`` on PATH."""
    override = os.environ.get("WORKBENCH_CHROMIUM")
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise ChromiumMissing(
            f"WORKBENCH_CHROMIUM={override!r} is not an executable file: point it at a "
            "Chromium binary, or unset it to use /usr/bin/chromium or `chromium` on PATH."
        )
    default = "/usr/bin/chromium"
    if os.path.isfile(default) and os.access(default, os.X_OK):
        return default
    found = shutil.which("chromium")
    if found:
        return found
    raise ChromiumMissing(CHROMIUM_MISSING)


# -- the server ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _die_with_parent() -> None:
    """In the child, before exec: be killed when pytest dies, even by SIGKILL (Linux).

    SIGKILL, not SIGTERM: a server told to stop while a page is still opening a notebook can
    hang in "Shutting down 5 extensions". Its kernels notice that their parent is gone
    (ipykernel polls for it every second) and exit by themselves.
    """
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL))


def _write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1))


def _configure(home: Path) -> dict[str, str]:
    """Per-user directories under ``home``, with a quiet, deterministic configuration.

    JUPYTER_DATA_DIR stays as it is: the venv's share/jupyter (labextensions, kernelspecs) is
    found through sys.prefix either way, and nothing is written there.
    """
    config, settings = home / "config", home / "lab-settings"
    # Server side: no news feed proxy, no update check, and a backstop if pytest dies on a
    # platform without PR_SET_PDEATHSIG: kernels left without a page are culled after 10 min,
    # then the idle server stops itself.
    _write_json(
        config / "jupyter_server_config.json",
        {
            "LabApp": {
                "news_url": None,
                "check_for_updates_class": "jupyterlab.NeverCheckForUpdate",
            },
            "ServerApp": {"shutdown_no_activity_timeout": 900},
            "MappingKernelManager": {"cull_idle_timeout": 600, "cull_interval": 60},
        },
    )
    # Page side (JupyterLab and Notebook 7 read the same user settings): no news or update
    # notifications, and every cell stays in the DOM (no windowing), so outputs can be read and
    # a tall viewport's screenshot shows them all.
    _write_json(
        settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings",
        {"fetchNews": "false", "checkForUpdates": False},
    )
    _write_json(
        settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings",
        {"windowingMode": "none"},
    )
    venv_bin = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": venv_bin + os.pathsep + os.environ.get("PATH", ""),
        "JUPYTER_CONFIG_DIR": str(config),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(settings),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "lab-workspaces"),
        "IPYTHONDIR": str(home / "ipython"),
        "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    }


@dataclass
class JupyterServer:
    """A running ``jupyter lab`` serving ``root_dir``."""

    process: subprocess.Popen[bytes]
    port: int
    token: str
    root_dir: Path
    log_path: Path
    started_in: float = 0.0
    served_lab: bool = False  # a JupyterLab page was loaded (see NOTEBOOK7_AFTER_LAB_...)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str, **query: str) -> str:
        """An address in the server with the token, e.g. ``url("/lab/tree/a.ipynb")``."""
        params = urllib.parse.urlencode({**query, "token": self.token})
        return f"{self.base_url}/{path.lstrip('/')}?{params}"

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10.0) -> Any:
        """Call the REST API (``path`` like ``/api/sessions``); the decoded JSON or None."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.base_url}/{path.lstrip('/')}",
            data=data,
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def log(self, tail: int = 60) -> str:
        lines = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(lines[-tail:])

    def shutdown_sessions(self, under: str = "") -> None:
        """Shut down every session (and its kernel) whose notebook path starts with ``under``."""
        for session in self.api("GET", "/api/sessions"):
            if session["path"].startswith(under):
                with contextlib.suppress(urllib.error.URLError):
                    self.api("DELETE", f"/api/sessions/{session['id']}")

    def stop(self) -> None:
        """Ask the server to shut down (it stops its kernels), then signal its process group."""
        if self.process.poll() is None:
            with contextlib.suppress(OSError, urllib.error.URLError):
                self.api("POST", "/api/shutdown", timeout=5)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(self.process.pid, sig)
                    try:
                        self.process.wait(timeout=wait)
                        break
                    except subprocess.TimeoutExpired:
                        continue


def start_jupyter_server(workdir: Path, timeout: float = SERVER_START_TIMEOUT) -> JupyterServer:
    """Start ``jupyter lab`` serving ``workdir/root``; return once /api/status answers.

    The server runs in its own process group (Ctrl+C in pytest's terminal does not reach it
    half-way) and gets SIGTERM if pytest dies; the caller must :meth:`JupyterServer.stop` it.
    """
    root = workdir / "root"
    root.mkdir(parents=True, exist_ok=True)
    env = _configure(workdir / "home")
    for attempt in range(3):  # the free port may be taken between choosing and binding it
        port, token = _free_port(), secrets.token_hex(16)
        log_path = workdir / f"server-{attempt}.log"
        command = [
            sys.executable, "-m", "jupyterlab", "--no-browser",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
        ]  # fmt: skip
        if os.geteuid() == 0:
            command.append("--allow-root")
        started = time.monotonic()
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                command,
                cwd=root,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        server = JupyterServer(process, port, token, root, log_path)
        while True:
            if process.poll() is not None:
                break
            try:
                server.api("GET", "/api/status", timeout=2)
            except (OSError, urllib.error.URLError):
                if time.monotonic() - started > timeout:
                    server.stop()
                    raise TimeoutError(
                        f"jupyter lab did not answer /api/status within {timeout:.0f} s; "
                        f"its log:\n{server.log()}"
                    ) from None
                time.sleep(0.1)
                continue
            server.started_in = time.monotonic() - started
            return server
        if "already in use" not in server.log():
            break
    raise RuntimeError(
        f"jupyter lab exited with code {process.returncode}; its log:\n{server.log()}"
    )


# -- the page -----------------------------------------------------------------------------

# The notebook panel on screen (JupyterLab keeps other tabs' panels in the DOM, hidden).
_PANEL_JS = """
const panel = () => {
  const shown = [...document.querySelectorAll('.jp-NotebookPanel')]
    .filter(p => p.checkVisibility());
  return shown[shown.length - 1] ?? null;
};
"""
_STATE_JS = f"""() => {{ {_PANEL_JS}
  const p = panel();
  if (!p) return null;
  const dialog = document.querySelector('.jp-Dialog');
  return {{
    kernel: p.querySelector('.jp-Toolbar-kernelName')?.textContent.trim() ?? '',
    status: p.querySelector('.jp-Notebook-ExecutionIndicator')?.getAttribute('data-status')
      ?? '',
    prompts: [...p.querySelectorAll('.jp-Cell')].map(
      c => c.querySelector('.jp-InputPrompt')?.textContent.trim() ?? ''),
    dialog: dialog ? dialog.innerText : null,
  }};
}}"""
_OUTPUTS_JS = f"""() => {{ {_PANEL_JS}
  const p = panel();
  if (!p) return [];
  return [...p.querySelectorAll('.jp-Cell')].map(
    c => [...c.querySelectorAll('.jp-OutputArea-output')].map(o => o.innerText).join('\\n'));
}}"""
_SOURCES_JS = f"""() => {{ {_PANEL_JS}
  const p = panel();
  if (!p) return [];
  return [...p.querySelectorAll('.jp-Cell')].map(
    c => [...c.querySelectorAll('.jp-InputArea-editor .cm-line')]
      .map(line => line.textContent).join('\\n'));
}}"""


def slug(name: str) -> str:
    """A test's name as a file and workspace name: ``test_x[lab]`` -> ``test_x-lab``."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-")


@dataclass
class LabPage:
    """One test's browser page on the shared server.

    ``workdir`` (``<server root>/<test name>``) starts as a copy of the repository's
    ``notebooks/``, so ``open_notebook("notebooks/quickstart.ipynb")`` opens a private copy
    and the repository's notebooks are never touched. ``ui`` is whichever front end
    :meth:`open_notebook` used last.
    """

    page: Page
    server: JupyterServer
    name: str
    workdir: Path
    artifacts: Path
    record_timing: Callable[[str, float], None] = lambda label, seconds: None
    ui: UI = "lab"
    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    allowed_errors: list[str] = field(default_factory=list)
    error_stacks: list[str] = field(default_factory=list)
    _shots: int = 0

    def __post_init__(self) -> None:
        self.page.set_default_timeout(ACTION_TIMEOUT_MS)
        self.page.on("pageerror", self._on_page_error)
        self.page.on("console", self._on_console)

    def _on_page_error(self, error: Error) -> None:
        self.page_errors.append(error.message)
        self.error_stacks.append(f"{error.message}\n{error.stack or ''}")

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            where = message.location.get("url", "")
            self.console_errors.append(f"{message.text} ({where})" if where else message.text)

    # -- opening and waiting --

    def notebook_path(self, path: str) -> str:
        """The server-side path of ``path`` (relative to :attr:`workdir`)."""
        return f"{self.name}/{path.lstrip('/')}"

    def open_notebook(
        self, path: str, ui: UI = "lab", timeout: float = KERNEL_READY_TIMEOUT
    ) -> None:
        """Open ``path`` (relative to :attr:`workdir`) and wait until its kernel is idle.

        JupyterLab gets a workspace of its own per test (``/lab/workspaces/<test>/tree/...``),
        so tabs from other tests are never restored; Notebook 7 opens ``/notebooks/...``.
        """
        if not (self.workdir / path).exists():
            raise FileNotFoundError(self.workdir / path)
        quoted = urllib.parse.quote(self.notebook_path(path))
        route = (
            f"/lab/workspaces/{self.name}/tree/{quoted}" if ui == "lab" else f"/notebooks/{quoted}"
        )
        self.ui = ui
        started = time.monotonic()
        self.page.goto(self.server.url(route))
        self.server.served_lab |= ui == "lab"
        self.wait_for_kernel(timeout)
        self.record_timing(
            f"{self.name}: open {path} in {ui} until the kernel is idle", time.monotonic() - started
        )

    def _state(self) -> dict[str, Any] | None:
        state: dict[str, Any] | None = self.page.evaluate(_STATE_JS)
        return state

    def fail(self, message: str) -> NoReturn:
        """Raise with what the page showed: a screenshot, any open dialog, the kernel's
        state, page and console errors and the server's log (what CI keeps of a failure)."""
        shot, state = "none", None
        with contextlib.suppress(Exception):
            shot = str(self.screenshot("timeout").relative_to(ROOT))
        with contextlib.suppress(Exception):
            state = self._state()
        raise TimeoutError(
            f"{message} (screenshot: {shot})\npage state: {state!r}"
            f"\npage errors: {self.page_errors}"
            f"\nconsole errors: {self.console_errors}\nserver log:\n{self.server.log(30)}"
        )

    def wait_for_kernel(self, timeout: float = KERNEL_READY_TIMEOUT) -> None:
        """Wait until the toolbar names a kernel (not "No Kernel") and the kernel is idle.

        Before a kernel is attached the toolbar reads "No Kernel" with an *idle* indicator, and
        running cells then opens a "Select Kernel" dialog; hence both conditions.
        """
        deadline = time.monotonic() + timeout
        state = None
        while time.monotonic() < deadline:
            state = self._state()
            if state and state["dialog"]:
                self.fail(f"a dialog is open while waiting for the kernel: {state['dialog']!r}")
            if state and state["kernel"] not in ("", "No Kernel") and state["status"] == "idle":
                return
            time.sleep(0.1)
        self.fail(f"the kernel was not ready within {timeout:.0f} s; last state: {state}")

    def wait_for_idle(self, timeout: float = RUN_TIMEOUT, settle: float = 0.5) -> None:
        """Wait until no cell is queued or running (no ``[*]`` prompt) and the kernel is idle.

        Both must hold for ``settle`` seconds: between two queued cells the kernel is briefly
        idle.
        """
        deadline = time.monotonic() + timeout
        quiet_since: float | None = None
        state = None
        while time.monotonic() < deadline:
            state = self._state()
            if state and state["dialog"]:
                self.fail(f"a dialog is open while waiting for the kernel: {state['dialog']!r}")
            idle = (
                state is not None
                and state["status"] == "idle"
                and all("*" not in prompt for prompt in state["prompts"])
            )
            if not idle:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= settle:
                return
            time.sleep(0.1)
        self.fail(f"cells still running after {timeout:.0f} s; last state: {state}")

    def _wait_for_start(self, before: list[str], timeout: float = 10.0) -> None:
        """Wait until some prompt changed from ``before``: the run was really requested."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self._state()
            if state and state["prompts"] != before:
                return
            time.sleep(0.05)
        self.fail("no cell started running after the run command")

    # -- running --

    def menu(self, *labels: str) -> None:
        """Click through the menu bar, e.g. ``menu("Run", "Run All Cells")`` (Lab and NB 7)."""
        top, *items = labels
        self.page.locator(".lm-MenuBar-itemLabel").get_by_text(top, exact=True).click()
        for label in items:
            self.page.locator(".lm-Menu-itemLabel").get_by_text(label, exact=True).click()

    def run_all(self, wait: bool = True, timeout: float = RUN_TIMEOUT) -> None:
        """Run > Run All Cells, then (by default) :meth:`wait_for_idle`."""
        self.wait_for_kernel()
        state = self._state()
        before = state["prompts"] if state else []
        started = time.monotonic()
        self.menu("Run", "Run All Cells")
        self._wait_for_start(before)
        if wait:
            self.wait_for_idle(timeout)
            self.record_timing(f"{self.name}: run all in {self.ui}", time.monotonic() - started)

    def cells(self) -> Locator:
        """The cells of the notebook on screen (``.nth(i)`` for one, markdown included)."""
        return self.page.locator(".jp-NotebookPanel:visible .jp-Cell")

    def scroll_to(self, index: int) -> None:
        """Scroll cell ``index`` into view (before a :meth:`screenshot`)."""
        self.cells().nth(index).scroll_into_view_if_needed()

    def cell_count(self) -> int:
        """How many cells the notebook has, markdown included."""
        return len(self.cell_sources())

    def run_cell_with(
        self, code: str, index: int | None = None, timeout: float = RUN_TIMEOUT
    ) -> str:
        """Put ``code`` in a code cell, run it in place and return the cell's output text.

        ``index=None`` appends a new cell after the last one; otherwise cell ``index`` (counted
        over all cells, markdown included) has its source replaced. The text goes in as one
        insertion, so the editor adds no indentation or closing brackets of its own.
        """
        self.wait_for_kernel()
        cells = self.cells()
        if index is None:
            count = cells.count()
            cells.nth(count - 1).locator(".jp-InputPrompt").click()
            self.page.keyboard.press("Escape")
            self.page.keyboard.press("b")  # command mode: insert a cell below and select it
            self.cells().nth(count).wait_for()
            index = count
        cell = self.cells().nth(index)
        cell.locator(".cm-content").click()
        self.page.keyboard.press("ControlOrMeta+a")
        self.page.keyboard.insert_text(code)
        state = self._state()
        before = state["prompts"] if state else []
        self.page.keyboard.press("Control+Enter")  # run in place: Shift+Enter may add a cell
        self._wait_for_start(before)
        self.wait_for_idle(timeout)
        return self.cell_output(index)

    # -- reading --

    def cell_outputs(self) -> list[str]:
        """Every cell's output text (rendered, as on screen), one string per cell."""
        outputs: list[str] = self.page.evaluate(_OUTPUTS_JS)
        return outputs

    def cell_output(self, index: int) -> str:
        """Cell ``index``'s output text ('' for markdown cells and cells without output)."""
        return self.cell_outputs()[index]

    def output_text(self) -> str:
        """All outputs' text, joined by blank lines."""
        return "\n\n".join(text for text in self.cell_outputs() if text)

    def wait_for_output(
        self, text: str, index: int | None = None, timeout: float = RUN_TIMEOUT
    ) -> str:
        """Wait until cell ``index``'s output (or any output) shows ``text``; return it.

        For what arrives after the kernel went idle: widgets rendering, displays updated in
        place, a cell re-run from elsewhere.
        """
        deadline = time.monotonic() + timeout
        while True:
            shown = self.cell_output(index) if index is not None else self.output_text()
            if text in shown:
                return shown
            if time.monotonic() > deadline:
                self.fail(f"{text!r} not shown within {timeout:.0f} s; shown: {shown[-2000:]!r}")
            time.sleep(0.1)

    def cell_sources(self) -> list[str]:
        """Every cell's source as its editor shows it, one string per cell."""
        sources: list[str] = self.page.evaluate(_SOURCES_JS)
        return sources

    # -- saving and re-opening --

    def save(
        self,
        path: str,
        until: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = 30.0,
    ) -> dict[str, Any]:
        """Save the open notebook (Ctrl+S, both front ends) and return ``path``'s saved JSON
        once it changed on disk and passes ``until``; saving again meanwhile, since the page
        may still be receiving a kernel's last updates."""
        file = self.workdir / path
        before = file.stat().st_mtime_ns if file.exists() else 0
        deadline = time.monotonic() + timeout
        notebook: dict[str, Any] = {}
        while True:
            self.page.keyboard.press("ControlOrMeta+s")
            time.sleep(0.5)
            with contextlib.suppress(OSError, json.JSONDecodeError):
                if file.stat().st_mtime_ns != before:
                    notebook = json.loads(file.read_text())
                    if until is None or until(notebook):
                        return notebook
            if time.monotonic() > deadline:
                changed = notebook != {}
                self.fail(
                    f"{path} was not saved as expected within {timeout:.0f} s "
                    f"({'saved, but not as expected' if changed else 'never written'})"
                )

    def leave_and_stop_kernel(self) -> None:
        """Leave the page and shut this test's kernels down (as closing the tab and choosing
        Shut Down Kernel would), waiting until the server has no session left for them."""
        self.page.goto("about:blank")
        self.server.shutdown_sessions(under=f"{self.name}/")
        deadline = time.monotonic() + 30
        while any(
            session["path"].startswith(f"{self.name}/")
            for session in self.server.api("GET", "/api/sessions")
        ):
            if time.monotonic() > deadline:
                raise AssertionError("the kernel was not shut down within 30 s")
            time.sleep(0.2)

    def untrusted_copy(self, path: str, copy: str) -> None:
        """``path`` as someone else would receive it: its content changed (a notebook's
        signature is of its content), so the server trusts none of its outputs."""
        notebook = json.loads((self.workdir / path).read_text())
        notebook["metadata"]["shared_by"] = "a colleague"
        (self.workdir / copy).write_text(json.dumps(notebook, indent=1))

    def reopen(self, path: str, ui: UI) -> Locator:
        """Open ``path`` without running anything and return its notebook panel; no waiting
        for a kernel, since what a re-opened notebook shows comes from the file. JupyterLab
        gets a new workspace each time, so no earlier tab is restored beside it; in Notebook 7
        its stock errors are allowed again (once per page load)."""
        quoted = urllib.parse.quote(self.notebook_path(path))
        workspace = f"{self.name}-{time.monotonic_ns()}"
        route = f"/lab/workspaces/{workspace}/tree/{quoted}"
        if ui == "notebook":
            route = f"/notebooks/{quoted}"
            for known in NOTEBOOK7_KNOWN_PAGE_ERRORS:
                self.allow_error(known)
            if self.server.served_lab:
                for known in NOTEBOOK7_AFTER_LAB_PAGE_ERRORS:
                    self.allow_error(known)
        self.ui = ui
        self.page.goto(self.server.url(route))
        self.server.served_lab |= ui == "lab"
        panel = self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        panel.locator(".jp-Cell").first.wait_for(timeout=60_000)
        return panel

    # -- evidence --

    def screenshot(self, step: str) -> Path:
        """Save ``test-artifacts/browser/<test>/<NN>-<step>.png`` (the whole tall viewport)."""
        self._shots += 1
        path = self.artifacts / f"{self._shots:02d}-{slug(step)}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(path))
        return path

    def allow_error(self, text: str) -> None:
        """Let one page or console error containing ``text`` pass :meth:`unexpected_errors`."""
        self.allowed_errors.append(text)

    def unexpected_errors(self) -> list[str]:
        """Page errors (uncaught exceptions) and console errors nobody allowed.

        Each allowed text excuses one message. In Notebook 7 the stock ones are allowed once
        each: :data:`NOTEBOOK7_KNOWN_PAGE_ERRORS`, and :data:`NOTEBOOK7_AFTER_LAB_PAGE_ERRORS`
        once the server has served a JupyterLab page.
        """
        allowed = list(self.allowed_errors)
        if self.ui == "notebook":
            allowed += NOTEBOOK7_KNOWN_PAGE_ERRORS
            if self.server.served_lab:
                allowed += NOTEBOOK7_AFTER_LAB_PAGE_ERRORS
        races = kernel_list_races(self.console_errors, self.server.log(tail=100_000))
        unexpected = []
        for kind, message in [("page error", m) for m in self.page_errors] + [
            ("console error", m) for m in self.console_errors
        ]:
            if self._static_cache_collision(message):
                continue
            if message in races:
                continue
            match = next((text for text in allowed if text in message), None)
            if match is None:
                unexpected.append(f"{kind}: {message}")
            else:
                allowed.remove(match)
        return unexpected

    def _static_cache_collision(self, message: str) -> bool:
        """Whether ``message`` is Notebook 7's 403 for a file Lab served first (see
        ``_NOTEBOOK7_STATIC_403``): only then, and only for a file Lab ships too."""
        found = _NOTEBOOK7_STATIC_403.search(message)
        if found is None or self.ui != "notebook" or not self.server.served_lab:
            return False
        return (Path(jupyterlab.__file__).parent / "static" / found.group(1)).is_file()

    def assert_no_errors(self, allow: Iterable[str] = ()) -> None:
        for text in allow:
            self.allow_error(text)
        unexpected = self.unexpected_errors()
        assert not unexpected, "the page reported errors:\n" + "\n".join(unexpected)

    def write_failure_report(self) -> Path:
        """Screenshot and a text report (URL, errors, server log) for a failed test."""
        shot = self.screenshot("failure")
        report = self.artifacts / "failure.txt"
        report.write_text(
            f"url: {self.page.url}\n\npage errors:\n"
            + "\n".join(self.error_stacks)
            + "\n\nconsole errors:\n"
            + "\n".join(self.console_errors)
            + f"\n\nscreenshot: {shot.name}\n\nserver log (tail):\n{self.server.log(80)}\n"
        )
        return report
