"""The MCP conformance suite's server scenarios against notebook tools served from a kernel.

A real kernel runs the fixture notebooks (tests/fixtures/conformance*.ipynb, in name order: the
tools, resources and prompts the suite asks for by name, written as a notebook would), serves
them with `%mcp serve`, and each scenario of `@modelcontextprotocol/conformance` (pinned in
fixtures.mk) runs against the URL, one at a time: every scenario the served surface supports
must pass. The suite's scenario list must be exactly APPLICABLE + NOT_YET + NOT_APPLICABLE,
so a scenario a new suite version adds fails here until someone decides where it belongs.

Served with `--no-auth`, on purpose and only here: the suite's server runner connects with
`new StreamableHTTPClientTransport(new URL(url))` and cannot send a header (0.1.16 has no
option for one), so a bearer token would fail every scenario with 401. The token is tested
with the Inspector (test_inspector.py). Without auth, dns-rebinding-protection tests the
Host/Origin checks themselves, which is the case that scenario is about.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.clients import client_env, conformance_js, node

SCENARIO_TIMEOUT = 60

APPLICABLE = [
    "server-initialize",
    "logging-set-level",
    "ping",
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "tools-call-with-logging",
    "tools-call-with-progress",
    "json-schema-2020-12",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    # tests/fixtures/conformance_resources.ipynb: resources, templates and prompts from cells
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "resources-subscribe",
    "resources-unsubscribe",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "completion-complete",
    # tests/fixtures/conformance_asking.ipynb: tools that ask (get_context().elicit, .sample)
    "tools-call-elicitation",
    "elicitation-sep1034-defaults",
    "elicitation-sep1330-enums",
    "tools-call-sampling",
    # tests/fixtures/conformance_http.ipynb: test_reconnection closes its stream (SEP-1699)
    "server-sse-polling",
]

NOT_YET: dict[str, str] = {}
"""Scenarios the served surface could support but does not yet: each runs, and must fail
(strict xfail), so the day one passes this module says to move it to APPLICABLE."""

NOT_APPLICABLE: dict[str, str] = {}
"""Scenarios about what serving notebook tools never offers; never run."""


def _expected_to_fail(scenario: str) -> Any:
    return pytest.param(scenario, marks=pytest.mark.xfail(reason=NOT_YET[scenario], strict=True))


def suite_scenarios() -> list[str]:
    listed = subprocess.run(
        [node(), str(conformance_js()), "list", "--server"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return re.findall(r"^\s+- (\S+)(?: \[[^]]*\])?$", listed.stdout + listed.stderr, re.M)


def run_scenario(url: str, scenario: str, workdir: Path) -> tuple[int, list[dict[str, Any]], str]:
    """Run one scenario; its exit code, its checks (from the JSON it saves) and its output."""
    out = workdir / scenario
    done = subprocess.run(
        [node(), str(conformance_js()), "server", "--url", url, "--scenario", scenario,
         "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=SCENARIO_TIMEOUT,
        env=client_env(workdir / "home"),
        cwd=workdir,
    )  # fmt: skip
    saved = sorted(out.glob("*/checks.json"))
    checks: list[dict[str, Any]] = json.loads(saved[-1].read_text()) if saved else []
    return done.returncode, checks, done.stdout + done.stderr


def failures(returncode: int, checks: list[dict[str, Any]], output: str) -> list[str]:
    """What went wrong, in words: failed checks, or a run that saved no checks or failed."""
    failed = [
        f"{check['id']}: {check.get('errorMessage') or check.get('description')}"
        for check in checks
        if check["status"] == "FAILURE"
    ]
    if not checks:
        failed.append(f"the scenario saved no checks:\n{output[-3000:]}")
    elif returncode != 0 and not failed:
        failed.append(f"the suite exited with {returncode}:\n{output[-3000:]}")
    return failed


@pytest.mark.integration
def test_every_scenario_of_the_suite_is_placed() -> None:
    scenarios = suite_scenarios()
    assert scenarios, "the suite listed no server scenarios"
    placed = [*APPLICABLE, *NOT_YET, *NOT_APPLICABLE]
    assert len(placed) == len(set(placed)), "a scenario is listed twice"
    assert sorted(scenarios) == sorted(placed), (
        f"new in the suite: {sorted(set(scenarios) - set(placed))}; "
        f"gone from it: {sorted(set(placed) - set(scenarios))}"
    )


@pytest.mark.kernel
@pytest.mark.parametrize("scenario", APPLICABLE)
def test_scenario_passes(served: str, scenario: str, tmp_path: Path) -> None:
    returncode, checks, output = run_scenario(served, scenario, tmp_path)
    assert not failures(returncode, checks, output), "\n".join(failures(returncode, checks, output))


if NOT_YET:  # defined only while some scenario is expected to fail (no empty-set skip)

    @pytest.mark.kernel
    @pytest.mark.parametrize("scenario", [_expected_to_fail(name) for name in NOT_YET])
    def test_scenario_not_supported_yet(served: str, scenario: str, tmp_path: Path) -> None:
        returncode, checks, output = run_scenario(served, scenario, tmp_path)
        wrong = failures(returncode, checks, output)
        assert not wrong, "\n".join(wrong)
