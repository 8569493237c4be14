"""Running the project's Makefile the way a workshop does, in a scratch folder or here.

``project_copy`` lays out what `make lab` reads (notebooks/, jupyter/, README.md) in a
temporary folder, so the working copies, Lab's files and the notebooks' trust database land
there and never in this checkout. ``make`` runs this checkout's Makefile in a folder with the
venv running the tests as VENV, told (``-o``) that its install is done: the tests check the
workshop targets, not pip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAKEFILE = ROOT / "Makefile"
VENV = Path(sys.prefix)


def project_copy(where: Path) -> Path:
    """A folder with what `make lab` reads from the repository; returns it."""
    shutil.copytree(
        ROOT / "notebooks", where / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints")
    )
    shutil.copytree(ROOT / "jupyter", where / "jupyter")
    shutil.copy(ROOT / "README.md", where / "README.md")
    return where


def make_command(folder: Path, *arguments: str, venv: Path | None = None) -> list[str]:
    """``make`` with this checkout's Makefile in ``folder``. VENV is this venv, its install
    stamp and `lab-install` counting as done; or ``venv``, installed as the Makefile says."""
    command = ["make", "--no-print-directory", "-C", str(folder), "-f", str(MAKEFILE)]
    if venv is None:
        command += ["-o", "lab-install", "-o", f"{VENV}/.installed-lab"]
    return [*command, f"VENV={venv or VENV}", *arguments]


def scratch_env(home: Path) -> dict[str, str]:
    """This environment with HOME and Jupyter's per-user folders under ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
    return {
        **env,
        "HOME": str(home),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "IPYTHONDIR": str(home / "ipython"),
    }


def make(folder: Path, *arguments: str, env: dict[str, str] | None = None) -> str:
    """Run ``make_command`` to the end; its output (stdout and stderr). Fails on an error."""
    done = subprocess.run(
        make_command(folder, *arguments),
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, f"make {' '.join(arguments)} failed:\n{done.stdout}{done.stderr}"
    return done.stdout + done.stderr
