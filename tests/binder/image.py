"""Building, without docker, what repo2docker builds from binder/: a repository copy and a
fresh Python environment made only from the binder/ files, in the order repo2docker uses them.

repo2docker (its Python build pack, used because binder/ has requirements.txt) starts from a
conda environment with the Python of binder/runtime.txt (and Node 20), copies the repository,
runs ``pip install -r binder/requirements.txt`` from the repository's root (after the copy,
because the file names a local path), then ``./binder/postBuild`` from the same folder. Here
the environment is a venv of that Python, with its bin/ first on PATH; what cannot be done here
is listed in binder/README.md.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
# Variables that would lead the environment's tools back to the test suite's venv or to a
# person's Jupyter setup. pip's own (PIP_*) stay: they say where this machine gets packages.
FOREIGN = ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "IPYTHONDIR")
# Dropped too, so the image's bytecode is written once, as repo2docker's pip writes it at build
# time: installed here with --no-compile, each process of the image (labextension list, Lab,
# each notebook's runner, kernel and servers) would otherwise compile every module it imports
# from source again, 2-4 s of CPU apiece, when a machine's environment sets it.
UNCACHED = "PYTHONDONTWRITEBYTECODE"


def runtime_python() -> str:
    """The ``python3.X`` of binder/runtime.txt (``python-3.X``)."""
    text = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-(3\.\d+)", text)
    assert match, f"binder/runtime.txt should read python-3.X, not {text!r}."
    return f"python{match.group(1)}"


@dataclass
class Image:
    """The repository as the image holds it (``repo``) and its Python environment (``env``)."""

    repo: Path
    env: Path
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def bin(self) -> Path:
        return self.env / "bin"

    def environ(self) -> dict[str, str]:
        """This process's environment with the image's bin/ first on PATH and nothing of the
        test suite's venv or of Jupyter's per-user settings."""
        ours = str(Path(sys.prefix) / "bin")
        path = [str(self.bin)] + [
            p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != ours
        ]
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in FOREIGN and k != UNCACHED and not k.startswith("JUPYTER")
        }
        env["PATH"] = os.pathsep.join(path)
        env["IPYTHONDIR"] = str(self.env / "ipython")
        return env

    def run(self, step: str, argv: list[str], log: Path, timeout: float = 400) -> None:
        """Run one build step from the repository's root; its output goes to ``log``, whose
        end is shown if the step fails."""
        started = time.monotonic()
        with log.open("w") as out:
            done = subprocess.run(
                argv,
                cwd=self.repo,
                env=self.environ(),
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
                check=False,
            )
        self.seconds[step] = round(time.monotonic() - started, 1)
        if done.returncode != 0:
            lines = [
                line
                for line in log.read_text().splitlines()
                if not line.startswith("WARNING: Location")  # this machine's pip mirror
            ]
            tail = "\n".join(lines[-40:])
            pytest.fail(f"{step} failed ({done.returncode}); the end of {log}:\n{tail}")


def copy_repository(destination: Path) -> None:
    """What a clone would hold: every file git tracks or would track (not ignored), as it is
    in the working tree; plus the JupyterLab extension `make` built (see binder/README.md)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    built = ROOT / "workbench" / "labextension"
    if not (built / "static" / "style.js").is_file():
        pytest.fail(f"{built} is not built: run `make labextension` (make test does).")
    # The build as the wheel's hook leaves it (package.json, install.json, static/), so the
    # image installs this very build: repo2docker's clone has none and builds it with Node.
    shutil.copytree(built, destination / "workbench" / "labextension")


def build(folder: Path) -> Image:
    """Build the image's repository and environment under ``folder``."""
    python = shutil.which(runtime_python())
    if python is None:
        pytest.fail(f"binder/runtime.txt asks for {runtime_python()}, which is not on PATH.")
    image = Image(repo=folder / "repo", env=folder / "env")
    started = time.monotonic()
    copy_repository(image.repo)
    image.seconds["copy the repository"] = round(time.monotonic() - started, 1)
    image.run("venv", [python, "-m", "venv", str(image.env)], folder / "venv.log")
    # As repo2docker, but with pip's cache (it passes --no-cache-dir), and without compiling
    # every module to bytecode at install time (the first process to import a module compiles
    # and writes it, see UNCACHED): CI time.
    requirements = [str(image.bin / "python"), "-m", "pip", "install", "--progress-bar", "off"]
    requirements += ["--no-compile", "-r", "binder/requirements.txt"]
    image.run("pip install -r binder/requirements.txt", requirements, folder / "pip.log")
    image.run("binder/postBuild", ["./binder/postBuild"], folder / "postBuild.log")
    return image
