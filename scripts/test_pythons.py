"""Run the version-sensitive tests on the oldest and the newest Python the package claims.

The bridge leans on CPython details that move between versions: ``asyncio.mixins.
_LoopBoundMixin`` and where an object keeps its ``_loop`` (``bound_to`` / ``_unbind``, which
give back what a displaced notebook tool bound), the loop methods ``loops.BridgeLoop`` pins
against nest_asyncio, and the event loop policy's ``_local._loop``; the short tool call
(``mcp/lean_call.py``) leans on ``Task.uncancel`` from 3.11 and on the FastMCP each Python
resolves to (4.1 on 3.10). ``make test`` runs on one
Python; this runs the bridge's tests and the notebook-tool kernel tests on the first and last
``Programming Language :: Python :: 3.X`` classifiers of pyproject.toml (3.10 and 3.13).

For each version it finds an interpreter (``--python PATH``, else ``python3.X`` on PATH, else
``~/.pyenv/versions/3.X*/bin/python3.X``), makes ``.cache/venv-py3.X`` (reused while the lock,
pyproject.toml and this script are unchanged) with the runtime dependencies and the few test
ones at the versions of requirements/dev.lock (``uv pip install -c``), puts this checkout on
its path with a .pth file (an editable install would build the JupyterLab extension), and runs
pytest there. A missing interpreter is one loud line and exit 0 (1 with ``--strict``); any
failing test or install exits 1.

    .venv/bin/python scripts/test_pythons.py [--strict] [--python PATH ...] [-- PYTEST_ARGS]
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "dev.lock"
PYPROJECT = ROOT / "pyproject.toml"
TESTS = [
    "tests/bridge",
    "tests/serving/test_notebook_server.py",
    "tests/kernel/test_notebook_tools_kernel.py",
    "tests/kernel/test_bridge_kernel.py",
    "tests/mcp/test_lean_call.py",
]
TEST_PACKAGES = ["pytest", "pytest-timeout", "nest-asyncio", "nest-asyncio2", "jupyter-client"]
"""What those tests need beyond the runtime dependencies (pinned by the lock)."""
STAMP = ".workbench-test-pythons"


def claimed_versions() -> list[str]:
    """The oldest and the newest ``3.X`` of pyproject.toml's classifiers."""
    classifiers = tomllib.loads(PYPROJECT.read_text())["project"]["classifiers"]
    found = []
    for classifier in classifiers:
        match = re.fullmatch(r"Programming Language :: Python :: 3\.(\d+)", classifier)
        if match:
            found.append(int(match.group(1)))
    return [f"3.{min(found)}", f"3.{max(found)}"]


def version_of(python: str) -> tuple[str, str] | None:
    """``3.X`` of an interpreter and its real path (not a pyenv shim's), or None when it
    does not run."""
    try:
        out = subprocess.run(
            [python, "-c", "import sys; print('%d.%d' % sys.version_info[:2], sys.executable)"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    found, _, executable = out.stdout.strip().partition(" ")
    return found, executable


def find_python(version: str, given: list[str]) -> tuple[str | None, list[str]]:
    """An interpreter of ``version`` and the places looked at."""
    looked: list[str] = []
    candidates = [*given]
    on_path = shutil.which(f"python{version}")
    if on_path:
        candidates.append(on_path)
    for home in dict.fromkeys([Path.home(), Path("/root")]):
        pattern = str(home / ".pyenv" / "versions" / f"{version}*" / "bin" / f"python{version}")
        candidates.extend(sorted(glob.glob(pattern), reverse=True))
        looked.append(pattern)
    for candidate in candidates:
        found = version_of(candidate)
        if found is not None and found[0] == version:
            return found[1], looked
    return None, [*given, f"python{version} on PATH", *looked]


def requirements() -> list[str]:
    return [*tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"], *TEST_PACKAGES]


def fingerprint(python: str) -> str:
    digest = hashlib.sha256()
    for part in (LOCK.read_bytes(), PYPROJECT.read_bytes(), Path(__file__).read_bytes()):
        digest.update(part)
    digest.update(os.path.realpath(python).encode())
    return digest.hexdigest()


def uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    if found is None:
        raise SystemExit("test_pythons: uv is missing (it comes with requirements/dev.lock).")
    return found


def ready_venv(version: str, python: str) -> Path:
    """``.cache/venv-py3.X`` with the locked dependencies and this checkout on its path."""
    venv = ROOT / ".cache" / f"venv-py{version}"
    stamp = venv / STAMP
    wanted = fingerprint(python)
    if stamp.is_file() and stamp.read_text() == wanted:
        print(f"test_pythons: {version}: reusing {venv.relative_to(ROOT)}", flush=True)
        return venv
    print(f"test_pythons: {version}: making {venv.relative_to(ROOT)} with {python}", flush=True)
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([uv(), "venv", "--quiet", "--python", python, str(venv)], check=True)
    venv_python = str(venv / "bin" / "python")
    install = [uv(), "pip", "install", "--quiet", "--python", venv_python, "-c", str(LOCK)]
    subprocess.run([*install, *requirements()], check=True)
    purelib = subprocess.run(
        [venv_python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "workbench-checkout.pth").write_text(f"{ROOT}\n")
    stamp.write_text(wanted)
    return venv


def start_tests(version: str, python: str, pytest_args: list[str]) -> subprocess.Popen[bytes]:
    """pytest on that Python, started in the background; its output goes to a log file
    (the versions run side by side: mostly kernels waiting, so two fit on two cores)."""
    venv = ready_venv(version, python)
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    command = [str(venv / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    command += pytest_args or TESTS
    log = log_file(version)
    print(f"test_pythons: {version}: {' '.join(command[3:])} (output: {log})", flush=True)
    with log.open("wb") as out:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)


def log_file(version: str) -> Path:
    return ROOT / ".cache" / f"test-pythons-{version}.log"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strict", action="store_true", help="fail when a Python is missing")
    parser.add_argument("--python", action="append", default=[], help="an interpreter to use")
    parser.add_argument("pytest_args", nargs="*", help="instead of the default test files")
    args = parser.parse_args()
    started = time.monotonic()
    results: dict[str, str] = {}
    running: dict[str, tuple[str, subprocess.Popen[bytes]]] = {}
    missing = False
    for version in claimed_versions():
        python, looked = find_python(version, args.python)
        if python is None:
            missing = True
            results[version] = "NOT TESTED"
            print(
                f"test_pythons: !!! NO PYTHON {version} (looked at {', '.join(looked)}): the "
                f"bridge and notebook-tool tests were NOT run on {version} !!!",
                flush=True,
            )
            continue
        try:
            running[version] = (python, start_tests(version, python, args.pytest_args))
        except subprocess.CalledProcessError as error:
            print(f"test_pythons: {version}: setting up failed: {error}", flush=True)
            results[version] = "FAILED to set up"
    for version, (python, process) in running.items():
        passed = process.wait() == 0
        lines = log_file(version).read_text(errors="replace").splitlines()
        shown = lines if not passed else lines[-1:]
        print("\n".join(f"test_pythons: {version}: {line}" for line in shown), flush=True)
        verdict = "passed" if passed else "FAILED"
        results[version] = f"{verdict} ({python})"
    elapsed = time.monotonic() - started
    print(
        f"test_pythons: {elapsed:.0f} s; " + "; ".join(f"{v}: {r}" for v, r in results.items()),
        flush=True,
    )
    if any(result.startswith("FAILED") for result in results.values()):
        return 1
    return 1 if missing and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
