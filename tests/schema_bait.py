"""A real HTTP server on 127.0.0.1 that must see no request: the bait for schema fetches
(G2). It answers every GET with a schema that, applied, would refuse most arguments.

It runs in a process of its own and logs each request to a file before answering: a fetch
made while the test's thread holds the GIL (jsonschema-rs's ``meta.validate`` does) would
starve a server thread in the test's process, and the request would go unseen.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FETCHED = {"maxLength": 1}
"""What the bait answers: applied, it would refuse any text longer than one character."""
LIFETIME = 60
"""The bait process stops by itself after this many seconds, whatever the test does."""

SERVER = """
import http.server, json, sys, time
log, body, lifetime = sys.argv[1], sys.argv[2].encode(), float(sys.argv[3])

class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with open(log, "a") as file:
            file.write(self.path + "\\n")
        self.send_response(200)
        self.send_header("Content-Type", "application/schema+json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
server.timeout = 0.2
print(server.server_address[1], flush=True)
deadline = time.monotonic() + lifetime
while time.monotonic() < deadline:
    server.handle_request()
"""


class Bait:
    """The running bait: its ``url``, and the ``requests`` it has had so far."""

    def __init__(self, folder: Path) -> None:
        self._log = folder / "requests.log"
        self._log.touch()
        command = [sys.executable, "-c", SERVER, str(self._log), json.dumps(FETCHED)]
        self._process = subprocess.Popen(
            [*command, str(LIFETIME)], stdout=subprocess.PIPE, text=True
        )
        assert self._process.stdout is not None
        port = int(self._process.stdout.readline())
        self.url = f"http://127.0.0.1:{port}/evil-schema.json"

    @property
    def requests(self) -> list[str]:
        return self._log.read_text().splitlines()

    def stop(self) -> None:
        self._process.terminate()
        self._process.wait(timeout=10)


@contextmanager
def running_bait() -> Iterator[Bait]:
    """A started Bait, stopped on the way out (or by itself after LIFETIME seconds)."""
    with tempfile.TemporaryDirectory(prefix="bait-") as folder:
        server = Bait(Path(folder))
        try:
            yield server
        finally:
            server.stop()
