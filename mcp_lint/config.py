"""Settings: packaged defaults, then the nearest config file, then the command line.

The nearest of `.mcp-lint.toml`, `mcp-lint.toml` or a `pyproject.toml` with `[tool.mcp-lint]`
wins, walking up from the working directory; files are not merged (ruff's rule). Unknown keys
are errors that name the key, because a typo that silently disables a check is worse than none.
"""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError, quote
from mcp_lint.files import MAX_INPUT_BYTES, read_input_file, read_text
from mcp_lint.model import OFFLINE_JURY, Severity

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

CONFIG_FILES = (".mcp-lint.toml", "mcp-lint.toml", "pyproject.toml")
FAIL_ON_CHOICES = ("info", "low", "moderate", "high", "critical", "none")
AGGREGATES = ("median", "mean", "min")
# Relative to the config file's folder (the working directory when there is none).
DEFAULT_CACHE_PATH = Path(".mcp-lint/jury-cache.json")


@dataclass(frozen=True)
class RuleOverride:
    """`[rules]` entry: turn a rule off, change its severity, or set its options."""

    enabled: bool = True
    severity: Severity | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolIgnore:
    """`per-tool-ignores`: codes ignored for tools matching a glob, with the reason it is fine."""

    pattern: str
    selectors: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class JurySettings:
    """How the rubric is scored: the config's `[jury]` table, then the jury flags of the command line
    (see `jury_settings`).

    In `Settings.jury`, `cache_path` is the config's `jury.cache` as written, relative to the config
    file's folder; `jury_settings` resolves it, and makes it None for --no-cache. `api_bases` may
    name models that `models` does not list: `--jury MODEL` picks up the config's endpoint for it.
    """

    models: tuple[str, ...] = ()  # empty -> the embedded offline jury only
    api_bases: Mapping[str, str] = field(default_factory=dict)
    concurrency: int = 8
    aggregate: str = "median"  # median|mean|min
    cache_path: Path | None = DEFAULT_CACHE_PATH  # None = --no-cache
    refresh: bool = False  # ignore existing entries, re-judge, overwrite
    frozen: bool = False  # a cache miss is an error (no call made)
    timeout: float = 60.0
    max_retries: int = 4
    backoff_base: float = 0.5

    def api_base(self, model: str) -> str | None:
        return self.api_bases.get(model)


@dataclass(frozen=True)
class Settings:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    rules: Mapping[str, RuleOverride] = field(default_factory=dict)
    per_tool_ignores: tuple[ToolIgnore, ...] = ()
    fail_on: str = "low"
    timeout: float = 30.0
    servers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    jury: JurySettings = field(default_factory=JurySettings)
    config_path: Path | None = None

    @property
    def fail_threshold(self) -> Severity | None:
        return None if self.fail_on == "none" else Severity.parse(self.fail_on)

    @property
    def base_dir(self) -> Path:
        return self.config_path.parent if self.config_path else Path.cwd()

    def as_document(self) -> dict[str, Any]:
        """The resolved settings as plain data, for `--show-settings`."""
        return {
            "config-file": str(self.config_path) if self.config_path else None,
            "select": list(self.select),
            "ignore": list(self.ignore),
            "fail-on": self.fail_on,
            "timeout": self.timeout,
            "rules": {
                key: {
                    "enabled": override.enabled,
                    "severity": override.severity.label if override.severity is not None else None,
                    "options": dict(override.options),
                }
                for key, override in sorted(self.rules.items())
            },
            "per-tool-ignores": [
                {"tool": item.pattern, "codes": list(item.selectors), "reason": item.reason}
                for item in self.per_tool_ignores
            ],
            "servers": {name: dict(entry) for name, entry in sorted(self.servers.items())},
            "jury": {
                "models": list(self.jury.models),
                "api-bases": dict(self.jury.api_bases),
                "concurrency": self.jury.concurrency,
                "aggregate": self.jury.aggregate,
                "cache": None if self.jury.cache_path is None else str(self.jury.cache_path),
                "timeout": self.jury.timeout,
                "max-retries": self.jury.max_retries,
            },
        }


def config_key(path: Path | None, key: str) -> str:
    """A key of our config as the user spells it: `tool.mcp-lint.servers` in pyproject.toml, else
    `servers`, so an error names the table the user can search the file for."""
    return f"tool.mcp-lint.{key}" if path is not None and path.name == "pyproject.toml" else key


def resolve_cache_path(settings: Settings, command_line: str | None = None) -> Path:
    """The jury cache file `check` and the `cache` commands use.

    A path given on the command line is relative to the working directory, like every other path
    argument; the config's `jury.cache` is relative to the config file's folder, so it names the same
    file whichever subfolder mcp-lint runs from.
    """
    configured = settings.jury.cache_path if settings.jury.cache_path is not None else DEFAULT_CACHE_PATH
    path = Path(command_line) if command_line else settings.base_dir / configured
    if path.is_dir():
        where = "--cache-file" if command_line else f"{settings.config_path or 'settings'}: jury.cache"
        raise UsageError(
            f"{where}: {path} is a folder; name the cache file in it, e.g. {path / 'jury-cache.json'}"
        )
    return path


def jury_settings(
    settings: Settings,
    models: Sequence[str] = (),
    *,
    cache_file: str | None = None,
    no_cache: bool = False,
    refresh: bool = False,
    frozen: bool = False,
) -> JurySettings:
    """The jury settings of a run: the config's, with the command line's jury flags applied.

    `models` are the `--jury` values: none keeps the config's models, `offline` alone drops them all
    (the embedded offline jury scores). The cache file is resolved (see `resolve_cache_path`).
    """
    if no_cache and cache_file:
        raise UsageError("--no-cache and --cache-file cannot be combined: --no-cache uses no cache file")
    cache_path = None if no_cache else resolve_cache_path(settings, cache_file)
    if OFFLINE_JURY in models:
        if len(set(models)) > 1:
            raise UsageError(
                f"--jury {OFFLINE_JURY} is the embedded offline jury and cannot sit with LLM judges; "
                f"pass either --jury {OFFLINE_JURY} or model ids"
            )
        models = ()  # no LLM judge: the embedded offline jury scores, whatever the config lists
    elif not models:
        models = settings.jury.models
    return replace(settings.jury, models=tuple(models), cache_path=cache_path, refresh=refresh, frozen=frozen)


def find_config(start: Path) -> Path | None:
    """The nearest config file from `start` upwards; pyproject counts only with `[tool.mcp-lint]`."""
    for folder in (start.resolve(), *start.resolve().parents):
        for name in CONFIG_FILES:
            candidate = folder / name
            if not candidate.is_file():
                continue
            if name != "pyproject.toml":
                return candidate
            try:
                text = read_input_file(candidate, "pyproject.toml")
                data = tomllib.loads(text)
            except (UsageError, tomllib.TOMLDecodeError):
                # A broken pyproject that mentions us is still ours: reading it reports the error.
                if "tool.mcp-lint" in _peek(candidate):
                    return candidate
                continue
            if isinstance(data.get("tool"), dict) and "mcp-lint" in data["tool"]:
                return candidate
    return None


def _peek(path: Path) -> str:
    try:
        with path.open("rb") as handle:  # a regular file (find_config asked), read up to the cap
            return handle.read(MAX_INPUT_BYTES).decode("utf-8", "replace")
    except OSError:
        return ""


def read_config(path: Path) -> Mapping[str, Any]:
    text = read_text(path, missing="config file not found", what="a config file")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    if path.name == "pyproject.toml":
        section = data.get("tool", {}).get("mcp-lint", {})
        return section if isinstance(section, dict) else {}
    table: dict[str, Any] = data
    return table


def _string_list(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise UsageError(f"{where}: expected a list of strings")
    return tuple(value)


def _check_keys(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise UsageError(
            f"{where}: unknown key {quote(unknown[0])}; allowed keys: {', '.join(sorted(allowed))}"
        )


def _parse_rule_override(key: str, value: Any, where: str) -> RuleOverride:
    if isinstance(value, str):
        word = value.split("--", 1)[0].strip().lower()
        if word == "off":
            return RuleOverride(enabled=False)
        if word == "on":
            return RuleOverride()
        try:
            return RuleOverride(severity=Severity.parse(word))
        except ValueError as exc:
            raise UsageError(f"{where}.{key}: {exc}, or 'off'") from None
    if isinstance(value, Mapping):
        options = {name: item for name, item in value.items() if name not in {"severity", "enabled"}}
        severity = value.get("severity")
        if severity is not None and not isinstance(severity, str):
            raise UsageError(f"{where}.{key}.severity: expected one of info, low, moderate, high, critical")
        try:
            parsed = Severity.parse(severity) if severity is not None else None
        except ValueError as exc:
            raise UsageError(f"{where}.{key}.severity: {exc}") from None
        enabled = value.get("enabled", True)
        if not isinstance(enabled, bool):
            raise UsageError(f"{where}.{key}.enabled: expected true or false")
        return RuleOverride(enabled=enabled, severity=parsed, options=options)
    raise UsageError(f"{where}.{key}: expected 'off', a severity, or a table of options")


def _parse_tool_ignores(value: Any, where: str) -> tuple[ToolIgnore, ...]:
    items: list[ToolIgnore] = []
    if not isinstance(value, Mapping):
        raise UsageError(f"{where}: expected a table of tool patterns")
    for pattern, entry in value.items():
        spot = f"{where}.{quote(pattern)}"
        if not isinstance(entry, Mapping):
            raise UsageError(f'{spot}: expected {{ codes = [...], reason = "..." }}; a reason is required')
        _check_keys(entry, {"codes", "reason"}, spot)
        reason = entry.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise UsageError(f"{spot}: a 'reason' is required so reviewers know why the finding is fine")
        items.append(ToolIgnore(pattern, _string_list(entry.get("codes", []), f"{spot}.codes"), reason))
    return tuple(items)


def _parse_jury(value: Any, where: str) -> JurySettings:
    # Every value is type-checked, never coerced: str() on a list or a number would quietly turn a typo
    # into a cache file named "['a']" or an endpoint named "3".
    if not isinstance(value, Mapping):
        raise UsageError(f"{where}: expected a table")
    _check_keys(
        value, {"models", "api-bases", "concurrency", "aggregate", "cache", "timeout", "max-retries"}, where
    )
    jury = JurySettings()
    models: list[str] = []
    api_bases: dict[str, str] = {}
    listed = value.get("models", [])
    if isinstance(listed, str):
        listed = [listed]
    if not isinstance(listed, list):
        raise UsageError(f"{where}.models: expected a list of model ids")
    for index, item in enumerate(listed):
        spot = f"{where}.models[{index}]"
        if isinstance(item, str):
            models.append(item)
        elif isinstance(item, Mapping) and isinstance(item.get("model"), str):
            _check_keys(item, {"model", "api-base"}, spot)
            models.append(item["model"])
            if "api-base" in item:
                api_bases[item["model"]] = _url(item["api-base"], f"{spot}.api-base")
        else:
            raise UsageError(f'{spot}: expected a model id or {{ model = "...", api-base = "..." }}')
    extra_bases = value.get("api-bases", {})
    if not isinstance(extra_bases, Mapping):
        raise UsageError(f'{where}.api-bases: expected a table of model = "url"')
    for model, base in extra_bases.items():
        api_bases[model] = _url(base, f"{where}.api-bases.{_toml_key(model)}")
    aggregate = value.get("aggregate", jury.aggregate)
    if not isinstance(aggregate, str) or aggregate not in AGGREGATES:
        raise UsageError(f"{where}.aggregate: {quote(aggregate)} is not one of {', '.join(AGGREGATES)}")
    concurrency = _positive(value.get("concurrency", jury.concurrency), f"{where}.concurrency", integer=True)
    timeout = _positive(value.get("timeout", jury.timeout), f"{where}.timeout")
    retries = value.get("max-retries", jury.max_retries)
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise UsageError(f"{where}.max-retries: expected a whole number, 0 or more")
    cache = value.get("cache", str(DEFAULT_CACHE_PATH))
    if not isinstance(cache, str) or not cache.strip():
        raise UsageError(f'{where}.cache: expected a file path as a string, e.g. "{DEFAULT_CACHE_PATH}"')
    return JurySettings(
        models=tuple(models),
        api_bases=api_bases,
        concurrency=int(concurrency),
        aggregate=aggregate,
        cache_path=Path(cache),
        timeout=float(timeout),
        max_retries=retries,
    )


def _toml_key(name: str) -> str:
    # As the user would write it: model ids such as "openai/gpt-4.1-mini" need quotes in TOML.
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def _url(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise UsageError(f'{where}: expected a URL string, e.g. "http://127.0.0.1:11434"')
    return value


def is_positive(value: Any, integer: bool = False) -> bool:
    """A positive, finite number (an int when `integer`); bools are not numbers here."""
    kinds = (int,) if integer else (int, float)
    # `0 < value` also refuses nan, which TOML allows; inf would mean waiting forever.
    return not isinstance(value, bool) and isinstance(value, kinds) and 0 < value < math.inf


def _positive(value: Any, where: str, integer: bool = False) -> float:
    if not is_positive(value, integer):
        raise UsageError(f"{where}: expected a positive {'integer' if integer else 'number'}")
    return float(value)


TOP_LEVEL_KEYS = {"select", "ignore", "rules", "per-tool-ignores", "fail-on", "timeout", "servers", "jury"}


def parse_settings(table: Mapping[str, Any], path: Path | None) -> Settings:
    where = str(path) if path else "settings"
    _check_keys(table, TOP_LEVEL_KEYS, where)
    settings = Settings(config_path=path)
    if "select" in table:
        settings = replace(settings, select=_string_list(table["select"], f"{where}: select"))
    if "ignore" in table:
        settings = replace(settings, ignore=_string_list(table["ignore"], f"{where}: ignore"))
    if "fail-on" in table:
        fail_on = table["fail-on"].lower() if isinstance(table["fail-on"], str) else table["fail-on"]
        if fail_on not in FAIL_ON_CHOICES:
            raise UsageError(f"{where}: fail-on {quote(fail_on)} is not one of {', '.join(FAIL_ON_CHOICES)}")
        settings = replace(settings, fail_on=fail_on)
    if "timeout" in table:
        timeout = table["timeout"]
        if not is_positive(timeout):
            raise UsageError(f"{where}: timeout must be a positive number of seconds")
        settings = replace(settings, timeout=float(timeout))
    if "rules" in table:
        rules = table["rules"]
        if not isinstance(rules, Mapping):
            raise UsageError(f"{where}: rules must be a table")
        settings = replace(
            settings,
            rules={key: _parse_rule_override(key, value, f"{where}: rules") for key, value in rules.items()},
        )
    if "per-tool-ignores" in table:
        settings = replace(
            settings,
            per_tool_ignores=_parse_tool_ignores(table["per-tool-ignores"], f"{where}: per-tool-ignores"),
        )
    if "servers" in table:
        servers = table["servers"]
        if not isinstance(servers, Mapping) or not all(
            isinstance(entry, Mapping) for entry in servers.values()
        ):
            raise UsageError(f"{where}: {config_key(path, 'servers')} must be a table of server tables")
        for name, entry in servers.items():
            _check_keys(
                entry,
                {"command", "args", "env", "env-file", "cwd", "url", "headers", "type", "snapshot"},
                f"{where}: {config_key(path, 'servers')}.{name}",
            )
        settings = replace(settings, servers=servers)
    if "jury" in table:
        settings = replace(settings, jury=_parse_jury(table["jury"], f"{where}: jury"))
    return settings


def load_settings(config: Path | None = None, isolated: bool = False, start: Path | None = None) -> Settings:
    if isolated:
        if config is not None:
            raise UsageError("--config and --isolated contradict each other; pass one of them")
        return Settings()
    path = config or find_config(start or Path.cwd())
    if path is None:
        return Settings()
    return parse_settings(read_config(path), path)
