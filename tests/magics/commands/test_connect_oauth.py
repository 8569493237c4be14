"""``%mcp connect NAME URL --oauth ...``: the options reach the real ``Workbench.connect`` as
OAuth settings. The URL is a closed port on 127.0.0.1, so each connection fails fast (the
URL could not be reached) and the failed server keeps the settings it was given, which the
tests read back; a wrong setting is refused before anything connects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.error import UsageError

from workbench.config.oauth import OAuthSettings
from workbench.kernel import KernelState

Mcp = Callable[[str], Any]
CLOSED = "http://127.0.0.1:9/mcp"
"""The discard port: nothing listens there, so a connection is refused at once."""
NAME = "signin"


@pytest.fixture
def settings_of(mcp: Mcp, state: KernelState) -> Iterator[Callable[[str], OAuthSettings | None]]:
    """Run ``%mcp connect signin CLOSED <options>``: refused, one line; the settings kept."""

    def run(options: str) -> OAuthSettings | None:
        with pytest.raises(UsageError) as refused:
            mcp(f"connect {NAME} {CLOSED} {options}")
        assert type(refused.value) is UsageError and "\n" not in str(refused.value)
        assert "could not be reached" in str(refused.value)
        info = {i.name: i for i in state.workbench.servers()}[NAME]
        assert info.status == "failed"
        spec = state.workbench._manager.get(NAME).spec
        return spec.oauth

    try:
        yield run
    finally:
        if NAME in [i.name for i in state.workbench.servers()]:
            mcp(f"disconnect {NAME}")


@pytest.mark.integration
def test_oauth_alone_is_the_default_settings(settings_of: Any) -> None:
    assert settings_of("--oauth") == OAuthSettings()
    assert settings_of("") is None


def test_every_option_becomes_its_setting(
    settings_of: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WORKBENCH_TEST_CLIENT_SECRET", "CLIENT-SECRET-9931")
    settings = settings_of(
        "--oauth --client-id wb-client --client-secret ${env:WORKBENCH_TEST_CLIENT_SECRET} "
        '--scope docs:read --scope "docs:write admin" --auth-method client_secret_basic '
        "--issuer https://auth.example.test --callback-port 8765 --paste --no-cache"
    )
    assert settings == OAuthSettings(
        client_id="wb-client",
        client_secret="CLIENT-SECRET-9931",
        scopes=("docs:read", "docs:write", "admin"),
        token_endpoint_auth_method="client_secret_basic",
        issuer="https://auth.example.test",
        callback_port=8765,
        sign_in="paste",
        cache=False,
    )


def test_a_client_metadata_document(settings_of: Any) -> None:
    url = "https://wb.example.test/client.json"
    settings = settings_of(f"--oauth --client-metadata-url {url}")
    assert settings == OAuthSettings(client_metadata_url=url)


def test_client_credentials_with_a_secret_or_a_private_key_file(
    settings_of: Any, tmp_path: Path
) -> None:
    settings = settings_of("--oauth --client-credentials --client-id svc --client-secret s3")
    assert (settings.grant, settings.client_id) == ("client_credentials", "svc")
    key = tmp_path / "svc.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n")
    settings = settings_of(
        f"--oauth --client-credentials --client-id svc --private-key-file {key} --auth-method none"
    )
    assert settings.private_key == key.read_text() and settings.client_secret is None


def test_the_secret_never_shows_in_the_error_nor_the_server_table(
    mcp: Mcp, settings_of: Any
) -> None:
    with pytest.raises(UsageError) as refused:
        mcp(f"connect {NAME} {CLOSED} --oauth --client-id c --client-secret LITERAL-SECRET-77")
    assert "LITERAL-SECRET-77" not in str(refused.value)
    _, captured = mcp("servers")
    assert "LITERAL-SECRET-77" not in captured.stdout + str(captured.outputs)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("--client-id x", "--client-id applies with --oauth"),
        ("--paste", "--paste applies with --oauth"),
        ("--no-cache --scope a", "--scope applies with --oauth"),
        ("--oauth --auth-method basic", "token_endpoint_auth_method must be one of"),
        ("--oauth --callback-port 0", "--callback-port: 0 is not a port number"),
        ("--oauth --client-credentials", "client_credentials needs a client_id"),
        ("--oauth --client-metadata-url http://x.test/c.json", "must be an https:// URL"),
        ("--oauth --token t", "Give token or oauth, not both"),
        ("--oauth --private-key-file /no/such.pem", "--private-key-file '/no/such.pem' cannot"),
    ],
)
def test_wrong_oauth_options_are_one_line_usage_errors(
    mcp: Mcp, state: KernelState, options: str, message: str
) -> None:
    with pytest.raises(UsageError) as refused:
        mcp(f"connect {NAME} {CLOSED} {options}")
    assert message in str(refused.value) and "\n" not in str(refused.value)
    assert NAME not in [i.name for i in state.workbench.servers()]


def test_oauth_is_for_url_servers_and_not_with_a_config_file(mcp: Mcp) -> None:
    with pytest.raises(UsageError, match="--oauth signs in to a server at a URL; give NAME URL"):
        mcp(f"connect {NAME} --oauth -- mcp-server-time")
    with pytest.raises(UsageError, match="not --oauth"):
        mcp("connect --config mcp.json --oauth")
    with pytest.raises(UsageError, match="not --client-id"):
        mcp("connect --config mcp.json --client-id x")
