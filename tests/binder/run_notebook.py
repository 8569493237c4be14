"""Run one notebook the way a Binder user would, inside the environment built from binder/.

Started by tests/binder/test_binder_image.py with that environment's python (never the test
suite's): it imports that environment's nbclient, and the kernel it starts runs that same
python (a kernelspec written here, pointing at ``sys.executable``). Writes a JSON report:
which python and workbench the kernel used, the seconds taken, every error a cell showed,
and the servers the notebook left connected.

    <env>/bin/python run_notebook.py NOTEBOOK REPORT_JSON

The workshop notebook's exercises fail their checks on purpose as committed; with
``--solutions`` each exercise's folded solution is run in place of its ``# your code here``
answer cell (as by a participant who solved them), so every check must pass.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

KERNEL_NAME = "binder-check"
PLACEHOLDER = "your code here"
# The first cell, removed before the report: which python and workbench the kernel runs, and
# nobody at the notebook to answer a server's question (a form, a prompt): each is declined
# after 3 s instead of the 300 s a person gets.
PROBE = (
    "import json as _j, sys as _s, workbench as _w\n"
    "_w.current().answer_timeout = 3\n"
    "print(_j.dumps({'prefix': _s.prefix, 'workbench': _w.__file__}))"
)
# The last cell, removed too: the servers the notebook left connected (a server it skipped
# because it looked for it in the wrong place shows as missing here, not as an error).
SERVERS_PROBE = (
    "import json as _j, workbench as _w\n"
    "print(_j.dumps(sorted(_s.name for _s in _w.current().servers())))"
)


def write_kernelspec(folder: Path) -> None:
    """A kernelspec named KERNEL_NAME running this very python, found through JUPYTER_PATH."""
    spec = folder / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Binder check", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel))
    os.environ["JUPYTER_PATH"] = str(folder)


def solution_code(source: str) -> str:
    """The code of a solution cell: its fenced ```python block (the whole source if none)."""
    fenced = re.search(r"```python\n(.*?)\n```", source, re.S)
    return fenced.group(1) if fenced else source


def swap_in_solutions(cells: list[Any]) -> int:
    """Run the workshop as someone who solved it; how many solutions were swapped in.

    The workshop's layout (held by tests/notebooks/test_workshop.py): exercise N has cells
    with ids ``exN-answer`` (the placeholder), ``exN-check`` and ``exN-solution`` (tagged
    ``solution``: markdown, its code in a fenced block). Each solution's code goes into its
    answer cell and the solution cell is dropped, so each check runs once, after a solved
    answer.
    """
    by_id = {cell.get("id"): cell for cell in cells}
    solutions = [c for c in cells if "solution" in c.get("metadata", {}).get("tags", [])]
    for solution in solutions:
        name = str(solution.get("id", ""))
        answer = by_id.get(name.removesuffix("-solution") + "-answer")
        if not name.endswith("-solution") or answer is None:
            raise SystemExit(f"the solution cell {name!r} has no answer cell to replace")
        assert PLACEHOLDER in answer.source.lower(), f"{name}'s answer cell has no placeholder"
        answer.source = solution_code(solution.source)
    dropped = {id(cell) for cell in solutions}
    cells[:] = [cell for cell in cells if id(cell) not in dropped]
    return len(solutions)


def errors_of(cells: list[Any]) -> list[dict[str, Any]]:
    """Every error output, except in cells tagged raises-exception (errors they promise)."""
    found = []
    for index, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        if "raises-exception" in cell.get("metadata", {}).get("tags", []):
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                found.append(
                    {
                        "cell": index,
                        "source": cell.source.splitlines()[:3],
                        "ename": output.get("ename"),
                        "evalue": str(output.get("evalue"))[:500],
                    }
                )
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook", type=Path)
    parser.add_argument("report", type=Path)
    parser.add_argument("--solutions", action="store_true")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="binder-kernelspec-") as folder:
        write_kernelspec(Path(folder))
        import nbformat
        from nbclient import NotebookClient

        notebook = nbformat.read(args.notebook, as_version=4)
        swapped = swap_in_solutions(notebook.cells) if args.solutions else 0
        notebook.cells.insert(0, nbformat.v4.new_code_cell(PROBE))
        notebook.cells.append(nbformat.v4.new_code_cell(SERVERS_PROBE))
        client = NotebookClient(
            notebook,
            timeout=120,
            kernel_name=KERNEL_NAME,
            allow_errors=True,
            resources={"metadata": {"path": str(args.notebook.parent)}},
        )
        started = time.monotonic()
        client.execute()
        seconds = time.monotonic() - started

    probe, servers_probe = notebook.cells.pop(0), notebook.cells.pop()
    streams = [o.get("text", "") for o in probe.get("outputs", []) if o.output_type == "stream"]
    # The probe prints one line of JSON on stdout; a server's or thread's late words may land
    # in the same cell (stderr, or a line of their own), and are not the probe's answer.
    printed = "".join(
        o.get("text", "")
        for o in servers_probe.get("outputs", [])
        if o.get("output_type") == "stream" and o.get("name") == "stdout"
    )
    listed = [line for line in printed.splitlines() if line.startswith("[")]
    report = {
        "notebook": args.notebook.name,
        "seconds": round(seconds, 1),
        "solutions_swapped": swapped,
        "kernel": json.loads(streams[0]) if streams else None,
        "probe_errors": errors_of([probe, servers_probe]),
        "servers_at_end": json.loads(listed[-1]) if listed else None,
        # What else reached the probe's cell, kept for a look (it happened once, unexplained).
        "probe_noise": [
            o.get("text", "")
            for o in servers_probe.get("outputs", [])
            if o.get("output_type") == "stream" and o.get("name") != "stdout"
        ]
        + [line for line in printed.splitlines() if line and not line.startswith("[")],
        "errors": errors_of(notebook.cells),
    }
    args.report.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
