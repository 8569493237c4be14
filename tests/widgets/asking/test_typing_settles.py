"""The boxes a person types an answer into sync when they change, not at each key: ipywidgets
holds per-key updates while an earlier one awaits a busy kernel but sends a button's click at
once, so a click could read a reply without its last keys (seen in the browser test
test_lab_asking under load: 23 of 27 typed characters sent). The change event fires before
the click that blurs the box."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from workbench.features.asking import ElicitationRequest, SamplingMessage, SamplingRequest
from workbench.widgets.asking.panels import ElicitationPanel, SamplingPanel
from workbench.widgets.asking.sign_in import SignInPanel


def typed_boxes(root: Any) -> list[Any]:
    """Every Text and Textarea under ``root``."""
    found, todo = [], [root]
    while todo:
        widget = todo.pop()
        if isinstance(widget, (widgets.Text, widgets.Textarea)):
            found.append(widget)
        todo.extend(getattr(widget, "children", ()))
    return found


def test_the_sampling_reply_box_syncs_on_change() -> None:
    panel = SamplingPanel(SamplingRequest("demo", [SamplingMessage("user", "Hi")]))
    assert panel.reply.continuous_update is False


def test_every_text_field_of_a_question_form_syncs_on_change() -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "size": {"type": "integer"},
                       "note": {"type": "string", "maxLength": 2000}},
    }  # fmt: skip
    panel = ElicitationPanel(ElicitationRequest("demo", "Who?", schema))
    boxes = typed_boxes(panel.widget)
    assert len(boxes) >= 3
    assert all(box.continuous_update is False for box in boxes), boxes


def test_the_sign_in_paste_box_syncs_on_change() -> None:
    panel = SignInPanel("demo", "https://auth.example/authorize?x=1", listening=False)
    assert panel.paste.continuous_update is False
