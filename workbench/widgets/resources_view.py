"""ResourcesView: the resources and resource templates of every connected server.

Selecting a resource reads it (``Workbench.read_resource``: recorded in the history, so the
History tab lists it) and shows the Observation as the call panel shows a result.
Selecting a template shows a form of its ``{variables}``, with the server's completions as
suggestions, and a Read button. "Follow" subscribes to the resource read last: each update
the server announces re-reads it, and the result is replaced in place (from the bridge
thread: traits set directly, never ``with output:``).

Reads wait for the server on the kernel's main thread (clicks are handled there); the
listing is an ``OfferingList``, which reloads on the main thread too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.display import ObservationView, markup
from workbench.errors import FormError, WorkbenchError
from workbench.features.resources import Resource, ResourceTemplate
from workbench.widgets.form import FormView
from workbench.widgets.offering_list import Row
from workbench.widgets.offering_tab import OfferingTab, failed_note
from workbench.widgets.suggestions import Suggestions, mime_output

if TYPE_CHECKING:
    from collections.abc import Sequence

    from workbench.session import Workbench
    from workbench.session.offerings import ResourceSubscription
    from workbench.tools.schema import Observation as Read

EMPTY_HINT = "Pick a resource to read it, or a template to fill in its variables."


def template_schema(template: ResourceTemplate) -> dict[str, Any]:
    """One required string field per ``{variable}`` of the template."""
    names = template.variables
    return {
        "type": "object",
        "properties": {name: {"type": "string"} for name in names},
        "required": list(names),
    }


def _key(kind: str, server: str, uri: str) -> str:
    return f"{kind}:{server}:{uri}"


class ResourcesView(OfferingTab[Resource | ResourceTemplate]):
    """The Resources tab: the list on the left, the open resource or template on the right."""

    def __init__(self, workbench: Workbench) -> None:
        super().__init__(workbench, noun="resources", placeholder="Search resources and templates…")
        self.open_item: Resource | ResourceTemplate | None = None
        self.form: FormView | None = None
        self.suggestions: Suggestions | None = None
        self.subscription: ResourceSubscription | None = None
        self.observation: Read | None = None
        self._read_uri: tuple[str, str] | None = None  # (server, uri) of the last read
        self._no_subscriptions: set[str] = set()
        self.card = widgets.HTML(markup.notice(EMPTY_HINT))
        self.card.add_class("wb-resource-card")
        self.form_box = widgets.VBox()
        self.read_button = widgets.Button(description="Read", icon="book", disabled=True)
        self.read_button.add_class("wb-read")
        self.read_button.on_click(lambda _: self.read())
        self.follow = widgets.Checkbox(description="Follow", indent=False, disabled=True)
        self.follow.add_class("wb-follow")
        self.follow.observe(self._on_follow, names="value")
        self.message = widgets.HTML()
        self.message.add_class("wb-resource-message")
        self.output = widgets.Output()
        self.output.add_class("wb-resource-result")
        buttons = widgets.HBox(
            [self.read_button, self.follow, self.message],
            layout=widgets.Layout(align_items="center", grid_gap="8px"),
        )
        panel = widgets.VBox(
            [self.card, self.form_box, buttons, self.output],
            layout=widgets.Layout(min_width="0", flex="1 1 60%"),
        )
        self.widget = widgets.HBox([self.list, panel], layout=widgets.Layout(grid_gap="12px"))
        self.widget.add_class("wb-resources")

    # -- listing --------------------------------------------------------------------------

    def _load(self) -> tuple[Sequence[Row], str]:
        resources = self.workbench.resources()
        templates = self.workbench.resource_templates()
        items: dict[str, Resource | ResourceTemplate] = {}
        rows: list[Row] = []
        for resource in resources:
            key = _key("resource", resource.server, resource.uri)
            items[key] = resource
            kind = resource.mime_type or "resource"
            rows.append(
                Row(
                    key,
                    resource.uri,
                    resource.server,
                    kind,
                    resource.title or resource.name,
                    resource.description or "",
                )
            )
        for template in templates:
            key = _key("template", template.server, template.uri_template)
            items[key] = template
            rows.append(
                Row(
                    key,
                    template.uri_template,
                    template.server,
                    "template",
                    template.title or template.name,
                    template.description or "",
                )
            )
        self.items = items
        return rows, failed_note({**resources.failed, **templates.failed})

    # -- opening and reading --------------------------------------------------------------

    def select(self, uri: str, server: str | None = None) -> None:
        """Open the resource or template ``uri`` as a click on its row does."""
        self._select(
            lambda item: _uri(item) == uri and (server is None or item.server == server),
            f"No resource or template {uri} is listed.",
        )

    def show(self, item: Resource | ResourceTemplate) -> None:
        """Open a resource (read at once) or a template (its form)."""
        self._unfollow()
        self.open_item = item
        self.message.value = ""
        self.read_button.disabled = False
        if self.suggestions is not None:
            self.suggestions.close()
        self.form = self.suggestions = None
        self.card.value = _card(item)
        if isinstance(item, Resource):
            self.form_box.children = ()
            self.read()
            return
        self.output.outputs = ()
        self.follow.disabled = True
        self.form = FormView(template_schema(item))
        template = item

        def complete(argument: str, typed: str, context: Any) -> list[str]:
            return self.workbench.complete(
                template.uri_template, argument, typed, server=template.server, context=context
            )

        self.suggestions = Suggestions(self.form.widget, template.variables, complete)
        self.form_box.children = (self.form.widget, self.suggestions.widget)
        if template.variables:
            self.suggestions.suggest(template.variables[0])

    def read(self) -> Read | None:
        """Read the open resource, or the open template with the form's values."""
        item = self.open_item
        if item is None:
            return None
        self._unfollow()
        if isinstance(item, Resource):
            uri, values = item.uri, {}
        else:
            assert self.form is not None
            try:
                values = self.form.arguments()
            except FormError as error:
                self.message.value = markup.span(str(error), tone="error")
                return None
            missing = [name for name in item.variables if not values.get(name)]
            self.form.show_problems([(name, "required but missing") for name in missing])
            uri = item.uri_template
        self.message.value = ""
        # Never raises: a refused or failed read is an error Observation, recorded too.
        observation = self.workbench.read_resource(uri, server=item.server, **values)
        self._show(observation)
        read_uri = observation.tool_id or uri
        self._read_uri = None if observation.is_error else (item.server, read_uri)
        self.follow.disabled = self._read_uri is None or item.server in self._no_subscriptions
        return observation

    def _show(self, observation: Read, note: str = "") -> None:
        """Show a read (from any thread: the Output's outputs are set, never entered)."""
        self.observation = observation
        view = ObservationView(observation, tool_id=observation.tool_id)
        self.output.outputs = mime_output(view)
        if note:
            self.message.value = markup.span(note, tone="muted")

    # -- following ------------------------------------------------------------------------

    def _on_follow(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self._subscribe()
        else:
            self._unfollow(keep_box=True)

    def _subscribe(self) -> None:
        if self._read_uri is None or self.subscription is not None:
            return
        server, uri = self._read_uri
        try:
            self.subscription = self.workbench.subscribe_resource(
                uri, server=server, on_update=self._on_update
            )
        except WorkbenchError as error:
            self._no_subscriptions.add(server)
            self.follow.value = False
            self.follow.disabled = True
            self.message.value = markup.span(str(error), tone="error")
            return
        self._show(self.subscription.latest, "following: updated in place as the server says")

    def _on_update(self, observation: Read) -> None:
        """A followed resource was re-read (on the bridge thread)."""
        subscription = self.subscription
        count = subscription.updates if subscription is not None else 0
        self._show(observation, f"following: {count} update{'s' if count != 1 else ''}")

    def _unfollow(self, *, keep_box: bool = False) -> None:
        subscription, self.subscription = self.subscription, None
        if subscription is not None:
            try:
                subscription.stop()
            except WorkbenchError as error:  # the server went away meanwhile
                self.message.value = markup.span(str(error), tone="error")
            else:
                self.message.value = markup.span("not following", tone="muted")
        if not keep_box and self.follow.value:
            self.follow.value = False

    def close(self) -> None:
        """Stop following (the browser closes the widgets)."""
        self._unfollow()
        if self.suggestions is not None:
            self.suggestions.close()


def _uri(item: Resource | ResourceTemplate) -> str:
    return item.uri if isinstance(item, Resource) else item.uri_template


def _card(item: Resource | ResourceTemplate) -> str:
    if isinstance(item, Resource):
        head, kind, mime = item.uri, "resource", item.mime_type
    else:
        head, kind, mime = item.uri_template, "template", item.mime_type
    title = item.title or item.name
    parts = [
        markup.line(
            markup.span(head, mono=True, bold=True),
            markup.span(f"{kind} of {item.server}", tone="muted"),
        ),
        markup.block(markup.esc(title)) if title else "",
        markup.block(markup.span(item.description, tone="muted")) if item.description else "",
        markup.block(markup.span(mime, tone="muted", mono=True)) if mime else "",
    ]
    return "".join(parts)
