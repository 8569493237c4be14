"""The instructor's USB stick: `make lab`'s install from a wheelhouse into a fresh venv with
the package index switched off.

`make test` makes the wheelhouse (`make wheelhouse WHEELHOUSE_DIR=.cache/wheelhouse`, again
when the project's sources or pins change), so this test downloads nothing. The install runs
with ``PIP_NO_INDEX=1``, pip's configuration files ignored and no extra ``PIP_FIND_LINKS`` (a
machine's own wheel folder would hide a missing wheel), and npm told to stay offline:
everything must come from the wheelhouse. Then the fresh venv imports the workbench,
JupyterLab lists the extension enabled from the wheel's prebuilt files, and the MCP servers
and `make html`'s scripts are where the notebooks and the Makefile look for them.

Slow (a venv of 430 MB): marked ``build``, like the wheel test, and run in CI.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.installed import pinned
from tests.workshop.make import ROOT, make_command

pytestmark = [pytest.mark.build, pytest.mark.timeout(1200)]


def run(command: list[str], env: dict[str, str] | None = None) -> str:
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{output[-6000:]}"
    return output


@pytest.fixture(scope="module")
def wheelhouse() -> Path:
    folder = ROOT / ".cache/wheelhouse"
    if not (folder / ".complete").is_file():
        pytest.fail(
            f"No wheelhouse at {folder}: run `make test` (or `make wheelhouse "
            "WHEELHOUSE_DIR=.cache/wheelhouse`) and try again.",
            pytrace=False,
        )
    return folder


def offline_env() -> dict[str, str]:
    """Offline, and quicker: pip installs without byte-compiling the 430 MB venv (the
    ``--compile`` pip does by default, off with ``PIP_COMPILE=0``: about a minute of CPU that
    this test does not test), and the few modules the checks below import are compiled once,
    when first imported (``PYTHONDONTWRITEBYTECODE`` dropped), not again in each process."""
    dropped = ("PIP_FIND_LINKS", "PYTHONDONTWRITEBYTECODE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    offline = {"PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "npm_config_offline": "true"}
    return {**env, **offline, "PIP_COMPILE": "0"}


def test_the_wheelhouse_holds_the_project_and_the_servers(wheelhouse: Path) -> None:
    names = {p.name for p in wheelhouse.iterdir()}
    assert ".complete" in names
    assert any(re.fullmatch(r"jupyter_mcp_workbench-.+-py3-none-any\.whl", n) for n in names), names
    assert any(n.startswith("jupyterlab-") for n in names)
    assert any(n.startswith("mcp_server_time-") for n in names)
    assert f"server-everything-{pinned('EVERYTHING_VERSION')}.tar.gz" in names
    apps = f"app-servers-basic-{pinned('BASIC_APP_VERSION')}-budget-{pinned('BUDGET_APP_VERSION')}"
    assert f"{apps}.tar.gz" in names  # notebooks/apps.ipynb's servers
    # The npm packages `make html` puts inside its pages, as npm packed them.
    assert {p.name for p in wheelhouse.glob("*.tgz")} >= {
        f"requirejs-{pinned('REQUIREJS_VERSION')}.tgz",
        f"jupyter-widgets-html-manager-{pinned('HTML_MANAGER_VERSION')}.tgz",
        f"anywidget-{pinned('ANYWIDGET_JS_VERSION')}.tgz",
    }
    assert all(n.endswith((".whl", ".tar.gz", ".tgz")) or n == ".complete" for n in names), names


def test_make_lab_installs_from_it_with_the_index_off(wheelhouse: Path, tmp_path: Path) -> None:
    venv, servers, html = tmp_path / "venv", tmp_path / "servers", tmp_path / "html"
    command = make_command(
        ROOT,
        "lab-install",
        f"WHEELHOUSE={wheelhouse}",
        f"SERVERS={servers}",
        f"HTML_ASSETS={html}",
        venv=venv,
    )
    out = run(command, env=offline_env())
    assert f"From {wheelhouse}/, no network" in out
    assert "Looking in indexes" not in out

    installed = offline_env()
    run([str(venv / "bin/python"), "-c", "import workbench, jupyterlab, anywidget"], installed)
    listed = run([str(venv / "bin/jupyter"), "labextension", "list"], installed)
    listed = re.sub(r"\x1b\[[0-9;]*m", "", listed)
    assert f"{venv}/share/jupyter/labextensions" in listed
    assert re.search(r"mcp-workbench v\S+ enabled OK", listed), listed
    # Not the editable install's link to this checkout: the wheel's own prebuilt files.
    assert not (venv / "share/jupyter/labextensions/mcp-workbench").is_symlink()
    # The release's smoke test (`make dist` runs it too): the extension listed, and in a real
    # kernel `%load_ext workbench` and a demo call, all from the wheel in this clean venv.
    smoke = run([str(venv / "bin/python"), str(ROOT / "scripts/smoke_test.py")], installed)
    assert "demo.add answered 5" in smoke, smoke

    assert (servers / "venv/bin/mcp-server-time").is_file()
    everything = servers / "npm/node_modules/@modelcontextprotocol/server-everything"
    manifest = json.loads((everything / "package.json").read_text())
    assert manifest["version"] == pinned("EVERYTHING_VERSION")
    # The MCP Apps servers notebooks/apps.ipynb hosts, unpacked from it too.
    for package, pin in (
        ("server-basic-vanillajs", "BASIC_APP_VERSION"),
        ("server-budget-allocator", "BUDGET_APP_VERSION"),
    ):
        app = servers / "apps/node_modules/@modelcontextprotocol" / package
        assert json.loads((app / "package.json").read_text())["version"] == pinned(pin)
    # And `make html`'s scripts, unpacked from the wheelhouse.
    assert {p.name for p in html.iterdir()} >= {"require.js", "embed-amd.js", "anywidget.js"}
