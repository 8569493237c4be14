"""``import workbench`` must stay cheap: %load_ext runs it in every kernel."""

import pytest

from tests.processes import modules_after, run_python
from workbench.display.mime import OBSERVATION_MIME

HEAVY = ("fastmcp", "mcp", "ipywidgets", "IPython", "jsonschema_rs")


def _loaded_after(code: str) -> set[str]:
    """The top-level packages loaded after ``code`` in a fresh interpreter."""
    return {name.split(".")[0] for name in modules_after(code)}


def test_import_workbench_loads_nothing_heavy() -> None:
    loaded = _loaded_after("import workbench")
    assert not loaded & {*HEAVY, "pydantic", "rich"}


@pytest.mark.integration
def test_tool_model_and_registry_load_no_mcp_ipython_or_widgets() -> None:
    loaded = _loaded_after(
        "from workbench import Registry, tool\n"
        "Registry().add_tools('s', [{'name': 't', 'inputSchema': {'type': 'object'}}])\n"
        "tool(lambda x: x, name='echo')"
    )
    assert "pydantic" in loaded  # the check itself must be able to see imports
    assert not loaded & {"fastmcp", "mcp", "ipywidgets", "IPython"}


@pytest.mark.integration
def test_a_tool_from_the_package_shows_its_observation_as_the_magics_do() -> None:
    shown = run_python(
        "from workbench import tool\n"
        "@tool\n"
        "def half(x: int) -> float:\n"
        "    return x / 2\n"
        "bundle = half.call({'x': 'many'})._repr_mimebundle_()\n"
        "print(sorted(bundle))\n"
        "print(bundle['text/plain'].splitlines()[0])\n"
    ).stdout.splitlines()
    assert shown[0] == str(sorted(["text/plain", "text/html", OBSERVATION_MIME]))
    assert "Error · invalid_arguments" in shown[1]


@pytest.mark.integration
def test_the_browser_widgets_are_views_that_load_no_mcp_client() -> None:
    loaded = _loaded_after(
        "from workbench.widgets.browser import ToolBrowser\n"
        "from workbench.widgets.form import FormView\n"
        "FormView({'type': 'object', 'properties': {'a': {'type': 'integer'}}})"
    )
    assert {"ipywidgets", "anywidget"} <= loaded
    assert not loaded & {"fastmcp", "mcp"}


def test_unknown_attribute_is_an_attribute_error() -> None:
    import workbench

    with pytest.raises(AttributeError, match="no_such_name"):
        workbench.no_such_name  # noqa: B018
