"""The MCP conformance suite's client scenarios, with the Workbench as the client.

For each scenario the suite (`@modelcontextprotocol/conformance`, pinned in the Makefile)
starts a mock server (and, for the auth scenarios, a mock authorization server) and runs
tests/fixtures/conformance_client.py with its URL; the script connects through
``Workbench.connect`` (``oauth=`` and ``on_sign_in`` for the auth ones, a headless stand-in
for the person who signs in) and calls what the scenario expects, and the suite's checks say
whether the servers saw a conforming client. One scenario at a time, never in parallel
(sse-retry measures timings; each auth scenario starts servers of its own). The suite's list
of client scenarios must be exactly CORE + AUTH + REFUSED + KNOWN_FAILURES, so one a new
suite version adds fails here until someone places it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.clients import client_env, conformance_js, node
from tests.installed import ROOT

pytestmark = pytest.mark.integration

CLIENT = ROOT / "tests" / "fixtures" / "conformance_client.py"
SCENARIO_TIMEOUT = 90

CORE = {
    "initialize": "",
    "tools_call": "The sum of 5 and 3 is 8",
    "elicitation-sep1034-client-defaults": "",
    "sse-retry": "Reconnection test completed successfully",
}
"""Each core scenario, and what the client prints of the result its tool call got."""

AUTH = [
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/cross-app-access-complete-flow",
]
"""Auth scenarios the client passes by signing in, listing the tools and calling the one the
mock server has (scope-step-up only asks for more scope at that call)."""

REFUSED = {
    "auth/resource-mismatch": "does not match",
    "auth/scope-retry-limit": "it asks for the scope",
}
"""Auth scenarios passed by giving up: the suite checks the client does NOT go on (a protected
resource naming another server; a server refusing every token it asked for), so the client
exits without a connection, and what it prints must say why (this text, any case)."""

KNOWN_FAILURES = {
    "auth/2025-03-26-oauth-metadata-backcompat": (
        "issuer",
        "the 2025-03-26 layout serves the authorization server metadata of issuer "
        "http://HOST/oauth at http://HOST/.well-known/oauth-authorization-server; the MCP SDK's "
        "OAuth client enforces RFC 8414 section 3.3 (the issuer must be the URL the metadata was "
        "asked of) and stops with an issuer mismatch before any token request, as a bare "
        "FastMCP client does",
    ),
}
"""Auth scenarios the workbench cannot pass: (what its failure output must contain, why). Each
runs as a strict xfail that only counts when it fails for that reason."""


class KnownFailure(Exception):
    """The scenario failed, and for exactly its known reason."""


def suite_client_scenarios() -> list[str]:
    listed = subprocess.run(
        [node(), str(conformance_js()), "list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    _, _, clients = listed.stdout.partition("Client scenarios")
    return re.findall(r"^\s+- (\S+)(?: \[[^\]]*\])?$", clients, re.M)  # "- name [2025-11-25]"


@dataclass(frozen=True)
class Run:
    """One scenario's run: the suite's exit code, its checks, what the client printed (its
    stdout and stderr) and what the suite printed (which quotes the scenario's context)."""

    returncode: int
    checks: list[dict[str, Any]]
    client: str
    suite: str

    def verdict(self) -> list[str]:
        """What went wrong: failed or warned checks (the suite fails a run on either), no
        checks at all, or a non-zero exit of the suite."""
        wrong = [
            f"{check['id']}: {check['status']}: "
            f"{check.get('errorMessage') or check.get('description')}"
            for check in self.checks
            if check["status"] in ("FAILURE", "WARNING")
        ]
        if not self.checks:
            wrong.append("the scenario saved no checks")
        if self.returncode != 0:
            wrong.append(f"the suite exited with {self.returncode}")
        if wrong:
            wrong.append((self.client + self.suite)[-4000:])
        return wrong

    def context_secrets(self) -> list[str]:
        """The secrets the suite gave the client (MCP_CONFORMANCE_CONTEXT, which the suite
        itself prints): a client secret, an ID token, a private key's lines."""
        match = re.search(r"^With context: (\{.*\})$", self.suite, re.M)
        context: dict[str, Any] = json.loads(match.group(1)) if match else {}
        found = [str(context.get(key) or "") for key in ("client_secret", "idp_id_token")]
        for line in str(context.get("private_key_pem") or "").splitlines():
            if "PRIVATE KEY" not in line:
                found.append(line)
        return [value for value in found if len(value) >= 8]


def run_client_scenario(
    scenario: str, workdir: Path, suite: Path | None = None, *options: str
) -> Run:
    """Run one scenario with the Workbench as its client (with ``suite``, another version's
    CLI, and its ``options``, e.g. ``--spec-version 2026-07-28``)."""
    out = workdir / "results"
    env = client_env(workdir / "home")  # also where the token cache goes
    env["PYTHONPATH"] = str(ROOT)  # the script imports workbench from this checkout
    # The suite splits --command on spaces: neither path may contain one.
    command = f"{sys.executable} {CLIENT}"
    assert " " not in sys.executable and " " not in str(CLIENT), command
    done = subprocess.run(
        [node(), str(suite or conformance_js()), "client", "--command", command,
         "--scenario", scenario, *options, "--timeout", "60000", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=SCENARIO_TIMEOUT,
        env=env,
        cwd=workdir,
    )  # fmt: skip
    # Saved as <out>/<scenario>-<time>/, so auth/x under <out>/auth/.
    saved = sorted(out.glob("**/checks.json"))
    folder = saved[-1].parent if saved else None
    checks: list[dict[str, Any]] = json.loads(saved[-1].read_text()) if saved else []
    client = "".join(
        (folder / stream).read_text()
        for stream in ("stdout.txt", "stderr.txt")
        if folder is not None and (folder / stream).is_file()
    )
    return Run(done.returncode, checks, client, done.stdout + done.stderr)


def test_every_client_scenario_of_the_suite_is_placed() -> None:
    scenarios = suite_client_scenarios()
    assert scenarios, "the suite listed no client scenarios"
    placed = [*CORE, *AUTH, *REFUSED, *KNOWN_FAILURES]
    assert len(placed) == len(set(placed)), "a scenario is listed twice"
    assert sorted(scenarios) == sorted(placed), (
        f"new in the suite: {sorted(set(scenarios) - set(placed))}; "
        f"gone from it: {sorted(set(placed) - set(scenarios))}"
    )
    assert len(AUTH) + len(REFUSED) >= 20, "issue 18: at least 20 auth scenarios pass"


@pytest.mark.parametrize("scenario", list(CORE))
def test_core_client_scenario_passes(scenario: str, tmp_path: Path) -> None:
    run = run_client_scenario(scenario, tmp_path)
    wrong = run.verdict()
    assert not wrong, "\n".join(wrong)
    assert any(check["status"] == "SUCCESS" for check in run.checks)
    assert f"{scenario}: tools" in run.client  # the script ran, connected and listed
    assert CORE[scenario] in run.client


def known_failures(known: dict[str, tuple[str, str]]) -> list[Any]:
    """Each scenario of ``known`` (name -> (cause, why)) as a strict xfail that only
    :class:`KnownFailure` satisfies."""
    return [
        pytest.param(name, marks=pytest.mark.xfail(reason=why, raises=KnownFailure, strict=True))
        for name, (_, why) in known.items()
    ]


def fail_as_known(run: Run, cause: str, why: str) -> None:
    """Raise KnownFailure when the run failed and the client names ``cause``; any other
    failure fails the test, and a pass fails it too (strict xfail)."""
    wrong = run.verdict()
    assert_no_secret_shown(run)
    if wrong and cause in run.client.lower():
        raise KnownFailure(why)
    assert not wrong, "\n".join(wrong)


def assert_no_secret_shown(run: Run) -> None:
    shown = [value[:4] + "..." for value in run.context_secrets() if value in run.client]
    assert not shown, f"the client printed a secret of the scenario's context: {shown}"


@pytest.mark.parametrize("scenario", AUTH)
def test_auth_scenario_passes(scenario: str, tmp_path: Path) -> None:
    run = run_client_scenario(scenario, tmp_path)
    wrong = run.verdict()
    assert not wrong, "\n".join(wrong)
    assert any(check["status"] == "SUCCESS" for check in run.checks)
    # Signed in, connected, listed the mock's one tool and called it (it answers "test").
    assert f"{scenario}: tools ['test-tool']\ntest\n" in run.client, run.client
    assert_no_secret_shown(run)


@pytest.mark.parametrize("scenario", list(REFUSED))
def test_auth_scenario_passes_by_refusing(scenario: str, tmp_path: Path) -> None:
    run = run_client_scenario(scenario, tmp_path)
    wrong = run.verdict()
    assert not wrong, "\n".join(wrong)
    assert any(check["status"] == "SUCCESS" for check in run.checks)
    assert f"{scenario}: tools" not in run.client, "the client went on"
    assert "not connected" in run.client, run.client
    assert REFUSED[scenario] in run.client.lower(), run.client
    assert_no_secret_shown(run)


@pytest.mark.parametrize("scenario", known_failures(KNOWN_FAILURES))
def test_auth_scenario_known_to_fail(scenario: str, tmp_path: Path) -> None:
    """Fails (xfail) only for its known reason, as the client says it: another failure fails
    the test, and a pass fails it too (strict), saying to move the scenario to AUTH."""
    fail_as_known(run_client_scenario(scenario, tmp_path), *KNOWN_FAILURES[scenario])
