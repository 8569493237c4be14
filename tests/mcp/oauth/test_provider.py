"""The provider of each grant, and what NotebookOAuth changes in FastMCP's flow: no
pre-flight GET, configured scopes joined to the challenged ones, the token endpoint's
auth method from the server's metadata. The authorization step runs for real up to the
token request (which is built, not sent)."""

from __future__ import annotations

import asyncio
import base64
import threading
import warnings
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from fastmcp.client.auth import ClientCredentialsOAuthProvider, PrivateKeyJWTOAuthProvider
from mcp.shared.auth import OAuthMetadata

from workbench.config.oauth import OAuthSettings
from workbench.mcp.oauth.provider import CALLBACK_HOST, NotebookOAuth, build_auth

URL = "http://127.0.0.1:9/mcp"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_DATA_DIR", str(tmp_path))


class Answering:
    """A router that answers with the redirect an approving server would send."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    async def sign_in(
        self, server: str, url: str, *, listening: bool, done: threading.Event, timeout: float
    ) -> str | None:
        self.urls.append(url)
        state = parse_qs(urlsplit(url).query)["state"][0]
        return f"http://{CALLBACK_HOST}/callback?code=CODE&state={state}"


def build(router: Answering, **settings: object) -> NotebookOAuth:
    values = {"sign_in": "paste", "cache": False, **settings}
    auth = build_auth("srv", URL, OAuthSettings.from_value(values), router)
    assert isinstance(auth, NotebookOAuth)
    return auth


def test_interactive_provider_is_bound_and_listens_on_loopback() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # FastMCP's memory-store notice stays out of cells
        auth = build(Answering(), callback_port=8976)
    redirect = auth.context.client_metadata.redirect_uris
    assert redirect is not None and str(redirect[0]) == "http://127.0.0.1:8976/callback"
    assert auth.mcp_url == URL


def authorize(auth: NotebookOAuth, challenged: str | None) -> tuple[str, object]:
    """One authorization step as the SDK runs it after discovery and registration."""
    auth.context.client_metadata.scope = challenged
    if auth.context.client_info is None:
        auth.context.client_info = auth._static_client_info
    request = asyncio.run(auth._perform_authorization())
    return auth.router.urls[-1], request  # type: ignore[attr-defined]


def test_configured_scopes_join_the_challenged_ones_without_a_pre_flight() -> None:
    router = Answering()
    auth = build(router, client_id="pre", scopes=["files:read", "mail"])
    url, request = authorize(auth, "mail openid")
    assert parse_qs(urlsplit(url).query)["scope"] == ["mail openid files:read"]
    assert len(router.urls) == 1
    body = parse_qs(request.content.decode())  # type: ignore[attr-defined]
    assert body["code"] == ["CODE"] and body["grant_type"] == ["authorization_code"]


def test_a_secret_goes_the_way_the_server_takes_it() -> None:
    auth = build(Answering(), client_id="pre", client_secret="sec")
    auth.context.oauth_metadata = OAuthMetadata.model_validate({
        "issuer": "http://127.0.0.1:9", "authorization_endpoint": "http://127.0.0.1:9/authorize",
        "token_endpoint": "http://127.0.0.1:9/token",
        "token_endpoint_auth_methods_supported": ["client_secret_basic"],
    })  # fmt: skip
    _, request = authorize(auth, None)
    header = request.headers["authorization"]  # type: ignore[attr-defined]
    assert header == "Basic " + base64.b64encode(b"pre:sec").decode()
    assert "client_secret" not in request.content.decode()  # type: ignore[attr-defined]

    chosen = build(Answering(), client_id="pre", client_secret="sec",
                   token_endpoint_auth_method="client_secret_post")  # fmt: skip
    chosen.context.oauth_metadata = auth.context.oauth_metadata
    _, posted = authorize(chosen, None)
    assert "client_secret=sec" in posted.content.decode()  # type: ignore[attr-defined]


def test_client_credentials_with_a_secret_or_a_private_key() -> None:
    router = Answering()
    secret = build_auth(
        "srv", URL,
        OAuthSettings(grant="client_credentials", client_id="m", client_secret="s", cache=False),
        router,
    )  # fmt: skip
    assert isinstance(secret, ClientCredentialsOAuthProvider)
    assert secret.context.client_metadata.token_endpoint_auth_method == "client_secret_basic"
    posted = build_auth(
        "srv", URL,
        OAuthSettings(grant="client_credentials", client_id="m", client_secret="s",
                      token_endpoint_auth_method="client_secret_post", cache=False),
        router,
    )  # fmt: skip
    assert posted.context.client_metadata.token_endpoint_auth_method == "client_secret_post"
    key = build_auth(
        "srv", URL,
        OAuthSettings(grant="client_credentials", client_id="m", private_key="-----PEM-----",
                      issuer="http://127.0.0.1:9", cache=False),
        router,
    )  # fmt: skip
    assert isinstance(key, PrivateKeyJWTOAuthProvider)
    assert router.urls == []  # machines never ask anyone
