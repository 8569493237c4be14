"""``install_views``: the models show through the display room's views, installed once."""

from __future__ import annotations

from workbench.display import ObservationView, install_views
from workbench.tools import viewing
from workbench.tools.schema import Observation


def test_installing_again_keeps_a_view_installed_since() -> None:
    observation = Observation.from_text("hello")
    assert isinstance(viewing.view_of(observation), ObservationView)  # the import installed
    before = viewing._VIEWS[Observation]
    try:
        viewing.install_view(Observation, lambda value: "mine")
        install_views()  # what every new Workbench does
        assert viewing.view_of(observation) == "mine"
    finally:
        viewing.install_view(Observation, before)
