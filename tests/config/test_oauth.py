"""OAuthSettings: read from True, mappings (either key style) or settings; every bad key or
value a one-line ConfigError naming it; secrets never in the repr; and ServerSpec.oauth."""

from __future__ import annotations

import pytest

from tests.processes import run_python
from workbench.config.oauth import OAuthSettings
from workbench.config.spec import server_spec
from workbench.errors import ConfigError, ServerSpecError

SECRET = "s3cr3t-client-value"
KEY = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC\n-----END"


def test_true_is_the_defaults_and_settings_pass_through() -> None:
    settings = OAuthSettings.from_value(True)
    assert settings == OAuthSettings()
    assert settings.grant == "authorization_code" and settings.cache and settings.timeout == 300
    assert OAuthSettings.from_value(settings) is settings


def test_camel_and_snake_keys_and_a_scope_string() -> None:
    settings = OAuthSettings.from_value({
        "clientId": "abc", "client_secret": SECRET,
        "tokenEndpointAuthMethod": "client_secret_basic", "callbackPort": 8765,
        "signIn": "paste", "scope": "read write", "cache": False,
    })  # fmt: skip
    assert settings.client_id == "abc" and settings.client_secret == SECRET
    assert settings.token_endpoint_auth_method == "client_secret_basic"
    assert settings.callback_port == 8765 and settings.sign_in == "paste"
    assert settings.scopes == ("read", "write") and settings.cache is False
    assert OAuthSettings.from_value({"scopes": ["a", "b"]}).scopes == ("a", "b")


@pytest.mark.parametrize(
    ("value", "named"),
    [
        ({"clientSecrett": "x"}, "'clientSecrett'"),
        ({"timeout": "soon"}, "timeout"),
        ({"timeout": 0}, "timeout"),
        ({"callbackPort": True}, "callback_port"),
        ({"callback_port": 70000}, "callback_port"),
        ({"cache": "yes"}, "cache"),
        ({"grant": "password"}, "grant"),
        ({"signIn": "browser"}, "sign_in"),
        ({"tokenEndpointAuthMethod": "private_key_jwt"}, "token_endpoint_auth_method"),
        ({"scopes": [1]}, "scopes"),
        ({"client_id": ""}, "client_id"),
        ({"clientMetadataUrl": "http://x/y.json"}, "client_metadata_url"),
        ({"grant": "client_credentials"}, "client_id"),
        ({"grant": "client_credentials", "client_id": "a"}, "client_secret"),
        ({"private_key": KEY}, "private_key"),
        ("yes", "oauth must be"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(value: object, named: str) -> None:
    with pytest.raises(ConfigError) as caught:
        OAuthSettings.from_value(value)
    message = str(caught.value)
    assert named in message and "\n" not in message


def test_secrets_are_listed_and_never_in_the_repr() -> None:
    settings = OAuthSettings(
        client_id="machine", client_secret=SECRET, grant="client_credentials", private_key=KEY
    )
    assert SECRET in settings.secrets() and KEY in settings.secrets()
    shown = repr(settings)
    assert "machine" in shown and SECRET not in shown and "MIIEvQ" not in shown


def test_auto_sign_in_pastes_on_hubs_and_binder_and_listens_elsewhere() -> None:
    auto = OAuthSettings()
    assert auto.sign_in_mode({}) == "local"
    assert auto.sign_in_mode({"JUPYTERHUB_SERVICE_PREFIX": "/user/me/"}) == "paste"
    assert auto.sign_in_mode({"BINDER_SERVICE_HOST": "10.0.0.1"}) == "paste"
    assert OAuthSettings(sign_in="local").sign_in_mode({"BINDER_REQUEST": "x"}) == "local"


def test_the_settings_module_imports_no_fastmcp() -> None:
    code = (
        "import sys, workbench.config.oauth, workbench.config.spec\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('fastmcp', 'mcp', 'httpx')))"
    )
    assert run_python(code).stdout.strip() == "[]"


def test_a_spec_masks_the_oauth_secrets_everywhere() -> None:
    spec = server_spec(
        "remote", url="https://mcp.example.com/mcp", oauth={"clientId": "a", "clientSecret": SECRET}
    )
    assert spec.oauth is not None and spec.oauth.client_secret == SECRET
    assert SECRET not in repr(spec) and SECRET not in spec.describe()
    assert SECRET not in spec.redact(f"token endpoint said: bad secret {SECRET}")


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"command": "python", "oauth": True}, "URL server only"),
        ({"url": "https://x/mcp", "token": "t", "oauth": True}, "token or oauth"),
        ({"url": "https://x/mcp", "oauth": {"colour": "red"}}, "'colour'"),
    ],
)
def test_server_spec_refuses_oauth_where_it_cannot_apply(
    options: dict[str, object], said: str
) -> None:
    with pytest.raises(ServerSpecError, match=said):
        server_spec("remote", **options)  # type: ignore[arg-type]


def test_no_oauth_means_none() -> None:
    assert server_spec("remote", url="https://x/mcp").oauth is None
    assert server_spec("remote", url="https://x/mcp", oauth=False).oauth is None


def test_identity_assertion_needs_its_identity_provider_and_hides_the_id_token() -> None:
    """Cross-app access (SEP-990): the ID token is a secret; every part is asked for."""
    with pytest.raises(ConfigError, match="identity_assertion needs client_id, client_secret"):
        OAuthSettings.from_value({"grant": "identity_assertion"})
    settings = OAuthSettings.from_value(
        {
            "grant": "identity_assertion",
            "clientId": "app",
            "clientSecret": "app-secret",
            "issuer": "https://as.example.test",
            "idpTokenEndpoint": "https://idp.example.test/token",
            "idpClientId": "idp-app",
            "idpIdToken": "eyJ.id-token.sig",
        }
    )
    assert "eyJ.id-token.sig" in settings.secrets() and "app-secret" in settings.secrets()
    assert "eyJ" not in repr(settings) and "idp_id_token='***'" in repr(settings)
