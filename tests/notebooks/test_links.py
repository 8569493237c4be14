"""The teaching notebooks name each other only as relative links (``[x.ipynb](x.ipynb)``), so a
click opens the reader's own working copy next to the one they are reading (``workshop/``
under ``make lab``), never as a path to type (``notebooks/x.ipynb``)."""

from __future__ import annotations

import re

import pytest

from tests.notebooks.executed import NOTEBOOKS, read

LINK = re.compile(r"\[([\w-]+\.ipynb)\]\(([\w-]+\.ipynb)\)")


@pytest.mark.parametrize("name", sorted(path.name for path in NOTEBOOKS.glob("*.ipynb")))
def test_notebooks_are_named_as_links_to_the_copy_beside_this_one(name: str) -> None:
    for cell in read(name).cells:
        if cell.cell_type != "markdown":
            continue
        for text, target in LINK.findall(cell.source):
            assert text == target and (NOTEBOOKS / target).is_file(), (cell.id, text, target)
        unlinked = re.findall(r"\S*\.ipynb\b", LINK.sub("", cell.source))
        assert not unlinked, f"{name} {cell.id}: link these as [x.ipynb](x.ipynb): {unlinked}"
