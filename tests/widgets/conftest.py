"""The tool browser the widget tests drive, over the test module's ``wb`` (each module
decides what that Workbench has connected)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from workbench.kernel import browse
from workbench.session import Workbench
from workbench.widgets.browser import ToolBrowser


@pytest.fixture
def browser(wb: Workbench) -> Iterator[ToolBrowser]:
    widget = browse(workbench=wb)
    yield widget
    widget.close()
