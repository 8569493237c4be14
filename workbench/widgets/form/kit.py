"""The ipywidgets every node of one form shares: layouts, styles, and how labels and error
lines look.

Each ipywidget is a model of its own (a comm in a kernel), layouts and styles included; one
form sharing them builds several times faster and sends several times fewer messages.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as widgets
from ipywidgets.widgets.widget_bool import CheckboxStyle
from ipywidgets.widgets.widget_button import ButtonStyle
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle, TextStyle

from workbench.display import markup
from workbench.display.style import BORDER, CSS_COLOR
from workbench.widgets.form.fields import ConstField, FormField

DESCRIPTION_CHARS = 300
"""Longer descriptions are cut under the label; the input's tooltip has all of it."""


class Kit:
    """The layouts and styles of one form, and the constructors that use them.

    Classes and tooltips go to the constructors: set afterwards, each is one more message.
    """

    def __init__(self) -> None:
        # Grows to fill an array item's row; in a column there is no room to grow into.
        self.field = widgets.Layout(margin="2px 0 6px 0", min_width="0", flex="1 1 auto")
        self.group = widgets.Layout(
            border_left=f"2px solid {BORDER}", padding="2px 0 2px 10px", margin="2px 0"
        )
        self.plain = widgets.Layout(min_width="0")
        self.input = widgets.Layout(width="min(100%, 32em)")
        self.area = widgets.Layout(width="100%", height="7em")
        self.auto = widgets.Layout(width="auto", align_self="flex-start")  # never stretched
        self.head = widgets.Layout(align_items="center", min_width="0")
        self.row = widgets.Layout(align_items="flex-start", width="100%")
        self.text_style = TextStyle()
        self.html = HTMLStyle()
        self.check = CheckboxStyle()
        self.choice = DescriptionStyle()
        self.button_style = ButtonStyle()

    def label(self, field: FormField) -> Any:
        """The field's name, a red star when required, its description as a muted line."""
        classes = ("wb-label", "wb-required") if starred(field) else ("wb-label",)
        return self.note(label_html(field), classes)

    def note(self, html: str, classes: tuple[str, ...] = ()) -> Any:
        """A line of HTML (a label, a muted note, an error)."""
        return widgets.HTML(html, layout=self.plain, style=self.html, _dom_classes=classes)

    def box(
        self, children: Any, layout: Any, classes: tuple[str, ...] = (), *, row: bool = False
    ) -> Any:
        """A ``VBox`` (an ``HBox`` when ``row``)."""
        kind = widgets.HBox if row else widgets.VBox
        return kind(children, layout=layout, _dom_classes=classes)

    def text(
        self, value: str, placeholder: str, traits: dict[str, Any], *, long: bool = False
    ) -> Any:
        """A one-line ``Text``, or a ``Textarea`` when ``long``."""
        kind = widgets.Textarea if long else widgets.Text
        layout = self.area if long else self.input
        return kind(
            value=value, placeholder=placeholder, layout=layout, style=self.text_style, **traits
        )

    def dropdown(
        self, options: list[tuple[str, int]], value: int | None, traits: dict[str, Any]
    ) -> Any:
        """A ``Dropdown`` whose values are indexes (labels may repeat; ``1 == True`` is no
        trouble)."""
        return widgets.Dropdown(
            options=options, value=value, layout=self.input, style=self.choice, **traits
        )

    def checkbox(self, value: bool, description: str, traits: dict[str, Any]) -> Any:
        """A ``Checkbox`` without the indent ipywidgets leaves for a description column."""
        return widgets.Checkbox(
            value=value,
            description=description,
            indent=False,
            layout=self.auto,
            style=self.check,
            **traits,
        )

    def button(
        self, description: str, icon: str, tooltip: str, on_click: Callable[[], Any], *classes: str
    ) -> Any:
        """A small button calling ``on_click``."""
        button = widgets.Button(
            description=description,
            icon=icon,
            tooltip=tooltip,
            layout=self.auto,
            style=self.button_style,
            _dom_classes=classes,
        )
        button.on_click(lambda _: on_click())
        return button


def starred(field: FormField) -> bool:
    """Whether the label gets the red star: required, and not a constant (always sent)."""
    return field.required and not isinstance(field, ConstField)


def label_html(field: FormField) -> str:
    """The label: display name, the name when it differs, the star, the description."""
    name = markup.span(field.display_name, bold=True)
    if field.name and field.name != field.display_name:
        name += " " + markup.span(field.name, tone="muted", mono=True)
    if starred(field):
        star = f'<span style="color:{CSS_COLOR["error"]}" title="required">*</span>'
        name += " " + star
    description = field.description or ""
    if len(description) > DESCRIPTION_CHARS:
        description = description[: DESCRIPTION_CHARS - 1].rstrip() + "…"
    if description:
        style = f"font-size:11px;line-height:1.35;color:{CSS_COLOR['muted']}"
        name += f'<div style="{style}">{markup.esc(description)}</div>'
    return f'<div style="line-height:1.4">{name}</div>'


def error_html(lines: Sequence[tuple[str, str | None]]) -> str:
    """Error lines, one per message; a detail (the pattern, the format) is the line's
    ``title``, a tooltip for whoever wants more than the sentence."""
    shown = []
    for message, detail in lines:
        title = f' title="{markup.esc(detail)}"' if detail else ""
        shown.append(
            f'<div style="font-size:12px"{title}>{markup.span(message, tone="error")}</div>'
        )
    return "".join(shown)
