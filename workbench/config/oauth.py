"""OAuthSettings: how one remote server is signed in to, as plain checked data.

Pure (no fastmcp, no I/O) so ``config.py``, the magics and ``server_spec`` can all read
``"oauth": true | {...}`` the same way, and the one-line errors name the bad key.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Literal

from workbench.errors import ConfigError

AuthMethod = Literal["client_secret_basic", "client_secret_post", "none"]
Grant = Literal["authorization_code", "client_credentials", "identity_assertion"]
SignInMode = Literal["auto", "local", "paste"]

AUTH_METHODS: tuple[str, ...] = ("client_secret_basic", "client_secret_post", "none")
GRANTS: tuple[str, ...] = ("authorization_code", "client_credentials", "identity_assertion")
SIGN_IN_MODES: tuple[str, ...] = ("auto", "local", "paste")
DEFAULT_SIGN_IN_TIMEOUT = 300.0
# Where a browser cannot reach the kernel's 127.0.0.1 (JupyterHub, Binder): paste instead.
REMOTE_KERNEL_VARIABLES = ("JUPYTERHUB_SERVICE_PREFIX", "BINDER_SERVICE_HOST", "BINDER_REQUEST")


@dataclass(frozen=True, repr=False)
class OAuthSettings:
    """How to sign in to one server. ``client_secret``, ``private_key`` and ``idp_id_token``
    are secrets: never in the repr, and joined to the spec's secrets so every message masks
    them.

    ``identity_assertion`` is cross-app access (SEP-990): the enterprise identity provider
    exchanges the person's ID token (``idp_id_token``, at ``idp_token_endpoint`` as
    ``idp_client_id``) for an ID-JAG, which the server's authorization server (``issuer``,
    required) takes for an access token; nobody signs in on a page."""

    client_id: str | None = None
    client_secret: str | None = None
    client_metadata_url: str | None = None
    scopes: tuple[str, ...] = ()
    token_endpoint_auth_method: AuthMethod | None = None
    grant: Grant = "authorization_code"
    private_key: str | None = None
    signing_algorithm: str = "RS256"
    issuer: str | None = None
    cache: bool = True
    callback_port: int | None = None
    sign_in: SignInMode = "auto"
    timeout: float = DEFAULT_SIGN_IN_TIMEOUT
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None
    idp_id_token: str | None = None

    def __post_init__(self) -> None:
        _check(self)

    def secrets(self) -> tuple[str, ...]:
        """The values never to show: the client secret and the private key (and its lines,
        in case an error quotes one)."""
        found = [self.client_secret or "", self.idp_id_token or ""]
        if self.private_key:
            found.append(self.private_key)
            found += [line for line in self.private_key.splitlines() if len(line) >= 8]
        return tuple(value for value in found if value)

    def sign_in_mode(self, environ: Mapping[str, str] | None = None) -> Literal["local", "paste"]:
        """``auto`` resolved: paste on JupyterHub or Binder (the browser cannot reach the
        kernel's 127.0.0.1), else a local listener."""
        if self.sign_in != "auto":
            return self.sign_in
        env = os.environ if environ is None else environ
        return "paste" if any(env.get(key) for key in REMOTE_KERNEL_VARIABLES) else "local"

    def __repr__(self) -> str:
        shown = []
        for item in fields(self):
            value = getattr(self, item.name)
            if value == item.default:
                continue
            if item.name in ("client_secret", "private_key", "idp_id_token"):
                value = "***"
            shown.append(f"{item.name}={value!r}")
        return f"OAuthSettings({', '.join(shown)})"

    @classmethod
    def from_value(cls, value: object) -> OAuthSettings:
        """Settings from ``True``, a mapping (snake_case or camelCase keys) or settings;
        raises a one-line ConfigError naming an unknown key or a wrong type."""
        if isinstance(value, OAuthSettings):
            return value
        if value is True:
            return cls()
        if not isinstance(value, Mapping):
            raise ConfigError(
                f"oauth must be true, a mapping of settings or OAuthSettings, not "
                f"{type(value).__name__}."
            )
        known = {item.name for item in fields(cls)}
        given: dict[str, Any] = {}
        for key, item in value.items():
            name = _snake(str(key))
            if name == "scope":
                name = "scopes"
            if name not in known:
                raise ConfigError(
                    f"Unknown oauth setting {key!r}; known: {', '.join(sorted(known))}."
                )
            given[name] = item
        if isinstance(given.get("scopes"), str):
            given["scopes"] = tuple(given["scopes"].split())
        elif isinstance(given.get("scopes"), list | tuple):
            given["scopes"] = tuple(given["scopes"])
        return cls(**given)


def _snake(key: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower().replace("-", "_")


_TEXT = (
    "client_id",
    "client_secret",
    "client_metadata_url",
    "private_key",
    "issuer",
    "idp_token_endpoint",
    "idp_client_id",
    "idp_id_token",
)
_IDENTITY_ASSERTION = ("client_id", "client_secret", "issuer", "idp_token_endpoint", "idp_id_token")
_CHOICES: dict[str, tuple[str, ...]] = {
    "token_endpoint_auth_method": AUTH_METHODS,
    "grant": GRANTS,
    "sign_in": SIGN_IN_MODES,
}


def _check(settings: OAuthSettings) -> None:
    """Every field of the right type and range, or a one-line ConfigError naming it."""
    for name in _TEXT:
        value = getattr(settings, name)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            shown = "an empty string" if isinstance(value, str) else type(value).__name__
            raise ConfigError(f"oauth {name} must be a non-empty string, not {shown}.")
    for name, choices in _CHOICES.items():
        value = getattr(settings, name)
        if value is None and name == "token_endpoint_auth_method":
            continue
        if value not in choices:
            raise ConfigError(f"oauth {name} must be one of {', '.join(choices)}, not {value!r}.")
    scopes: object = settings.scopes
    if not isinstance(scopes, tuple) or not all(isinstance(s, str) and s for s in scopes):
        raise ConfigError("oauth scopes must be a list of non-empty strings.")
    algorithm: object = settings.signing_algorithm
    if not isinstance(algorithm, str) or not algorithm:
        raise ConfigError("oauth signing_algorithm must be a string such as 'RS256'.")
    cache: object = settings.cache
    if not isinstance(cache, bool):
        raise ConfigError(f"oauth cache must be true or false, not {cache!r}.")
    port: object = settings.callback_port
    if port is not None and (isinstance(port, bool) or not isinstance(port, int)
                             or not 0 < port < 65536):  # fmt: skip
        raise ConfigError(f"oauth callback_port must be a port number (1-65535), not {port!r}.")
    timeout: object = settings.timeout
    if (isinstance(timeout, bool) or not isinstance(timeout, int | float)
            or not math.isfinite(timeout) or timeout <= 0):  # fmt: skip
        raise ConfigError(f"oauth timeout must be a number of seconds above 0, not {timeout!r}.")
    if settings.client_metadata_url is not None and not settings.client_metadata_url.startswith(
        "https://"
    ):
        raise ConfigError("oauth client_metadata_url must be an https:// URL.")
    if settings.grant == "client_credentials":
        if settings.client_id is None:
            raise ConfigError("oauth client_credentials needs a client_id.")
        if settings.client_secret is None and settings.private_key is None:
            raise ConfigError("oauth client_credentials needs a client_secret or a private_key.")
    elif settings.private_key is not None:
        raise ConfigError("oauth private_key applies to the client_credentials grant only.")
    if settings.grant == "identity_assertion":
        missing = [name for name in _IDENTITY_ASSERTION if getattr(settings, name) is None]
        if missing:
            raise ConfigError(f"oauth identity_assertion needs {', '.join(missing)}.")
