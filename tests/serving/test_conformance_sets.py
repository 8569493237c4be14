"""The conformance suite's requirement sets against notebook tools served from a kernel.

The suite's next release (`@modelcontextprotocol/conformance` 0.2 alpha, CONFORMANCE_NEXT_VERSION
in fixtures.mk) freezes what each spec revision requires: `server --requirements 2026-07-28`
runs that revision's server scenarios, at its wire (stateless: `server/discover`, per-request
`_meta`), one after another, plus those it runs but never scores (extensions such as tasks,
scenarios still pending). One suite run per set, against the same served kernel as
test_conformance.py (the session-scoped ``served`` of conftest.py), is a few seconds; each
scenario's verdict is read from the checks the run saved. Every scenario a set lists must be
placed in exactly one of PASSES / NOT_YET (strict xfail, with why) / NOT_APPLICABLE (why), so
one a new suite version adds fails here until someone decides where it belongs.

A scenario passes when none of its checks is a FAILURE and at least one is a SUCCESS (a
scenario whose checks the suite itself skips passes nothing). Besides its own checks the alpha
validates every JSON-RPC message the server sent against the revision's JSON schema
(`wire-schema-valid`, one per scenario), so a pass also means a schema-valid wire.
WARNINGs (SHOULDs) do not fail a scenario, as in the suite's own summary.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.clients import client_env, conformance_next_js, node

SET_TIMEOUT = 300  # a set's whole run (each scenario has the suite's own 30 s)

_TOOLS = [
    "tools-list",
    "tools-call-simple-text",
    "tools-call-image",
    "tools-call-audio",
    "tools-call-embedded-resource",
    "tools-call-mixed-content",
    "tools-call-error",
    "tools-call-with-progress",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    # tests/fixtures/conformance_resources.ipynb: resources, templates and prompts from cells
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
    "completion-complete",
]


@dataclass(frozen=True)
class Placement:
    """Where each scenario of one requirement set stands."""

    passes: list[str]
    not_yet: dict[str, str]
    not_applicable: dict[str, str] = field(default_factory=dict)

    def placed(self) -> list[str]:
        return [*self.passes, *self.not_yet, *self.not_applicable]


SETS = {
    "2026-07-28": Placement(
        passes=[
            *_TOOLS,
            "sep-2164-resource-not-found",
            "caching",
            "input-required-result-unsupported-methods",
            # tests/fixtures/conformance_asking.ipynb: tools that ask (get_context().elicit)
            "input-required-result-basic-elicitation",
            "input-required-result-request-state",
            "input-required-result-multi-round",
            "input-required-result-result-type",
            "input-required-result-tampered-state",
            "input-required-result-missing-input-response",
            "input-required-result-ignore-extra-params",
            "input-required-result-validate-input",
            # tests/fixtures/conformance_asking_more.ipynb: sample(), roots(), a missing capability
            "input-required-result-basic-sampling",
            "input-required-result-capability-check",
            "input-required-result-basic-list-roots",
            "input-required-result-multiple-input-requests",
            "input-required-result-non-tool-request",
            "server-stateless",
            "http-header-validation",  # pending, not scored
            "json-schema-2020-12",  # pending: allOf, if/then/else, $anchor kept (SEP-2106)
            # tests/fixtures/conformance_http.ipynb: region_echo's x-mcp-header (SEP-2243)
            "http-custom-header-server-validation",  # pending
            # Tasks (SEP-2663), from tests/fixtures/conformance_tasks.ipynb:
            "tasks-capability-negotiation",
            "tasks-wire-fields",
            "tasks-request-state-removal",
            "tasks-mrtr-input",
            "tasks-request-headers",
            "tasks-dispatch-and-envelope",
            "tasks-required-task-error",
            "tasks-lifecycle",  # protocol_error_job raises workbench.ProtocolError
            "tasks-mrtr-composition",  # test_tool_with_task: @asks_before_task
        ],
        not_yet={},
        not_applicable={
            "tasks-status-notifications": (
                "the suite skips its only check itself (its harness awaits a rewrite for the "
                "subscriptions/listen stream): nothing to pass"
            ),
        },
    ),
    "2025-11-25": Placement(
        passes=[
            "server-initialize",
            "logging-set-level",
            "ping",
            *_TOOLS,
            "tools-call-with-logging",
            "resources-subscribe",
            "resources-unsubscribe",
            "server-session-lifecycle",  # added after the release, not scored
            "json-schema-2020-12",  # pending; SEP-2106's checks are skipped at this revision
            # tests/fixtures/conformance_asking.ipynb: tools that ask (get_context().elicit)
            "tools-call-elicitation",
            "elicitation-sep1034-defaults",
            "elicitation-sep1330-enums",
            "tools-call-sampling",
            # tests/fixtures/conformance_http.ipynb: test_reconnection closes its stream
            "server-sse-polling",  # pending; resumed from the event store (SEP-1699)
        ],
        not_yet={},
    ),
}


def set_scenarios(revision: str) -> tuple[list[str], list[str]]:
    """The server scenarios a revision's set scores, and those it runs without scoring."""
    listed = subprocess.run(
        [node(), str(conformance_next_js()), "list", "--server", "--requirements", revision],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    required, _, unscored = listed.stdout.partition("Run and reported, but never scored")
    servers = required.partition("Server scenarios")[2].partition("Client scenarios")[0]
    scored = re.findall(r"^\s+- (\S+)$", servers, re.M)
    extra = re.findall(r"^\s+- (\S+) \[server\]$", unscored, re.M)
    return scored, extra


@dataclass(frozen=True)
class SetRun:
    """One suite run of a set: each scenario's saved checks, and what the suite printed."""

    checks: dict[str, list[dict[str, Any]]]
    output: str

    def verdict(self, scenario: str) -> list[str]:
        """What went wrong for the scenario, in words (empty when it passed)."""
        if scenario not in self.checks:
            return [f"the run saved no checks for {scenario}:\n{self.output[-3000:]}"]
        checks = self.checks[scenario]
        wrong = [
            f"{check['id']}: {check.get('errorMessage') or check.get('description')}"
            for check in checks
            if check["status"] == "FAILURE"
        ]
        if not any(check["status"] == "SUCCESS" for check in checks):
            wrong.append(f"no check succeeded: {[(c['id'], c['status']) for c in checks]}")
        return wrong


class NotPassing(Exception):
    """A scenario ran, and some of its checks failed."""


_SAVED = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d\d-\d\dT[\d-]+Z$")


def run_set(url: str, revision: str, workdir: Path) -> SetRun:
    """Run a revision's whole server set once against ``url``."""
    out = workdir / "results"
    done = subprocess.run(
        [node(), str(conformance_next_js()), "server", "--url", url,
         "--requirements", revision, "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=SET_TIMEOUT,
        env=client_env(workdir / "home"),
        cwd=workdir,
    )  # fmt: skip
    checks: dict[str, list[dict[str, Any]]] = {}
    for saved in sorted(out.glob("*/checks.json")):
        match = _SAVED.match(saved.parent.name)
        if match:
            checks[match["scenario"]] = json.loads(saved.read_text())
    return SetRun(checks, done.stdout + done.stderr)


@pytest.fixture(scope="module")
def set_run(served: str, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], SetRun]:
    """``set_run(revision)``: that set's one run against the served kernel, made on first use."""
    runs: dict[str, SetRun] = {}

    def get(revision: str) -> SetRun:
        if revision not in runs:
            runs[revision] = run_set(served, revision, tmp_path_factory.mktemp(revision))
        return runs[revision]

    return get


def _cases(kind: str) -> list[Any]:
    cases = []
    for revision, placement in SETS.items():
        if kind == "passes":
            cases += [
                pytest.param(revision, name, id=f"{revision}:{name}") for name in placement.passes
            ]
        else:
            cases += [
                pytest.param(
                    revision,
                    name,
                    id=f"{revision}:{name}",
                    marks=pytest.mark.xfail(reason=why, raises=NotPassing, strict=True),
                )
                for name, why in placement.not_yet.items()
            ]
    return cases


@pytest.mark.integration
@pytest.mark.parametrize("revision", list(SETS))
def test_every_scenario_of_the_set_is_placed(revision: str) -> None:
    scored, extra = set_scenarios(revision)
    assert scored, f"the suite listed no server scenarios for {revision}"
    placed = SETS[revision].placed()
    assert len(placed) == len(set(placed)), "a scenario is placed twice"
    listed = [*scored, *extra]
    assert sorted(listed) == sorted(placed), (
        f"new in the set: {sorted(set(listed) - set(placed))}; "
        f"gone from it: {sorted(set(placed) - set(listed))}"
    )


@pytest.mark.kernel
@pytest.mark.parametrize(("revision", "scenario"), _cases("passes"))
def test_scenario_passes(set_run: Callable[[str], SetRun], revision: str, scenario: str) -> None:
    wrong = set_run(revision).verdict(scenario)
    assert not wrong, "\n".join(wrong)


if _cases("not_yet"):  # defined only while some scenario is expected to fail (no skip)

    @pytest.mark.kernel
    @pytest.mark.parametrize(("revision", "scenario"), _cases("not_yet"))
    def test_scenario_not_supported_yet(
        set_run: Callable[[str], SetRun], revision: str, scenario: str
    ) -> None:
        """Fails (xfail) only when the scenario ran and some check of it failed: a run that saved
        nothing for it fails the test, and a pass fails it too (strict): move it to passes."""
        run = set_run(revision)
        assert scenario in run.checks, run.verdict(scenario)
        wrong = run.verdict(scenario)
        if wrong:
            raise NotPassing("\n".join(wrong))
