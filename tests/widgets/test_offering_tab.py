"""OfferingTab, the part the Prompts and Resources tabs share, through a tab of its own:
the listing loads on demand, a click (``selected``) opens the item behind the row, and a
changed listing is reloaded when the page asks next."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.widgets.offerings_helpers import labels, page_asks
from workbench.errors import WorkbenchError
from workbench.session import Workbench
from workbench.widgets.offering_list import Row
from workbench.widgets.offering_tab import OfferingTab, failed_note


class WordsTab(OfferingTab[str]):
    """A tab listing words; opening one remembers it."""

    def __init__(self, workbench: Workbench, words: list[str]) -> None:
        super().__init__(workbench, noun="words", placeholder="Search words…")
        self.words = words
        self.opened: list[str] = []

    def _load(self) -> tuple[Sequence[Row], str]:
        self.items = {f"word:{word}": word for word in self.words}
        rows = [Row(key, word, "dictionary", "word") for key, word in self.items.items()]
        return rows, failed_note({"thesaurus": "gone"})

    def show(self, item: str) -> None:
        self.opened.append(item)

    def select(self, word: str) -> None:
        self._select(lambda item: item == word, f"No word {word} is listed.")


def test_a_tab_lists_on_demand_and_opens_what_is_clicked(wb: Workbench) -> None:
    tab = WordsTab(wb, ["apple", "pear"])
    assert not tab.loaded
    tab.load()
    assert tab.loaded and labels(tab.list.answer) == ["apple", "pear"]
    assert "thesaurus failed: gone" in tab.list.answer["note"]
    tab.list.selected = "word:pear"  # a click on the row
    tab.select("apple")
    assert tab.opened == ["pear", "apple"]
    with pytest.raises(WorkbenchError, match="No word plum is listed"):
        tab.select("plum")


def test_a_changed_listing_is_reloaded_when_the_page_asks_next(wb: Workbench) -> None:
    tab = WordsTab(wb, ["apple"])
    tab.refresh()  # before the first load: nothing to mark
    assert tab.list.stale == 0
    tab.load()
    tab.words.append("plum")
    tab.refresh()
    assert tab.list.stale == 1
    assert labels(page_asks(tab.list)) == ["apple", "plum"]


def test_the_note_names_each_failed_server() -> None:
    assert failed_note({}) == ""
    assert (
        failed_note({"a": "timed out", "b": "refused"}) == "a failed: timed out; b failed: refused"
    )
