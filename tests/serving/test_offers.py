"""The notebook's resources, templates and prompts served to a real outside client over
HTTP, in both eras (``legacy``: initialize and a session; ``auto``: 2026-07-28): lists paged
with signed cursors, reads, completions, prompts, the filters, and the notifications a
re-run cell sends (list_changed, and resources/updated to a subscriber)."""

from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

import mcp_types
import pytest
from fastmcp import Client
from fastmcp.client.messages import MessageHandler
from mcp.client.subscriptions import listen
from mcp.shared.exceptions import MCPError

from tests.serving.conftest import with_client
from workbench.session import Workbench
from workbench.tools.prompt_definition import PromptDefinition, prompt, text_prompt
from workbench.tools.resource_definition import ResourceDefinition, resource

MODES = pytest.mark.parametrize("mode", ["legacy", "auto"])


def offers() -> tuple[list[ResourceDefinition], list[PromptDefinition]]:
    @resource("data://greeting", description="A greeting.")
    def greeting() -> str:
        return "hello"

    @resource("data://config")
    def config() -> dict[str, Any]:
        return {"debug": True}

    @resource("data://logo", mime_type="image/png")
    def logo() -> bytes:
        return b"\x89PNG"

    @resource("data://users/{id}", complete={"id": ["alice", "albert", "bob"]})
    def user(id: int) -> dict[str, int]:
        return {"id": id}

    @prompt
    def review(code: str, language: str = "python") -> list[tuple[str, str]]:
        """Review some code."""
        return [("user", f"Review this {language}: {code}"), ("assistant", "Sure.")]

    @review.completer("language")
    def languages(value: str) -> list[str]:
        return [name for name in ("python", "perl", "go") if name.startswith(value)]

    return [greeting, config, logo, user], [review, text_prompt("hi", "Say hi to {name}")]


@pytest.fixture
def served(wb: Workbench) -> Workbench:
    resources, prompts = offers()
    wb.set_owned_offers("cell:1", resources, prompts)
    return wb


def _text(result: list[Any]) -> list[tuple[str, str | None]]:
    return [(item.mime_type, getattr(item, "text", None)) for item in result]


@pytest.mark.integration
@MODES
def test_an_outside_client_lists_reads_completes_and_gets(served: Workbench, mode: str) -> None:
    handle = served.serve(page_size=2)

    async def work(client: Client[Any]) -> dict[str, Any]:
        first = await client.list_resources_mcp()
        second = await client.list_resources_mcp(cursor=first.next_cursor)
        with pytest.raises(MCPError) as refused:
            await client.list_resources_mcp(cursor="forged")
        templates = await client.list_resource_templates()
        prompts = await client.list_prompts_mcp()
        blob = (await client.read_resource("data://logo"))[0]
        return {
            "pages": [[str(r.uri) for r in page.resources] for page in (first, second)],
            "last": second.next_cursor,
            "refused": refused.value.code,
            "templates": [t.uri_template for t in templates],
            "prompts": ([p.name for p in prompts.prompts], prompts.next_cursor is None),
            "text": _text(await client.read_resource("data://greeting")),
            "json": _text(await client.read_resource("data://config")),
            "blob": (blob.mime_type, base64.b64decode(getattr(blob, "blob", ""))),
            "template": _text(await client.read_resource("data://users/7")),
            "ids": (await client.complete(
                mcp_types.ResourceTemplateReference(uri="data://users/{id}"),
                {"name": "id", "value": "al"},
            )).values,
            "languages": (await client.complete(
                mcp_types.PromptReference(name="review"), {"name": "language", "value": "p"}
            )).values,
            "review": [
                (m.role, getattr(m.content, "text", None))
                for m in (await client.get_prompt("review", {"code": "x = 1"})).messages
            ],
            "hi": (await client.get_prompt("hi", {"name": "Ann"})).messages[0].content,
        }  # fmt: skip

    seen = with_client(handle.url, handle.token, work, mode=mode)
    assert seen["pages"] == [["data://config", "data://greeting"], ["data://logo"]]
    assert seen["last"] is None
    assert seen["refused"] == mcp_types.INVALID_PARAMS
    assert seen["templates"] == ["data://users/{id}"]
    assert seen["prompts"] == (["hi", "review"], True)
    assert seen["text"] == [("text/plain", "hello")]
    assert seen["json"] == [("application/json", json.dumps({"debug": True}, indent=2))]
    assert seen["blob"] == ("image/png", b"\x89PNG")
    assert seen["template"] == [("application/json", '{\n  "id": 7\n}')]
    assert seen["ids"] == ["alice", "albert"]
    assert seen["languages"] == ["python", "perl"]
    assert seen["review"] == [("user", "Review this python: x = 1"), ("assistant", "Sure.")]
    assert seen["hi"].text == "Say hi to Ann"


@pytest.mark.integration
@MODES
def test_a_prompt_missing_an_argument_is_invalid_params(served: Workbench, mode: str) -> None:
    handle = served.serve()

    async def work(client: Client[Any]) -> int:
        with pytest.raises(MCPError) as refused:
            await client.get_prompt("review", {})
        return refused.value.code

    assert with_client(handle.url, handle.token, work, mode=mode) == mcp_types.INVALID_PARAMS


@pytest.mark.integration
@MODES
def test_the_filters_hide_resources_and_prompts_from_lists_and_reads(
    served: Workbench, mode: str
) -> None:
    handle = served.serve(exclude=["data://config", "user", "hi"])

    async def work(client: Client[Any]) -> dict[str, Any]:
        found: dict[str, Any] = {
            "resources": [str(r.uri) for r in await client.list_resources()],
            "templates": [t.uri_template for t in await client.list_resource_templates()],
            "prompts": [p.name for p in await client.list_prompts()],
        }
        for uri in ("data://config", "data://users/1"):
            with pytest.raises(MCPError):
                await client.read_resource(uri)
        with pytest.raises(MCPError):
            await client.get_prompt("hi", {"name": "x"})
        return found

    seen = with_client(handle.url, handle.token, work, mode=mode)
    assert seen == {
        "resources": ["data://greeting", "data://logo"],
        "templates": [],
        "prompts": ["review"],
    }


class Heard(MessageHandler):
    def __init__(self) -> None:
        self.methods: asyncio.Queue[str] = asyncio.Queue()

    async def on_resource_list_changed(self, message: Any) -> None:
        await self.methods.put("resources/list_changed")

    async def on_prompt_list_changed(self, message: Any) -> None:
        await self.methods.put("prompts/list_changed")

    async def on_resource_updated(self, message: Any) -> None:
        await self.methods.put(f"resources/updated {message.params.uri}")


async def _collect(queue: asyncio.Queue[str], count: int) -> list[str]:
    return sorted([await asyncio.wait_for(queue.get(), 10) for _ in range(count)])


EXPECTED = ["prompts/list_changed", "resources/list_changed", "resources/updated data://greeting"]


@pytest.mark.integration
def test_a_handshake_era_subscriber_hears_a_re_run_cell(served: Workbench) -> None:
    handle = served.serve()
    heard = Heard()

    async def main() -> tuple[list[str], list[str]]:
        legacy = Client(handle.url, auth=handle.token, mode="legacy", message_handler=heard)
        async with legacy as client:
            await client.session.subscribe_resource("data://greeting")
            resources, prompts = offers()
            await asyncio.to_thread(served.set_owned_offers, "cell:1", resources, prompts)
            first = await _collect(heard.methods, 3)
            await asyncio.to_thread(served.set_owned_offers, "cell:1", resources[1:], [])
            second = await _collect(heard.methods, 2)
            return first, second

    first, second = asyncio.run(main())
    assert first == EXPECTED
    assert second == ["prompts/list_changed", "resources/list_changed"]


@pytest.mark.integration
def test_a_2026_listener_hears_a_re_run_cell(served: Workbench) -> None:
    handle = served.serve()

    async def main() -> list[str]:
        async with Client(handle.url, auth=handle.token) as client:
            heard: asyncio.Queue[str] = asyncio.Queue()
            subscribed = listen(
                client.session,
                resources_list_changed=True,
                prompts_list_changed=True,
                resource_subscriptions=["data://greeting"],
            )
            async with subscribed as subscription:

                async def follow() -> None:
                    async for event in subscription:
                        await heard.put(_event_name(event))

                follower = asyncio.create_task(follow())
                resources, prompts = offers()
                await asyncio.to_thread(served.set_owned_offers, "cell:1", resources, prompts)
                try:
                    return await _collect(heard, 3)
                finally:
                    follower.cancel()

    assert asyncio.run(main()) == EXPECTED


def _event_name(event: Any) -> str:
    kind = type(event).__name__
    if kind == "ResourceUpdated":
        return f"resources/updated {event.uri}"
    return {"ResourcesListChanged": "resources/list_changed"}.get(kind, "prompts/list_changed")
