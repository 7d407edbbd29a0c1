"""Settings: packaged defaults, then the nearest config file, then the command line.

The nearest of `.mcp-lint.toml`, `mcp-lint.toml` or a `pyproject.toml` with `[tool.mcp-lint]`
wins, walking up from the working directory; files are not merged (ruff's rule). Unknown keys
are errors that name the key, because a typo that silently disables a check is worse than none.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal, get_args

from mcp_lint.errors import UsageError, quote
from mcp_lint.files import MAX_INPUT_BYTES, read_input_file, read_text
from mcp_lint.limits import document_problem, too_deep_message, too_long_number_message
from mcp_lint.model import OFFLINE_JURY, Severity, value_record
from mcp_lint.profiles import DEFAULT_PROFILE, get_profile

CONFIG_FILES = (".mcp-lint.toml", "mcp-lint.toml", "pyproject.toml")
_FailOn = Literal["info", "low", "moderate", "high", "critical", "none"]
FAIL_ON_CHOICES: tuple[str, ...] = get_args(_FailOn)
# Relative to the config file's folder (the working directory when there is none).
DEFAULT_CACHE_PATH = Path(".mcp-lint/jury-cache.json")


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class RuleOverride:
    """`[rules]` entry: turn a rule off, change its severity, or set its options.

    `reason` is why (the text after `--` in `"off -- why"`, or a table's `reason`); a rule turned off
    without one is a warning (see mcp_lint.suppressions).
    """

    enabled: bool = True
    severity: Severity | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    reason: str | None = None


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class ToolIgnore:
    """`per-tool-ignores`: codes ignored for tools matching a glob, with the reason it is fine."""

    pattern: str
    selectors: tuple[str, ...]
    reason: str


@value_record
@dataclass(frozen=True, eq=False, repr=False)
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


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Settings:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    rules: Mapping[str, RuleOverride] = field(default_factory=dict)
    per_tool_ignores: tuple[ToolIgnore, ...] = ()
    fail_on: str = "low"
    profile: str = DEFAULT_PROFILE
    min_score: float | None = None  # None: the profile's floor
    timeout: float = 30.0
    servers: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    jury: JurySettings = field(default_factory=JurySettings)
    config_path: Path | None = None

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
            "profile": self.profile,
            "min-score": self.min_score
            if self.min_score is not None
            else get_profile(self.profile).min_score,
            "timeout": self.timeout,
            "rules": {
                key: {
                    "enabled": override.enabled,
                    "severity": override.severity.label if override.severity is not None else None,
                    "options": dict(override.options),
                    "reason": override.reason,
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
                data = parse_toml(text, candidate)
            except UsageError:
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


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """TOML, or a UsageError naming the file: not TOML, nested past MAX_JSON_DEPTH (tomllib recurses)
    or holding a number longer than MAX_INT_DIGITS."""
    # Imported here: a run that reads no config file (--isolated, or none found) never pays for it.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on 3.10 only
        import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise UsageError(f"{path}: {too_deep_message()}") from None
    except ValueError:  # int() past the interpreter's digit limit
        raise UsageError(f"{path}: {too_long_number_message()}") from None
    problem = document_problem(data)
    if problem is not None:
        raise UsageError(f"{path}: {problem}")
    return data


def read_config(path: Path) -> Mapping[str, Any]:
    text = read_text(path, missing="config file not found", what="a config file")
    data = parse_toml(text, path)
    if path.name == "pyproject.toml":
        tool = data.get("tool", {})
        if not isinstance(tool, dict):
            raise UsageError(f"{path}: [tool] must be a table")
        section = tool.get("mcp-lint", {})
        if not isinstance(section, dict):
            raise UsageError(f"{path}: [tool.mcp-lint] must be a table, not {quote(section)}")
        return section
    table: dict[str, Any] = data
    return table


def is_positive(value: Any, integer: bool = False) -> bool:
    """A positive, finite number (an int when `integer`); bools are not numbers here."""
    kinds = (int,) if integer else (int, float)
    # `0 < value` also refuses nan, which TOML allows; inf would mean waiting forever.
    return not isinstance(value, bool) and isinstance(value, kinds) and 0 < value < math.inf


def parse_settings(table: Mapping[str, Any], path: Path | None) -> Settings:
    # the pydantic models are built only when a table is read (mcp_lint.config_tables says why)
    from mcp_lint.config_tables import validate

    config = validate(table, path)
    jury = config.jury
    api_bases = {entry.model: entry.api_base for entry in jury.models if entry.api_base is not None}
    return Settings(
        select=tuple(config.select),
        ignore=tuple(config.ignore),
        rules=dict(config.rules),
        per_tool_ignores=tuple(
            ToolIgnore(pattern, tuple(entry.codes), entry.reason)
            for pattern, entry in config.per_tool_ignores.items()
        ),
        fail_on=config.fail_on,
        profile=config.profile,
        min_score=float(config.min_score) if config.min_score is not None else None,
        timeout=float(config.timeout),
        # The entries as written: reach reads them (their values depend on the transport).
        servers=dict(table.get("servers", {})),
        jury=JurySettings(
            models=tuple(entry.model for entry in jury.models),
            api_bases={**api_bases, **jury.api_bases},
            concurrency=jury.concurrency,
            aggregate=jury.aggregate,
            cache_path=Path(jury.cache),
            timeout=float(jury.timeout),
            max_retries=jury.max_retries,
        ),
        config_path=path,
    )


def load_settings(config: Path | None = None, isolated: bool = False, start: Path | None = None) -> Settings:
    if isolated:
        if config is not None:
            raise UsageError("--config and --isolated contradict each other; pass one of them")
        return Settings()
    path = config or find_config(start or Path.cwd())
    if path is None:
        return Settings()
    return parse_settings(read_config(path), path)
