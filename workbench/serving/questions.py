"""Who answers a question a notebook tool asks during a call: the caller, whoever that is.

A notebook tool asks with ``get_context().elicit(...)`` (or ``.sample(...)``). The question
goes to *whoever called* the tool, without a second MCP round trip inside the kernel: the code
that starts a call says who that is by running it inside ``asking(asker)``.

The contract:

- An :data:`Asker` is an async callable taking an :class:`ElicitationRequest` and returning an
  :class:`ElicitationAnswer` (accept with content, decline, cancel). It is awaited **on the
  bridge loop** (the loop the MCP sessions live on), whichever thread or loop the tool runs in;
  it may wait as long as it likes (a person, a client's retry) and should raise
  ``asyncio.CancelledError`` only when the call itself is cancelled.
- A :data:`Sampler` (optional) is the same for sampling: a :class:`SamplingRequest` in, a
  :class:`SamplingReply` out; it raises :class:`Declined` when the answer is no. Where there is
  none, sampling is not available to the caller (MCP 2026-07-28 deprecates it, SEP-2577).
- A :data:`RootsAsker` (optional) answers ``get_context().roots()``: a :class:`RootsRequest`
  in, the caller's roots (a list of :class:`Root`) out.
- ``asking(asker, sampler, roots)`` sets them for the current context and the tasks and threads
  started in it (contextvars are copied into tasks and ``asyncio.to_thread``); it nests, the
  innermost wins. ``current_asker()`` / ``current_sampler()`` /
  ``current_roots()`` read them (None outside).
- ``DefinitionTool.run`` captures the current asker into the call's ``ToolContext``; a tool
  called as a plain function has none, and its ``elicit`` raises :class:`NoOneToAsk`.

Who sets it: the Workbench's call path (its answer chain: ``wb.on_elicitation``, the per-call
handler, the person), ``ServedTool.run`` for outside clients (a real ``elicitation/create`` on a
handshake-era session, an ``InputRequiredResult`` round for 2026-07-28 clients), and whoever
else runs notebook tools on someone's behalf (tasks).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from workbench.features.asking import (
    Declined,
    ElicitationAnswer,
    ElicitationRequest,
    Root,
    RootsRequest,
    SamplingReply,
    SamplingRequest,
)

__all__ = [
    "Asker",
    "Declined",
    "ElicitationAnswer",
    "ElicitationRequest",
    "MissingCapability",
    "NoOneToAsk",
    "Root",
    "RootsAsker",
    "RootsRequest",
    "Sampler",
    "SamplingReply",
    "SamplingRequest",
    "asking",
    "current_asker",
    "current_roots",
    "current_sampler",
]

Asker = Callable[[ElicitationRequest], Awaitable[ElicitationAnswer]]
"""Answers a tool's question (form or URL mode); awaited on the bridge loop."""

Sampler = Callable[[SamplingRequest], Awaitable[SamplingReply]]
"""Answers a tool's sampling request; awaited on the bridge loop; raises Declined for no."""

RootsAsker = Callable[[RootsRequest], Awaitable[list[Root]]]
"""Answers a tool's ``roots()``: the caller's roots; awaited on the bridge loop."""


class NoOneToAsk(RuntimeError):
    """A tool asked a question outside any call (called as a plain function), or its caller
    cannot answer that kind of question."""


class MissingCapability(NoOneToAsk):
    """The caller is a client that did not declare the capability the question needs
    (``elicitation``, ``sampling``, ``roots``). Left uncaught in a tool served to a
    2026-07-28 client, the call answers MCP's -32021 (SEP-2575) naming it."""

    def __init__(self, capability: str) -> None:
        self.capability = capability
        super().__init__(
            f"The client that called this tool did not declare the {capability} capability."
        )


_asker: ContextVar[Asker | None] = ContextVar("workbench_asker", default=None)
_sampler: ContextVar[Sampler | None] = ContextVar("workbench_sampler", default=None)
_roots: ContextVar[RootsAsker | None] = ContextVar("workbench_roots", default=None)


@contextmanager
def asking(
    asker: Asker | None, sampler: Sampler | None = None, roots: RootsAsker | None = None
) -> Iterator[None]:
    """Calls of notebook tools started in this context ask ``asker`` (sample with
    ``sampler``, ask roots of ``roots``); None means nobody answers here (the tool raises)."""
    asker_token = _asker.set(asker)
    sampler_token = _sampler.set(sampler)
    roots_token = _roots.set(roots)
    try:
        yield
    finally:
        _roots.reset(roots_token)
        _sampler.reset(sampler_token)
        _asker.reset(asker_token)


def current_asker() -> Asker | None:
    """Who answers a question asked in this context, or None."""
    return _asker.get()


def current_sampler() -> Sampler | None:
    """Who answers a sampling request made in this context, or None."""
    return _sampler.get()


def current_roots() -> RootsAsker | None:
    """Who answers a roots request made in this context, or None."""
    return _roots.get()
