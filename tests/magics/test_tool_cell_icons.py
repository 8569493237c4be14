"""``%%tool --icon SRC``: a data: URI, an https URL or a local image file (read when the cell
runs) becomes the tool's icons, as the notebook server lists them; a bad one registers
nothing, in one line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from workbench.kernel import KernelState
from workbench.tools.icons import Icon

BODY = "def spin(x: int) -> int:\n    return x\n"
PNG = "data:image/png;base64,iVBORw0KGgo="


@pytest.fixture
def clean(state: KernelState) -> Iterator[None]:
    state.cell_id = None
    yield
    if state.workbench.tool_owner("spin") is not None:
        state.workbench.remove_tool("spin")


def test_icons_from_a_data_uri_a_url_and_a_file(
    ip: InteractiveShell, state: KernelState, clean: None, tmp_path: Path
) -> None:
    logo = tmp_path / "logo.svg"
    logo.write_bytes(b"<svg xmlns='http://www.w3.org/2000/svg'/>")
    line = f"--icon {PNG} --icon https://icons.example/spin.png --icon '{logo}'"
    with capture_output():
        ip.run_cell_magic("tool", line, BODY)
    icons = state.workbench.registry.get("notebook.spin").icons
    assert icons[:2] == (Icon(PNG), Icon("https://icons.example/spin.png"))
    assert icons[2].src.startswith("data:image/svg+xml;base64,")


def test_a_bad_icon_registers_nothing(
    ip: InteractiveShell, state: KernelState, clean: None
) -> None:
    with pytest.raises(
        UsageError, match="spin cannot become a tool: An icon is an https"
    ) as raised:
        ip.run_cell_magic("tool", "--icon javascript:alert(1)", BODY)
    assert "\n" not in str(raised.value)
    assert state.workbench.tool_owner("spin") is None
