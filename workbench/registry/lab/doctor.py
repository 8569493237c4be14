"""The description doctor: would other words in one tool's description find it more often?

``SearchLab.try_description(tool_id, text)`` builds two copies of the catalog's index, one as
it is and one with that tool's description replaced by ``text``, runs the lab's requests on
both with the same method, and shows the change per metric, for the requests that expect the
tool, and for every request whose rank moved (a better description can take another tool's
requests). It also suggests words: those of the tool's missed requests that reach nothing in
its name, title, description or parameters. Only the registry's copy of the tool's text is
read; nothing is sent to any server, and the registry itself is left as it was.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from workbench.registry.lab.evaluate import run
from workbench.registry.lab.explain import matched_terms
from workbench.registry.lab.methods import Method, method_named
from workbench.registry.lab.render import bar_chart, percent
from workbench.registry.lab.report import KindFigures, Outcome, SearchReport
from workbench.registry.search import SearchIndex
from workbench.registry.vocabulary import STOPWORDS, words

if TYPE_CHECKING:
    from workbench.registry.entry import ToolEntry
    from workbench.registry.lab.lab import SearchLab
    from workbench.registry.registry import Registry

__all__ = ["DescriptionTrial", "Moved", "suggest_words", "try_description"]

METRICS = ("top1", "top5", "mrr", "no_match_precision", "no_match_recall")
SUGGESTED = 12
MIN_WORD = 3


@dataclass(frozen=True)
class Moved:
    """A request whose rank (or "nothing fits" answer) changed with the new text."""

    text: str
    expected: tuple[str, ...] | None
    before: int | None
    after: int | None
    better: bool
    flagged_before: bool = False
    """Whether search said "nothing fits" (right for a request nothing answers)."""
    flagged_after: bool = False

    def change(self) -> str:
        """``rank 3 -> 1``, and what happened to the "nothing fits" flag."""
        shown = f"rank {_rank(self.before)} -> {_rank(self.after)}"
        if self.flagged_before != self.flagged_after:
            shown += ", now says" if self.flagged_after else ", no longer says"
            shown += ' "nothing fits"'
        return shown


@dataclass
class DescriptionTrial:
    """Figures before and after one tool's description was replaced in a copy of the index."""

    tool_id: str
    old_text: str
    text: str
    before: SearchReport
    after: SearchReport
    suggestions: list[str]
    """Words of this tool's requests missed with the new text that still reach nothing of it."""

    @property
    def method(self) -> str:
        return self.after.method

    @property
    def tool_before(self) -> KindFigures:
        """Top-1, top-5 and MRR of the requests that expect this tool, before."""
        return KindFigures.of(_expecting(self.before.outcomes, self.tool_id))

    @property
    def tool_after(self) -> KindFigures:
        return KindFigures.of(_expecting(self.after.outcomes, self.tool_id))

    def changes(self) -> dict[str, tuple[float | None, float | None]]:
        """Each metric overall (``top1``...), then this tool's (``tool top1``...), as
        ``(before, after)``."""
        found = {m: (getattr(self.before, m), getattr(self.after, m)) for m in METRICS}
        for metric in ("top1", "top5", "mrr"):
            found[f"tool {metric}"] = (
                getattr(self.tool_before, metric),
                getattr(self.tool_after, metric),
            )
        return found

    @property
    def moved(self) -> list[Moved]:
        """Every request answered differently, this tool's first."""
        found = []
        for old, new in zip(self.before.outcomes, self.after.outcomes, strict=True):
            if (old.rank, old.no_good_match) == (new.rank, new.no_good_match):
                continue
            better = _score(new) > _score(old)
            found.append(Moved(old.request.text, old.expected, old.rank, new.rank, better,
                               old.no_good_match, new.no_good_match))  # fmt: skip
        return sorted(found, key=lambda m: self.tool_id not in (m.expected or ()))

    def __repr__(self) -> str:
        lines = [
            f"DescriptionTrial of {self.tool_id} ({self.method}, {len(self.before.outcomes)} "
            f"requests, {self.tool_before.n} expecting it)"
        ]
        for metric, (old, new) in self.changes().items():
            shown = f"{_figure(metric, old):>7} -> {_figure(metric, new):>7}"
            lines.append(f"  {metric:<20} {shown}{_delta(old, new, metric)}")
        for moved in self.moved:
            sign = "+" if moved.better else "-"
            lines.append(f"  {sign} {moved.text!r}: {moved.change()}")
        if self.suggestions:
            lines.append(f"  words its missed requests use and it never does: "
                         f"{', '.join(self.suggestions)}")  # fmt: skip
        return "\n".join(lines)

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        return {"text/plain": repr(self), "text/html": trial_html(self)}


def try_description(
    lab: SearchLab, tool_id: str, text: str, *, method: str | Method | None = None
) -> DescriptionTrial:
    """The lab's requests scored with ``tool_id``'s description as it is and as ``text``,
    in two copies of the index built the same way (``method``: a lab method name; by
    default the registry's own kind of search: keyword, semantic or its embedder)."""
    registry = lab.registry
    entry = registry.get(tool_id)
    entries = registry.tools()
    changed = [dataclasses.replace(e, description=text) if e.id == entry.id else e
               for e in entries]  # fmt: skip
    chosen = method if method is not None else default_method(registry)

    def measured(catalog: list[ToolEntry]) -> tuple[SearchReport, SearchIndex | None]:
        built = method_named(chosen, registry) if isinstance(chosen, str) else chosen
        built.build(catalog)
        return run(registry, built, lab.requests, limit=lab.limit), built.keyword_index

    before, _ = measured(entries)
    after, index = measured(changed)
    still = [o for o in _expecting(after.outcomes, entry.id) if o.rank != 1]
    found = suggest_words(index, entry.id, [o.request.text for o in still]) if index else []
    return DescriptionTrial(entry.id, entry.description, text, before, after, found)


def default_method(registry: Registry) -> str:
    """The lab method that rebuilds the registry's own search: its embedder's, the
    semantic mode's, or keyword."""
    if getattr(registry, "embedder", None) is not None:
        return "embedder"
    return "semantic" if registry._semantic is not None else "keyword"


def suggest_words(index: SearchIndex, tool_id: str, texts: Sequence[str]) -> list[str]:
    """Words of ``texts`` that reach nothing of ``tool_id`` in ``index`` (not even through a
    synonym, a typo fix or a completion), most used first."""
    counts: Counter[str] = Counter()
    for text in texts:
        reached = {m.split("→")[0] for m in matched_terms(index, text, [tool_id]).get(tool_id, ())}
        for word in dict.fromkeys(words(text)):
            if word in STOPWORDS or word in reached or len(word) < MIN_WORD or word.isdigit():
                continue
            counts[word] += 1
    return [word for word, _ in counts.most_common(SUGGESTED)]


def trial_html(trial: DescriptionTrial) -> str:
    """The trial as a table of metrics with their change, bars before and after, the moved
    requests and the suggested words (every word escaped; the chart is plain SVG)."""
    rows = "".join(
        f"<tr><td>{escape(metric)}</td><td>{_figure(metric, old)}</td>"
        f"<td>{_figure(metric, new)}</td><td>{escape(_delta(old, new, metric).strip())}</td></tr>"
        for metric, (old, new) in trial.changes().items()
    )
    table = (
        "<table><thead><tr><th></th><th>before</th><th>after</th><th>change</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )
    chart = bar_chart([("all, before", trial.before), ("all, after", trial.after),
                       (f"{trial.tool_id}, before", trial.tool_before),
                       (f"{trial.tool_id}, after", trial.tool_after)])  # fmt: skip
    moved = "".join(
        f"<li>{'▲' if m.better else '▼'} {escape(m.text)}: {escape(m.change())}</li>"
        for m in trial.moved
    )
    words_line = ", ".join(escape(word) for word in trial.suggestions) or "none"
    return (
        f"<div><h4>Description doctor: {escape(trial.tool_id)} ({escape(trial.method)})</h4>"
        f"<p><small>Now: {escape(trial.old_text)}</small><br>"
        f"<small>Tried: {escape(trial.text)}</small></p>{table}{chart}"
        f"<p>Requests answered differently: {len(trial.moved)}</p><ul>{moved}</ul>"
        f"<p>Words its missed requests use and it never does: {words_line}</p></div>"
    )


def _expecting(outcomes: Sequence[Outcome], tool_id: str) -> list[Outcome]:
    return [o for o in outcomes if o.expected is not None and tool_id in o.expected]


def _score(outcome: Outcome) -> tuple[float, bool]:
    """Reciprocal rank (a request nothing answers: 1 when flagged), then whether the
    "nothing fits" flag is right."""
    right = outcome.no_good_match == (outcome.expected is None)
    if outcome.expected is None:
        return (1.0 if outcome.no_good_match else 0.0), right
    return (1 / outcome.rank if outcome.rank else 0.0), right


def _rank(rank: int | None) -> str:
    return str(rank) if rank else "–"


def _figure(metric: str, value: float | None) -> str:
    """MRR as a number (0 to 1), the other metrics as percentages."""
    if value is None or not metric.endswith("mrr"):
        return percent(value)
    return f"{value:.3f}"


def _delta(old: float | None, new: float | None, metric: str = "") -> str:
    if old is None or new is None or abs(new - old) < 1e-9:
        return ""
    if metric.endswith("mrr"):
        return f"  ({new - old:+.3f})"
    return f"  ({100 * (new - old):+.1f} points)"
