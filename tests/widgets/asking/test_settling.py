"""A click made while the browser still holds back a field's last keystrokes answers with
them (``workbench/widgets/asking/settling.py``): the real demo server asks, the panel's
fields are changed the way a browser message changes them (``Widget.set_state``, which the
comm calls), and the held-back update arrives after the click, as ipywidgets sends it.
"""

from __future__ import annotations

import threading
import time

from tests.widgets.asking.test_asker import asked, demo, outcome  # noqa: F401  (fixture)
from tests.widgets.form.form_screen import field_input
from workbench.session import Workbench
from workbench.widgets.asking import NotebookAsker
from workbench.widgets.asking.panels import ElicitationPanel
from workbench.widgets.asking.settling import Settling


def test_a_quick_click_answers_with_the_keys_that_arrive_after_it(
    demo: tuple[Workbench, NotebookAsker],  # noqa: F811
) -> None:
    wb, asker = demo
    future = wb.submit("demo.book_table", {"restaurant": "Roma"})
    panel = asked(asker)
    assert isinstance(panel, ElicitationPanel)
    party = field_input(panel.form, "party_size")
    field_input(panel.form, "time").set_state({"index": 1})
    party.set_state({"value": "1"})  # the first key: sent at once
    panel.accept_button.click()  # the click overtakes the held-back "12"
    assert not panel.answered
    late = threading.Timer(0.05, party.set_state, args=({"value": "12"},))
    late.start()
    assert outcome(future) == "Booked a table at Roma for 12 people at 19:30, inside."
    late.join()


def test_a_click_long_after_the_last_key_acts_at_once(
    demo: tuple[Workbench, NotebookAsker],  # noqa: F811
) -> None:
    wb, asker = demo
    future = wb.submit("demo.book_table", {"restaurant": "Roma"})
    panel = asked(asker)
    field_input(panel.form, "time").set_state({"index": 2})
    field_input(panel.form, "party_size").set_state({"value": "4"})
    panel._settling.quiet = 0.01
    time.sleep(0.02)
    panel.accept_button.click()
    assert panel.answered  # no timer: answered in the click itself
    assert outcome(future) == "Booked a table at Roma for 4 people at 21:00, inside."


def test_children_added_later_are_watched_too() -> None:
    import ipywidgets as widgets

    box = widgets.VBox()
    settling = Settling(box)
    added = widgets.Text()
    box.children = (added,)
    assert settling.since_last() == float("inf")
    added.set_state({"value": "typed in the browser"})
    assert settling.since_last() < 1
