"""Run one notebook the way a Binder user would, inside the environment built from binder/.

Started by tests/binder/test_binder_image.py with that environment's python (never the test
suite's): it imports that environment's nbclient, and the kernel it starts runs that same
python (a kernelspec written here, pointing at ``sys.executable``). Writes a JSON report:
which python and workbench the kernel used, the seconds taken, and every error a cell showed.

    <env>/bin/python run_notebook.py NOTEBOOK REPORT_JSON

The workshop notebook's exercises fail their checks on purpose as committed; with
``--solutions`` every cell tagged ``solution`` is run in place of the ``# your code here``
placeholder before it (as a participant who solved them would), so every check must pass.
"""

from __future__ import annotations

import argparse
import json
import os
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


def write_kernelspec(folder: Path) -> None:
    """A kernelspec named KERNEL_NAME running this very python, found through JUPYTER_PATH."""
    spec = folder / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    kernel = {"argv": argv, "display_name": "Binder check", "language": "python"}
    (spec / "kernel.json").write_text(json.dumps(kernel))
    os.environ["JUPYTER_PATH"] = str(folder)


def swap_in_solutions(cells: list[Any]) -> int:
    """Put each solution's code into the placeholder cell before it; how many were swapped."""
    swapped = 0
    for index, cell in enumerate(cells):
        if "solution" not in cell.get("metadata", {}).get("tags", []):
            continue
        for earlier in reversed(cells[:index]):
            if earlier.cell_type == "code" and PLACEHOLDER in earlier.source.lower():
                earlier.source = cell.source
                swapped += 1
                break
        else:
            raise SystemExit(f"cell {index} is a solution with no '# {PLACEHOLDER}' cell before it")
    return swapped


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

    probe = notebook.cells.pop(0)
    streams = [o.get("text", "") for o in probe.get("outputs", []) if o.output_type == "stream"]
    report = {
        "notebook": args.notebook.name,
        "seconds": round(seconds, 1),
        "solutions_swapped": swapped,
        "kernel": json.loads(streams[0]) if streams else None,
        "probe_errors": errors_of([probe]),
        "errors": errors_of(notebook.cells),
    }
    args.report.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
