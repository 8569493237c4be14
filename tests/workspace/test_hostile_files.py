"""Workspace files made to hang, exhaust or crash a load (G6, G7): YAML alias bombs and
recursive anchors, special files (a FIFO, /dev/zero), files too large, links out of the
workspace. Each is refused alone with one line and the rest of the workspace loads.

A test that would hang on a loader without these guards has a timeout; the one that would
eat memory (/dev/zero) loads in a child process under a memory limit.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.processes import run_python
from workbench.session import Workbench
from workbench.workspace.files import MAX_PYTHON_BYTES, MAX_YAML_BYTES
from workbench.workspace.loader import WorkspaceReport

TOOL = '''from workbench import tool

@tool
def {name}(text: str) -> str:
    """Echo a text."""
    return text
'''


def document(name: str, extra: str = "") -> str:
    """An AsyncAPI 3 document offering one event tool, ``name``, then ``extra``."""
    return f"""asyncapi: 3.0.0
info: {{title: t, version: "1"}}
channels:
  out:
    address: out/{name}
    messages:
      note: {{payload: {{type: object, properties: {{text: {{type: string}}}}}}}}
operations:
  {name}:
    action: send
    channel: {{$ref: '#/channels/out'}}
    x-agent-tool: {{enabled: true}}
{extra}"""


def bomb(levels: int) -> str:
    """``levels`` of nine aliases each to the level below: 9**levels leaves once copied."""
    lines = ["x-lol:", "  l0: &l0 [" + ", ".join(["lol"] * 9) + "]"]
    for level in range(1, levels):
        lines.append(f"  l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """A workspace with a good tool file and a good events file beside the hostile ones."""
    space = tmp_path / "space"
    (space / "tools").mkdir(parents=True)
    (space / "events").mkdir()
    (space / "tools" / "good.py").write_text(TOOL.format(name="good_tool"))
    (space / "events" / "good.yaml").write_text(document("good_event"))
    return space


def failed(report: WorkspaceReport, source: str) -> str:
    """The one-line note of the failed row of ``source``."""
    [row] = [row for row in report.failed if row.source == source]
    assert "\n" not in row.note
    return row.note


def the_rest_loaded(report: WorkspaceReport) -> bool:
    return {"good_tool", "good_event"} <= set(report.loaded)


@pytest.mark.timeout(30)
def test_g6_an_alias_bomb_is_refused_at_once_and_the_rest_loads(wb: Workbench, root: Path) -> None:
    text = document("boom", bomb(9))
    assert len(text.encode()) < 1_200  # 387,420,489 leaves once expanded
    (root / "events" / "bomb.yaml").write_text(text)
    started = time.monotonic()
    report = wb.load_workspace(root)
    assert time.monotonic() - started < 5
    note = failed(report, "events/bomb.yaml")
    assert note.startswith(f"{root / 'events' / 'bomb.yaml'}:")
    assert "aliases" in note
    assert the_rest_loaded(report) and "boom" not in report.loaded


@pytest.mark.timeout(30)
def test_g6_a_smaller_bomb_is_refused_too_but_shared_anchors_still_load(
    wb: Workbench, root: Path
) -> None:
    (root / "events" / "bomb.yaml").write_text(document("boom", bomb(7)))  # 660 bytes: 18 s
    shared = """components:
  schemas:
    a: &point {type: object, properties: {x: {type: number}, y: {type: number}}}
    b: *point
    c: {type: array, items: *point}
"""
    (root / "events" / "shared.yaml").write_text(document("shared", shared))
    report = wb.load_workspace(root)
    assert "aliases" in failed(report, "events/bomb.yaml")
    assert the_rest_loaded(report) and "shared" in report.loaded


def test_g6_an_events_file_over_the_size_limit_is_refused(wb: Workbench, root: Path) -> None:
    padding = "# " + "x" * 98 + "\n"
    big = document("big") + padding * (MAX_YAML_BYTES // len(padding) + 1)
    (root / "events" / "big.yaml").write_text(big)
    report = wb.load_workspace(root)
    note = failed(report, "events/big.yaml")
    assert f"larger than {MAX_YAML_BYTES:,} bytes" in note
    assert the_rest_loaded(report) and "big" not in report.loaded


@pytest.mark.parametrize(
    "extra",
    [
        "x-loop: &loop {self: *loop}\n",
        "components:\n  schemas:\n    Tree: &tree {type: object, properties: {child: *tree}}\n",
        "x-list: &items [1, [2, *items]]\n",
    ],
    ids=["mapping", "payload-schema", "sequence"],
)
def test_g7_a_recursive_anchor_fails_its_file_in_one_line(
    wb: Workbench, root: Path, extra: str
) -> None:
    (root / "events" / "loop.yaml").write_text(document("loop", extra))
    report = wb.load_workspace(root)
    note = failed(report, "events/loop.yaml")
    assert "refers to itself" in note and "$ref" in note
    assert the_rest_loaded(report)


@pytest.mark.integration
def test_g7_nesting_too_deep_fails_its_file_in_one_line(wb: Workbench, root: Path) -> None:
    deep = "x-deep: " + "[" * 5_000 + "]" * 5_000 + "\n"
    (root / "events" / "deep.yaml").write_text(document("deep", deep))
    report = wb.load_workspace(root)
    assert "nested deeper than" in failed(report, "events/deep.yaml")
    assert the_rest_loaded(report)


@pytest.mark.timeout(20)
@pytest.mark.parametrize("where", ["events/fifo.yaml", "tools/fifo.py"])
def test_g7_a_fifo_is_refused_without_waiting_for_a_writer(
    wb: Workbench, root: Path, where: str
) -> None:
    os.mkfifo(root / where)
    report = wb.load_workspace(root)
    assert "not a regular file" in failed(report, where)
    assert the_rest_loaded(report)


CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from workbench.session import Workbench
with Workbench() as wb:
    report = wb.load_workspace(sys.argv[1])
print(json.dumps({"loaded": report.loaded, "failed": [[r.source, r.note] for r in report.failed]}))
"""


@pytest.mark.integration
def test_g7_a_link_to_dev_zero_is_refused_without_reading_it(root: Path) -> None:
    """Loaded in a child process limited to 1 GB, which an unguarded read fills."""
    (root / "events" / "zero.yaml").symlink_to("/dev/zero")
    (root / "tools" / "zero.py").symlink_to("/dev/zero")
    done = run_python(CHILD, str(root), check=False, timeout=60)
    assert done.returncode == 0, done.stderr[-2_000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    notes = dict(result["failed"])
    assert "not a regular file" in notes["events/zero.yaml"]
    assert "not a regular file" in notes["tools/zero.py"]
    assert {"good_tool", "good_event"} <= set(result["loaded"])


def test_g7_links_inside_the_workspace_load_and_links_out_of_it_are_refused(
    wb: Workbench, root: Path, tmp_path: Path
) -> None:
    (root / "shared").mkdir()
    (root / "shared" / "inside.yaml").write_text(document("inside"))
    (root / "events" / "inside.yaml").symlink_to(root / "shared" / "inside.yaml")
    (root / "shared" / "inside.py").write_text(TOOL.format(name="inside_tool"))
    (root / "tools" / "inside.py").symlink_to(Path("..") / "shared" / "inside.py")
    (tmp_path / "elsewhere.yaml").write_text(document("outside"))
    (root / "events" / "outside.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    (tmp_path / "elsewhere.py").write_text(TOOL.format(name="outside_tool"))
    (root / "tools" / "outside.py").symlink_to(tmp_path / "elsewhere.py")
    report = wb.load_workspace(root)
    assert {"inside", "inside_tool"} <= set(report.loaded)
    for where in ("events/outside.yaml", "tools/outside.py"):
        assert "outside the workspace" in failed(report, where)
    assert not {"outside", "outside_tool"} & set(report.loaded)
    assert the_rest_loaded(report)


def test_g7_a_tool_file_over_the_size_limit_is_not_run(wb: Workbench, root: Path) -> None:
    marker = root.parent / "ran"
    code = f"open({str(marker)!r}, 'w').close()\n" + TOOL.format(name="huge_tool")
    padding = "# " + "x" * 98 + "\n"
    (root / "tools" / "huge.py").write_text(code + padding * (MAX_PYTHON_BYTES // len(padding) + 1))
    report = wb.load_workspace(root)
    assert f"larger than {MAX_PYTHON_BYTES:,} bytes" in failed(report, "tools/huge.py")
    assert not marker.exists() and "huge_tool" not in report.loaded
    assert the_rest_loaded(report)
