"""`make lab` and `make reset-notebooks` as a workshop meets them, run in a scratch copy of the
project (notebooks/, jupyter/, README.md) with this venv.

- Working copies: made when missing, never overwritten by `make lab`, restored (the old
  one kept) by `make reset-notebooks`; a participant's own notebook is left alone.
- The running Lab: the printed address opens the quickstart's working copy with a fresh
  token; the root is the project (README listed); the page settings have no news or update
  check; the file browser follows the open notebook; a kernel started through it runs over
  IPC (no "without encryption" warning), and neither it nor Lab writes into the project
  outside workshop/.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from tests.processes import unused_port
from tests.workshop.make import make, make_command, project_copy, scratch_env

URL = re.compile(r"http://127\.0\.0\.1:\d+/lab/tree/workshop/quickstart\.ipynb\?token=(\w+)")


@pytest.mark.integration
def test_working_copies_are_made_once_and_reset_on_demand(tmp_path: Path) -> None:
    project = project_copy(tmp_path / "project")
    env = scratch_env(tmp_path / "home")
    originals = sorted(p.name for p in (project / "notebooks").glob("*.ipynb"))
    assert "quickstart.ipynb" in originals

    make(project, "workshop/.trusted", env=env)
    copies = project / "workshop"
    assert sorted(p.name for p in copies.glob("*.ipynb")) == originals
    quickstart = copies / "quickstart.ipynb"
    assert quickstart.read_bytes() == (project / "notebooks/quickstart.ipynb").read_bytes()

    # A participant's work, a notebook of their own, and a newer notebooks/ from `git pull`.
    notebook(quickstart, "mine")
    notebook(copies / "Untitled.ipynb", "untitled")
    notebook(project / "notebooks/quickstart.ipynb", "pulled")
    notebook(project / "notebooks/new_lesson.ipynb", "new")
    out = make(project, "workshop/.trusted", env=env)
    assert said(quickstart) == "mine", out
    assert said(copies / "new_lesson.ipynb") == "new"
    # Only the fresh copy is signed: a replaced working copy (a file someone sent) is not.
    assert trusted(copies / "new_lesson.ipynb", env)
    assert not trusted(quickstart, env)

    out = make(project, "reset-notebooks", env=env)
    assert said(quickstart) == "pulled"
    assert "overwriting workshop/quickstart.ipynb" in out
    (backup,) = (copies / ".before-reset").iterdir()
    assert said(backup / "quickstart.ipynb") == "mine"
    assert said(copies / "Untitled.ipynb") == "untitled"


def notebook(path: Path, text: str) -> None:
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(text)]), path)


def said(path: Path) -> str:
    return str(nbformat.read(path, as_version=4).cells[0].source)


def trusted(path: Path, env: dict[str, str]) -> bool:
    """Whether Jupyter, with the scratch home's signature database, trusts the notebook."""
    check = (
        "import sys, nbformat; from nbformat.sign import NotebookNotary; "
        "print(NotebookNotary().check_signature(nbformat.read(sys.argv[1], as_version=4)))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", check, str(path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout.strip() == "True"


@dataclass
class Lab:
    project: Path
    home: Path
    base: str
    token: str
    output: Path

    def get(self, path: str) -> bytes:
        request = urllib.request.Request(
            self.base + path, headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            body: bytes = response.read()
            return body

    def api(self, path: str, body: object = None, method: str = "GET") -> object:
        request = urllib.request.Request(
            self.base + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read() or b"null")

    def log(self) -> str:
        return self.output.read_text(errors="replace")


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """`make lab` in a scratch project, on a free port; stopped with SIGTERM afterwards.

    The scratch home is a short folder of its own: a kernel's IPC socket paths live in its
    runtime folder and may not pass 107 characters, which pytest-xdist's deeper temporary
    folders (``popen-gw0/``) did."""
    tmp = tmp_path_factory.mktemp("lab")
    home = Path(tempfile.mkdtemp(prefix="wb-lab-"))
    project = project_copy(tmp / "project")
    output = tmp / "make-lab.log"
    port = unused_port()
    args = f"JUPYTER_ARGS=--no-browser --ServerApp.port={port} --ServerApp.port_retries=0"
    with output.open("wb") as log:
        process = subprocess.Popen(
            make_command(project, "lab", args),
            env=scratch_env(home),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 90
        while not (found := URL.search(output.read_text(errors="replace"))):
            assert process.poll() is None, f"make lab stopped:\n{output.read_text()}"
            assert time.monotonic() < deadline, f"no URL in 90 s:\n{output.read_text()}"
            time.sleep(0.2)
        yield Lab(project, home, f"http://127.0.0.1:{port}", found.group(1), output)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)  # make and Jupyter: their own group
        process.wait(timeout=30)
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.kernel
def test_make_lab_prints_the_quickstart_address_with_a_fresh_token(lab: Lab) -> None:
    log = lab.log()
    assert "Installing" not in log  # installed already: nothing announced
    before = log.index("==> Starting JupyterLab on workshop/quickstart.ipynb")
    assert before < log.index(f"/lab/tree/workshop/quickstart.ipynb?token={lab.token}")
    assert len(lab.token) >= 32
    page = lab.get(f"/lab/tree/workshop/quickstart.ipynb?token={lab.token}").decode()
    config = json.loads(
        re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S).group(1)  # type: ignore[union-attr]
    )
    assert config["treePath"] == "workshop/quickstart.ipynb"
    listing = lab.api("/api/contents/")
    assert isinstance(listing, dict)
    assert {"README.md", "notebooks", "workshop"} <= {item["name"] for item in listing["content"]}


def defaults(lab: Lab, plugin: str) -> dict[str, object]:
    """A settings schema's defaults, as the page gets them."""
    answer = lab.api(f"/lab/api/settings/{plugin}")
    assert isinstance(answer, dict)
    return {k: v.get("default") for k, v in answer["schema"]["properties"].items()}


@pytest.mark.kernel
def test_the_page_settings_are_quiet_and_follow_the_notebook(lab: Lab) -> None:
    # overrides.json changes the defaults of the schemas the page reads.
    notification = defaults(lab, "@jupyterlab/apputils-extension:notification")
    assert notification["fetchNews"] == "false"
    assert notification["checkForUpdates"] is False
    browser = defaults(lab, "@jupyterlab/filebrowser-extension:browser")
    assert browser["navigateToCurrentDirectory"] is True
    # The server side: no news feed fetched (news_url None answers at once, with no error
    # logged), no update check.
    assert lab.api("/lab/api/news") == {"news": []}
    assert lab.api("/lab/api/update") == {"notification": None}
    assert "Failed to get announcements" not in lab.log()


@pytest.mark.kernel
def test_a_kernel_runs_over_ipc_and_nothing_lands_outside_workshop(lab: Lab) -> None:
    before = sorted(p.name for p in lab.project.iterdir())
    session = lab.api(
        "/api/sessions",
        {"path": "workshop/quickstart.ipynb", "type": "notebook", "kernel": {"name": "python3"}},
        method="POST",
    )
    assert isinstance(session, dict)
    kernel = session["kernel"]["id"]
    try:
        deadline = time.monotonic() + 60
        while "Kernel started" not in lab.log() or kernel not in lab.log():
            assert time.monotonic() < deadline, lab.log()
            time.sleep(0.2)
        connection = json.loads((lab.home / f"runtime/kernel-{kernel}.json").read_text())
        assert connection["transport"] == "ipc"
        assert Path(connection["ip"]).parent == lab.home / "runtime"
        time.sleep(3)  # the kernel's own start-up log lines
    finally:
        lab.api(f"/api/sessions/{session['id']}", method="DELETE")
    log = lab.log()
    assert "without encryption" not in log
    assert "Skipped non-installed server" not in log
    assert "No web browser found" not in log
    assert sorted(p.name for p in lab.project.iterdir()) == before
    assert not list(lab.project.rglob("*-ipc-*")) and not list(lab.project.rglob("kernel-*"))
