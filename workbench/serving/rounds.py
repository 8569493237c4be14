"""A served notebook tool's questions to a 2026-07-28 client: rounds of ``InputRequiredResult``.

MCP 2026-07-28 has no server-to-client requests (SEP-2322): a ``tools/call`` that needs input
answers with an ``InputRequiredResult`` (``inputRequests``, ``requestState``) and the client
calls again with ``inputResponses`` and the echoed ``requestState``. A notebook tool asks in
the middle of its code (``get_context().elicit``), so the call is not replayed: it keeps
running, suspended in ``elicit``, and ``requestState`` names it. Each retry delivers the
answers and waits again, until the call ends (its result answers that retry) or asks again
(another round, another ``requestState``). FastMCP seals ``requestState``, so a client can
neither forge nor alter one; the id in it is random besides.

Suspended calls are bounded: at most ``limit`` wait at once (a question beyond that fails at
once), and one whose client does not come back within ``ttl`` seconds is abandoned: its
question raises in the tool (the call ends as a tool error in the history, saying so) and
the call is cancelled if the tool still runs ``grace`` seconds later.
"""

from __future__ import annotations

import asyncio
import itertools
import secrets
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import mcp_types

from workbench.serving.questions import NoOneToAsk
from workbench.serving.wire_questions import Question, answer_of, wire_request

TTL = 300.0
"""Seconds a suspended call waits for its client's next round."""
LIMIT = 16
"""Calls that may wait for a client's answers at once."""
GRACE = 5.0
"""Seconds an abandoned call may take to end on its own before it is cancelled."""
SETTLE = 0.02
"""Seconds a round waits after a question for others asked with it (``asyncio.gather``)."""

Start = Callable[["Suspended"], Awaitable[Any]]
"""Starts the call (a tool's, or a prompt's rendering); its questions go to ``Suspended.ask``."""


class Unanswered(NoOneToAsk):
    """The client never came back with the answer."""


class Suspended:
    """One served call and the questions it waits on."""

    def __init__(
        self, rounds: Rounds, relay: Any = None, given: Mapping[str, Any] | None = None
    ) -> None:
        self.id = secrets.token_urlsafe(16)
        self.given = dict(given or {})
        """Answers the client sent with its first call, before any question: a question
        asked under one of these keys is answered at once."""
        self.relay = relay
        """Whatever the round in flight reports with (the caller's; each round sets it)."""
        self._rounds = rounds
        self.round = 0
        self.open: dict[str, tuple[Question, asyncio.Future[Any]]] = {}
        self.asked = asyncio.Event()
        self.job: asyncio.Task[Any] | None = None
        self.abandoned: str | None = None
        self._keys = itertools.count(1)
        self._timer: asyncio.TimerHandle | None = None

    @property
    def state(self) -> str:
        return f"{self.id}.{self.round}"

    async def ask(self, request: Question) -> Any:
        """The asker (sampler, roots asker) of this call: the question waits for a round
        to carry its answer."""
        if self.abandoned is not None:
            raise Unanswered(self.abandoned)
        given = answer_of(request, self.given.pop(request.key, None)) if request.key else None
        if given is not None:
            return given
        if not self._rounds.admit(self):
            raise NoOneToAsk(
                f"{self._rounds.limit} served calls already wait for their clients' answers; "
                "this one cannot ask now."
            )
        key = request.key or f"ask-{next(self._keys)}"
        while key in self.open:
            key = f"{key}-{next(self._keys)}"
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.open[key] = (request, answer)
        self.asked.set()
        try:
            return await answer
        finally:
            self.open.pop(key, None)

    def deliver(self, responses: Mapping[str, Any] | None) -> None:
        """Answer the open questions the client answered; the others stay open."""
        for key, response in (responses or {}).items():
            entry = self.open.get(key)
            answer = None if entry is None else answer_of(entry[0], response)
            if entry is not None and answer is not None and not entry[1].done():
                entry[1].set_result(answer)

    async def next(self) -> Any:
        """The call's result (an Observation for a tool, a rendered prompt...), or its open
        questions once it waits on some (an ``InputRequiredResult``). A round whose
        request is cancelled leaves the call to its TTL again."""
        assert self.job is not None
        self._stop_timer()
        try:
            return await self._next()
        except asyncio.CancelledError:
            if self.round and not self.job.done() and self._timer is None:
                self._arm()
            raise

    def _arm(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(self._rounds.ttl, self.abandon)

    async def _next(self) -> Any:
        assert self.job is not None
        await asyncio.sleep(0)  # answers just delivered reach the tool first
        while True:
            waiting = [q for q, (_, future) in self.open.items() if not future.done()]
            if waiting and not self.job.done():
                break
            if self.job.done():
                self._rounds.forget(self)
                return self.job.result()
            self.asked.clear()
            asked = asyncio.ensure_future(self.asked.wait())
            try:
                await asyncio.wait([self.job, asked], return_when=asyncio.FIRST_COMPLETED)
            finally:
                asked.cancel()
            if not self.job.done():
                await asyncio.sleep(SETTLE)  # questions asked together go in one round
        self.round += 1
        self._arm()
        requests: dict[str, mcp_types.InputRequest] = {
            key: wire_request(self.open[key][0]) for key in waiting
        }
        return mcp_types.InputRequiredResult(input_requests=requests, request_state=self.state)

    def abandon(self, why: str | None = None) -> None:
        """The client never came back: every open question fails in the tool, and the call
        is cancelled if it still runs after the grace."""
        self.abandoned = why or (
            f"The client did not answer within {self._rounds.ttl:g} s; the call was abandoned."
        )
        self._rounds.forget(self)
        for _, future in list(self.open.values()):
            if not future.done():
                future.set_exception(Unanswered(self.abandoned))
        if self.job is not None and not self.job.done():
            job = self.job
            asyncio.get_running_loop().call_later(self._rounds.grace, job.cancel)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Rounds:
    """The served calls suspended in a question, by id; one per served surface."""

    def __init__(self, ttl: float = TTL, limit: int = LIMIT, grace: float = GRACE) -> None:
        self.ttl = ttl
        self.limit = limit
        self.grace = grace
        self._waiting: dict[str, Suspended] = {}

    def __len__(self) -> int:
        return len(self._waiting)

    def admit(self, call: Suspended) -> bool:
        """Whether ``call`` may wait for answers (it already does, or there is room)."""
        if call.id in self._waiting:
            return True
        if len(self._waiting) >= self.limit:
            return False
        self._waiting[call.id] = call
        return True

    def forget(self, call: Suspended) -> None:
        self._waiting.pop(call.id, None)

    async def first(
        self, start: Start, relay: Any = None, given: Mapping[str, Any] | None = None
    ) -> Any:
        """Start a call; its result, or the first round of its questions. ``given``: the
        answers the client sent up front, by the keys the tool asks under."""
        call = Suspended(self, relay, given)
        call.job = asyncio.ensure_future(start(call))
        try:
            return await call.next()
        except asyncio.CancelledError:  # the client went away before the first answer
            call.job.cancel()
            self.forget(call)
            raise

    async def again(
        self, state: str, responses: Mapping[str, Any] | None, relay: Any = None
    ) -> Any:
        """A client's next round; None when no call waits under ``state`` (ended,
        abandoned, or a round already answered)."""
        call_id, _, _ = state.partition(".")
        call = self._waiting.get(call_id)
        if call is None or call.state != state:
            return None
        call.relay = relay
        call.deliver(responses)
        return await call.next()

    def close(self) -> None:
        """Stop serving: every waiting call is abandoned."""
        for call in list(self._waiting.values()):
            call.abandon("The server stopped before the client answered.")
