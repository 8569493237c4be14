"""binder/ holds only what the image check replicates, its pins agree with the Makefile's and
pyproject.toml's, and the README's launch link opens the quickstart."""

from __future__ import annotations

import os
import re
import sys
from importlib.metadata import metadata

from packaging.requirements import Requirement

from tests.binder.image import BINDER, ROOT, runtime_python
from tests.installed import makefiles, pinned

START = "urlpath=lab/tree/notebooks/quickstart.ipynb"


def requirements() -> dict[str, Requirement]:
    """binder/requirements.txt's pins, by name (the project itself left out)."""
    lines = (BINDER / "requirements.txt").read_text().splitlines()
    found = [line.split("#")[0].strip() for line in lines]
    return {Requirement(r).name: Requirement(r) for r in found if r and r != ".[lab]"}


def test_binder_holds_only_the_files_the_check_replicates() -> None:
    # Each other file repo2docker reads would change the build in a way tests/binder/image.py
    # does not copy: environment.yml switches to conda's build pack (and requirements.txt is
    # no longer read), apt.txt installs Ubuntu packages a test cannot, a Dockerfile replaces
    # everything. Node for the extension comes from repo2docker's own environment
    # (binder/README.md says why not apt.txt).
    assert {p.name for p in BINDER.iterdir()} == {
        "README.md",
        "requirements.txt",
        "runtime.txt",
        "postBuild",
    }


def test_postbuild_is_an_executable_bash_script_that_stops_at_the_first_error() -> None:
    script = BINDER / "postBuild"
    assert os.access(script, os.X_OK)
    lines = script.read_text().splitlines()
    assert lines[0] == "#!/bin/bash"
    assert "set -euo pipefail" in lines
    assert "--ignore-scripts" in script.read_text()


def test_postbuild_pins_the_servers_the_makefile_pins() -> None:
    text = (BINDER / "postBuild").read_text()
    pins = ("EVERYTHING_VERSION", "TIME_SERVER_VERSION", "BASIC_APP_VERSION", "BUDGET_APP_VERSION")
    for variable in pins:
        match = re.search(rf"^{variable}=(\S+)$", text, re.M)
        assert match, f"binder/postBuild no longer sets {variable}."
        assert match.group(1) == pinned(variable), variable


def test_postbuild_leaves_the_servers_where_and_as_make_servers_does() -> None:
    makefile = makefiles()
    script = (BINDER / "postBuild").read_text()
    assert re.search(r"^SERVERS \??= \.cache/servers$", makefile, re.M)
    assert "SERVERS=.cache/servers" in script.splitlines()
    for stamp in ("npm/.installed-everything-", "venv/.installed-time-"):
        variable = "EVERYTHING_VERSION" if "everything" in stamp else "TIME_SERVER_VERSION"
        assert f"$(SERVERS)/{stamp}$({variable})" in makefile, stamp
        assert f'"$SERVERS/{stamp}${variable}"' in script, stamp
    apps = "apps/.installed-basic-$(BASIC_APP_VERSION)-budget-$(BUDGET_APP_VERSION)"
    assert f"$(SERVERS)/{apps}" in makefile
    assert f'"$SERVERS/{apps.replace("$(", "$").replace(")", "")}"' in script


def test_requirements_install_the_project_and_pin_what_pyproject_allows() -> None:
    lines = [line.strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    assert ".[lab]" in lines
    # pyproject.toml's ranges, as the installed project's metadata states them.
    allowed = {
        Requirement(r).name: Requirement(r)
        for r in metadata("jupyter-mcp-workbench").get_all("Requires-Dist", [])
    }
    pins = requirements()
    assert set(pins) == {"jupyterlab", "notebook"}
    for name, requirement in pins.items():
        [version] = [spec.version for spec in requirement.specifier if spec.operator == "=="]
        assert allowed[name].specifier.contains(version), (name, version)


def test_runtime_python_is_one_the_project_supports_and_the_suite_runs() -> None:
    version = runtime_python().removeprefix("python")
    requires = metadata("jupyter-mcp-workbench")["Requires-Python"]
    assert Requirement(f"python{requires}").specifier.contains(version)
    assert version == f"{sys.version_info.major}.{sys.version_info.minor}"


def test_the_readme_launches_binder_on_the_quickstart() -> None:
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\(https://mybinder\.org/v2/[^)\s]+\)", readme)
    assert links, "README.md has no mybinder.org launch link."
    assert all(START in link for link in links), links
    assert (ROOT / "notebooks" / "quickstart.ipynb").is_file()
    assert START in (BINDER / "README.md").read_text()
