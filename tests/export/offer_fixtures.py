"""Resources and prompts for the export tests, defined in a module as a notebook would in
cells: the script copies their source, like a tool's."""

from __future__ import annotations

from workbench.tools.prompt_definition import prompt, text_prompt
from workbench.tools.resource_definition import ResourceDefinition, resource

GREETING = "hello"


@resource("data://greeting", description="A greeting.")
def greeting() -> str:
    return GREETING


@resource("data://config")
def config() -> dict[str, object]:
    return {"debug": True, "level": 3}


@resource("data://logo", mime_type="image/png")
def logo() -> bytes:
    return b"\x89PNG\r\n"


@resource("data://users/{id}")
def user(id: int) -> dict[str, object]:
    return {"id": id, "even": id % 2 == 0}


def ids(value: str) -> list[str]:
    return [str(n) for n in range(10, 40) if str(n).startswith(value)]


user.add_completer("id", ids)


@prompt(complete={"language": ["python", "perl", "go"]})
def review(code: str, language: str = "python") -> list[tuple[str, str]]:
    """Review some code."""
    return [("user", f"Review this {language}: {code}"), ("assistant", "Sure.")]


NOTES = ResourceDefinition(lambda: "", "data://notes", name="notes", text="# Notes\nfirst")
SUMMARIZE = text_prompt("summarize", "Summarize in {words} words: {text}", description="Sum up.")
RESOURCES = [greeting, config, logo, user, NOTES]
PROMPTS = [review, SUMMARIZE]
