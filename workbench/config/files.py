"""mcp.json readers: the config files people already have, one ServerSpec per server.

Formats: Claude Desktop / Cursor (``{"mcpServers": {...}}``) and VS Code
(``{"servers": {...}}`` with ``type``, JSONC comments and trailing commas, ``envFile``).
Strings may use ``${env:VAR}`` or ``${VAR}``. Each entry is judged alone: a bad one is a
ConfigError naming it, and the caller lists it as failed while the others connect. A URL
entry may sign in with ``"oauth": true`` or an object of settings (camelCase keys, read by
``OAuthSettings.from_value``; ``privateKeyFile`` is read here, relative to the file).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from workbench.config.env import expand
from workbench.config.oauth import OAuthSettings
from workbench.config.spec import ServerSpec, server_spec
from workbench.errors import ConfigError, WorkbenchError

_ENV_LINE = re.compile(r"(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)")


def read_config(path: str | Path) -> dict[str, Any]:
    """The raw server entries of a config file, by name (disabled ones left out). An entry
    may be anything the file holds: ``spec_from_entry`` judges each one alone."""
    file = Path(path).expanduser()
    where = repr(str(file))
    try:
        text = file.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise ConfigError(f"Config file {where} does not exist.") from None
    except IsADirectoryError:
        raise ConfigError(f"Config file {where} is a directory, not a file.") from None
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"Config file {where} is not UTF-8 text (byte {error.start} cannot be read)."
        ) from None
    except OSError as error:
        raise ConfigError(f"Config file {where} cannot be read: {error.strerror}.") from None
    try:
        data = json.loads(strip_jsonc(text))
    except json.JSONDecodeError as error:
        raise ConfigError(f"Config file {where} is not valid JSON: {error}.") from None
    servers = data.get("mcpServers", data.get("servers")) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ConfigError(
            f"Config file {where} has neither an 'mcpServers' (Claude Desktop, Cursor) "
            "nor a 'servers' (VS Code) object."
        )
    return {
        name: entry
        for name, entry in servers.items()
        if not (isinstance(entry, dict) and entry.get("disabled"))
    }


def read_specs(
    path: str | Path, names: Iterable[str] | None = None
) -> tuple[list[str], list[ServerSpec], dict[str, str]]:
    """A config file's servers (all, or ``names``): their names in order, the specs of the
    good entries and, by name, why each wrong one is refused (a one-line ConfigError's
    message). Errors of the file itself, and names it does not have, are a ConfigError."""
    entries = read_config(path)
    wanted = list(names) if names is not None else list(entries)
    missing = [name for name in wanted if name not in entries]
    if missing:
        raise ConfigError(
            f"No server named {', '.join(map(repr, missing))} in {str(path)!r} "
            f"(it has: {', '.join(entries) or 'none'})."
        )
    specs: list[ServerSpec] = []
    refused: dict[str, str] = {}
    base_dir = Path(path).expanduser().parent
    for name in wanted:
        try:
            specs.append(spec_from_entry(name, entries[name], base_dir=base_dir))
        except ConfigError as error:
            refused[name] = str(error)
    return wanted, specs, refused


def strip_jsonc(text: str) -> str:
    """JSON with comments (``//``, ``/* */``) and trailing commas, as VS Code writes it, as
    plain JSON. Strings are copied untouched; positions of errors stay on the same line."""
    out: list[str] = []
    index, size = 0, len(text)
    while index < size:
        char = text[index]
        if char == '"':
            end = index + 1
            while end < size and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[index : end + 1])
            index = end + 1
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = size if end < 0 else end
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            comment = text[index : size if end < 0 else end + 2]
            out.append("\n" * comment.count("\n") or " ")
            index += len(comment)
        elif char == ",":
            rest = index + 1
            while True:
                while rest < size and text[rest].isspace():
                    rest += 1
                if text.startswith("//", rest):
                    newline = text.find("\n", rest)
                    rest = size if newline < 0 else newline
                elif text.startswith("/*", rest):
                    close = text.find("*/", rest + 2)
                    rest = size if close < 0 else close + 2
                else:
                    break
            if rest >= size or text[rest] not in "]}":
                out.append(char)
            index += 1
        else:
            out.append(char)
            index += 1
    return "".join(out)


def spec_from_entry(
    name: str,
    entry: object,
    *,
    base_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
) -> ServerSpec:
    """One config entry as a ServerSpec; raises ConfigError naming the server and why."""
    try:
        if not isinstance(entry, Mapping):
            raise ConfigError(f"the entry must be an object, not {_kind(entry)}")
        return _spec(name, entry, base_dir, environ)
    except WorkbenchError as error:  # ConfigError, or the settings' own check
        reason = str(error).rstrip(".")
        raise ConfigError(f"Server {name!r} in the config: {reason}.") from None


def _spec(
    name: str,
    entry: Mapping[str, Any],
    base_dir: Path | None,
    environ: Mapping[str, str] | None,
) -> ServerSpec:
    found: list[str] = []

    def text(key: str, value: Any) -> str:
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise ConfigError(f"{key} must be a string, not {_kind(value)}")
        return expand(str(value), environ, found)

    kind = str(entry.get("type", "")).lower()
    timeout, connect_timeout = _number(entry, "timeout"), _number(entry, "connectTimeout")
    if "url" in entry or kind in {"http", "streamable-http", "streamablehttp", "sse"}:
        if "url" not in entry:
            raise ConfigError(f"type is {kind} but there is no 'url'")
        if kind == "sse":
            raise ConfigError("the SSE transport is deprecated; use streamable HTTP")
        headers = _strings(entry, "headers", text)
        oauth = _oauth(entry, base_dir, text)
        return server_spec(name, url=text("url", entry["url"]), headers=headers,
                           shown=str(entry["url"]), secrets=found, timeout=timeout,
                           connect_timeout=connect_timeout, oauth=oauth)  # fmt: skip
    if "command" not in entry:
        raise ConfigError("it has neither a 'command' nor a 'url'")
    if entry.get("oauth") not in (None, False):
        raise ConfigError("oauth applies to a server with a 'url', not a command")
    args = entry.get("args") or []
    if not isinstance(args, list):
        hint = f"; write {args.split()!r}" if isinstance(args, str) else ""
        raise ConfigError(f"args must be a list of strings, not {_kind(args)}{hint}")
    command = text("command", entry["command"])
    words = [text("args", arg) for arg in args]
    env = {**_env_file(entry, base_dir, text), **_strings(entry, "env", text)}
    cwd = entry.get("cwd")
    if cwd is not None:
        cwd = text("cwd", cwd)
        if base_dir is not None:
            cwd = str((base_dir / cwd).resolve())
    inherit = entry.get("inheritEnv", False)
    if not isinstance(inherit, bool):
        raise ConfigError(f"inheritEnv must be true or false, not {_kind(inherit)}")
    shown = " ".join(str(word) for word in [entry["command"], *args])
    return server_spec(name, command=command, args=words, env=env, cwd=cwd,
                       inherit_env=inherit, shown=shown, secrets=found, timeout=timeout,
                       connect_timeout=connect_timeout)  # fmt: skip


def _strings(entry: Mapping[str, Any], key: str, text: Any) -> dict[str, str]:
    """``env`` or ``headers``: an object of strings (expanded), or a clear error."""
    value = entry.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ConfigError(f"{key} must be an object of names to strings, not {_kind(value)}")
    return {str(name): text(f"{key}.{name}", item) for name, item in value.items()}


_KEY_FILE = ("privateKeyFile", "private_key_file")


def _oauth(entry: Mapping[str, Any], base_dir: Path | None, text: Any) -> OAuthSettings | None:
    """``"oauth": true | {...}``: strings expanded (their values kept secret), the key of
    ``privateKeyFile`` read, the rest judged by ``OAuthSettings.from_value``."""
    value = entry.get("oauth")
    if value is None or value is False:
        return None
    if value is True:
        return OAuthSettings()
    if not isinstance(value, Mapping):
        raise ConfigError(f"oauth must be true or an object of settings, not {_kind(value)}")
    settings: dict[str, Any] = {}
    for key, item in value.items():
        if key in _KEY_FILE:
            settings["private_key"] = _key_file(text(f"oauth.{key}", item), base_dir)
        elif isinstance(item, str):
            settings[key] = text(f"oauth.{key}", item)
        elif isinstance(item, list):
            settings[key] = [text(f"oauth.{key}", part) for part in item]
        else:
            settings[key] = item
    return OAuthSettings.from_value(settings)


def _key_file(given: str, base_dir: Path | None) -> str:
    """The PEM text of ``privateKeyFile``, relative to the config file's folder."""
    path = Path(given).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise ConfigError(
            f"oauth privateKeyFile {str(path)!r} cannot be read (missing, or not a PEM file)"
        ) from None


def _env_file(entry: Mapping[str, Any], base_dir: Path | None, text: Any) -> dict[str, str]:
    """VS Code's ``envFile``: ``KEY=VALUE`` lines (``#`` comments), relative to the config
    file's folder. A missing file is an error naming it."""
    given = entry.get("envFile")
    if given is None:
        return {}
    path = Path(text("envFile", given)).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        raise ConfigError(
            f"envFile {str(path)!r} cannot be read (missing, or not a text file)"
        ) from None
    env: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = _ENV_LINE.fullmatch(line)
        if match is None:
            raise ConfigError(f"envFile {str(path)!r} line {number} is not KEY=VALUE")
        key, value = match.groups()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        env[key] = value
    return env


def _number(entry: Mapping[str, Any], key: str) -> float | None:
    """A number of seconds from the entry (checked by ``server_spec``), or None if absent."""
    value = entry.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ConfigError(f"{key} must be a number of seconds, not {_kind(value)}")
    return float(value)


def _kind(value: object) -> str:
    """A value's JSON kind for messages (never the value: it may be a secret)."""
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "true/false"
    names = {dict: "an object", list: "a list", type(None): "null"}
    return names.get(type(value), "a number" if isinstance(value, int | float) else "a value")
