"""Call forms for every collected schema: how many the form covers whole, how many fall back.

Run by ``run.py`` after loading the catalogs, or alone: ``python benchmarks/search/forms.py``
(which also times building each form's ipywidgets, ``FormView``, without a kernel).
Every schema goes through ``build_form``, ``initial_values`` and ``to_arguments`` (defaults
only; a default the form cannot convert fails there as a ``FormError``, which is the form
working, not breaking). Anything else raised is a bug, and is counted and named.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

from workbench.errors import FormError
from workbench.widgets.form import build_form, initial_values, to_arguments

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from collect import cache_dir  # noqa: E402


def survey_forms(catalogs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Counts of complete forms, JSON fallbacks (with their reasons), and failures."""
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    raised: list[str] = []
    for server, tools in catalogs.items():
        for tool in tools:
            counts["schemas"] += 1
            tool_id = f"{server}.{tool.get('name')}"
            try:
                form = build_form(tool.get("inputSchema"))
                values = initial_values(form)
            except Exception as error:  # the survey exists to find these
                raised.append(f"{tool_id}: {type(error).__name__}: {error}")
                continue
            try:
                to_arguments(form, values)
                counts["defaults_convert"] += 1
            except FormError:
                counts["defaults_need_input"] += 1
            except Exception as error:
                raised.append(f"{tool_id}: to_arguments: {type(error).__name__}: {error}")
            if form.is_complete:
                counts["complete"] += 1
            else:
                counts["fallback"] += 1
                for field in form.walk():
                    reason = getattr(field, "reason", "")
                    if field.kind == "json" and reason:
                        reasons[reason] += 1
    return {"counts": dict(counts), "fallback_reasons": dict(reasons), "raised": raised}


def print_survey(survey: dict[str, Any]) -> None:
    counts = survey["counts"]
    print(
        f"forms: {counts.get('schemas', 0)} schemas, {counts.get('complete', 0)} complete, "
        f"{counts.get('fallback', 0)} fall back to the JSON editor, "
        f"{len(survey['raised'])} raised"
    )
    for reason, count in sorted(survey["fallback_reasons"].items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {count:5d}  {reason}")
    for line in survey["raised"][:20]:
        print(f"  RAISED {line}")


def time_form_views(catalogs: dict[str, list[dict[str, Any]]]) -> dict[str, float]:
    """Milliseconds to build each schema's ipywidgets form: median, 95th percentile, max."""
    import statistics
    import time

    from workbench.widgets.form import FormView

    FormView({"type": "object", "properties": {"warm": {"type": "string"}}})  # imports
    timings = []
    for tools in catalogs.values():
        for tool in tools:
            started = time.perf_counter()
            FormView(tool.get("inputSchema"))
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    return {
        "median_ms": statistics.median(timings),
        "p95_ms": timings[int(len(timings) * 0.95)],
        "max_ms": timings[-1],
    }


def main() -> int:
    from run import load_catalogs

    catalogs = load_catalogs(cache_dir())
    survey = survey_forms(catalogs)
    print_survey(survey)
    speed = time_form_views(catalogs)
    template = "FormView build: median {median_ms:.1f} ms, p95 {p95_ms:.1f} ms, max {max_ms:.1f} ms"
    print(template.format(**speed))
    return 1 if survey["raised"] else 0


if __name__ == "__main__":
    sys.exit(main())
