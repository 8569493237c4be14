"""The Binder image, built here the way repo2docker builds it (tests/binder/image.py), has the
project's JupyterLab extension, the real MCP servers and the Lab settings, and runs every
notebook of notebooks/ top to bottom in a kernel of its own Python with no cell failing."""

from __future__ import annotations

import json
import re
import secrets
import subprocess
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.binder.image import ROOT, Image, build
from tests.installed import pinned
from tests.processes import unused_port, wait_until_answering

pytestmark = [pytest.mark.build, pytest.mark.kernel]

RUNNER = Path(__file__).with_name("run_notebook.py")
# Binder's start URL (README), below the server's base URL: Lab, on the quickstart.
URLPATH = "lab/tree/notebooks/quickstart.ipynb"
# The notebook whose exercise checks fail until someone solves them: run with its solutions.
WORKSHOP = "workshop.ipynb"


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Image]:
    built = build(tmp_path_factory.mktemp("binder"))
    yield built
    # About 500 MB (20 s of deleting on a 2-core machine): removed by an rm of its own that
    # carries on beside the next tests; the build logs beside them stay for a look after a
    # failure. The shell returns at once, the rm ends by itself.
    remove = 'rm -rf -- "$@" >/dev/null 2>&1 &'
    subprocess.run(["sh", "-c", remove, "rm", str(built.env), str(built.repo)], check=True)


def run_notebook(image: Image, notebook: Path) -> dict[str, Any]:
    report = image.env / f"{notebook.stem}.json"
    argv = [str(image.bin / "python"), str(RUNNER), str(notebook), str(report)]
    if notebook.name == WORKSHOP:
        argv.append("--solutions")
    done = subprocess.run(
        argv, env=image.environ(), capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        return {"notebook": notebook.name, "failed": done.stderr[-3000:]}
    found: dict[str, Any] = json.loads(report.read_text())
    return found


@pytest.mark.timeout(600)
def test_the_image_has_the_extension_the_servers_and_the_lab_settings(image: Image) -> None:
    listed = subprocess.run(
        [str(image.bin / "jupyter"), "labextension", "list"],
        env=image.environ(),
        capture_output=True,
        text=True,
        check=True,
    )
    lines = (listed.stdout + listed.stderr).splitlines()
    [extension] = [line for line in lines if "mcp-workbench" in line]
    assert "enabled" in extension and "OK" in extension, extension
    # Installed from the wheel into the environment, not linked to a source folder.
    assert "(python, jupyter-mcp-workbench)" in extension, extension

    settings = image.env / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    project = ROOT / "jupyter" / "settings" / "overrides.json"
    assert json.loads(settings.read_text()) == json.loads(project.read_text())
    assert json.loads(settings.read_text())["@jupyterlab/apputils-extension:notification"][
        "fetchNews"
    ] in (False, "false")

    servers = image.repo / ".cache" / "servers"
    time_server = servers / "venv" / "bin" / "mcp-server-time"
    assert time_server.is_file(), time_server
    shown = subprocess.run(
        [str(servers / "venv" / "bin" / "python"), "-m", "pip", "show", "mcp-server-time"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert f"Version: {pinned('TIME_SERVER_VERSION')}" in shown, shown
    everything = servers / "npm" / "node_modules" / "@modelcontextprotocol" / "server-everything"
    manifest = json.loads((everything / "package.json").read_text())
    assert manifest["version"] == pinned("EVERYTHING_VERSION")
    # The same stamps as `make servers`, so make in a Binder terminal installs nothing again.
    assert (servers / "venv" / f".installed-time-{pinned('TIME_SERVER_VERSION')}").is_file()
    assert (servers / "npm" / f".installed-everything-{pinned('EVERYTHING_VERSION')}").is_file()

    checked = subprocess.run(
        [str(image.bin / "python"), "-m", "pip", "check"],
        env=image.environ(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200, url
        return str(response.read().decode())


@pytest.mark.timeout(600)
def test_lab_opens_the_quickstart_at_binders_start_url(image: Image, tmp_path: Path) -> None:
    port, token = unused_port(), secrets.token_hex(16)
    # Jupyter's per-user folders in a scratch place: only the image's own settings count.
    folders = ("CONFIG", "DATA", "RUNTIME")
    env = image.environ() | {f"JUPYTER_{f}_DIR": str(tmp_path / f.lower()) for f in folders}
    env["JUPYTERLAB_SETTINGS_DIR"] = str(tmp_path / "user-settings")
    env["JUPYTERLAB_WORKSPACES_DIR"] = str(tmp_path / "workspaces")
    argv = [str(image.bin / "jupyter"), "lab", "--no-browser", "--allow-root"]
    argv += ["--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}"]
    argv += [f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={image.repo}"]
    log = (tmp_path / "lab.log").open("w")
    lab = subprocess.Popen(argv, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        try:
            wait_until_answering(f"{base}/api/status?token={token}", lab, "JupyterLab")
        except AssertionError as failed:
            raise AssertionError((tmp_path / "lab.log").read_text()[-3000:]) from failed
        page = get(f"{base}/{URLPATH}?token={token}")
        found = re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)
        assert found, page[:2000]
        config = json.loads(found.group(1))
        assert config["treePath"] == "notebooks/quickstart.ipynb", config.get("treePath")
        names = [extension["name"] for extension in config["federated_extensions"]]
        assert "mcp-workbench" in names, names
        get(f"{base}/api/contents/notebooks/quickstart.ipynb?token={token}&content=0")
        # The project's settings reach Lab: no news toast (overrides become the defaults).
        plugin = "@jupyterlab/apputils-extension:notification"
        settings = json.loads(get(f"{base}/lab/api/settings/{plugin}?token={token}"))
        assert settings["schema"]["properties"]["fetchNews"]["default"] in (False, "false")
    finally:
        lab.terminate()
        lab.wait(timeout=20)
        log.close()


@pytest.mark.timeout(600)
def test_every_notebook_runs_in_the_image_without_an_error(image: Image) -> None:
    # The largest first, so the longest runs do not end up last.
    notebooks = sorted((image.repo / "notebooks").glob("*.ipynb"), key=lambda n: -n.stat().st_size)
    assert {"quickstart.ipynb"} <= {n.name for n in notebooks}
    # Two at a time: each mostly waits for its kernel and servers.
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = list(pool.map(lambda notebook: run_notebook(image, notebook), notebooks))
    print(f"\nbinder check, seconds per step: {image.seconds}")
    for report in reports:
        print(f"  {report['notebook']}: {report.get('seconds')} s")

    failed = [r for r in reports if "failed" in r or r["errors"] or r["probe_errors"]]
    assert not failed, json.dumps(failed, indent=1)
    for report in reports:
        # The kernel ran the image's Python and the workbench installed there, not this
        # checkout's.
        assert report["kernel"]["prefix"] == str(image.env), report
        assert report["kernel"]["workbench"].startswith(str(image.env)), report
        if report["notebook"] == WORKSHOP:
            assert report["solutions_swapped"] >= 1, report
    # The browse notebook finds the real servers that postBuild installed, although the
    # workbench is installed in the image's environment rather than in the repository.
    [browse] = [r for r in reports if r["notebook"] == "browse.ipynb"]
    assert {"time", "everything"} <= set(browse["servers_at_end"]), browse
