"""mcp.json entries that sign in: ``"oauth": true | {...}`` read into ``ServerSpec.oauth``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from workbench.config import read_specs, spec_from_entry
from workbench.config.oauth import OAuthSettings
from workbench.errors import ConfigError

URL = "https://docs.example.test/mcp"
ENVIRON = {"DOCS_SECRET": "CLIENT-SECRET-5150", "DOCS_ID": "wb-client"}


def pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


def test_oauth_true_is_the_default_settings() -> None:
    spec = spec_from_entry("docs", {"url": URL, "oauth": True})
    assert spec.oauth == OAuthSettings()
    assert spec_from_entry("docs", {"url": URL}).oauth is None
    assert spec_from_entry("docs", {"url": URL, "oauth": False}).oauth is None


def test_every_setting_in_camel_case_with_the_secret_expanded_and_masked() -> None:
    entry = {
        "type": "http",
        "url": URL,
        "oauth": {
            "clientId": "${env:DOCS_ID}",
            "clientSecret": "${env:DOCS_SECRET}",
            "scopes": ["docs:read", "docs:write"],
            "tokenEndpointAuthMethod": "client_secret_basic",
            "issuer": "https://auth.example.test",
            "cache": False,
            "callbackPort": 8765,
            "signIn": "paste",
        },
    }
    spec = spec_from_entry("docs", entry, environ=ENVIRON)
    assert spec.oauth == OAuthSettings(
        client_id="wb-client",
        client_secret="CLIENT-SECRET-5150",
        scopes=("docs:read", "docs:write"),
        token_endpoint_auth_method="client_secret_basic",
        issuer="https://auth.example.test",
        cache=False,
        callback_port=8765,
        sign_in="paste",
    )
    assert "CLIENT-SECRET-5150" not in repr(spec) + repr(spec.oauth) + spec.describe()
    assert "CLIENT-SECRET-5150" not in spec.redact("invalid_client: CLIENT-SECRET-5150")


def test_a_space_separated_scope_and_a_metadata_url() -> None:
    metadata = "https://wb.example.test/client.json"
    entry = {"url": URL, "oauth": {"scope": "a b", "clientMetadataUrl": metadata}}
    settings = spec_from_entry("docs", entry).oauth
    assert settings is not None
    assert (settings.scopes, settings.client_metadata_url) == (("a", "b"), metadata)


def test_client_credentials_with_a_private_key_file_beside_the_config(tmp_path: Path) -> None:
    key = pem()
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "wb.pem").write_text(key)
    entry = {
        "url": URL,
        "oauth": {
            "grant": "client_credentials",
            "clientId": "svc",
            "privateKeyFile": "keys/wb.pem",
            "issuer": "https://auth.example.test",
        },
    }
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"svc": entry}}))
    _, [spec], refused = read_specs(config)
    assert refused == {}
    assert spec.oauth is not None and spec.oauth.private_key == key
    assert spec.oauth.grant == "client_credentials"
    line = key.splitlines()[1]
    assert line not in repr(spec) and line not in spec.redact(f"bad key {line}")


@pytest.mark.parametrize(
    ("oauth", "message"),
    [
        ("yes", "oauth must be true or an object of settings, not a string"),
        (1, "oauth must be true or an object of settings, not a number"),
        ({"clientid": "x"}, "Unknown oauth setting 'clientid'"),
        ({"tokenEndpointAuthMethod": "basic"}, "token_endpoint_auth_method must be one of"),
        ({"callbackPort": 70000}, "callback_port must be a port number"),
        ({"cache": "no"}, "cache must be true or false"),
        ({"scopes": [None]}, "oauth.scopes must be a string, not null"),
        ({"clientSecret": "${env:NOT_SET_ANYWHERE}"}, "NOT_SET_ANYWHERE is not set"),
        ({"grant": "client_credentials"}, "client_credentials needs a client_id"),
        ({"privateKeyFile": "missing.pem"}, "privateKeyFile 'missing.pem' cannot be read"),
    ],
)
def test_a_wrong_oauth_value_is_one_line_naming_the_entry(oauth: object, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        spec_from_entry("docs", {"url": URL, "oauth": oauth}, environ=ENVIRON)
    text = str(raised.value)
    assert text.startswith("Server 'docs' in the config: ") and message in text
    assert "\n" not in text


def test_oauth_on_a_command_entry_is_refused() -> None:
    with pytest.raises(ConfigError, match="oauth applies to a server with a 'url'"):
        spec_from_entry("local", {"command": "mcp-server-time", "oauth": True})


def test_a_bad_oauth_entry_fails_alone(tmp_path: Path) -> None:
    servers = {"good": {"url": URL, "oauth": True}, "bad": {"url": URL, "oauth": {"x": 1}}}
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"servers": servers}))
    names, specs, refused = read_specs(config)
    assert names == ["good", "bad"] and [spec.name for spec in specs] == ["good"]
    assert list(refused) == ["bad"] and "Unknown oauth setting 'x'" in refused["bad"]
