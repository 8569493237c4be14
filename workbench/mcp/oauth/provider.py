"""The httpx Auth of an OAuth server: FastMCP's providers with the notebook's sign-in.

``build_auth`` makes the provider for a spec: ``NotebookOAuth`` for the interactive grant
(the authorization URL routed to a handler or the person, the redirect raced against a
local listener), FastMCP's client-credentials providers (a secret, or a private key
signing a JWT) for machines. Tokens are kept in ``tokens.store_for``'s store.
"""

from __future__ import annotations

import warnings
from typing import Any

from fastmcp.client.auth import OAuth
from mcp.shared.auth import AuthorizationCodeResult

from workbench.config.oauth import OAuthSettings
from workbench.mcp.oauth.listener import listening
from workbench.mcp.oauth.signin import SignInRouter, wait_for_redirect
from workbench.mcp.oauth.tokens import store_for

CALLBACK_HOST = "127.0.0.1"
CLIENT_NAME = "MCP Workbench"


class NotebookOAuth(OAuth):
    """FastMCP's OAuth without its browser and pre-flight GET (itself an authorization
    request, which an auto-approving server counts): the URL goes to ``router`` and the
    redirect comes back pasted or through a one-shot listener."""

    def __init__(
        self, server: str, settings: OAuthSettings, router: SignInRouter, **options: Any
    ) -> None:
        extra: dict[str, Any] = {}
        if settings.token_endpoint_auth_method is not None:
            extra["token_endpoint_auth_method"] = settings.token_endpoint_auth_method
        super().__init__(
            scopes=list(settings.scopes) or None,
            client_name=CLIENT_NAME,
            callback_port=settings.callback_port,
            callback_host=CALLBACK_HOST,
            callback_timeout=settings.timeout,
            client_metadata_url=settings.client_metadata_url,
            client_id=settings.client_id,
            client_secret=settings.client_secret,
            additional_client_metadata=extra or None,
            **options,
        )
        self.server = server
        self.settings = settings
        self.router = router
        self._authorization_url: str | None = None

    async def _initialize(self) -> None:
        """A registration cached by an earlier kernel names that kernel's redirect port:
        listen there again (the server refuses any other redirect URI for that client)."""
        await super()._initialize()
        info, static = self.context.client_info, getattr(self, "_static_client_info", None)
        if info is None or static is not None or self.settings.callback_port:
            return
        for uri in info.redirect_uris or []:
            if uri.host in (CALLBACK_HOST, "localhost") and uri.port:
                self.redirect_port = uri.port
                self.context.client_metadata.redirect_uris = [uri]
                return

    async def _perform_authorization(self) -> Any:
        """The configured scopes join the server's (the SDK replaces them with the
        challenged ones), and a pre-registered secret goes the way the server takes."""
        from mcp.client.auth.utils import union_scopes

        metadata = self.context.client_metadata
        metadata.scope = union_scopes(metadata.scope, " ".join(self.settings.scopes) or None)
        self._choose_auth_method()
        return await super()._perform_authorization()

    def _choose_auth_method(self) -> None:
        """FastMCP posts a secret (client_secret_post); a server that only takes Basic
        would refuse it: pick one it lists, unless the settings chose."""
        info, server = self.context.client_info, self.context.oauth_metadata
        if (self.settings.token_endpoint_auth_method is not None or info is None
                or not info.client_secret or server is None):  # fmt: skip
            return
        supported = server.token_endpoint_auth_methods_supported or []
        if supported and info.token_endpoint_auth_method not in supported:
            for method in ("client_secret_basic", "client_secret_post"):
                if method in supported:
                    info.token_endpoint_auth_method = method
                    break

    async def redirect_handler(self, authorization_url: str) -> None:
        """Keep the URL: the callback shows it once the listener is up."""
        self._authorization_url = authorization_url

    async def callback_handler(self) -> AuthorizationCodeResult:
        url, self._authorization_url = self._authorization_url or "", None
        timeout = self.settings.timeout
        if self.settings.sign_in_mode() == "local":
            async with listening(CALLBACK_HOST, self.redirect_port, self.mcp_url) as listener:
                code, state, iss = await wait_for_redirect(
                    self.server, url, self.router, listener, timeout
                )
        else:
            code, state, iss = await wait_for_redirect(self.server, url, self.router, None, timeout)
        return AuthorizationCodeResult(code=code, state=state, iss=iss)


def build_auth(server: str, url: str, settings: OAuthSettings, router: SignInRouter) -> Any:
    """The provider (an ``httpx.Auth``) signing ``server`` at ``url`` in, bound to it."""
    store = store_for(url, settings)
    with warnings.catch_warnings():
        # FastMCP warns about memory stores (cache=False is asked for) and a missing
        # issuer (the server's discovered one is used, as for the interactive grant).
        warnings.simplefilter("ignore")
        if settings.grant == "identity_assertion":
            return _identity_assertion_provider(url, settings, store)
        if settings.grant == "client_credentials":
            provider = _machine_provider(settings, store)
        else:
            provider = NotebookOAuth(server, settings, router, token_storage=store)
        provider._bind(url)
    return provider


def _identity_assertion_provider(url: str, settings: OAuthSettings, store: Any) -> Any:
    """Cross-app access (SEP-990): the identity provider's token exchange gives an ID-JAG for
    the configured issuer and this server; the SDK trades it for an access token."""
    import httpx2
    from fastmcp.client.auth.oauth import TokenStorageAdapter
    from mcp.client.auth.extensions.identity_assertion import IdentityAssertionOAuthProvider

    async def id_jag(audience: str, resource: str) -> str:
        form = {
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
            "subject_token": settings.idp_id_token or "",
            "subject_token_type": "urn:ietf:params:oauth:token-type:id_token",
            "requested_token_type": "urn:ietf:params:oauth:token-type:id-jag",
            "audience": audience,
            "resource": resource,
            "client_id": settings.idp_client_id or settings.client_id or "",
        }
        async with httpx2.AsyncClient() as http:
            answer = await http.post(settings.idp_token_endpoint or "", data=form)
        if answer.status_code != 200:
            raise RuntimeError(
                f"The identity provider refused the token exchange (HTTP {answer.status_code})."
            )
        return str(answer.json()["access_token"])

    method = settings.token_endpoint_auth_method
    return IdentityAssertionOAuthProvider(
        server_url=url,
        storage=TokenStorageAdapter(store, url),
        client_id=settings.client_id or "",
        client_secret=settings.client_secret or "",
        issuer=settings.issuer or "",
        assertion_provider=id_jag,
        scope=" ".join(settings.scopes) or None,
        token_endpoint_auth_method="client_secret_post"
        if method == "client_secret_post"
        else "client_secret_basic",
    )


def _machine_provider(settings: OAuthSettings, store: Any) -> Any:
    from fastmcp.client.auth import (
        ClientCredentialsOAuthProvider,
        PrivateKeyJWTOAuthProvider,
        SignedJWTParameters,
    )

    client_id = settings.client_id or ""
    scopes = list(settings.scopes) or None
    if settings.private_key is not None:
        assertion = SignedJWTParameters(
            issuer=client_id,
            subject=client_id,
            signing_key=settings.private_key,
            signing_algorithm=settings.signing_algorithm,
        ).create_assertion_provider()
        return PrivateKeyJWTOAuthProvider(
            client_id=client_id, assertion_provider=assertion, scopes=scopes,
            issuer=settings.issuer, token_storage=store,
        )  # fmt: skip
    method = settings.token_endpoint_auth_method
    return ClientCredentialsOAuthProvider(
        client_id=client_id,
        client_secret=settings.client_secret or "",
        scopes=scopes,
        token_endpoint_auth_method="client_secret_post"
        if method == "client_secret_post"
        else "client_secret_basic",
        issuer=settings.issuer,
        token_storage=store,
    )
