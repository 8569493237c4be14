"""The search lab: one catalog, one set of requests, and the questions a person asks of them.

``Registry.lab(requests)`` makes one; ``lab.report`` is the registry's search as configured,
``lab.evaluate(method)`` any other method, ``lab.compare()`` several side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workbench.registry.lab.evaluate import LIMIT, build_method, run
from workbench.registry.lab.methods import Method
from workbench.registry.lab.requests import RequestsSource, SearchRequest, load_requests

if TYPE_CHECKING:
    from workbench.registry.lab.compare import Comparison
    from workbench.registry.lab.doctor import DescriptionTrial
    from workbench.registry.lab.pins import PinSuggestions
    from workbench.registry.lab.report import SearchReport
    from workbench.registry.registry import Registry

__all__ = ["SearchLab"]


class SearchLab:
    """Requests measured against a registry's catalog (read live: a changed catalog shows
    in the next report)."""

    def __init__(self, registry: Registry, requests: RequestsSource, *, limit: int = LIMIT):
        self.registry = registry
        self.requests: list[SearchRequest] = load_requests(requests)
        self.limit = limit

    @property
    def report(self) -> SearchReport:
        """The registry's own search (as configured) on the requests, measured now."""
        return self.evaluate()

    def evaluate(self, method: str | Method = "search") -> SearchReport:
        """One method's report (a name such as ``"keyword-no-synonyms"``, or a Method)."""
        built, seconds = build_method(self.registry, method)
        return run(self.registry, built, self.requests, limit=self.limit, index_seconds=seconds)

    def compare(self, methods: Sequence[str | Method] | None = None) -> Comparison:
        """Several methods side by side (default: every method available here)."""
        from workbench.registry.lab.compare import compare

        return compare(self.registry, self.requests, methods=methods, limit=self.limit)

    def try_description(
        self, tool_id: str, text: str, *, method: str | Method | None = None
    ) -> DescriptionTrial:
        """The requests re-scored with ``tool_id``'s description replaced by ``text`` in a
        copy of the index (nothing is sent to the server): the change per metric, and words
        its missed requests use that it never does (``doctor.py``)."""
        from workbench.registry.lab.doctor import try_description

        return try_description(self, tool_id, text, method=method)

    def suggest_pins(self, k: int = 3) -> PinSuggestions:
        """The ``k`` tools most worth listing beside the gateway's pair: often expected,
        often missed (``pins.py``); ``.flag`` is the ``%mcp serve`` option."""
        from workbench.registry.lab.pins import suggest_pins

        return suggest_pins(self, k)

    def __repr__(self) -> str:
        return f"<SearchLab: {len(self.requests)} requests on {self.registry!r}>\n{self.report!r}"

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        return self.report._repr_mimebundle_(**kwargs)
