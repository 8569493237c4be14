"""``%%resource`` and ``%%prompt`` cells in a real kernel: the notebook reads them through its
``notebook`` connection (``%mcp resources``, ``%mcp read``, ``%mcp prompts``, ``%mcp
prompt``), a re-run cell is what both the notebook and an outside client see next, and
``%mcp serve`` offers them to an outside client over HTTP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fastmcp import Client

from tests.kernel.conftest import KernelSession
from tests.serving.conftest import with_client

pytestmark = pytest.mark.kernel

NOTES = "%%resource data://notes --mime-type text/markdown\n# Notes\nfirst"
PROMPT = '%%prompt summarize --description "Summarize a text."\nSummarize in {words} words: {text}'
USERS = """%%resource data://users/{name} --python
def user(name: str) -> dict:
    return {"name": name, "len": len(name)}
"""


@pytest.fixture(scope="module")
def kernel(kernel_launcher: Callable[..., KernelSession]) -> KernelSession:
    session = kernel_launcher()
    for cell in ("%load_ext workbench\nimport workbench", NOTES, PROMPT, USERS):
        status, _, error = session.execute(cell, timeout=60)
        assert status == "ok", error
    return session


READ = "r = %mcp read {}\nprint(r.content[0].resource.text)"


def run(kernel: KernelSession, cell: str) -> str:
    status, out, error = kernel.execute(cell, timeout=60)
    assert status == "ok", error
    return out


def test_the_notebook_reads_its_own_resources_and_prompts(kernel: KernelSession) -> None:
    run(kernel, "%mcp resources notebook\n%mcp resources notebook --templates\n%mcp prompts")
    listed = run(
        kernel, "wb = workbench.current()\nprint([r.uri for r in wb.resources('notebook')])"
    )
    assert "['data://notes']" in listed
    templates = run(kernel, "print([t.uri_template for t in wb.resource_templates('notebook')])")
    assert "['data://users/{name}']" in templates
    assert "# Notes" in run(kernel, READ.format("data://notes"))
    assert '"len": 3' in run(kernel, READ.format("data://users/{name} name=Ann"))
    assert "['summarize']" in run(kernel, "print([p.name for p in wb.prompts('notebook')])")
    got = run(kernel, "p = %mcp prompt summarize words=5 text=MCP\nprint(p.text)")
    assert "Summarize in 5 words: MCP" in got


def test_a_re_run_cell_is_what_the_notebook_and_an_outside_client_see(
    kernel: KernelSession,
) -> None:
    out = run(
        kernel,
        "%mcp serve --no-auth\nimport workbench\nprint('URL', workbench.current().served.url)",
    )
    [url] = [line.split()[1] for line in out.splitlines() if line.startswith("URL ")]
    assert "With resources: data://notes, data://users/{name}; prompts: summarize." in out

    async def read(client: Client[Any]) -> tuple[str, list[str]]:
        [contents] = await client.read_resource("data://notes")
        prompts = [p.name for p in await client.list_prompts()]
        return getattr(contents, "text", ""), prompts

    assert with_client(url, None, read) == ("# Notes\nfirst", ["summarize"])
    run(kernel, NOTES.replace("first", "second"))
    assert "second" in run(kernel, READ.format("data://notes"))
    assert with_client(url, None, read) == ("# Notes\nsecond", ["summarize"])
    run(kernel, "%mcp serve --stop")
