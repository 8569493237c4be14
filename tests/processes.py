"""Test helpers for processes: this process's children, Python run in a fresh interpreter,
a server a test started answering, and whether a port a server used is free again.

A fresh interpreter is how tests see what an import loads (``sys.modules`` starts empty) or
how code behaves at exit and without a kernel. ``children`` reads /proc (psutil is no
dependency); it uses nothing but ``os``, so code run elsewhere (a kernel, a script) can
define it from ``inspect.getsource(children)`` and stay the same copy.

Tests import it as ``from tests.processes import children`` (``tests`` is a package, so test
modules in different folders may share a name).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from typing import Any


def children(matching: str | None = None) -> set[int]:
    """Live child processes (not zombies) of this process, whose command line contains
    ``matching`` if given."""
    me = os.getpid()
    found: set[int] = set()
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                state, parent = stat.read().rsplit(")", 1)[1].split()[:2]
            with open(f"/proc/{name}/cmdline", "rb") as cmdline:
                argv = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # it exited while we looked
            continue
        if int(parent) == me and state not in "ZX" and (matching is None or matching in argv):
            found.add(int(name))
    return found


def run_python(
    code: str, *argv: str, check: bool = True, timeout: float = 120, **options: Any
) -> subprocess.CompletedProcess[str]:
    """Run ``python -c code *argv`` in this interpreter's environment, capturing text.

    With ``check`` a non-zero exit fails the test showing the child's stderr, which
    ``CalledProcessError`` would hide. ``options`` go to ``subprocess.run`` (``env``, ...).
    """
    done = subprocess.run(
        [sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        **options,
    )
    if check and done.returncode != 0:
        raise AssertionError(
            f"python -c exited with {done.returncode}.\n--- code ---\n{code}\n"
            f"--- stderr ---\n{done.stderr}"
        )
    return done


def modules_after(code: str) -> set[str]:
    """Every module name in ``sys.modules`` after running ``code`` in a fresh interpreter."""
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    out = run_python(script).stdout
    names: list[str] = json.loads(out.strip().splitlines()[-1])
    return set(names)


def unused_port() -> int:
    """A port nothing listens on now, on 127.0.0.1 (for a server a test starts)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int) -> bool:
    """Whether nothing listens on 127.0.0.1:``port`` any more (a stopped server let it go)."""
    probe = socket.socket()
    try:
        probe.bind(("127.0.0.1", port))
    except OSError:
        return False
    finally:
        probe.close()
    return True


def wait_until_answering(
    url: str, server: subprocess.Popen[Any], what: str, timeout: float = 60.0
) -> None:
    """Poll ``url`` until it answers 2xx; fail at once if ``server`` exits, or at ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            assert server.poll() is None, f"{what} exited at start (code {server.returncode})"
            assert time.monotonic() < deadline, f"{what} did not answer within {timeout:.0f} s"
            time.sleep(0.1)


class JsonLines:
    """A helper process driven one line at a time: ``ask(command)`` writes a line to its
    stdin and returns the JSON object it prints as its answer (the outside clients and the
    served notebook of the serving tests). ``quit()`` asks it to stop, then kills it."""

    def __init__(self, command: list[str], **popen: Any) -> None:
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, **popen
        )

    def ask(self, command: str, timeout: float = 30) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        return self.read(timeout)

    def read(self, timeout: float) -> dict[str, Any]:
        """The next answer; fails with ``silence()`` when none comes within ``timeout``."""
        import select

        stdout = self.process.stdout
        assert stdout is not None
        ready, _, _ = select.select([stdout], [], [], timeout)
        line = stdout.readline() if ready else ""
        if not line:
            raise AssertionError(self.silence())
        answer: dict[str, Any] = json.loads(line)
        return answer

    def silence(self) -> str:
        """What a missing answer says (subclasses add the process's stderr)."""
        return "the helper process gave no answer"

    def quit(self, timeout: float = 10) -> None:
        """Send ``quit`` and wait; kill it when it does not stop."""
        if self.process.poll() is not None:
            return
        try:
            assert self.process.stdin is not None
            self.process.stdin.write("quit\n")
            self.process.stdin.flush()
            self.process.wait(timeout)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(10)
