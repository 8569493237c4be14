"""OfferingList's notes: counts in words that agree with the number."""

from __future__ import annotations

from workbench.widgets.offering_list import OfferingList, Row

GUIDE = Row("demo://guide", "guide", "demo", "resource", description="How to use the demo.")
NOTES = Row("demo://notes", "notes", "demo", "resource", description="Meeting notes.")


def test_one_resource_is_one_resource() -> None:
    rows = [GUIDE]
    listing = OfferingList(lambda: (rows, ""), noun="resources", placeholder="Search…")
    listing.load()
    assert listing.answer["note"] == "1 resource"
    listing.search("guide")
    assert listing.answer["note"] == "1 of 1 resource"
    rows.append(NOTES)
    listing.load()
    assert listing.answer["note"] == "1 of 2 resources"
    listing.search("")
    assert listing.answer["note"] == "2 resources"
