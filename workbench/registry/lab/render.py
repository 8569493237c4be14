"""How lab results show themselves: text for a terminal, HTML with an SVG chart for a notebook.

Every word shown (requests, ids, kinds) is escaped; the chart is plain SVG (no script), so a
server's tool names can only ever be text here.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.registry.lab.report import KindFigures, Miss, SearchReport

MISSES_SHOWN_TEXT = 10
MISSES_SHOWN_HTML = 50
ABOVE_SHOWN = 3
BAR_WIDTH = 220
BAR_HEIGHT = 12
LABEL_WIDTH = 150
METRICS = (("top1", "top-1", "#3b7dd8"), ("top5", "top-5", "#7fb0ec"), ("mrr", "MRR", "#e39b3b"))


def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _figures_line(f: KindFigures | SearchReport) -> str:
    return f"top-1 {percent(f.top1)}  top-5 {percent(f.top5)}  MRR {f.mrr:.3f}"


def _matched(words: Sequence[str]) -> str:
    return ", ".join(words) if words else "no query word"


def _miss_text(miss: Miss) -> str:
    kind = f" [{miss.kind}]" if miss.kind else ""
    if not miss.expected:
        where = "nothing should match, but search offered"
    else:
        rank = f"rank {miss.rank}" if miss.rank else "not in the list"
        where = f"expected {' / '.join(miss.expected)} ({rank}); above it"
    above = "; ".join(f"{r.id} ({_matched(r.matched)})" for r in miss.above[:ABOVE_SHOWN])
    return f"  {miss.text!r}{kind}: {where}: {above or '(nothing)'}"


def report_text(report: SearchReport) -> str:
    lines = [
        f"SearchReport ({report.method}): {len(report.outcomes)} requests, {report.n} answerable",
        f"  {_figures_line(report)}",
    ]
    if report.no_match_recall is not None or report.no_match_precision is not None:
        lines.append(
            f"  nothing fits: precision {percent(report.no_match_precision)}, "
            f"recall {percent(report.no_match_recall)} ({report.n_unanswerable} unanswerable)"
        )
    for kind, figures in report.by_kind.items():
        lines.append(f"  {kind} (n={figures.n}): {_figures_line(figures)}")
    if report.misses:
        shown = report.misses[:MISSES_SHOWN_TEXT]
        lines.append(f"  misses ({len(shown)} of {len(report.misses)}):")
        lines += [_miss_text(miss) for miss in shown]
    lines += [f"  ! {problem}" for problem in report.problems]
    return "\n".join(lines)


def bar_chart(groups: Sequence[tuple[str, Any]]) -> str:
    """Horizontal bars of top-1, top-5 and MRR per group (``(label, figures)`` pairs)."""
    rows: list[str] = []
    y = 4
    for label, figures in groups:
        rows.append(
            f'<text x="0" y="{y + BAR_HEIGHT - 2}" font-size="11">{escape(label[:24])}</text>'
        )
        for key, name, colour in METRICS:
            value = max(0.0, min(1.0, float(getattr(figures, key))))
            width = round(BAR_WIDTH * value, 1)
            rows.append(
                f'<rect x="{LABEL_WIDTH}" y="{y}" width="{width}" height="{BAR_HEIGHT - 2}" '
                f'fill="{colour}"><title>{escape(label)} {name}: {value:.3f}</title></rect>'
                f'<text x="{LABEL_WIDTH + width + 4}" y="{y + BAR_HEIGHT - 3}" '
                f'font-size="10">{name} {value:.2f}</text>'
            )
            y += BAR_HEIGHT
        y += 6
    width = LABEL_WIDTH + BAR_WIDTH + 80
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
        f'role="img" aria-label="search figures">{"".join(rows)}</svg>'
    )


def _cell(value: object) -> str:
    return f"<td>{escape(str(value))}</td>"


def figures_table(report: SearchReport) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("", "n", "top-1", "top-5", "MRR"))
    body: list[tuple[str, KindFigures | SearchReport]] = [(report.method, report)]
    body += report.by_kind.items()
    rows = "".join(
        "<tr>"
        + _cell(label)
        + "".join(_cell(v) for v in (f.n, percent(f.top1), percent(f.top5), f"{f.mrr:.3f}"))
        + "</tr>"
        for label, f in body
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def misses_table(misses: Sequence[Miss]) -> str:
    if not misses:
        return "<p>No misses.</p>"
    head = "".join(
        f"<th>{h}</th>" for h in ("request", "kind", "expected", "rank", "ranked above (matched)")
    )
    rows = []
    for miss in misses[:MISSES_SHOWN_HTML]:
        above = "<br>".join(
            f"{escape(r.id)} <small>({escape(_matched(r.matched))})</small>"
            for r in miss.above[:ABOVE_SHOWN]
        )
        expected = " / ".join(miss.expected) if miss.expected else "(nothing)"
        rows.append(
            "<tr>"
            + _cell(miss.text)
            + _cell(miss.kind or "")
            + _cell(expected)
            + _cell(miss.rank if miss.rank else "–")
            + f"<td>{above}</td></tr>"
        )
    more = len(misses) - MISSES_SHOWN_HTML
    tail = f"<p>… and {more} more (see <code>report.misses</code>).</p>" if more > 0 else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>{tail}"


def report_html(report: SearchReport) -> str:
    nothing = ""
    if report.no_match_recall is not None or report.no_match_precision is not None:
        nothing = (
            f"<p>“Nothing fits”: precision {percent(report.no_match_precision)}, recall "
            f"{percent(report.no_match_recall)} ({report.n_unanswerable} unanswerable).</p>"
        )
    problems = "".join(f"<p>⚠ {escape(p)}</p>" for p in report.problems)
    groups = [("all", report), *report.by_kind.items()]
    return (
        f"<div><h4>Search report: {escape(report.method)} — {len(report.outcomes)} requests</h4>"
        f"{figures_table(report)}{nothing}{bar_chart(groups)}{problems}"
        f"<details><summary>Misses ({len(report.misses)})</summary>"
        f"{misses_table(report.misses)}</details></div>"
    )
