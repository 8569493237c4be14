"""The display room: rich renderables that turn workbench objects into Jupyter mime bundles.

Pure presentation: no MCP, no event loop, no widgets. Every view renders as ``text/plain``
(rich), ``text/html`` (themed for JupyterLab light and dark) and, for the JupyterLab
extension, a JSON document under the mime type its ``json_mime`` names (``*_MIME`` below).

``install_views()`` installs the views of the models (``tools.viewing``): from then on
``rich.print(observation)`` in a terminal and an Observation in a notebook show the same
header, error line and duration, because both are ``ObservationView``; likewise listings of
resources, templates and prompts are tables and a prompt's messages a ``PromptView``. The
Workbench and the package's lazy names call it; importing this package calls it too, as it
always did, so code that imported the room for its views keeps them.
"""

from workbench.display.action import ActionView
from workbench.display.listings import PromptTable, ResourceTable, TemplateTable
from workbench.display.live import CallProgress, ProgressView
from workbench.display.mime import (
    BROWSER_MIME,
    OBSERVATION_MIME,
    PROGRESS_MIME,
    SERVERS_MIME,
    TABLE_MIME,
    TOOL_MIME,
    Displayable,
    render_plain,
)
from workbench.display.observation import ObservationView
from workbench.display.params import Parameter, parameters
from workbench.display.prompt import PromptView
from workbench.display.server_detail import ServerDetail
from workbench.display.tables import HistoryTable, SearchTable, ServerTable, ToolTable
from workbench.display.tool_card import ToolCard
from workbench.features.prompts import PromptList, PromptResult
from workbench.features.resources import ResourceList, TemplateList
from workbench.tools.schema import Action, Observation
from workbench.tools.viewing import install_view

_installed = False


def install_views() -> None:
    """Show the models through this room's views from now on. Only the first call installs,
    so a view someone installed afterwards for one of these models stays."""
    global _installed
    if _installed:
        return
    _installed = True
    install_view(
        Observation, lambda observation: ObservationView(observation, tool_id=observation.tool_id)
    )
    install_view(Action, lambda action: ActionView(type(action).__name__, action))
    install_view(ResourceList, ResourceTable)
    install_view(TemplateList, TemplateTable)
    install_view(PromptList, PromptTable)
    install_view(PromptResult, PromptView)


install_views()

__all__ = [
    "BROWSER_MIME",
    "OBSERVATION_MIME",
    "PROGRESS_MIME",
    "SERVERS_MIME",
    "TABLE_MIME",
    "TOOL_MIME",
    "ActionView",
    "CallProgress",
    "Displayable",
    "HistoryTable",
    "ObservationView",
    "Parameter",
    "ProgressView",
    "PromptTable",
    "PromptView",
    "ResourceTable",
    "SearchTable",
    "ServerDetail",
    "ServerTable",
    "TemplateTable",
    "ToolCard",
    "ToolTable",
    "install_views",
    "parameters",
    "render_plain",
]
