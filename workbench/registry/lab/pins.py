"""Which tools to pin: those the requests expect often and search misses often.

A pinned tool is listed directly beside ``find_tools`` / ``call_tool`` on a served gateway
(``%mcp serve --gateway --pin a,b``), so an agent calls it without searching for it. Pinning
costs tokens on every turn (the tool's full schema), so the lab names few: the tools with
the most misses, a miss counted twice when the tool is not even in the first five (an agent
asking ``find_tools`` for five never sees it), ties broken by how often it is expected.
A request that several tools answer counts for each of them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from workbench.registry.proxy import estimate_tokens

if TYPE_CHECKING:
    from collections.abc import Iterator

    from workbench.registry.lab.lab import SearchLab
    from workbench.registry.lab.report import SearchReport
    from workbench.registry.registry import Registry

__all__ = ["PinSuggestion", "PinSuggestions", "suggest_pins"]

TOP = 5


@dataclass(frozen=True)
class PinSuggestion:
    """One tool's case for a pin."""

    id: str
    expected: int
    """Requests that expect it."""
    missed: int
    """Of those, how many did not find it first."""
    beyond_top5: int
    """Of those, how many did not find it among the first five."""
    tokens: int
    """Estimated tokens of listing its full schema (one per four characters)."""

    @property
    def score(self) -> int:
        return self.missed + self.beyond_top5


@dataclass
class PinSuggestions:
    """The tools to pin, best case first; ``flag`` is the ``%mcp serve`` option."""

    pins: list[PinSuggestion]
    method: str

    @property
    def ids(self) -> list[str]:
        return [pin.id for pin in self.pins]

    @property
    def flag(self) -> str:
        """``--gateway --pin a,b`` for ``%mcp serve`` (empty when nothing needs a pin)."""
        return f"--gateway --pin {','.join(self.ids)}" if self.pins else ""

    @property
    def tokens(self) -> int:
        """Estimated tokens the pins add to every turn of an agent."""
        return sum(pin.tokens for pin in self.pins)

    def __iter__(self) -> Iterator[PinSuggestion]:
        return iter(self.pins)

    def __len__(self) -> int:
        return len(self.pins)

    def __repr__(self) -> str:
        if not self.pins:
            return f"No pins suggested ({self.method}): no expected tool was missed."
        lines = [f"Pins suggested ({self.method}): %mcp serve {self.flag}  (~{self.tokens:,} "
                 "tokens a turn)"]  # fmt: skip
        for pin in self.pins:
            lines.append(
                f"  {pin.id}: missed {pin.missed} of {pin.expected} (not in the top 5: "
                f"{pin.beyond_top5}); ~{pin.tokens:,} tokens"
            )
        return "\n".join(lines)

    def _repr_mimebundle_(self, **_: Any) -> dict[str, str]:
        head = "".join(
            f"<th>{h}</th>" for h in ("tool", "expected", "missed", "not in top 5", "tokens")
        )
        rows = "".join(
            f"<tr><td><code>{escape(p.id)}</code></td><td>{p.expected}</td><td>{p.missed}</td>"
            f"<td>{p.beyond_top5}</td><td>~{p.tokens:,}</td></tr>"
            for p in self.pins
        )
        flag = f"<p><code>%mcp serve {escape(self.flag)}</code></p>" if self.pins else ""
        html = (
            f"<div><h4>Pins suggested ({escape(self.method)})</h4>{flag}"
            f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>"
        )
        return {"text/plain": repr(self), "text/html": html}


def suggest_pins(
    lab: SearchLab, k: int = 3, *, report: SearchReport | None = None
) -> PinSuggestions:
    """At most ``k`` tools worth pinning, from ``report`` (default: the lab's report now)."""
    measured = report if report is not None else lab.report
    counts: dict[str, list[int]] = {}
    for outcome in measured.outcomes:
        for tool_id in outcome.expected or ():
            expected, missed, beyond = counts.setdefault(tool_id, [0, 0, 0])
            rank = outcome.rank
            counts[tool_id] = [
                expected + 1,
                missed + (rank != 1),
                beyond + (rank is None or rank > TOP),
            ]
    found = [
        PinSuggestion(tool_id, e, m, b, _tokens(lab.registry, tool_id))
        for tool_id, (e, m, b) in counts.items()
        if m and tool_id in lab.registry
    ]
    found.sort(key=lambda pin: (-pin.score, -pin.expected, pin.tokens, pin.id))
    return PinSuggestions(found[: max(k, 0)], measured.method)


def _tokens(registry: Registry, tool_id: str) -> int:
    entry = registry.get(tool_id)
    spec = {"name": entry.name, "description": entry.description, "inputSchema": entry.input_schema}
    return estimate_tokens(json.dumps(spec, separators=(",", ":")))
