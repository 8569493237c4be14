"""What `make test` makes again, read from the Makefile itself with `make -n -W <file>`: the
commands make would run were ``<file>`` just changed, nothing run. The test wheelhouse depends
on the project's wheel: an edited module builds the wheel again and copies it in (seconds),
and only the lock (or a pin) downloads the dependencies again (a minute or two).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache

from tests.installed import ROOT, makefiles

MAKE = shutil.which("make") or "make"


def make(*arguments: str) -> str:
    done = subprocess.run(
        [MAKE, "--no-print-directory", "-C", str(ROOT), *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@cache
def variables() -> dict[str, str]:
    """The values the Makefile gives the variables these tests read, in one run of make."""
    names = (
        "VENV LABEXT_BUILT LAB_LOCK WHEEL TEST_WHEELHOUSE TEST_WHEELHOUSE_DEPS TEST_WHEELHOUSE_PINS"
    )
    printed = make(
        "-s", "--eval", "print-%: ; @echo $*=$($*)", *(f"print-{n}" for n in names.split())
    )
    return dict(line.split("=", 1) for line in printed.splitlines())


def variable(name: str) -> str:
    return variables()[name]


def would_run(changed: str, *kept: str) -> str:
    """``make -n`` of the test wheelhouse were ``changed`` just edited, with the venv, the
    extension and ``kept`` counted as made (so the checkout's own state does not matter)."""
    venv = variable("VENV")
    built = [
        f"{venv}/{stamp}"
        for stamp in (".deps-lab", ".deps-dev", ".installed-lab", ".installed-dev")
    ]
    old = [f"-o{path}" for path in (*built, variable("LABEXT_BUILT"), *kept)]
    return make("-n", *old, f"-W{changed}", f"{variable('TEST_WHEELHOUSE')}/.complete")


def test_an_edited_module_builds_the_wheel_and_downloads_nothing() -> None:
    deps = variable("TEST_WHEELHOUSE_DEPS")
    stamp = f"{deps}/.downloaded-{variable('TEST_WHEELHOUSE_PINS')}"
    commands = would_run("workbench/errors.py", stamp)
    assert "pip wheel" in commands
    assert f"cp {variable('WHEEL')} {variable('TEST_WHEELHOUSE')}/" in commands
    assert "pip download" not in commands and "npm" not in commands, commands


def test_a_changed_lock_downloads_the_dependencies_again_without_a_new_wheel() -> None:
    commands = would_run(variable("LAB_LOCK"), variable("WHEEL"))
    assert "pip download" in commands
    assert "pip wheel" not in commands, commands


def test_make_help_has_a_line_for_every_public_target() -> None:
    declared = re.findall(r"^\.PHONY:((?:.*\\\n)*.*)$", makefiles(), re.M)
    targets = set(" ".join(declared).replace("\\", " ").split()) - {"help"}
    lines = make("-s", "help").splitlines()
    missing = {t for t in targets if not any(line.startswith(f"make {t} ") for line in lines)}
    assert not missing, lines
