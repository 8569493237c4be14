"""The serving half of an exported script, as text: it needs fastmcp and pydantic only.

Each tool is listed with the name, title, description, input and output schemas and
annotations the notebook server lists (written into the script, not derived again), its
arguments are validated with a pydantic model built from the function's signature as
``@tool`` builds it, and its return value becomes content as ``observation_from_value``
makes it, so a client sees the same tool and the same results as from the notebook.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

from workbench.tools import media

CONTEXT = '''
class _WbToolContext:
    """What ``get_context()`` gives a tool: progress and log messages to this call's client
    (the workbench's ToolContext, written out; silent outside a call)."""

    LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")

    def __init__(self, tool="", request=None, loop=None):
        self.tool = tool
        self._request = request  # fastmcp's Context of the call, None when silent
        self._loop = loop
        self._sent = []

    def __repr__(self):
        state = f"call of {self.tool}" if self.active else "silent: not in a call"
        return f"<ToolContext {state}>"

    @property
    def active(self):
        return self._request is not None

    def begin_task(self):
        return False  # this script serves no tasks: the call just goes on

    def progress(self, progress, total=None, message=None):
        if self._request is not None:
            self._send(self._request.report_progress(float(progress), total, message))

    def log(self, message, level="info"):
        if level not in self.LEVELS:
            raise ValueError(f"Unknown log level {level!r}: use one of {', '.join(self.LEVELS)}.")
        if self._request is not None:
            self._send(self._request.log(str(message), level))

    def debug(self, message):
        self.log(message, "debug")

    def info(self, message):
        self.log(message, "info")

    def warning(self, message):
        self.log(message, "warning")

    def error(self, message):
        self.log(message, "error")

    def elicit(self, message, schema, *, key=None):
        """Ask the client to fill in a form (a flat JSON Schema dict, or a type); in an async
        tool, await it. Handshake-era clients only: 2026-07-28 has no server requests."""

        async def ask():
            request = self._asking()
            flat = isinstance(schema, dict) and (
                "properties" in schema or schema.get("type") == "object"
            )
            if flat:
                result = await request.session.elicit_form(
                    str(message), {"type": "object", **schema}, request.request_id
                )
                content = result.content if result.action == "accept" else None
                return _WbAnswer(result.action, content, content)
            result = await request.elicit(str(message), schema)
            data = getattr(result, "data", None)
            return _WbAnswer(result.action, data if isinstance(data, dict) else None, data)

        return self._ask(ask())

    def elicit_url(self, message, url, *, key=None):
        """Ask the client to open ``url``; in an async tool, await it."""

        async def ask():
            import uuid

            request = self._asking()
            result = await request.session.elicit_url(
                str(message), str(url), uuid.uuid4().hex, related_request_id=request.request_id
            )
            return _WbAnswer(result.action)

        return self._ask(ask())

    def sample(
        self, messages, *, system_prompt=None, max_tokens=100, temperature=None, key=None
    ):
        """Ask the client's language model (deprecated in 2026-07-28, SEP-2577)."""

        async def ask():
            import warnings

            import mcp.types

            request = self._asking()
            turns = [messages] if isinstance(messages, str) else list(messages)
            with warnings.catch_warnings():  # deprecated in 2026-07-28; this client has it
                warnings.simplefilter("ignore")
                sent = request.session.create_message(
                    [
                        mcp.types.SamplingMessage(
                            role="user", content=mcp.types.TextContent(type="text", text=turn)
                        )
                        for turn in turns
                    ],
                    max_tokens=max_tokens,
                    system_prompt=system_prompt,
                    temperature=temperature,
                    related_request_id=request.request_id,
                )
            result = await sent
            return _WbReply(getattr(result.content, "text", "") or "")

        return self._ask(ask())

    def roots(self, *, key=None):
        """The client's roots (``uri``, ``name``), deprecated in 2026-07-28 (SEP-2577); in
        an async tool, await it."""

        async def ask():
            import warnings

            import mcp.types
            from mcp.shared.message import ServerMessageMetadata

            request = self._asking()
            with warnings.catch_warnings():  # deprecated in 2026-07-28; this client has it
                warnings.simplefilter("ignore")
                listed = await request.session.send_request(
                    mcp.types.ListRootsRequest(),
                    mcp.types.ListRootsResult,
                    metadata=ServerMessageMetadata(related_request_id=request.request_id),
                )
            return [_WbRoot(str(root.uri), root.name) for root in listed.roots]

        return self._ask(ask())

    def close_stream(self):
        """End this call's SSE response stream (SEP-1699); the client resumes from the
        server's event store. A no-op where there is none (this script keeps none) or no
        call; in an async tool, await it."""
        import asyncio

        async def close():
            if self._request is not None:
                await self._request.close_sse_stream()

        if self._loop is None:  # no call: nothing to close
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                return None
        return self._ask(close())

    def _asking(self):
        if self._request is None:
            raise RuntimeError(
                "get_context().elicit() asks the caller of a tool call; called as a plain "
                "function there is no caller to ask."
            )
        from mcp_types.version import MODERN_PROTOCOL_VERSIONS

        if self._request.request_context.protocol_version in MODERN_PROTOCOL_VERSIONS:
            raise RuntimeError(
                f"{self.tool} asks its client, and this exported server asks the handshake-era "
                "way (a server request), which MCP 2026-07-28 clients do not take: connect "
                "with a 2025-11-25 client, or serve the notebook with %mcp serve."
            )
        return self._request

    def _ask(self, question):
        import asyncio

        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a sync tool in its worker thread: wait here
            return asyncio.run_coroutine_threadsafe(question, self._loop).result()
        return question

    def _send(self, report):
        import asyncio

        # The tool runs in a worker thread or on the server's loop: either way the report
        # goes out on that loop, and the call's answer waits for it.
        self._sent.append(asyncio.run_coroutine_threadsafe(report, self._loop))

    async def _delivered(self):
        import asyncio

        sent, self._sent = self._sent, []
        await asyncio.gather(*map(asyncio.wrap_future, sent), return_exceptions=True)


class _WbAnswer:
    """The client's answer to a question: accept (with content), decline or cancel."""

    def __init__(self, action, content=None, value=None):
        self.action, self.content, self.value = action, content, value

    @property
    def accepted(self):
        return self.action == "accept"

    def __repr__(self):
        return f"Answer(action={self.action!r}, content={self.content!r})"


class _WbReply:
    def __init__(self, text):
        self.text = text


class _WbRoot:
    """A folder the client offers."""

    def __init__(self, uri, name=None):
        self.uri, self.name = uri, name

    def __repr__(self):
        return f"Root(uri={self.uri!r}, name={self.name!r})"


def _wb_get_context():
    """The running call's context (``workbench.get_context()`` in the notebook)."""
    return _WB_CONTEXT.get() or _WbToolContext()


_WB_CONTEXT = __import__("contextvars").ContextVar("workbench_tool_context", default=None)
'''
"""Defines ``_wb_get_context``, which a tool's ``get_context`` is bound to in the script (it
comes before the tools' code, which may call it at import)."""

GET_CONTEXT = "_wb_get_context"

RUNTIME = '''
def _wb_server(name, tools, version, logs, auth=None, offers=None):
    """A FastMCP server holding the tools above with their notebook listings."""
    import asyncio
    import inspect
    import json
    import typing

    import mcp.types
    import pydantic
    from fastmcp import FastMCP
    from fastmcp.tools import Tool, ToolResult
    from pydantic_core import to_jsonable_python

    def request():
        from fastmcp.server.dependencies import get_context

        try:
            return get_context()
        except RuntimeError:  # no request: nobody to tell
            return None

    content_adapter = pydantic.TypeAdapter(list[mcp.types.ContentBlock])
    content_kinds = {"text", "image", "audio", "resource_link", "resource"}
    media_block = _wb_media()

    def schema_or_any(annotation):
        try:
            pydantic.TypeAdapter(annotation).json_schema()
        except Exception:
            return typing.Any
        return annotation

    def arguments_model(function, tool_name):
        try:
            hints = typing.get_type_hints(function, include_extras=True)
        except Exception:
            hints = dict(getattr(function, "__annotations__", {}))
        fields, names = {}, {}
        for param in inspect.signature(function).parameters.values():
            shadows = hasattr(pydantic.BaseModel, param.name) or param.name.startswith("model_")
            field_name = f"{param.name}_" if shadows else param.name
            names[field_name] = param
            default = ... if param.default is param.empty else param.default
            extra = {"alias": param.name} if shadows else {}
            annotation = schema_or_any(hints.get(param.name, typing.Any))
            fields[field_name] = (annotation, pydantic.Field(default, **extra))
        model = pydantic.create_model(
            f"{tool_name}Arguments",
            __config__=pydantic.ConfigDict(extra="forbid"),
            **fields,
        )
        return model, names

    def block_of(value):
        if isinstance(value, pydantic.BaseModel) and getattr(value, "type", None) in content_kinds:
            return value.model_dump(mode="json", by_alias=True, exclude_none=True)
        return media_block(value)  # bytes, a PIL image, a matplotlib figure

    def blocks_of(value):
        blocks = []
        for item in value if isinstance(value, list) and value else [value]:
            block = block_of(item)
            if block is None:
                return None
            blocks.append(block)
        return blocks

    def result_of(value, output_schema):
        if hasattr(value, "to_llm_content") and hasattr(value, "structured_content"):
            return value.to_llm_content(), value.structured_content, bool(value.is_error)
        if value is None:
            return [], None, False
        if isinstance(value, str):
            return [{"type": "text", "text": value}], None, False
        blocks = blocks_of(value)
        if blocks is not None:
            return blocks, None, False
        data = to_jsonable_python(value)
        marked = bool(output_schema and output_schema.get("x-fastmcp-wrap-result"))
        structured = {"result": data} if marked or not isinstance(data, dict) else data
        return [{"type": "text", "text": json.dumps(data, ensure_ascii=False)}], structured, False

    def error(text):
        blocks = content_adapter.validate_python([{"type": "text", "text": text}])
        return ToolResult(content=blocks, is_error=True)

    class ExportedTool(Tool):
        _function: typing.Any = pydantic.PrivateAttr()
        _model: typing.Any = pydantic.PrivateAttr()
        _params: typing.Any = pydantic.PrivateAttr()

        async def run(self, arguments):
            try:
                validated = self._model.model_validate(dict(arguments or {}))
            except pydantic.ValidationError as failure:
                problems = "; ".join(
                    f"{'.'.join(str(p) for p in item['loc']) or '(arguments)'}: {item['msg']}"
                    for item in failure.errors(include_url=False)
                )
                return error(f"Invalid arguments for {self.name}: {problems}")
            args, kwargs = [], {}
            for field_name, param in self._params.items():
                value = getattr(validated, field_name)
                if param.kind is param.POSITIONAL_ONLY:
                    args.append(value)
                else:
                    kwargs[param.name] = value
            context = _WbToolContext(self.name, request(), asyncio.get_running_loop())
            token = _WB_CONTEXT.set(context)  # copied into the worker thread
            try:
                if inspect.iscoroutinefunction(self._function):
                    value = await self._function(*args, **kwargs)
                else:
                    value = await asyncio.to_thread(self._function, *args, **kwargs)
            except Exception as failure:
                return error(f"{self.name}: {type(failure).__name__}: {failure}")
            finally:
                _WB_CONTEXT.reset(token)
                await context._delivered()  # progress and logs reach the client first
            content, structured, is_error = result_of(value, self.output_schema)
            return ToolResult(
                content=content_adapter.validate_python(content),
                structured_content=structured,
                is_error=is_error,
            )

    server = FastMCP(name, version=version, auth=auth)
    # Say what this server does, nothing more: its tools (a fixed list) and, when a tool
    # uses get_context(), log messages. FastMCP advertises prompts, resources and the UI
    # extension on every server and has no hook to leave them out, so the one method both
    # initialize and server/discover read answers instead.
    honest = mcp.types.ServerCapabilities(
        tools=mcp.types.ToolsCapability(list_changed=False),
        logging=mcp.types.LoggingCapability() if logs else None,
    )
    server._mcp_server.get_capabilities = lambda *args, **kwargs: honest.model_copy()
    for listing in tools:
        function = listing["function"]
        annotations = listing.get("annotations")
        made = ExportedTool(
            name=listing["name"],
            title=listing.get("title"),
            description=listing.get("description"),
            parameters=listing["inputSchema"],
            output_schema=listing.get("outputSchema"),
            annotations=(
                mcp.types.ToolAnnotations.model_validate(annotations) if annotations else None
            ),
            icons=[mcp.types.Icon.model_validate(icon) for icon in listing.get("icons", ())]
            or None,
            tags=set(listing.get("tags", ())),
            meta=listing.get("meta"),
        )
        made._function = function
        made._model, made._params = arguments_model(function, listing["name"])
        server.add_tool(made)
    if offers is not None:  # the notebook's resources and prompts (_wb_add_offers)
        offers(server)
    return server


def _wb_main(name, tools, version, logs, argv=None, offers=None):
    import argparse
    import hmac
    import ipaddress
    import os
    import sys

    from fastmcp.server.auth import AccessToken, TokenVerifier

    parser = argparse.ArgumentParser(description=f"The MCP server {name!r}: stdio by default.")
    parser.add_argument("--http", action="store_true", help="Serve streamable HTTP instead.")
    parser.add_argument("--port", type=int, default=8000, help="The HTTP port (default 8000).")
    parser.add_argument("--host", default="127.0.0.1", help="The HTTP address (127.0.0.1).")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="Allow --host other than loopback (other machines can call the tools).",
    )
    parser.add_argument(
        "--token",
        default=os.environ.get("WORKBENCH_TOKEN"),
        help="The bearer token HTTP clients must send (default: $WORKBENCH_TOKEN; prefer "
        "the variable: a command line shows in ps).",
    )
    options = parser.parse_args(argv)
    if not options.http:
        _wb_server(name, tools, version, logs, offers=offers).run(show_banner=False)
        return
    try:
        loopback = options.host == "localhost" or ipaddress.ip_address(options.host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not options.allow_remote:
        parser.error(f"--host {options.host} lets other machines call the tools: --allow-remote")
    if not loopback and not options.token:
        parser.error("serving beyond this machine needs a token: set WORKBENCH_TOKEN")
    auth = None
    if options.token:
        secret = options.token.encode()

        class BearerToken(TokenVerifier):
            """The one bearer token, compared in constant time: else HTTP 401."""

            async def verify_token(self, token):
                if hmac.compare_digest(token.encode(), secret):
                    return AccessToken(token=token, client_id="client", scopes=[])
                return None

        auth = BearerToken()
    else:
        print(
            f"{name}: serving without a token, so any local process can call the tools; "
            "set WORKBENCH_TOKEN (or pass --token) to require one.",
            file=sys.stderr,
        )
    unspecified = options.host in ("0.0.0.0", "::")
    _wb_server(name, tools, version, logs, auth, offers).run(
        transport="http",
        host=options.host,
        port=options.port,
        show_banner=False,
        # Host and Origin checked against the bound address (DNS rebinding), as %mcp serve.
        host_origin_protection=True,
        allowed_hosts=["*"] if unspecified else None,
    )
'''
"""Defines ``_wb_server(name, tools, version, logs, auth)`` and ``_wb_main(...)``; the names the
tools' code could use are left alone (everything else is local to these two functions)."""


def media_runtime() -> str:
    """``media.py``'s code as the function ``_wb_media()``, which returns its ``media_block``:
    the script turns bytes and images into content with the notebook's own code, and its
    names stay local, clear of the tools' own."""
    source = inspect.getsource(media)
    first = ast.parse(source).body[1].lineno  # the code after the module's docstring
    body = textwrap.indent("".join(source.splitlines(keepends=True)[first - 1 :]), "    ")
    return f"def _wb_media():\n{body.rstrip()}\n\n    return media_block"
