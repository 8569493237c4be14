"""The wheel ships the JupyterLab extension prebuilt: installed with ``pip install --no-deps``
into a clean venv, on a machine whose PATH has no node, JupyterLab lists it enabled and serves
its files as they are (nothing is rebuilt).

The clean venv borrows JupyterLab's own Python packages from the dev venv through a ``.pth``
file (so nothing is downloaded), but its ``sys.prefix`` is its own: JupyterLab looks for
extensions under the clean venv's ``share/jupyter`` only, never the dev venv's copy.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import site
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import unused_port, wait_until_answering

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = "mcp-workbench"
SHARED = f"share/jupyter/labextensions/{EXTENSION}"

pytestmark = pytest.mark.build


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from this checkout the way a release builds it (``pip wheel``)."""
    assert (ROOT / "workbench/labextension/static/style.js").exists(), (
        "The extension is not built: run `make labextension` (make test does) and try again."
    )
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        # The build's own tools come from the lock, installed in this venv (as `make` does).
        [
            *(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"),
            *("--quiet", "-w", str(out), str(ROOT)),
        ],
        check=True,
        timeout=600,
    )
    (built,) = out.glob("jupyter_mcp_workbench-*.whl")
    return built


@pytest.fixture(scope="module")
def clean_venv(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("clean") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin/python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)],
        check=True,
        timeout=300,
    )
    clean_site = Path(
        subprocess.check_output(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            text=True,
        ).strip()
    )
    (clean_site / "borrowed_jupyterlab.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv


def no_node_env(venv: Path) -> dict[str, str]:
    """The environment of a machine without node: PATH holds only the clean venv's bin."""
    path = str(venv / "bin")
    assert shutil.which("node", path=path) is None
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTER")}
    return {**env, "PATH": path, "JUPYTER_PLATFORM_DIRS": "1"}


def test_the_wheel_holds_the_built_extension(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    data = f"jupyter_mcp_workbench-{wheel.name.split('-')[1]}.data/data/{SHARED}"
    assert f"{data}/package.json" in names
    assert f"{data}/install.json" in names
    assert f"{data}/static/style.js" in names
    assert f"{data}/app-sdk/app-with-deps.js" in names  # %%app inlines it (no CDN)
    assert any(re.fullmatch(rf"{re.escape(data)}/static/remoteEntry\.\w+\.js", n) for n in names)
    package = json.loads(zipfile.ZipFile(wheel).read(f"{data}/package.json"))
    assert package["name"] == EXTENSION
    assert package["jupyterlab"]["_build"]["load"].startswith("static/remoteEntry.")


def test_jupyterlab_lists_it_enabled_without_node(clean_venv: Path) -> None:
    listed = subprocess.run(
        [clean_venv / "bin/python", "-m", "jupyterlab.labextensions", "list"],
        env=no_node_env(clean_venv),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    text = re.sub(r"\x1b\[[0-9;]*m", "", listed.stdout + listed.stderr)
    assert f"{clean_venv}/share/jupyter/labextensions" in text, text
    assert re.search(rf"{EXTENSION} v\S+ enabled OK", text), text


@pytest.fixture
def served_lab(clean_venv: Path, tmp_path: Path) -> Iterator[str]:
    """JupyterLab from the clean venv, on loopback, without node on its PATH."""
    port = unused_port()
    token = "wheel-test"
    process = subprocess.Popen(
        [
            clean_venv / "bin/python",
            "-m",
            "jupyterlab",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={tmp_path}",
            "--allow-root",
        ],
        env={**no_node_env(clean_venv), "HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_answering(f"{base}/api/status?token={token}", process, "JupyterLab")
        yield f"{base}/lab?token={token}"
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_jupyterlab_serves_the_prebuilt_files(clean_venv: Path, served_lab: str) -> None:
    page = urllib.request.urlopen(served_lab, timeout=10).read().decode()
    config = json.loads(
        re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S).group(1)  # type: ignore[union-attr]
    )
    (ours,) = [e for e in config["federated_extensions"] if e["name"] == EXTENSION]
    installed = clean_venv / SHARED
    served = urllib.request.urlopen(
        served_lab.replace("/lab?", f"/lab/extensions/{EXTENSION}/{ours['load']}?"), timeout=10
    ).read()
    assert served == (installed / ours["load"]).read_bytes()
    assert ours["extension"] and ours["mimeExtension"]
