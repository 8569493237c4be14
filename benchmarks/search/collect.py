"""Collect real MCP tool catalogs for the search benchmark.

Installs real MCP servers from npm and PyPI into a cache folder outside git, starts each
one over stdio with fake credentials, and stores what `tools/list` returns. The catalogs
are other people's text, so they live only in the cache (never in the repository); the
benchmark's requests refer to them by `server.tool` id, which is why the server names and
package versions below are pinned.

    python benchmarks/search/collect.py [--refresh] [--retry-failed] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import signal
import socketserver
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

CONNECT_TIMEOUT_S = 60.0
INSTALL_TIMEOUT_S = 900.0
TOOL_FIELDS = ("name", "title", "description", "inputSchema", "annotations")
# Obviously fake secrets: servers check that a token is set when they start, and use it
# only when a tool is called.
FAKE = "fake-token-for-tools-list"
AWS_ENV = {
    "AWS_REGION": "us-east-1",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_ACCESS_KEY_ID": "AKIA" + FAKE,
    "AWS_SECRET_ACCESS_KEY": FAKE,
}
GOOGLE_OAUTH_CLIENT = json.dumps(
    {"installed": {"client_id": FAKE, "client_secret": FAKE, "redirect_uris": ["http://localhost"]}}
)
WRANGLER_CONFIG = f'oauth_token = "{FAKE}"\nexpiration_time = "2099-01-01T00:00:00.000Z"\n'


def cache_dir() -> Path:
    """Where catalogs, installs and results live; outside the work tree by default."""
    env = os.environ.get("WORKBENCH_BENCH_CACHE")
    if env:
        return Path(env).expanduser().resolve()
    return Path.home() / ".cache" / "workbench" / "search-bench"


@dataclass(frozen=True)
class ServerSpec:
    """One server to install and list: a pinned package and how to start it."""

    name: str  # the registry's server name: no '.', stable, used in request ids
    source: Literal["npm", "pypi"]
    package: str
    version: str
    # npm: the bin to run (default: the package's only/first bin); pypi: the console script.
    entry: str | None = None
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    python: str = "3.11"  # lowest Python the PyPI package runs on
    extra: tuple[str, ...] = ()  # extra requirements installed beside the package
    # Files written under the scratch folder before the start (fake credentials, configs).
    files: Mapping[str, str] = field(default_factory=dict)
    # Why this server does not start here: it is skipped unless --try-known-failures, and
    # stays listed so that the reason is kept.
    known_failure: str = ""


def _npm(name: str, package: str, version: str, *args: str, **kw: Any) -> ServerSpec:
    return ServerSpec(name, "npm", package, version, args=args, **kw)


def _pypi(name: str, package: str, version: str, *args: str, **kw: Any) -> ServerSpec:
    return ServerSpec(name, "pypi", package, version, args=args, **kw)


# `{scratch}` in args and env is replaced by a scratch folder inside the cache.
MCP = "@modelcontextprotocol/"
SERVERS: tuple[ServerSpec, ...] = (
    # --- reference servers -------------------------------------------------------------
    _npm("everything", MCP + "server-everything", "2026.8.31", "stdio"),
    _npm("filesystem", MCP + "server-filesystem", "2026.8.31", "{scratch}/files"),
    _npm(
        "memory",
        MCP + "server-memory",
        "2026.8.31",
        env={"MEMORY_FILE_PATH": "{scratch}/memory.jsonl"},
    ),
    _npm("sequential_thinking", MCP + "server-sequential-thinking", "2026.8.31"),
    _npm("github", MCP + "server-github", "2025.4.8", env={"GITHUB_PERSONAL_ACCESS_TOKEN": FAKE}),
    _npm(
        "gitlab",
        MCP + "server-gitlab",
        "2025.4.25",
        env={"GITLAB_PERSONAL_ACCESS_TOKEN": FAKE, "GITLAB_API_URL": "http://127.0.0.1:9/api/v4"},
    ),
    _npm(
        "slack",
        MCP + "server-slack",
        "2025.4.25",
        env={"SLACK_BOT_TOKEN": "xoxb-" + FAKE, "SLACK_TEAM_ID": "T00000000"},
    ),
    _npm("brave_search", MCP + "server-brave-search", "0.6.2", env={"BRAVE_API_KEY": FAKE}),
    _npm("google_maps", MCP + "server-google-maps", "0.6.2", env={"GOOGLE_MAPS_API_KEY": FAKE}),
    _npm("postgres", MCP + "server-postgres", "0.6.2", "postgresql://127.0.0.1:9/fake"),
    _npm("puppeteer", MCP + "server-puppeteer", "2025.5.12"),
    # The Redis server connects when it starts: {fake_redis} is a stub that answers +OK.
    _npm("redis", MCP + "server-redis", "2025.4.25", "{fake_redis}"),
    _npm("everart", MCP + "server-everart", "0.6.2", env={"EVERART_API_KEY": FAKE}),
    _npm(
        "aws_kb",
        MCP + "server-aws-kb-retrieval",
        "0.6.2",
        env={"AWS_ACCESS_KEY_ID": FAKE, "AWS_SECRET_ACCESS_KEY": FAKE, "AWS_REGION": "us-east-1"},
    ),
    _npm(
        "gdrive",
        MCP + "server-gdrive",
        "2025.1.14",
        env={"GDRIVE_CREDENTIALS_PATH": "{scratch}/gdrive-credentials.json"},
        files={
            "gdrive-credentials.json": json.dumps(
                {
                    "access_token": FAKE,
                    "refresh_token": FAKE,
                    "token_type": "Bearer",
                    "expiry_date": 4102444800000,
                }
            )
        },
    ),
    _pypi("time", "mcp-server-time", "2026.10.19", "--local-timezone", "UTC"),
    _pypi("fetch", "mcp-server-fetch", "2026.10.24"),
    _pypi("git", "mcp-server-git", "2026.10.19", "--repository", "{scratch}/repo"),
    _pypi(
        "sqlite",
        "mcp-server-sqlite",
        "2025.4.25",
        "--db-path",
        "{scratch}/sqlite.db",
        extra=("mcp<2",),
    ),
    # --- browsers and web ----------------------------------------------------------------
    _npm("playwright", "@playwright/mcp", "0.0.83", "--headless", "--isolated"),
    _npm("chrome_devtools", "chrome-devtools-mcp", "1.11.0", "--headless", "--isolated"),
    _npm("context7", "@upstash/context7-mcp", "4.1.1"),
    _npm("firecrawl", "firecrawl-mcp", "3.26.0", env={"FIRECRAWL_API_KEY": "fc-" + FAKE}),
    _npm("exa", "exa-mcp-server", "3.4.1", env={"EXA_API_KEY": FAKE}),
    _npm("tavily", "tavily-mcp", "0.2.22", env={"TAVILY_API_KEY": "tvly-" + FAKE}),
    _npm("perplexity", "@perplexity-ai/mcp-server", "1.2.1", env={"PERPLEXITY_API_KEY": FAKE}),
    _pypi("duckduckgo", "duckduckgo-mcp-server", "0.7.0"),
    _pypi("wikipedia", "wikipedia-mcp", "2.0.1"),
    _pypi("arxiv", "arxiv-mcp-server", "0.8.2", "--storage-path", "{scratch}/arxiv"),
    # --- issue trackers, chat, docs ------------------------------------------------------
    _npm("notion", "@notionhq/notion-mcp-server", "2.5.2", env={"NOTION_TOKEN": "ntn_" + FAKE}),
    _npm("linear", "linear-mcp", "1.2.0", env={"LINEAR_API_KEY": "lin_api_" + FAKE}),
    _npm(
        "jira",
        "@aashari/mcp-server-atlassian-jira",
        "3.3.0",
        env={
            "ATLASSIAN_SITE_NAME": "example",
            "ATLASSIAN_USER_EMAIL": "a@example.com",
            "ATLASSIAN_API_TOKEN": FAKE,
        },
    ),
    _pypi(
        "atlassian",
        "mcp-atlassian",
        "0.23.1",
        env={
            "JIRA_URL": "https://example.atlassian.net",
            "JIRA_USERNAME": "a@example.com",
            "JIRA_API_TOKEN": FAKE,
            "CONFLUENCE_URL": "https://example.atlassian.net/wiki",
            "CONFLUENCE_USERNAME": "a@example.com",
            "CONFLUENCE_API_TOKEN": FAKE,
        },
    ),
    _npm("asana", "@roychri/mcp-server-asana", "1.8.0", env={"ASANA_ACCESS_TOKEN": FAKE}),
    _npm(
        "azure_devops",
        "@azure-devops/mcp",
        "2.10.0",
        "example-org",
        known_failure="needs the native keytar module, which --ignore-scripts leaves unbuilt",
    ),
    _npm("shortcut", "@shortcut/mcp", "0.25.0", env={"SHORTCUT_API_TOKEN": FAKE}),
    _npm("monday", "@mondaydotcomorg/monday-api-mcp", "3.3.0", "-t", FAKE),
    _pypi(
        "trello",
        "trello-mcp",
        "1.6.0",
        env={"TRELLO_API_KEY": FAKE, "TRELLO_TOKEN": FAKE},
        extra=("mcp<2",),
    ),
    _pypi("todoist", "todoist-mcp", "0.4.0", env={"TODOIST_API_TOKEN": FAKE}),
    # --- developer tools, CI, observability ----------------------------------------------
    _npm("sentry", "@sentry/mcp-server", "0.39.0", "--access-token=" + FAKE),
    _npm("circleci", "@circleci/mcp-server-circleci", "0.20.0", env={"CIRCLECI_TOKEN": FAKE}),
    _npm(
        "datadog",
        "@winor30/mcp-server-datadog",
        "1.8.0",
        env={"DATADOG_API_KEY": FAKE, "DATADOG_APP_KEY": FAKE},
    ),
    _npm("launchdarkly", "@launchdarkly/mcp-server", "0.6.2", "start", "--api-key", FAKE),
    _npm("postman", "@postman/postman-mcp-server", "2.13.0", env={"POSTMAN_API_KEY": FAKE}),
    _npm("eslint", "@eslint/mcp", "0.3.13"),
    _npm("desktop_commander", "@wonderwhy-er/desktop-commander", "0.2.52"),
    _pypi(
        "grafana",
        "mcp-grafana",
        "2.1.1",
        env={"GRAFANA_URL": "http://127.0.0.1:9", "GRAFANA_API_KEY": FAKE},
    ),
    _pypi(
        "semgrep",
        "semgrep-mcp",
        "0.9.0",
        extra=("mcp<2", "pydantic<2.12"),
        known_failure="needs the semgrep binary, and dies when its startup telemetry fails offline",
    ),
    _pypi(
        "docker",
        "mcp-server-docker",
        "0.3.0",
        python="3.12",
        known_failure="needs a running Docker daemon (asks for its version while starting)",
    ),
    # --- cloud and infrastructure --------------------------------------------------------
    _npm("kubernetes", "mcp-server-kubernetes", "4.1.7"),
    _npm(
        "cloudflare",
        "@cloudflare/mcp-server-cloudflare",
        "0.2.0",
        "run",
        "fake-account-id",
        files={
            "home/.config/.wrangler/config/default.toml": WRANGLER_CONFIG,
        },
    ),
    _npm(
        "supabase",
        "@supabase/mcp-server-supabase",
        "0.13.0",
        "--access-token=" + FAKE,
        known_failure="calls the Supabase API while initializing (offline: fetch failed)",
    ),
    _npm(
        "heroku",
        "@heroku/mcp-server",
        "1.2.8",
        env={"HEROKU_API_KEY": FAKE},
        known_failure="imports an SDK path that the resolved @modelcontextprotocol/sdk lacks",
    ),
    _pypi(
        "aws_docs",
        "awslabs.aws-documentation-mcp-server",
        "1.2.3",
        entry="awslabs.aws-documentation-mcp-server",
        env=AWS_ENV,
        python="3.10",
    ),
    _pypi(
        "aws_pricing",
        "awslabs.aws-pricing-mcp-server",
        "1.1.1",
        entry="awslabs.aws-pricing-mcp-server",
        env=AWS_ENV,
    ),
    _pypi(
        "cloudwatch",
        "awslabs.cloudwatch-mcp-server",
        "0.3.1",
        entry="awslabs.cloudwatch-mcp-server",
        env=AWS_ENV,
    ),
    _pypi(
        "dynamodb",
        "awslabs.dynamodb-mcp-server",
        "2.1.8",
        entry="awslabs.dynamodb-mcp-server",
        env=AWS_ENV,
    ),
    _pypi(
        "aws_iam", "awslabs.iam-mcp-server", "1.1.2", entry="awslabs.iam-mcp-server", env=AWS_ENV
    ),
    _pypi("eks", "awslabs.eks-mcp-server", "0.2.1", entry="awslabs.eks-mcp-server", env=AWS_ENV),
    # --- databases -----------------------------------------------------------------------
    _npm("mongodb", "mongodb-mcp-server", "3.0.4"),
    _npm(
        "dbhub",
        "@bytebase/dbhub",
        "1.4.0",
        "--transport",
        "stdio",
        "--dsn",
        "sqlite:///{scratch}/dbhub.db",
        known_failure="its SQLite driver is node:sqlite, which Node 20 lacks (Node 22+)",
    ),
    _npm("airtable", "airtable-mcp-server", "1.14.0", env={"AIRTABLE_API_KEY": "pat" + FAKE}),
    _npm("pinecone", "@pinecone-database/mcp", "0.3.0", env={"PINECONE_API_KEY": FAKE}),
    _pypi(
        "duckdb", "mcp-server-duckdb", "1.1.0", "--db-path", "{scratch}/duck.db", extra=("mcp<2",)
    ),
    _pypi(
        "clickhouse",
        "mcp-clickhouse",
        "0.7.0",
        env={"CLICKHOUSE_HOST": "127.0.0.1", "CLICKHOUSE_USER": "x", "CLICKHOUSE_PASSWORD": FAKE},
    ),
    _pypi(
        "chroma",
        "chroma-mcp",
        "0.2.6",
        "--client-type",
        "ephemeral",
        extra=("mcp<2", "pydantic<2.12"),
    ),
    _pypi(
        "neo4j",
        "mcp-neo4j-cypher",
        "0.6.0",
        env={"NEO4J_URI": "bolt://127.0.0.1:9", "NEO4J_USERNAME": "neo4j", "NEO4J_PASSWORD": FAKE},
    ),
    _pypi(
        "elasticsearch",
        "elasticsearch-mcp-server",
        "2.1.6",
        env={"ELASTICSEARCH_HOSTS": "http://127.0.0.1:9", "ELASTICSEARCH_API_KEY": FAKE},
    ),
    # --- business, finance, maps, productivity -------------------------------------------
    _npm("stripe", "@stripe/mcp", "0.2.5", "--tools=all", "--api-key=sk_test_" + FAKE),
    _npm("hubspot", "@hubspot/mcp-server", "0.4.0", env={"PRIVATE_APP_ACCESS_TOKEN": FAKE}),
    _npm("mapbox", "@mapbox/mcp-server", "0.14.0", env={"MAPBOX_ACCESS_TOKEN": "pk." + FAKE}),
    _npm("airbnb", "@openbnb/mcp-server-airbnb", "0.3.0", "--ignore-robots-txt"),
    _npm("chart", "@antv/mcp-server-chart", "0.9.10"),
    _npm(
        "google_calendar",
        "@cocal/google-calendar-mcp",
        "2.6.3",
        env={"GOOGLE_OAUTH_CREDENTIALS": "{scratch}/gcal-oauth.json"},
        files={"gcal-oauth.json": GOOGLE_OAUTH_CLIENT},
    ),
    _pypi("yfinance", "yfmcp", "0.14.0", python="3.12"),
    _pypi(
        "alpaca",
        "alpaca-mcp-server",
        "2.4.0",
        env={"ALPACA_API_KEY": FAKE, "ALPACA_SECRET_KEY": FAKE},
    ),
    _pypi(
        "excel", "excel-mcp-server", "2.2.2", "stdio", env={"EXCEL_FILES_PATH": "{scratch}/excel"}
    ),
    _pypi("word", "office-word-mcp-server", "1.1.11", entry="word_mcp_server"),
    _pypi(
        "powerpoint",
        "office-powerpoint-mcp-server",
        "2.0.7",
        entry="ppt_mcp_server",
        extra=("mcp<2",),
    ),
    _pypi(
        "markitdown",
        "markitdown-mcp",
        "0.0.1a8",
        known_failure="markitdown[all] needs a certifi release that PyPI did not serve yet",
    ),
    _pypi("zotero", "zotero-mcp", "0.3.1", env={"ZOTERO_LOCAL": "true"}),
    _pypi("obsidian", "mcp-obsidian", "0.2.3", env={"OBSIDIAN_API_KEY": FAKE}),
    _pypi(
        "basic_memory",
        "basic-memory",
        "0.24.1",
        "mcp",
        entry="basic-memory",
        python="3.12",
        known_failure="fastmcp-slim>=4.2 needs a certifi release that PyPI did not serve yet",
    ),
    _pypi(
        "home_assistant",
        "ha-mcp",
        "8.7.0",
        python="3.13",
        env={"HOMEASSISTANT_URL": "http://127.0.0.1:9", "HOMEASSISTANT_TOKEN": FAKE},
    ),
)


# --------------------------------------------------------------------------------------
# install


class CollectError(Exception):
    """A server could not be installed or listed; the message goes into the manifest."""


def _run(
    cmd: Sequence[str], log: Path, cwd: Path | None = None, env: Mapping[str, str] | None = None
) -> None:
    with log.open("a") as out:
        out.write(f"\n$ {' '.join(cmd)}\n")
        out.flush()
        try:
            proc = subprocess.run(
                list(cmd),
                cwd=cwd,
                env=dict(env) if env else None,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=INSTALL_TIMEOUT_S,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise CollectError(f"install timed out after {INSTALL_TIMEOUT_S:.0f} s") from exc
    if proc.returncode:
        raise CollectError(f"{cmd[0]} exited {proc.returncode}: {_tail(log)}")


def _tail(log: Path, lines: int = 6) -> str:
    try:
        text = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    keep = [ln.strip() for ln in text if ln.strip()][-lines:]
    return " | ".join(keep)[-600:]


def _find_python(version: str) -> str:
    """An interpreter at least as new as `version` (pyenv installs are looked up too)."""
    want = tuple(int(p) for p in version.split("."))
    if sys.version_info[:2] >= want:
        return sys.executable
    candidates = [f"python{version}"]
    pyenv_root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv"))
    candidates += [str(p) for p in sorted(pyenv_root.glob(f"versions/{version}*/bin/python3"))]
    for minor in range(want[1] + 1, 16):
        candidates.append(f"python3.{minor}")
        candidates += [str(p) for p in sorted(pyenv_root.glob(f"versions/3.{minor}*/bin/python3"))]
    for cand in candidates:
        path = shutil.which(cand) if "/" not in cand else cand
        if path and Path(path).exists():
            probe = subprocess.run(
                [path, "-c", "import sys; print(sys.version_info[:2])"],
                capture_output=True,
                text=True,
                check=False,
            )
            if probe.returncode == 0:
                return path
    raise CollectError(f"needs Python >= {version}; none found")


def install(spec: ServerSpec, root: Path, log: Path) -> tuple[str, list[str], str]:
    """Install one server; return (command, leading args, installed version)."""
    target = root / "install" / spec.source / spec.name
    stamp = target / ".installed"
    wanted = json.dumps([spec.version, spec.python, *spec.extra])  # what the install holds
    if spec.source == "npm":
        if not stamp.exists() or stamp.read_text() != wanted:
            target.mkdir(parents=True, exist_ok=True)
            (target / "package.json").write_text('{"private": true}\n')
            # --ignore-scripts: some MCP packages' postinstall scripts apt-install browsers.
            _run(
                [
                    "npm",
                    "install",
                    "--ignore-scripts",
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    f"{spec.package}@{spec.version}",
                ],
                log,
                cwd=target,
            )
            stamp.write_text(wanted)
        pkg_dir = target / "node_modules" / spec.package
        meta = json.loads((pkg_dir / "package.json").read_text())
        bins = meta.get("bin")
        if isinstance(bins, str):
            bin_path = bins
        elif isinstance(bins, dict) and bins:
            bin_path = bins.get(spec.entry or "", next(iter(bins.values())))
        elif meta.get("main"):  # a few servers ship no bin and start from `main`
            bin_path = meta["main"]
        else:
            raise CollectError("package has no bin")
        # Under --ignore-scripts bins may lack their exec bit: run them through node.
        return "node", [str((pkg_dir / bin_path).resolve())], str(meta.get("version", "?"))

    venv = target / "venv"
    py = venv / "bin" / "python"
    if not stamp.exists() or stamp.read_text() != wanted:
        if venv.exists():
            shutil.rmtree(venv)
        target.mkdir(parents=True, exist_ok=True)
        _run([_find_python(spec.python), "-m", "venv", str(venv)], log)
        _run(
            [
                str(py),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                f"{spec.package}=={spec.version}",
                *spec.extra,
            ],
            log,
        )
        stamp.write_text(wanted)
    entry = spec.entry or spec.package
    script = venv / "bin" / entry
    if not script.exists():
        raise CollectError(f"console script {entry!r} not found in the venv")
    probe = subprocess.run(
        [
            str(py),
            "-c",
            "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))",
            spec.package,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    return str(script), [], probe.stdout.strip() or "?"


# --------------------------------------------------------------------------------------
# list tools


class _FakeRedis(socketserver.BaseRequestHandler):
    """Answers every RESP command with +OK: enough for a Redis client to connect."""

    def handle(self) -> None:
        buffer = b""
        while chunk := self.request.recv(65536):
            buffer += chunk
            while (end := _resp_command_end(buffer)) is not None:
                buffer = buffer[end:]
                self.request.sendall(b"+OK\r\n")


def _resp_command_end(buffer: bytes) -> int | None:
    """Where the first complete RESP array in `buffer` ends, or None if it is incomplete."""
    head = buffer.find(b"\r\n")
    if head < 0:
        return None
    if not buffer.startswith(b"*"):  # inline command: one line
        return head + 2
    pos, count = head + 2, int(buffer[1:head])
    for _ in range(count):
        line_end = buffer.find(b"\r\n", pos)
        if line_end < 0:
            return None
        size = int(buffer[pos + 1 : line_end])
        pos = line_end + 2 + size + 2
        if pos > len(buffer):
            return None
    return pos


def _start_fake_redis() -> str:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _FakeRedis)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"redis://127.0.0.1:{server.server_address[1]}"


def _prepare_scratch(root: Path) -> Path:
    """Folders and files some servers need to exist before they start."""
    scratch = root / "scratch"
    for sub in ("files", "excel", "arxiv", "home"):
        (scratch / sub).mkdir(parents=True, exist_ok=True)
    (scratch / "files" / "README.md").write_text("scratch folder for the filesystem server\n")
    repo = scratch / "repo"
    if not (repo / ".git").exists():
        repo.mkdir(exist_ok=True)
        subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return scratch


# Every server this run starts carries this marker in its environment, so that daemons a
# server spawns in a session of their own can still be found and stopped (and nothing else).
RUN_MARKER = f"{os.getpid()}-{time.time_ns()}"


def _reap(server: str) -> None:
    """Stop what is left of one server's process tree (Linux /proc; elsewhere a no-op)."""
    needle = f"WORKBENCH_BENCH_RUN={RUN_MARKER}/{server}".encode()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if needle in (proc / "environ").read_bytes().split(b"\0"):
                os.kill(int(proc.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


_fake_redis: dict[str, str] = {}
_fake_redis_lock = threading.Lock()


def _expand(arg: str, scratch: Path) -> str:
    """Fill the placeholders of a server argument."""
    if "{fake_redis}" in arg:
        with _fake_redis_lock:
            if "url" not in _fake_redis:
                _fake_redis["url"] = _start_fake_redis()
        arg = arg.replace("{fake_redis}", _fake_redis["url"])
    return arg.replace("{scratch}", str(scratch))


def _server_env(spec: ServerSpec, scratch: Path) -> dict[str, str]:
    """A small, explicit environment: the real HOME and any real secrets stay out."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(scratch / "home"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "FASTMCP_LOG_LEVEL": "WARNING",
        "DO_NOT_TRACK": "1",
        "NODE_NO_WARNINGS": "1",
        "WORKBENCH_BENCH_RUN": f"{RUN_MARKER}/{spec.name}",
    }
    for key, value in spec.env.items():
        env[key] = value.replace("{scratch}", str(scratch))
    return env


def _dump_tool(tool: Any) -> dict[str, Any]:
    raw = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
    return {key: raw[key] for key in TOOL_FIELDS if key in raw}


async def list_tools(
    command: str, args: list[str], env: dict[str, str], cwd: Path, log: Path
) -> list[dict[str, Any]]:
    """Start the server over stdio, list its tools, and stop it."""
    import anyio
    from fastmcp import Client
    from fastmcp.client.transports import StdioTransport

    transport = StdioTransport(command, args, env=env, cwd=str(cwd), keep_alive=False, log_file=log)

    async def to_log(message: Any) -> None:  # server log notifications: keep the console quiet
        with log.open("a") as out:
            out.write(f"[notification] {message}\n")

    client = Client(
        transport, init_timeout=CONNECT_TIMEOUT_S, timeout=CONNECT_TIMEOUT_S, log_handler=to_log
    )
    try:
        with anyio.fail_after(CONNECT_TIMEOUT_S + 5):
            async with client:
                tools = await client.list_tools()
    except TimeoutError as exc:
        raise CollectError(f"no tools/list answer within {CONNECT_TIMEOUT_S:.0f} s") from exc
    finally:
        await client.close()  # type: ignore[no-untyped-call]  # keep_alive or not, stop it
    return [_dump_tool(t) for t in tools]


async def list_tools_raw(
    command: str, args: list[str], env: dict[str, str], cwd: Path, log: Path
) -> list[dict[str, Any]]:
    """tools/list over bare JSON-RPC, for servers the SDK cannot list.

    Some real servers send input schemas without `"type": "object"` (the SDK's result model
    rejects the whole list) or reject the newest protocol's initialize. Their catalog text
    is still what a registry would index.
    """
    import anyio

    messages: list[dict[str, Any]] = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "workbench-search-bench", "version": "0"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    tools: list[dict[str, Any]] = []
    with log.open("ab") as err, anyio.fail_after(CONNECT_TIMEOUT_S):
        async with await anyio.open_process(
            [command, *args], env=env, cwd=str(cwd), stderr=err
        ) as proc:
            assert proc.stdin is not None and proc.stdout is not None
            buffer = b""

            async def send(message: dict[str, Any]) -> None:
                assert proc.stdin is not None
                await proc.stdin.send(json.dumps(message).encode() + b"\n")

            async def answer(request_id: int) -> dict[str, Any]:
                nonlocal buffer
                assert proc.stdout is not None
                while True:
                    while b"\n" not in buffer:
                        buffer += await proc.stdout.receive()
                    line, buffer = buffer.split(b"\n", 1)
                    if not line.strip().startswith(b"{"):
                        continue
                    message = json.loads(line)
                    if message.get("id") == request_id and "method" not in message:
                        if "error" in message:
                            raise CollectError(f"JSON-RPC error: {message['error']}")
                        return dict(message["result"])

            await send(messages[0])
            await answer(1)
            await send(messages[1])
            cursor: str | None = None
            for request_id in range(2, 100):
                params = {"cursor": cursor} if cursor else {}
                await send(
                    {"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params}
                )
                result = await answer(request_id)
                tools += result.get("tools", [])
                cursor = result.get("nextCursor")
                if not cursor:
                    break
            proc.terminate()
    return [{key: t[key] for key in TOOL_FIELDS if t.get(key) is not None} for t in tools]


def collect_one(spec: ServerSpec, root: Path, scratch: Path) -> dict[str, Any]:
    """Install, start and list one server; return its manifest entry."""
    import anyio

    logs = root / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    install_log, server_log = logs / f"{spec.name}.install.log", logs / f"{spec.name}.server.log"
    server_log.unlink(missing_ok=True)
    entry: dict[str, Any] = {"source": spec.source, "package": spec.package, "pinned": spec.version}

    t0 = time.perf_counter()
    try:
        command, lead, installed = install(spec, root, install_log)
        entry["version"] = installed
        t1 = time.perf_counter()
        entry["install_s"] = round(t1 - t0, 1)
        args = lead + [_expand(a, scratch) for a in spec.args]
        for rel, content in spec.files.items():
            path = scratch / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content)
        env = _server_env(spec, scratch)
        try:
            tools = anyio.run(list_tools, command, args, env, scratch, server_log)
        except Exception as sdk_exc:
            # Some servers send schemas the SDK's models reject, or refuse the newest
            # protocol's initialize; the catalog text is still real, so ask once more over
            # bare JSON-RPC with an older protocol version.
            _reap(spec.name)
            try:
                tools = anyio.run(list_tools_raw, command, args, env, scratch, server_log)
            except Exception:
                raise sdk_exc from None
            first_line = (str(sdk_exc).splitlines() or [type(sdk_exc).__name__])[0]
            entry["listed_via"] = f"bare JSON-RPC (SDK: {first_line[:200]})"
        entry["list_s"] = round(time.perf_counter() - t1, 2)
        if not tools:
            raise CollectError("server listed no tools")
    except Exception as exc:  # any failure is recorded, never fatal for the others
        _reap(spec.name)
        reason = exc if isinstance(exc, CollectError) else f"{type(exc).__name__}: {exc}"
        tail = _tail(server_log)
        entry.update(
            status="failed", error=str(reason)[:600] + (f" || stderr: {tail}" if tail else "")
        )
        if not isinstance(exc, CollectError):
            with install_log.open("a") as out:
                traceback.print_exc(file=out)
        return entry
    _reap(spec.name)
    catalog = {
        "server": spec.name,
        "package": spec.package,
        "version": entry["version"],
        "tools": tools,
    }
    out_path = root / "catalogs" / f"{spec.name}.json"
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps(catalog, indent=1, ensure_ascii=False) + "\n")
    entry.update(status="ok", tools=len(tools))
    return entry


# --------------------------------------------------------------------------------------
# driver


def load_manifest(root: Path) -> dict[str, Any]:
    path = root / "manifest.json"
    if path.exists():
        return dict(json.loads(path.read_text()))
    return {"servers": {}}


def collect(
    root: Path | None = None,
    *,
    refresh: bool = False,
    retry_failed: bool = False,
    try_known_failures: bool = False,
    only: Sequence[str] = (),
    jobs: int = 3,
) -> dict[str, Any]:
    """Collect every server not yet in the cache; return the manifest."""
    # Some servers print banners on stdout; the SDK skips those lines but logs a traceback
    # for each, which would bury the progress lines.
    logging.getLogger("mcp.client.stdio").setLevel(logging.CRITICAL)
    root = root or cache_dir()
    root.mkdir(parents=True, exist_ok=True)
    scratch = _prepare_scratch(root)
    manifest = load_manifest(root)
    known: dict[str, Any] = manifest.setdefault("servers", {})
    todo: list[ServerSpec] = []
    for spec in SERVERS:
        if only and spec.name not in only:
            continue
        if spec.known_failure and not try_known_failures and spec.name not in only:
            known[spec.name] = {
                "status": "skipped",
                "source": spec.source,
                "package": spec.package,
                "pinned": spec.version,
                "error": spec.known_failure,
            }
            continue
        prev = known.get(spec.name, {})
        have = (root / "catalogs" / f"{spec.name}.json").exists()
        same = prev.get("pinned") == spec.version
        if not refresh and same and prev.get("status") == "ok" and have:
            continue
        if not refresh and not retry_failed and same and prev.get("status") == "failed":
            continue
        todo.append(spec)
    lock = threading.Lock()
    started = time.perf_counter()

    def work(spec: ServerSpec) -> None:
        entry = collect_one(spec, root, scratch)
        with lock:
            known[spec.name] = entry
            _write_manifest(root, manifest)
            status = f"{entry.get('tools', 0):4d} tools" if entry["status"] == "ok" else "FAILED"
            elapsed = time.perf_counter() - started
            print(
                f"[{elapsed:6.0f}s] {spec.name:20s} {status}  {entry.get('error', '')[:150]}",
                flush=True,
            )

    if todo:
        print(f"collecting {len(todo)} servers into {root} ({jobs} at a time)", flush=True)
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            list(pool.map(work, todo))
    manifest["last_collect_s"] = round(time.perf_counter() - started, 1)
    _write_manifest(root, manifest)
    ok = {k: v for k, v in known.items() if v.get("status") == "ok"}
    failed = sum(v.get("status") == "failed" for v in known.values())
    skipped = sum(v.get("status") == "skipped" for v in known.values())
    print(
        f"{len(ok)} servers, {sum(v['tools'] for v in ok.values())} tools in {root / 'catalogs'};"
        f" {failed} failed, {skipped} skipped as known failures (see manifest.json)"
    )
    return manifest


def _write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    ordered = {**manifest, "servers": dict(sorted(manifest["servers"].items()))}
    tmp = root / "manifest.json.tmp"
    tmp.write_text(json.dumps(ordered, indent=1) + "\n")
    tmp.replace(root / "manifest.json")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refresh", action="store_true", help="collect every server again")
    parser.add_argument(
        "--retry-failed", action="store_true", help="try again the servers that failed last time"
    )
    parser.add_argument(
        "--only", nargs="+", default=(), metavar="NAME", help="collect only these servers"
    )
    parser.add_argument(
        "--try-known-failures",
        action="store_true",
        help="also try the servers known not to start offline here",
    )
    parser.add_argument("--jobs", type=int, default=3, help="servers handled at once")
    opts = parser.parse_args(argv)
    names = {s.name for s in SERVERS}
    unknown = set(opts.only) - names
    if unknown:
        parser.error(f"unknown servers: {', '.join(sorted(unknown))}")
    collect(
        refresh=opts.refresh,
        retry_failed=opts.retry_failed,
        try_known_failures=opts.try_known_failures,
        only=opts.only,
        jobs=opts.jobs,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
