"""The MCP conformance suite's core client scenarios, with the Workbench as the client.

For each scenario the suite (`@modelcontextprotocol/conformance`, pinned in the Makefile)
starts a mock server and runs tests/fixtures/conformance_client.py with its URL; the script
connects through ``Workbench.connect`` and calls what the scenario expects, and the suite's
checks say whether the server saw a conforming client. One scenario at a time, never in
parallel (sse-retry measures timings). The suite's list of client scenarios must be exactly
CORE + the auth scenarios (issue 18), so one a new suite version adds fails here until
someone places it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.clients import client_env, conformance_js, node
from tests.installed import ROOT

CLIENT = ROOT / "tests" / "fixtures" / "conformance_client.py"
SCENARIO_TIMEOUT = 90

CORE = {
    "initialize": "",
    "tools_call": "The sum of 5 and 3 is 8",
    "elicitation-sep1034-client-defaults": "",
    "sse-retry": "Reconnection test completed successfully",
}
"""Each core scenario, and what the client prints of the result its tool call got."""


def suite_client_scenarios() -> list[str]:
    listed = subprocess.run(
        [node(), str(conformance_js()), "list"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    _, _, clients = listed.stdout.partition("Client scenarios")
    return re.findall(r"^\s+- (\S+)$", clients, re.M)


def run_client_scenario(scenario: str, workdir: Path) -> tuple[int, list[dict[str, Any]], str]:
    """Run one scenario; the suite's exit code, its checks and the client's stdout."""
    out = workdir / "results"
    env = client_env(workdir / "home")
    env["PYTHONPATH"] = str(ROOT)  # the script imports workbench from this checkout
    # The suite splits --command on spaces: neither path may contain one.
    command = f"{sys.executable} {CLIENT}"
    assert " " not in sys.executable and " " not in str(CLIENT), command
    done = subprocess.run(
        [node(), str(conformance_js()), "client", "--command", command,
         "--scenario", scenario, "--timeout", "60000", "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=SCENARIO_TIMEOUT,
        env=env,
        cwd=workdir,
    )  # fmt: skip
    saved = sorted(out.glob("*/checks.json"))
    checks: list[dict[str, Any]] = json.loads(saved[-1].read_text()) if saved else []
    stdout = (saved[-1].parent / "stdout.txt").read_text() if saved else ""
    return done.returncode, checks, stdout + done.stdout + done.stderr


def verdict(returncode: int, checks: list[dict[str, Any]], output: str) -> list[str]:
    """What went wrong: failed or warned checks (the suite fails a run on either), no checks
    at all, or a non-zero exit (the client itself failed)."""
    wrong = [
        f"{check['id']}: {check['status']}: {check.get('errorMessage') or check.get('description')}"
        for check in checks
        if check["status"] in ("FAILURE", "WARNING")
    ]
    if not checks:
        wrong.append("the scenario saved no checks")
    if returncode != 0:
        wrong.append(f"the suite exited with {returncode}")
    if wrong:
        wrong.append(output[-4000:])
    return wrong


def test_every_client_scenario_of_the_suite_is_placed() -> None:
    scenarios = suite_client_scenarios()
    assert scenarios, "the suite listed no client scenarios"
    not_auth = sorted(s for s in scenarios if not s.startswith("auth/"))
    assert not_auth == sorted(CORE), f"the suite's core client scenarios are now {not_auth}"


@pytest.mark.parametrize("scenario", list(CORE))
def test_core_client_scenario_passes(scenario: str, tmp_path: Path) -> None:
    returncode, checks, output = run_client_scenario(scenario, tmp_path)
    wrong = verdict(returncode, checks, output)
    assert not wrong, "\n".join(wrong)
    assert any(check["status"] == "SUCCESS" for check in checks)
    assert f"{scenario}: tools" in output  # the script ran, connected and listed
    assert CORE[scenario] in output
