"""Paged ``resources/list``, ``resources/templates/list`` and ``prompts/list`` for a served
surface: the same signed cursors as its ``tools/list`` (``Pages``), so a cursor this server
did not make is refused as INVALID_PARAMS. A mixin of ``ServedServer``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import mcp_types
from fastmcp import FastMCP
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from workbench.serving.cursor import CursorError, Pages

T = TypeVar("T")


def _page(
    pages: Pages, every: Sequence[T], params: mcp_types.PaginatedRequestParams | None
) -> tuple[list[T], str | None]:
    try:
        return pages.page(every, params.cursor if params else None)
    except CursorError as error:
        raise MCPError(code=mcp_types.INVALID_PARAMS, message=str(error)) from None


class PagedOffers(FastMCP[Any]):
    """Pages the lists of resources, templates and prompts with ``self.pages``."""

    pages: Pages

    async def _on_list_resources(
        self, ctx: ServerRequestContext, params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListResourcesResult:
        every = await super()._on_list_resources(ctx, None)
        page, cursor = _page(self.pages, every.resources, params)
        return mcp_types.ListResourcesResult(resources=page, next_cursor=cursor)

    async def _on_list_resource_templates(
        self, ctx: ServerRequestContext, params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListResourceTemplatesResult:
        every = await super()._on_list_resource_templates(ctx, None)
        page, cursor = _page(self.pages, every.resource_templates, params)
        return mcp_types.ListResourceTemplatesResult(resource_templates=page, next_cursor=cursor)

    async def _on_list_prompts(
        self, ctx: ServerRequestContext, params: mcp_types.PaginatedRequestParams | None
    ) -> mcp_types.ListPromptsResult:
        every = await super()._on_list_prompts(ctx, None)
        page, cursor = _page(self.pages, every.prompts, params)
        return mcp_types.ListPromptsResult(prompts=page, next_cursor=cursor)
