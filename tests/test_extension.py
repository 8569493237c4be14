"""``%load_ext workbench``: idempotent, cheap (no fastmcp, no ipywidgets), and undone by
``%unload_ext``, which closes the kernel's connections; ``workbench.current()``."""

from __future__ import annotations

import json
import textwrap

import pytest
from IPython.core.interactiveshell import InteractiveShell

import workbench
from tests.processes import run_python
from workbench.errors import WorkbenchError
from workbench.kernel import KernelState

HEAVY = ["fastmcp", "mcp", "ipywidgets"]


def run_script(code: str) -> dict[str, object]:
    """Run code in a fresh interpreter with an IPython shell ``ip``; it prints JSON."""
    script = "import json, sys\nfrom IPython.core.interactiveshell import InteractiveShell\n"
    script += "ip = InteractiveShell.instance()\n" + textwrap.dedent(code)
    out = run_python(script).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


@pytest.mark.integration
def test_load_ext_imports_nothing_heavy_and_neither_does_the_workbench() -> None:
    result = run_script(
        f"""
        heavy = lambda: sorted(m for m in {HEAVY} + ["pydantic"] if m in sys.modules)
        ip.run_line_magic("load_ext", "workbench")
        after_load = heavy()
        import workbench
        wb = workbench.current()
        ip.run_line_magic("mcp", "servers")
        print(json.dumps({{"load": after_load, "current": heavy()}}))
        """
    )
    assert result["load"] == []  # not even pydantic: the Workbench is made on first use
    assert result["current"] == ["pydantic"]


@pytest.mark.integration
def test_unload_closes_the_workbench_and_removes_the_magics() -> None:
    result = run_script(
        """
        import workbench
        ip.run_line_magic("load_ext", "workbench")
        ip.run_line_magic("mcp", "connect demo")
        first = workbench.current()
        ip.run_line_magic("unload_ext", "workbench")
        gone = "mcp" not in ip.magics_manager.magics["line"]
        matchers = len(ip.Completer.custom_matchers)
        ip.run_line_magic("load_ext", "workbench")
        second = workbench.current()
        print(json.dumps({"closed": first.closed, "gone": gone, "matchers": matchers,
                          "fresh": second is not first and not second.closed,
                          "servers": [i.name for i in second.servers()]}))
        second.close()
        """
    )
    assert result == {
        "closed": True,
        "gone": True,
        "matchers": 0,
        "fresh": True,
        "servers": [],
    }


@pytest.mark.integration
def test_current_loads_the_extension_and_reload_ext_works() -> None:
    result = run_script(
        """
        import workbench
        wb = workbench.current()
        line_magics = ip.magics_manager.magics["line"]
        loaded = "workbench" in ip.extension_manager.loaded and "mcp" in line_magics
        ip.run_line_magic("reload_ext", "workbench")
        print(json.dumps({"loaded": loaded, "closed": wb.closed,
                          "again": "mcp" in ip.magics_manager.magics["line"]}))
        """
    )
    assert result == {"loaded": True, "closed": True, "again": True}


def test_loading_twice_changes_nothing(ip: InteractiveShell, state: KernelState) -> None:
    magics = ip.magics_manager.registry["WorkbenchMagics"]
    workbench.load_ipython_extension(ip)
    ip.run_line_magic("load_ext", "workbench")
    assert ip.magics_manager.registry["WorkbenchMagics"] is magics
    assert ip.Completer.custom_matchers.count(magics.matcher) == 1
    assert ip.events.callbacks["pre_run_cell"].count(state.remember_cell) == 1
    assert workbench.current() is state.workbench


def test_the_running_cell_id_is_remembered(ip: InteractiveShell, state: KernelState) -> None:
    ip.run_cell("1", cell_id="abc")
    assert state.cell_id == "abc"
    ip.run_cell("1")
    assert state.cell_id is None


def test_current_without_ipython_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("IPython.get_ipython", lambda: None)
    with pytest.raises(WorkbenchError, match=r"create a Workbench\(\)"):
        workbench.current()


def test_public_names() -> None:
    assert {"current", "load_ipython_extension", "unload_ipython_extension"} <= set(
        workbench.__all__
    )
    assert set(workbench.__all__) <= set(dir(workbench))
