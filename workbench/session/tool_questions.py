"""Who answers a notebook tool that asks during a call made from the notebook itself.

``%mcp call``, ``wb.call`` and the browser's call panel run notebook tools in the kernel; a
question such a tool asks (``get_context().elicit``) goes straight to the Workbench's answer
chain, as a remote server's would: ``wb.on_elicitation``, then the call's own handler (the
browser's form), then the person (a form in the calling cell, or ``input()``), declined with
a note when the run is unattended. It shows as asked by server ``notebook``, tool = the tool.
``get_context().roots()`` answers with the Workbench's own roots (``wb.roots``).
A call that already has an asker (one served to an outside client) keeps it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext

from workbench.mcp.answers import CallAnswers, ClientAnswers
from workbench.serving.questions import (
    ElicitationAnswer,
    ElicitationRequest,
    Root,
    RootsRequest,
    SamplingReply,
    SamplingRequest,
    asking,
    current_asker,
)


def answered_here(answers: ClientAnswers, tool: str) -> AbstractContextManager[None]:
    """Make the Workbench's answer chain the asker of the notebook tool call ``tool``
    started in this context, unless whoever started it answers (an outside client)."""
    if current_asker() is not None:
        return nullcontext()
    call = CallAnswers.here(tool)

    async def ask(request: ElicitationRequest) -> ElicitationAnswer:
        return await answers.elicit(request, call)

    async def sample(request: SamplingRequest) -> SamplingReply:
        return await answers.sample(request, call)

    async def roots(request: RootsRequest) -> list[Root]:
        return [Root(uri) for uri in answers.roots]

    return asking(ask, sample, roots)
