"""The search lab: measure how well search finds your own tools for your own requests.

``Registry.evaluate(requests)`` and ``Registry.lab(requests)`` are the entry points; this
package is imported only when they are used.
"""

from workbench.registry.lab.evaluate import evaluate
from workbench.registry.lab.lab import SearchLab
from workbench.registry.lab.methods import Method
from workbench.registry.lab.report import KindFigures, Miss, Outcome, Ranked, SearchReport
from workbench.registry.lab.requests import RequestsError, SearchRequest, load_requests

__all__ = [
    "KindFigures",
    "Method",
    "Miss",
    "Outcome",
    "Ranked",
    "RequestsError",
    "SearchLab",
    "SearchReport",
    "SearchRequest",
    "evaluate",
    "load_requests",
]
