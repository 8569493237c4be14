"""The rooms of the house and who may import whom, checked by reading every module's source.

ARCHITECTURE.md states the rules; this test keeps them. Every import counts: top-level,
inside functions (lazy) and under ``if TYPE_CHECKING:``, because a lazy import is still an
arrow in the design. A failure names the module, the line and the rule it breaks.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "workbench"

# Which rooms of the package each room may import (besides itself). A room is a top-level
# module or package of ``workbench``: ``workbench.registry``, ``workbench.session``...
MAY_IMPORT: dict[str, set[str]] = {
    "workbench.__about__": set(),
    "workbench.errors": set(),
    "workbench.names": {"workbench.errors"},
    "workbench.secrets": set(),
    "workbench.data_dirs": set(),  # the one data folder: served tokens, OAuth caches
    "workbench.json_pointer": set(),
    "workbench.listeners": {"workbench.errors"},
    "workbench.tools": {"workbench.errors"},
    # Notebook tools written out as a standalone server script: a code generator.
    # It writes the workbench's version into the script (its serverInfo).
    "workbench.export": {"workbench.__about__", "workbench.errors", "workbench.tools"},
    "workbench.registry": {
        "workbench.errors",
        "workbench.json_pointer",  # validators that follow only local $refs (G2)
        "workbench.names",
        "workbench.listeners",
        "workbench.tools",
    },
    # What servers offer besides tools, and what the client answers: plain data.
    "workbench.features": {"workbench.errors", "workbench.tools"},
    "workbench.history": {"workbench.errors", "workbench.listeners", "workbench.tools"},
    # The kernel's event log: plain data and its followers.
    "workbench.events": {"workbench.errors", "workbench.listeners"},
    # Workspace files as tool definitions; it serves them through a ToolHost (a Workbench).
    "workbench.workspace": {
        "workbench.errors",
        "workbench.json_pointer",
        "workbench.tools",
        "workbench.events",
    },
    "workbench.display": {
        "workbench.errors",
        "workbench.features",
        "workbench.names",
        "workbench.secrets",
        "workbench.tools",
        "workbench.registry",
        "workbench.history",
    },
    # The event-loop runtime: every loop and thread the package runs, and nothing of MCP.
    "workbench.bridge": {"workbench.errors"},
    # How a server is described (specs, OAuth settings, mcp.json, ${env:}): pure data.
    "workbench.config": {"workbench.errors", "workbench.names", "workbench.secrets"},
    # The MCP client: connections, transports, sign-in, answers to what servers ask.
    "workbench.mcp": {
        "workbench.__about__",
        "workbench.bridge",
        "workbench.config",
        "workbench.data_dirs",
        "workbench.errors",
        "workbench.features",
        "workbench.names",
        "workbench.secrets",
        "workbench.listeners",
        "workbench.tools",
        "workbench.registry",
    },
    # The embedded demo server: a FastMCP server quieted like the client's.
    "workbench.demo": {"workbench.__about__", "workbench.mcp", "workbench.tools"},
    # The notebook as an MCP server: in-process (the ``notebook`` server) and over HTTP,
    # behind auth and filters; handed the Workbench's call path and registry, never the
    # Workbench itself.
    "workbench.serving": {
        "workbench.__about__",  # the served surfaces' serverInfo version
        "workbench.bridge",
        "workbench.config",
        "workbench.data_dirs",
        "workbench.errors",
        "workbench.features",  # what a notebook tool asks its caller (serving/questions.py)
        "workbench.names",
        "workbench.secrets",
        "workbench.listeners",
        "workbench.tools",
        "workbench.registry",
        "workbench.history",
        "workbench.mcp",
    },
    # MCP Apps, the kernel's side: a UI tool's App read from its server, drawn with its call.
    "workbench.apps": {
        "workbench.errors",
        "workbench.listeners",
        "workbench.tools",
        "workbench.registry",
        "workbench.history",
        "workbench.bridge",
        "workbench.mcp",
    },
    # The one facade: every capability is a method of the Workbench.
    "workbench.session": {
        "workbench.apps",
        "workbench.errors",
        "workbench.features",
        "workbench.names",
        "workbench.secrets",
        "workbench.listeners",
        "workbench.tools",
        "workbench.registry",
        "workbench.history",
        "workbench.events",
        "workbench.workspace",
        "workbench.display",
        "workbench.bridge",
        "workbench.config",
        "workbench.mcp",
        "workbench.demo",
        "workbench.serving",
        "workbench.export",
    },
    # Views of a Workbench: they know its type, never MCP, the magics or the kernel.
    "workbench.widgets": {
        "workbench.errors",
        "workbench.secrets",
        "workbench.features",
        "workbench.json_pointer",
        "workbench.tools",
        "workbench.registry",
        "workbench.history",
        "workbench.display",
        "workbench.session",
    },
    "workbench.kernel": {"workbench.errors", "workbench.session", "workbench.widgets"},
    "workbench.magics": {
        "workbench.apps",  # %%app: the template App (workbench/apps/template/)
        "workbench.errors",
        "workbench.features",
        "workbench.names",
        "workbench.secrets",
        "workbench.tools",
        "workbench.registry",
        "workbench.display",
        "workbench.config",
        "workbench.session",
        "workbench.widgets",
        "workbench.kernel",
        "workbench.export",
        "workbench.lab",  # a re-run %%app cell reloads its drawn Apps (apps_comm.push_reload)
    },
    # The MCP sidebar's comm (JupyterLab / Notebook 7): documents of the kernel's Workbench.
    "workbench.lab": {
        "workbench.apps",  # the workbench.apps comm (lab/apps_comm.py)
        "workbench.errors",
        "workbench.secrets",
        "workbench.json_pointer",
        "workbench.registry",
        "workbench.session",
        "workbench.kernel",
    },
    "workbench.extension": {"workbench.kernel", "workbench.lab", "workbench.magics"},
    # The workshop's checks: a hint in a box of the display room, nothing of MCP.
    "workbench.workshop": {"workbench.display"},
}
TOP = "workbench"
"""The package's ``__init__`` reaches every public name lazily; it has no rule."""

# Outside packages a room must never import (top-level names).
MUST_NOT_IMPORT: dict[str, set[str]] = {
    "workbench.bridge": {"IPython", "ipywidgets", "anywidget", "fastmcp", "mcp", "rich"},
    "workbench.config": {"IPython", "ipywidgets", "fastmcp", "mcp", "rich", "asyncio"},
    "workbench.tools": {"IPython", "ipywidgets", "anywidget", "fastmcp", "rich", "asyncio"},
    "workbench.export": {"IPython", "ipywidgets", "anywidget", "fastmcp", "mcp", "rich", "asyncio"},
    "workbench.registry": {"IPython", "ipywidgets", "anywidget", "fastmcp", "mcp", "rich"},
    "workbench.features": {"IPython", "ipywidgets", "fastmcp", "mcp", "rich", "asyncio"},
    "workbench.history": {"IPython", "ipywidgets", "fastmcp", "mcp", "rich", "asyncio"},
    "workbench.events": {"IPython", "ipywidgets", "fastmcp", "mcp", "rich", "asyncio", "pydantic"},
    "workbench.workspace": {"IPython", "ipywidgets", "anywidget", "fastmcp", "mcp", "rich"},
    "workbench.display": {"ipywidgets", "anywidget", "fastmcp", "mcp", "asyncio"},
    "workbench.widgets": {"fastmcp", "mcp", "asyncio"},
    "workbench.magics": {"fastmcp", "mcp", "asyncio"},
    "workbench.kernel": {"fastmcp", "mcp", "asyncio"},
    "workbench.lab": {"fastmcp", "mcp", "asyncio", "ipywidgets", "anywidget"},
    "workbench.apps": {"IPython", "ipywidgets", "anywidget", "fastmcp", "mcp", "rich"},
    "workbench.extension": {"fastmcp", "mcp", "ipywidgets", "pydantic", "rich"},
    "workbench.workshop": {"fastmcp", "mcp", "asyncio", "ipywidgets", "anywidget"},
}
# The model room's one way out: a definition becomes an MCP Tool object (lazily).
ALLOWED_EXCEPTIONS = {("workbench.tools.export", "mcp")}

LOOP_APIS = {
    "new_event_loop",
    "get_event_loop",
    "set_event_loop",
    "run_until_complete",
    "run_forever",
    "call_soon_threadsafe",
    "run_coroutine_threadsafe",
    "Thread",
}
"""Names that create, run or reach into an event loop (or start a thread to run one)."""
LOOP_OWNER = "workbench.bridge"
"""The package that owns the loops: only its modules use LOOP_APIS, and everyone else imports
it by its public face (``workbench.bridge``), never one of its modules."""


LOOP_OWNER_MODULES = {
    path.stem for path in PACKAGE.joinpath(*LOOP_OWNER.split(".")[1:]).glob("*.py")
} - {"__init__"}


def in_loop_owner(module: str) -> bool:
    return module == LOOP_OWNER or module.startswith(f"{LOOP_OWNER}.")


def reaches_into_loop_owner(target: str) -> bool:
    """Whether an import names one of the loop owner's modules (not a name it exports)."""
    rest = target.removeprefix(f"{LOOP_OWNER}.")
    return rest != target and rest.split(".")[0] in LOOP_OWNER_MODULES


@dataclass(frozen=True)
class Import:
    line: int
    module: str


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else module


def imports_of(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every import in the source, wherever it is, as absolute module names."""
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(Import(node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                keep = len(anchor) - node.level + (1 if is_package else 0)
                base = ".".join([*anchor[:keep], *([base] if base else [])])
            # ``from workbench import kernel`` imports the module workbench.kernel.
            found.extend(Import(node.lineno, f"{base}.{alias.name}") for alias in node.names)
    return found


def loop_calls(source: str) -> list[tuple[int, str]]:
    """Uses of loop APIs (``asyncio.run`` included) as (line, name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
            if name == "run" and isinstance(node.value, ast.Name) and node.value.id == "asyncio":
                name = "asyncio.run"
        elif isinstance(node, ast.Name):
            name = node.id
        if name in LOOP_APIS or name == "asyncio.run":
            found.append((node.lineno, name))
    return found


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """Every rule this module's source breaks, one line each."""
    room = room_of(module)
    problems: list[str] = []
    for found in imports_of(source, module, is_package):
        target = found.module
        where = f"{module}:{found.line} imports {target}"
        if reaches_into_loop_owner(target) and not in_loop_owner(module):
            problems.append(f"{where}: import {LOOP_OWNER} itself, not its modules")
        if target.startswith(f"{TOP}.") or target == TOP:
            target_room = room_of(target)
            if room == TOP or target_room in (room, TOP):
                continue
            allowed = MAY_IMPORT.get(room)
            if allowed is None:
                problems.append(f"{where}: the room {room} has no rule in MAY_IMPORT")
            elif target_room not in allowed:
                problems.append(f"{where}: {room} may not import {target_room}")
            continue
        top = target.split(".")[0]
        if top in MUST_NOT_IMPORT.get(room, set()) and (module, top) not in ALLOWED_EXCEPTIONS:
            problems.append(f"{where}: {room} must not import {top}")
    if not in_loop_owner(module):
        for line, name in loop_calls(source):
            problems.append(f"{module}:{line} uses {name}: only {LOOP_OWNER} touches loops")
    return problems


def package_modules() -> list[tuple[str, Path]]:
    return sorted((module_name(path), path) for path in PACKAGE.rglob("*.py"))


@pytest.mark.integration
def test_every_module_keeps_the_room_rules() -> None:
    problems = [
        problem
        for module, path in package_modules()
        for problem in violations(module, path.read_text(), path.name == "__init__.py")
    ]
    assert not problems, "\n".join(problems)


def test_every_room_has_a_rule() -> None:
    rooms = {room_of(module) for module, _ in package_modules()} - {TOP}
    assert rooms <= set(MAY_IMPORT), sorted(rooms - set(MAY_IMPORT))
    assert set(MAY_IMPORT) <= rooms, (
        f"rules for rooms that no longer exist: {set(MAY_IMPORT) - rooms}"
    )


@pytest.mark.parametrize(
    ("module", "source", "says"),
    [
        pytest.param(
            "workbench.tools.schema",
            "def show():\n    from workbench.display import ObservationView\n",
            "workbench.tools may not import workbench.display",
            id="lazy upward import",
        ),
        pytest.param(
            "workbench.widgets.browser",
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from workbench.mcp.connection import LogRecord\n",
            "workbench.widgets may not import workbench.mcp",
            id="type-only import",
        ),
        pytest.param(
            "workbench.registry.search",
            "import rich.console\n",
            "workbench.registry must not import rich",
            id="outside package",
        ),
        pytest.param(
            "workbench.widgets.browser",
            "from workbench import kernel\n",
            "workbench.widgets may not import workbench.kernel",
            id="from the package",
        ),
        pytest.param(
            "workbench.session",
            "import asyncio\nloop = asyncio.new_event_loop()\n",
            "uses new_event_loop",
            id="loop API",
        ),
        pytest.param(
            "workbench.mcp.connection",
            "import threading\nthreading.Thread(target=print).start()\n",
            "uses Thread",
            id="a thread outside the bridge",
        ),
        pytest.param(
            "workbench.session",
            "from workbench.bridge.core import Bridge\n",
            "import workbench.bridge itself, not its modules",
            id="a bridge module from outside",
        ),
        pytest.param(
            "workbench.bridge.core",
            "from workbench.mcp.connection import Connection\n",
            "workbench.bridge may not import workbench.mcp",
            id="the bridge speaks no MCP",
        ),
        pytest.param(
            "workbench.mcp.transports",
            "from workbench.demo import build_demo_server\n",
            "workbench.mcp may not import workbench.demo",
            id="the client builds no server",
        ),
        pytest.param(
            "workbench.mcp.connection",
            "from workbench.serving.notebook_server import LocalServer\n",
            "workbench.mcp may not import workbench.serving",
            id="the client is not the notebook's server",
        ),
        pytest.param(
            "workbench.config.spec",
            "import fastmcp\n",
            "workbench.config must not import fastmcp",
            id="server descriptions are pure",
        ),
        pytest.param(
            "workbench.session",
            "import asyncio\nasyncio.run(main())\n",
            "uses asyncio.run",
            id="asyncio.run",
        ),
        pytest.param(
            "workbench.magics.commands.call",
            "from ..parsing import fail\nfrom ... import session\n"
            "from workbench.mcp import bridge\n",
            "workbench.magics may not import workbench.mcp",
            id="relative imports resolved",
        ),
    ],
)
def test_the_checker_catches_each_kind_of_break(module: str, source: str, says: str) -> None:
    found = violations(module, source)
    assert any(says in problem for problem in found), found
    assert len(found) == 1, found


def test_the_checker_lets_allowed_imports_through() -> None:
    assert violations("workbench.tools.export", "def f():\n    import mcp.types\n") == []
    assert violations("workbench.bridge", "import asyncio\nasyncio.new_event_loop()\n") == []
    assert (
        violations("workbench.bridge.notebook", "import asyncio\nasyncio.new_event_loop()\n") == []
    )
    assert violations("workbench.bridge.core", "from workbench.bridge.jobs import Job\n") == []
    assert violations("workbench.session", "from workbench.bridge import Bridge\n") == []


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of a directed graph: each strongly connected set of two or more nodes."""
    found: list[list[str]] = []
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for after in sorted(graph.get(node, ())):
            if after not in order:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], order[after])
        if low[node] == order[node]:
            members = []
            while True:
                member = stack.pop()
                members.append(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_the_rooms_stand_in_floors_with_no_circle() -> None:
    """Every import obeys MAY_IMPORT, so rules without a circle mean rooms without one."""
    assert circles(MAY_IMPORT) == []


def test_the_circle_finder_finds_a_planted_circle() -> None:
    planted = {room: set(allowed) for room, allowed in MAY_IMPORT.items()}
    planted["workbench.bridge"].add("workbench.session")
    assert any({"workbench.bridge", "workbench.session"} <= set(c) for c in circles(planted))
