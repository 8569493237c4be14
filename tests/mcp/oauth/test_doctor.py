"""The OAuth doctor: each cause in one line saying what to do, from the exceptions the SDK
and FastMCP really raise (wrapped as fastmcp wraps them), asked before HTTP statuses."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from mcp.client.auth.exceptions import OAuthFlowError, OAuthRegistrationError, OAuthTokenError

from workbench.config.oauth import OAuthSettings
from workbench.config.spec import server_spec
from workbench.mcp.failures import explain_connect_failure
from workbench.mcp.oauth.doctor import oauth_reason, well_known_addresses
from workbench.mcp.oauth.signin import SignInRefused, SignInTimeout, SignInUnanswered
from workbench.mcp.oauth.tokens import store_for

URL = "http://127.0.0.1:9/mcp"
SECRET = "client-secret-planted-1234"


def wrapped(cause: Exception) -> RuntimeError:
    """As fastmcp's Client raises it."""
    try:
        raise RuntimeError(f"Client failed to connect: {cause}") from cause
    except RuntimeError as error:
        return error


def explain(cause: Exception, **settings: object) -> str:
    spec = server_spec("remote", url=URL, oauth=settings or True)
    return explain_connect_failure(spec, wrapped(cause), http_status=404)


def test_metadata_not_found_lists_where_it_looked() -> None:
    message = explain(OAuthRegistrationError("Registration failed: 404 Not Found"))
    for address in well_known_addresses(URL):
        assert address in message
    assert "http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp" in message
    assert "the token option" in message and "HTTP 404" not in message


def test_issuer_mismatch_names_both() -> None:
    said = "Authorization server metadata issuer mismatch: http://a/other != http://a/as"
    message = explain(OAuthFlowError(said))
    assert "http://a/other" in message and "http://a/as" in message and "operator" in message


def test_registration_refused_with_the_servers_words() -> None:
    body = '{"error":"invalid_client_metadata","error_description":"registration closed"}'
    message = explain(OAuthRegistrationError(f"Registration failed: 400 {body}"))
    assert "refused to register" in message and "registration closed" in message
    assert "client_id" in message


def test_client_rejected_and_the_secret_never_shown() -> None:
    body = '{"error":"invalid_client","error_description":"bad secret ' + SECRET + '"}'
    message = explain(
        OAuthTokenError(f"Token exchange failed (401): {body}"),
        client_id="pre", client_secret=SECRET,
    )  # fmt: skip
    assert "rejected the client id or secret" in message and "client_secret" in message
    assert SECRET not in message


def test_scope_refused_and_access_denied() -> None:
    message = explain(SignInRefused("invalid_scope", "scope not allowed"), scopes=["admin"])
    assert "refused the scopes" in message and "admin" in message
    body = '{"error":"invalid_scope","error_description":"nope"}'
    assert "refused the scopes" in explain(OAuthTokenError(f"Token exchange failed: {body}"))
    denied = explain(SignInRefused("access_denied", None))
    assert "access was denied" in denied and "approve" in denied


def test_a_redirect_that_never_arrived_and_nobody_to_paste() -> None:
    message = explain(SignInTimeout(2), timeout=2)
    assert "sign-in not completed within 2 s" in message and "larger oauth timeout" in message
    unanswered = explain(SignInUnanswered("no redirect URL was given"))
    assert "wb.on_sign_in(fn)" in unanswered


@pytest.mark.parametrize("error", [ValueError("boom"), OSError("listener busy")])
def test_other_failures_are_left_to_the_usual_explanations(error: Exception) -> None:
    assert oauth_reason(URL, OAuthSettings(), [error]) is None


def test_a_server_without_oauth_keeps_its_http_explanation() -> None:
    spec = server_spec("remote", url=URL)
    message = explain_connect_failure(
        spec, wrapped(OAuthRegistrationError("Registration failed: 404")), http_status=404
    )
    assert "HTTP 404" in message


def test_g15_a_token_cache_that_cannot_be_read_says_to_log_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The error a real store raises for a cache file holding a token-like value cut short:
    the hint names the way out, and the parser's words (which quote the file) stay out."""
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path))

    async def put(store: Any) -> None:
        await store.put(key="k", value={"access_token": SECRET}, collection="tokens")

    async def get(store: Any) -> None:
        await store.get(key="k", collection="tokens")

    asyncio.run(put(store_for(URL, OAuthSettings())))
    for path in (tmp_path / "oauth").rglob("*.json"):
        path.write_text('{"value": {"access_token": "' + SECRET)
    with pytest.raises(Exception, match="Failed to setup collection") as caught:
        asyncio.run(get(store_for(URL, OAuthSettings())))
    message = explain(caught.value)
    assert "token cache is damaged" in message and SECRET not in message
    assert "%mcp logout remote (or wb.logout('remote'))" in message and "\n" not in message
