"""A served notebook in a process of its own, with its open-file limit lowered so that running
out of file descriptors is within reach of a test (finding G3).

Run as ``python fd_server.py LIMIT`` with the token in ``WORKBENCH_TEST_TOKEN``. It serves one
tool, ``add``, prints ``{"url": ...}`` once serving, then answers one JSON line per command
read from stdin:

- ``exhaust``: open /dev/null until the process is out of file descriptors, and keep them;
- ``release``: close them again;
- ``counts``: what the server's connection guard did, and the connections open now;
- ``open``: whether the process can still open a file (``{"error": ...}`` when not);
- ``quit``: stop serving and exit.
"""

from __future__ import annotations

import dataclasses
import json
import os
import resource
import sys

from workbench.session import Workbench


def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def say(value: object) -> None:
    print(json.dumps(value), flush=True)


def main(limit: int) -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    with Workbench() as wb:
        wb.add_tools(add)
        handle = wb.serve(token="${env:WORKBENCH_TEST_TOKEN}")
        say({"url": handle.url})
        held: list[int] = []
        for line in sys.stdin:
            command = line.strip()
            if command == "exhaust":
                try:
                    while len(held) < limit:
                        held.append(os.open(os.devnull, os.O_RDONLY))
                except OSError:
                    pass
                say({"held": len(held)})
            elif command == "release":
                for fd in held:
                    os.close(fd)
                say({"released": len(held)})
                held.clear()
            elif command == "open":
                try:
                    os.close(os.open(os.devnull, os.O_RDONLY))
                    say({"opened": True})
                except OSError as error:
                    say({"error": str(error)})
            elif command == "counts":
                counts = dataclasses.asdict(handle.guard.counts)
                say(counts | {"open": handle.guard.open, "pending": handle.guard.pending})
            else:
                break
        handle.stop()


if __name__ == "__main__":
    main(int(sys.argv[1]))
