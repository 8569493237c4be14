"""Why an OAuth sign-in failed, in one line that says what to do.

Pure: reads the error chain a failed connection left (the SDK's and FastMCP's OAuth
exceptions, the sign-in's own), recognised by class name and words, never by importing
them. ``failures.explain_connect_failure`` asks here first for an OAuth server, so these
failures are not blamed on the HTTP statuses the sign-in met on its way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from urllib.parse import urlsplit

from workbench.config.oauth import OAuthSettings
from workbench.secrets import mask_text

_BODY = re.compile(r"\{.*\}", re.DOTALL)
_CLIENT_REJECTED = ("invalid_client", "unauthorized_client")
_ISSUER = re.compile(r"issuer mismatch: (\S+) != (\S+)")


def oauth_reason(url: str, settings: OAuthSettings, chain: Sequence[BaseException]) -> str | None:
    """The cause and the fix, or None when nothing in ``chain`` is about OAuth."""
    for error in chain:
        kind, said = type(error).__name__, str(error)
        if kind == "SignInTimeout":
            return (
                f"sign-in not completed within {settings.timeout:g} s: the redirect never "
                "arrived. Open the link and finish signing in (in paste mode, paste the "
                "address the browser ends on), or give a larger oauth timeout."
            )
        if kind == "SignInUnanswered":
            return (
                f"the sign-in could not finish: {said}. Set wb.on_sign_in(fn), or use "
                "sign_in='local' where the browser can reach this machine."
            )
        if kind == "SignInRefused":
            code = getattr(error, "error", "") or "refused"
            return _refused(str(code), getattr(error, "description", None), settings)
        if "issuer mismatch" in said:
            found = _ISSUER.search(said)
            named, expected = found.groups() if found else ("?", "?")
            return (
                f"the authorization server's metadata names issuer {named} but was expected "
                f"to be {expected}; the sign-in stopped there for safety. Ask the server's "
                "operator to fix its metadata (or check the issuer setting)."
            )
        if kind == "OAuthRegistrationError" or "Registration failed" in said:
            return _registration(url, said)
        if kind == "ClientNotFoundError" or _code(said) in (
            "invalid_client",
            "unauthorized_client",
        ):
            return (
                f"the authorization server rejected the client id or secret"
                f"{_detail(said)}. Check client_id and client_secret (and "
                "token_endpoint_auth_method), or leave them out to register anew."
            )
        if kind == "OAuthTokenError" or _code(said):
            return _refused(_code(said) or "token_error", _description(said), settings)
    return None


def damaged_cache(name: str, chain: Sequence[BaseException]) -> str | None:
    """The way out when the token cache cannot be read (garbage, cut short, a folder where
    a file was, unreadable), or None. Logging out removes the cache whole; the parser's
    words are left out, as they may quote what the files hold."""
    for error in chain:
        if type(error).__module__.startswith("key_value.") or _about_the_cache(error):
            cause = error
            while cause.__cause__ is not None:
                cause = cause.__cause__
            return (
                "its cached OAuth tokens cannot be read (the token cache is damaged or "
                f"unreadable: {type(cause).__name__}). Forget them with %mcp logout {name} "
                f"(or wb.logout({name!r})), then connect again to sign in anew."
            )
    return None


def _about_the_cache(error: BaseException) -> bool:
    """An OS-level failure on a file of the token cache that the store did not wrap: a link
    loop (``RuntimeError`` from ``Path.resolve``), a permission or I/O error."""
    from workbench.mcp.oauth.tokens import cache_root

    if not isinstance(error, OSError | RuntimeError):
        return False
    root = str(cache_root())
    return root in str(error) or str(getattr(error, "filename", "")).startswith(root)


def well_known_addresses(url: str) -> list[str]:
    """Where the SDK looks for the server's OAuth metadata (RFC 9728, then RFC 8414)."""
    parts = urlsplit(url)
    origin, path = f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")
    found = [f"{origin}/.well-known/oauth-protected-resource{path}"]
    if path:
        found.append(f"{origin}/.well-known/oauth-protected-resource")
    found.append(f"{origin}/.well-known/oauth-authorization-server")
    found.append(f"{origin}/.well-known/openid-configuration")
    return found


def _registration(url: str, said: str) -> str:
    if re.search(r"Registration failed: 404\b", said):
        tried = ", ".join(well_known_addresses(url))
        return (
            f"no OAuth metadata or client registration was found for this server (looked "
            f"at {tried} and /register). Check the URL; a server that takes a fixed bearer "
            "token wants the token option instead of oauth, and a pre-registered client "
            "gives client_id."
        )
    return (
        f"the authorization server refused to register this client{_detail(said)}. Give a "
        "pre-registered client_id (and client_secret), or a client_metadata_url."
    )


def _refused(code: str, description: str | None, settings: OAuthSettings) -> str:
    said = f" ({code}{': ' + description if description else ''})"
    if code == "invalid_scope":
        asked = " ".join(settings.scopes) or "the server's default scopes"
        return (
            f"the authorization server refused the scopes asked for{mask_text(said)}: "
            f"{asked}. Ask for scopes it grants (the scopes setting)."
        )
    if code == "access_denied":
        return (
            f"access was denied at sign-in{mask_text(said)}. Sign in again and approve the "
            "request, or ask the server's operator for access."
        )
    return f"the sign-in was refused{mask_text(said)}. Sign in again (wb.logout(name) first)."


def _body(said: str) -> dict[str, object]:
    found = _BODY.search(said)
    if found is None:
        return {}
    try:
        body = json.loads(found.group(0))
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _code(said: str) -> str:
    code = _body(said).get("error")
    return code if isinstance(code, str) else ""


def _description(said: str) -> str | None:
    text = _body(said).get("error_description")
    return text if isinstance(text, str) and text else None


def _detail(said: str) -> str:
    code, description = _code(said), _description(said)
    if not code:
        return ""
    return mask_text(f" ({code}{': ' + description if description else ''})")
