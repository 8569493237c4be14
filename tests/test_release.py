"""What a release needs: one version, a changelog entry for it, lock files that agree with
pyproject.toml, and sdist and wheel files that twine accepts under the published name."""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from workbench.__about__ import __version__

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
DISTRIBUTION = "jupyter-mcp-workbench"
LOCKS = [ROOT / "requirements/dev.lock", ROOT / "requirements/lab.lock"]


def project() -> dict[str, object]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert isinstance(data, dict)
    return data


def locked(lock: Path) -> dict[str, set[str]]:
    """Each package's pinned versions (a universal lock may pin two, by Python version)."""
    pins: dict[str, set[str]] = {}
    for line in lock.read_text().splitlines():
        match = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        if match:
            name = re.sub(r"[-_.]+", "-", match.group(1)).lower()
            pins.setdefault(name, set()).add(match.group(2))
    return pins


def test_the_distribution_name_and_the_one_version() -> None:
    assert project()["name"] == DISTRIBUTION
    assert project()["dynamic"] == ["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_the_changelog_names_this_version_as_its_newest_release() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert releases and releases[0] == __version__, releases
    assert "## [Unreleased]" in changelog


def test_the_locks_pin_every_dependency_and_agree_with_each_other() -> None:
    dev, lab = (locked(lock) for lock in LOCKS)
    for requirement in project()["dependencies"]:  # type: ignore[attr-defined]
        name = re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ \[;]", requirement)[0]).lower()
        assert name in dev and name in lab, f"{name} is not in the locks: run `make lock`"
    for name in ("jupyterlab", "hatchling", "hatch-jupyter-builder", "pytest", "hypothesis"):
        assert name in dev, name
    assert "jupyterlab" in lab and "pytest" not in lab
    disagree = {name for name in lab if name in dev and not lab[name] <= dev[name]}
    assert not disagree, f"the lab lock pins other versions than the dev lock: {disagree}"


@pytest.mark.build
@pytest.mark.timeout(600)
def test_sdist_and_wheel_build_and_pass_twine_check(tmp_path: Path) -> None:
    """`make dist`'s build and check, without its clean venv (the wheelhouse test installs
    the wheel in one and runs the same smoke test)."""
    subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    stem = f"{DISTRIBUTION.replace('-', '_')}-{__version__}"
    wheel, sdist = tmp_path / f"{stem}-py3-none-any.whl", tmp_path / f"{stem}.tar.gz"
    assert wheel.is_file() and sdist.is_file(), sorted(p.name for p in tmp_path.iterdir())
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr

    names = zipfile.ZipFile(wheel).namelist()
    assert f"{stem}.dist-info/licenses/LICENSE" in names
    metadata = zipfile.ZipFile(wheel).read(f"{stem}.dist-info/METADATA").decode()
    assert f"Name: {DISTRIBUTION}" in metadata and f"Version: {__version__}" in metadata
    assert "License-Expression: BSD-3-Clause" in metadata
    with tarfile.open(sdist) as archive:
        inside = archive.getnames()
    assert f"{stem}/workbench/labextension/static/style.js" in inside  # built, not rebuilt
    assert f"{stem}/CHANGELOG.md" in inside
    assert not any("/node_modules/" in name or "/.cache/" in name for name in inside)
