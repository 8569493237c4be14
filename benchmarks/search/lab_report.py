"""The search lab's own report on a small real catalog: demo + server-everything + time.

    python benchmarks/search/lab_report.py [--compare] [--try TOOL_ID TEXT]

Connects the demo server (in process), mcp-server-time and server-everything (over stdio,
as `make servers` installs them under .cache/servers), then runs the 30 requests of
`lab_requests.jsonl` (written from server and tool names only, see its first line) through
the lab: the report per kind, the suggested pins, optionally every method side by side and
the description doctor on one tool. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SERVERS = ROOT / ".cache" / "servers"
EVERYTHING = SERVERS / "npm/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
TIME_SERVER = SERVERS / "venv/bin/mcp-server-time"
REQUESTS = HERE / "lab_requests.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare", action="store_true", help="every method side by side")
    parser.add_argument("--try", nargs=2, metavar=("TOOL_ID", "TEXT"), dest="trial",
                        help="the description doctor: TOOL_ID's description as TEXT")  # fmt: skip
    args = parser.parse_args()
    if not (EVERYTHING.is_file() and TIME_SERVER.is_file()):
        print(f"Run `make servers` first: {EVERYTHING} or {TIME_SERVER} is missing.")
        return 1
    from workbench.session import Workbench

    wb = Workbench()
    try:
        wb.connect("demo")
        wb.connect("time", command=str(TIME_SERVER), args=["--local-timezone", "UTC"])
        node = shutil.which("node") or "node"
        wb.connect("everything", command=node, args=[str(EVERYTHING), "stdio"])
        print(wb.registry)
        lab = wb.registry.lab(REQUESTS)
        print(lab.report)
        print(lab.suggest_pins())
        if args.compare:
            print(lab.compare())
        if args.trial:
            tool_id, text = args.trial
            print(f"Now: {wb.registry.get(tool_id).description!r}\nTried: {text!r}")
            print(lab.try_description(tool_id, text))
    finally:
        wb.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
