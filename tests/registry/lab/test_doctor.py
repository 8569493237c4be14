"""The description doctor on the real demo server's catalog: a better description moves the
tool's figures in a copy of the index, the registry is left as it was, the words the missed
requests use and the tool never does are suggested, and what it shows is escaped."""

from __future__ import annotations

from typing import Any

from tests.registry.lab.embedders import HashingEmbedder
from workbench import Registry
from workbench.registry.lab.doctor import DescriptionTrial

REQUESTS: list[dict[str, Any]] = [
    {"text": "what's on my agenda this week", "expected": ["demo.list_events"], "kind": "p"},
    {"text": "show my upcoming appointments", "expected": ["demo.list_events"], "kind": "p"},
    {"text": "schedule a meeting with Sam on Friday", "expected": ["demo.create_event"]},
    {"text": "add two numbers", "expected": ["demo.add"], "kind": "lexical"},
    {"text": "transfer money to my landlord", "expected": None, "kind": "no_answer"},
]
BETTER = (
    "List the events of the calendar: the agenda, upcoming appointments and meetings, "
    "earliest first."
)


def test_a_better_description_moves_the_tools_figures(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS)
    before = lab.report
    old = demo_registry.get("demo.list_events").description
    trial = lab.try_description("list_events", BETTER)  # a bare name resolves
    assert isinstance(trial, DescriptionTrial)
    assert trial.tool_id == "demo.list_events"
    assert trial.old_text == old and trial.method == "keyword"

    assert trial.before.top1 == before.top1  # the copy as it is ranks as the registry does
    assert (trial.tool_before.n, trial.tool_before.top1) == (2, 0.5)
    assert trial.tool_after.top1 == 1.0
    changes = trial.changes()
    assert changes["top1"] == (0.5, 0.75) and changes["tool top1"] == (0.5, 1.0)
    [agenda, *_] = trial.moved  # the tool's own requests first
    assert agenda.text == "what's on my agenda this week" and agenda.better
    assert (agenda.before, agenda.after) == (None, 1)

    assert demo_registry.get("demo.list_events").description == old  # the registry is intact
    ranks = [(row["rank"], row["no_good_match"]) for row in before.rows()]
    assert [(row["rank"], row["no_good_match"]) for row in lab.report.rows()] == ranks
    shown = repr(trial)
    assert "tool top1              50.0% ->  100.0%  (+50.0 points)" in shown
    assert '"what\'s on my agenda this week": rank – -> 1' in shown


def test_suggests_the_missed_requests_words_the_tool_never_uses(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS)
    same = demo_registry.get("demo.list_events").description
    trial = lab.try_description("demo.list_events", same)
    assert trial.changes()["top1"] == (0.5, 0.5) and not trial.moved
    assert trial.suggestions == ["agenda", "week"]  # "what's", "on", "my": filler or reached
    assert "never does: agenda, week" in repr(trial)
    fixed = lab.try_description("demo.list_events", same + " Your agenda for the week.")
    moved = {m.text: (m.before, m.after, m.better) for m in fixed.moved}
    assert moved["what's on my agenda this week"] == (None, 1, True)
    assert moved["show my upcoming appointments"] == (1, 2, False)  # a longer text, diluted
    assert fixed.suggestions == ["show", "upcoming"]  # from the request it now misses


def test_a_trial_that_takes_another_tools_request_says_so(demo_registry: Registry) -> None:
    lab = demo_registry.lab(
        [{"text": "put a meeting in my calendar", "expected": ["create_event"]}]
    )
    greedy = "Put a meeting in the calendar, add an event; or list the events."
    trial = lab.try_description("demo.list_events", greedy)
    [moved] = trial.moved
    assert not moved.better and (moved.before, moved.after) == (1, 2)
    assert trial.changes()["top1"] == (1.0, 0.0)
    assert "- 'put a meeting in my calendar': rank 1 -> 2" in repr(trial)


def test_the_trial_shows_every_word_escaped(demo_registry: Registry) -> None:
    lab = demo_registry.lab(REQUESTS)
    trial = lab.try_description("demo.list_events", "<script>alert(1)</script> agenda")
    html = trial._repr_mimebundle_()["text/html"]
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<svg" in html and "<script" not in html.split("<svg")[1]


def test_with_an_embedder_the_trial_rebuilds_the_embedder_search(demo_registry: Registry) -> None:
    embedder = HashingEmbedder()
    demo_registry.set_embedder(embedder)
    lab = demo_registry.lab(REQUESTS)
    assert lab.report.method == "search"
    seen = len(embedder.texts)  # every tool's text and every request, once
    trial = lab.try_description("demo.list_events", BETTER)
    assert trial.method == "embedder"
    assert trial.tool_after.top1 == 1.0 > trial.tool_before.top1
    new = embedder.texts[seen:]
    assert sum(BETTER in text for text in new) == 1  # the new text, embedded once
    assert not [text for text in new if "Add two numbers" in text]  # the rest from the cache
