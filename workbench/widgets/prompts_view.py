"""PromptsView: the prompts of every connected server, filled in and got.

Selecting a prompt shows its description and a form of its arguments (text fields, the
required ones starred) with the server's completions as suggestions (the other fields'
values sent as context); Get runs ``Workbench.get_prompt`` and shows the PromptResult
through the view installed for it, as a cell shows it. A missing required argument is the
Workbench's own ``InvalidArgumentsError``, shown under the form and its fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from workbench.display import markup
from workbench.errors import FormError, InvalidArgumentsError, WorkbenchError
from workbench.features.prompts import Prompt, PromptResult
from workbench.widgets.form import FormView
from workbench.widgets.offering_list import Row
from workbench.widgets.offering_tab import OfferingTab, failed_note
from workbench.widgets.suggestions import Suggestions, mime_output

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from workbench.session import Workbench

EMPTY_HINT = "Pick a prompt to see its arguments and get its messages."


def prompt_schema(prompt: Prompt) -> dict[str, Any]:
    """One string field per argument, described as the server describes it."""
    properties: dict[str, Any] = {}
    for argument in prompt.arguments:
        field: dict[str, Any] = {"type": "string"}
        if argument.description:
            field["description"] = argument.description
        properties[argument.name] = field
    required = [argument.name for argument in prompt.arguments if argument.required]
    return {"type": "object", "properties": properties, "required": required}


class PromptsView(OfferingTab[Prompt]):
    """The Prompts tab: the list on the left, the open prompt's form and messages on the right."""

    def __init__(self, workbench: Workbench) -> None:
        super().__init__(workbench, noun="prompts", placeholder="Search prompts…")
        self.prompt: Prompt | None = None
        self.form: FormView | None = None
        self.suggestions: Suggestions | None = None
        self.result: PromptResult | None = None
        self.card = widgets.HTML(markup.notice(EMPTY_HINT))
        self.card.add_class("wb-prompt-card")
        self.form_box = widgets.VBox()
        self.get_button = widgets.Button(
            description="Get", icon="comments", button_style="primary", disabled=True
        )
        self.get_button.add_class("wb-get-prompt")
        self.get_button.on_click(lambda _: self.get())
        self.message = widgets.HTML()
        self.message.add_class("wb-prompt-message")
        self.output = widgets.Output()
        self.output.add_class("wb-prompt-result")
        panel = widgets.VBox(
            [
                self.card,
                self.form_box,
                widgets.HBox([self.get_button, self.message]),
                self.output,
            ],
            layout=widgets.Layout(min_width="0", flex="1 1 60%"),
        )
        self.widget = widgets.HBox([self.list, panel], layout=widgets.Layout(grid_gap="12px"))
        self.widget.add_class("wb-prompts")

    def _load(self) -> tuple[Sequence[Row], str]:
        prompts = self.workbench.prompts()
        self.items = {f"prompt:{p.server}:{p.name}": p for p in prompts}
        rows = [
            Row(key, p.name, p.server, "prompt", p.title or "", p.description or "")
            for key, p in self.items.items()
        ]
        return rows, failed_note(prompts.failed)

    def select(self, name: str, server: str | None = None) -> None:
        """Open prompt ``name`` as a click on its row does."""
        self._select(
            lambda prompt: prompt.name == name and (server is None or prompt.server == server),
            f"No prompt {name} is listed.",
        )

    def show(self, prompt: Prompt, arguments: Mapping[str, Any] | None = None) -> None:
        """Open a prompt: its card and a fresh form (filled with ``arguments`` if given)."""
        if self.suggestions is not None:
            self.suggestions.close()
        self.prompt = prompt
        self.card.value = _card(prompt)
        self.form = FormView(prompt_schema(prompt), arguments=arguments)
        names = [argument.name for argument in prompt.arguments]

        def complete(argument: str, typed: str, context: Mapping[str, str]) -> list[str]:
            return self.workbench.complete(
                prompt.name, argument, typed, server=prompt.server, context=context
            )

        self.suggestions = Suggestions(self.form.widget, names, complete)
        self.form_box.children = (self.form.widget, self.suggestions.widget)
        self.get_button.disabled = False
        self.message.value = ""
        self.output.outputs = ()
        self.result = None
        if names:
            self.suggestions.suggest(names[0])

    def get(self) -> PromptResult | None:
        """Get the open prompt's messages with the form's arguments and show them."""
        if self.prompt is None or self.form is None:
            return None
        try:
            arguments = self.form.arguments()
        except FormError as error:
            self.message.value = markup.span(str(error), tone="error")
            return None
        prompt = self.prompt
        try:
            result = self.workbench.get_prompt(prompt.name, arguments, server=prompt.server)
        except InvalidArgumentsError as error:
            self.form.show_problems(error.problems)
            self.message.value = markup.span(str(error), tone="error")
            return None
        except WorkbenchError as error:
            self.message.value = markup.span(str(error), tone="error")
            return None
        self.message.value = ""
        self.result = result
        self.output.outputs = mime_output(result)
        return result

    def close(self) -> None:
        if self.suggestions is not None:
            self.suggestions.close()


def _card(prompt: Prompt) -> str:
    head = markup.line(
        markup.span(prompt.name, mono=True, bold=True),
        markup.span(f"prompt of {prompt.server}", tone="muted"),
    )
    title = markup.block(markup.esc(prompt.title)) if prompt.title else ""
    description = (
        markup.block(markup.span(prompt.description, tone="muted")) if prompt.description else ""
    )
    return head + title + description
