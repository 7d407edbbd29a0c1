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
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    ValidationError,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from mcp_lint.errors import UsageError, quote
from mcp_lint.files import MAX_INPUT_BYTES, read_input_file, read_text
from mcp_lint.limits import document_problem, too_deep_message, too_long_number_message
from mcp_lint.model import OFFLINE_JURY, Severity
from mcp_lint.profiles import DEFAULT_PROFILE, get_profile

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

CONFIG_FILES = (".mcp-lint.toml", "mcp-lint.toml", "pyproject.toml")
_FailOn = Literal["info", "low", "moderate", "high", "critical", "none"]
FAIL_ON_CHOICES: tuple[str, ...] = get_args(_FailOn)
# Relative to the config file's folder (the working directory when there is none).
DEFAULT_CACHE_PATH = Path(".mcp-lint/jury-cache.json")


@dataclass(frozen=True)
class RuleOverride:
    """`[rules]` entry: turn a rule off, change its severity, or set its options.

    `reason` is why (the text after `--` in `"off -- why"`, or a table's `reason`); a rule turned off
    without one is a warning (see mcp_lint.suppressions).
    """

    enabled: bool = True
    severity: Severity | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    reason: str | None = None


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


# The TOML tables as pydantic models: strict (a value is type-checked, never coerced: str() on a list
# or a number would quietly turn a typo into a cache file named "['a']" or an endpoint named "3"),
# closed (`extra="forbid"`: an unknown key is an error naming it) and spelled as in the file (kebab-case
# aliases). `_message` turns pydantic's first error into the one line a user can act on.


def _kebab(name: str) -> str:
    return name.replace("_", "-")


class _Table(BaseModel):
    model_config = ConfigDict(
        strict=True, extra="forbid", frozen=True, alias_generator=_kebab, populate_by_name=False
    )


def _one_or_many(value: Any) -> Any:
    # `select = "MCP2"` is a list of one, as ruff reads it.
    return [value] if isinstance(value, str) else value


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("blank")
    return value


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _model_entry(value: Any) -> Any:
    if isinstance(value, str):
        return {"model": value}
    if isinstance(value, Mapping) and isinstance(value.get("model"), str):
        return value
    raise PydanticCustomError("config", 'expected a model id or { model = "...", api-base = "..." }')


def _rule_override(value: Any) -> RuleOverride:
    if isinstance(value, str):
        word, _, note = value.partition("--")
        word = word.strip().lower()
        if word == "off":
            return RuleOverride(enabled=False, reason=note.strip() or None)
        if word == "on":
            return RuleOverride()
        try:
            return RuleOverride(severity=Severity.parse(word))
        except ValueError as exc:
            raise PydanticCustomError("config", "{what}", {"what": f"{exc}, or 'off'"}) from None
    if isinstance(value, Mapping):
        options = {
            name: item for name, item in value.items() if name not in {"severity", "enabled", "reason"}
        }
        reason = value.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise PydanticCustomError("config", "{what}", {"at": ".reason", "what": "expected a string"})
        severity = value.get("severity")
        if severity is not None and not isinstance(severity, str):
            raise PydanticCustomError(
                "config", "{what}", {"at": ".severity", "what": f"expected one of {_SEVERITIES}"}
            )
        try:
            parsed = Severity.parse(severity) if severity is not None else None
        except ValueError as exc:
            raise PydanticCustomError("config", "{what}", {"at": ".severity", "what": str(exc)}) from None
        enabled = value.get("enabled", True)
        if not isinstance(enabled, bool):
            raise PydanticCustomError(
                "config", "{what}", {"at": ".enabled", "what": "expected true or false"}
            )
        return RuleOverride(
            enabled=enabled, severity=parsed, options=options, reason=(reason or "").strip() or None
        )
    raise PydanticCustomError("config", "expected 'off', a severity, or a table of options")


_SEVERITIES = "info, low, moderate, high, critical"
_Strings = Annotated[list[str], BeforeValidator(_one_or_many)]
_Text = Annotated[str, AfterValidator(_not_blank)]
_Positive = Annotated[float, Field(gt=0, allow_inf_nan=False)]


class _ModelEntry(_Table):
    model: str
    api_base: _Text | None = None


class _JuryTable(_Table):
    models: Annotated[
        list[Annotated[_ModelEntry, BeforeValidator(_model_entry)]], BeforeValidator(_one_or_many)
    ] = []
    api_bases: dict[str, _Text] = {}
    concurrency: Annotated[int, Field(gt=0)] = JurySettings.concurrency
    aggregate: Literal["median", "mean", "min"] = "median"
    cache: _Text = str(DEFAULT_CACHE_PATH)
    timeout: _Positive = JurySettings.timeout
    max_retries: Annotated[int, Field(ge=0)] = JurySettings.max_retries


class _ToolIgnoreTable(_Table):
    codes: _Strings = []
    reason: _Text


class _ServerTable(_Table):
    # Only the keys are checked here; reach reads the values, which depend on the transport.
    command: Any = None
    args: Any = None
    env: Any = None
    env_file: Any = None
    cwd: Any = None
    url: Any = None
    headers: Any = None
    type: Any = None
    snapshot: Any = None


class _ConfigTable(_Table):
    select: _Strings = []
    ignore: _Strings = []
    rules: dict[str, Annotated[RuleOverride, PlainValidator(_rule_override)]] = {}
    per_tool_ignores: dict[str, _ToolIgnoreTable] = {}
    fail_on: Annotated[
        Literal["info", "low", "moderate", "high", "critical", "none"], BeforeValidator(_lower)
    ] = "low"
    profile: Annotated[Literal["default", "strict"], BeforeValidator(_lower)] = "default"
    min_score: Annotated[float, Field(ge=1, le=5, allow_inf_nan=False)] | None = None
    timeout: _Positive = Settings.timeout
    servers: dict[str, _ServerTable] = {}
    jury: _JuryTable = _JuryTable()


# The tables whose keys are closed, by where they sit ("*": any key or index).
_TABLES: tuple[tuple[tuple[str, ...], type[_Table]], ...] = (
    ((), _ConfigTable),
    (("jury",), _JuryTable),
    (("jury", "models", "*"), _ModelEntry),
    (("per-tool-ignores", "*"), _ToolIgnoreTable),
    (("servers", "*"), _ServerTable),
)

_URL = 'expected a URL string, e.g. "http://127.0.0.1:11434"'
_CACHE = f'expected a file path as a string, e.g. "{DEFAULT_CACHE_PATH}"'
# What is wrong with a value, by where it sits: the text follows the key (", " or ": " included); the
# longest pattern that starts the error's location wins; `{value}` is the value refused.
_PROBLEMS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("select",), ": expected a list of strings"),
    (("ignore",), ": expected a list of strings"),
    (("fail-on",), " {value!r} is not one of info, low, moderate, high, critical, none"),
    (("profile",), " {value!r} is not one of default, strict"),
    (("min-score",), ": expected a server score from 1 to 5"),
    (("timeout",), " must be a positive number of seconds"),
    (("rules",), " must be a table"),
    (("per-tool-ignores",), ": expected a table of tool patterns"),
    (("per-tool-ignores", "*"), ': expected { codes = [...], reason = "..." }; a reason is required'),
    (("per-tool-ignores", "*", "codes"), ": expected a list of strings"),
    (("servers",), " must be a table of server tables"),
    (("jury",), ": expected a table"),
    (("jury", "models"), ": expected a list of model ids"),
    (("jury", "models", "*", "api-base"), ": " + _URL),
    (("jury", "api-bases"), ': expected a table of model = "url"'),
    (("jury", "api-bases", "*"), ": " + _URL),
    (("jury", "aggregate"), ": {value!r} is not one of median, mean, min"),
    (("jury", "concurrency"), ": expected a positive integer"),
    (("jury", "timeout"), ": expected a positive number"),
    (("jury", "max-retries"), ": expected a whole number, 0 or more"),
    (("jury", "cache"), ": " + _CACHE),
)
# A missing or blank `reason` is reported on its ignore entry, with why it is required.
_ON_THE_ENTRY: dict[tuple[str, ...], str] = {
    ("per-tool-ignores", "*", "reason"): ": a 'reason' is required so reviewers know why the finding is fine"
}


def _matches(pattern: tuple[str, ...], loc: tuple[str | int, ...]) -> bool:
    return len(pattern) <= len(loc) and all(
        p in ("*", str(part)) for p, part in zip(pattern, loc, strict=False)
    )


def _spelled(loc: Sequence[str | int], path: Path | None) -> str:
    """A location as the user would search the file for it: `jury.models[1]`, `per-tool-ignores.'x'`."""
    text = ""
    for index, part in enumerate(loc):
        parent = loc[index - 1] if index else None
        if isinstance(part, int):
            text += f"[{part}]"
        elif index == 0:
            text = config_key(path, part) if part == "servers" else part
        elif parent == "per-tool-ignores":
            text += f".{quote(part)}"
        elif parent == "api-bases":
            text += f".{_toml_key(part)}"
        else:
            text += f".{part}"
    return text


def _message(error: ErrorDetails, path: Path | None) -> str:
    loc = tuple(error["loc"])
    where = str(path) if path else "settings"
    if error["type"] == "extra_forbidden":
        table = next(
            model
            for pattern, model in reversed(_TABLES)
            if _matches(pattern, loc[:-1]) and len(pattern) == len(loc) - 1
        )
        allowed = ", ".join(sorted(field.alias or name for name, field in table.model_fields.items()))
        spot = f"{where}: {_spelled(loc[:-1], path)}" if len(loc) > 1 else where
        return f"{spot}: unknown key {quote(loc[-1])}; allowed keys: {allowed}"
    for pattern, text in _ON_THE_ENTRY.items():
        if len(pattern) == len(loc) and _matches(pattern, loc):
            return f"{where}: {_spelled(loc[:-1], path)}{text}"
    if error["type"] == "config":
        context = error.get("ctx") or {}
        return f"{where}: {_spelled(loc, path)}{context.get('at', '')}: {error['msg']}"
    known = [(pattern, text) for pattern, text in _PROBLEMS if _matches(pattern, loc)]
    if known:
        pattern, text = max(known, key=lambda item: len(item[0]))
        problem = text.replace("{value!r}", quote(error["input"]))
        return f"{where}: {_spelled(loc[: len(pattern)], path)}{problem}"
    return f"{where}: {_spelled(loc, path)}: {error['msg']}"  # pragma: no cover - every field has a text


def _first(errors: Sequence[ErrorDetails]) -> ErrorDetails:
    """The error to report: an unknown top-level key first (it may be a typo of the key that failed),
    then the first in the order of the fields; of several unknown keys of one table, the first
    alphabetically."""
    first = min(errors, key=lambda e: not (e["type"] == "extra_forbidden" and len(e["loc"]) == 1))
    if first["type"] != "extra_forbidden":
        return first
    siblings = [e for e in errors if e["type"] == "extra_forbidden" and e["loc"][:-1] == first["loc"][:-1]]
    return min(siblings, key=lambda e: str(e["loc"][-1]))


def _toml_key(name: str) -> str:
    # As the user would write it: model ids such as "openai/gpt-4.1-mini" need quotes in TOML.
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def is_positive(value: Any, integer: bool = False) -> bool:
    """A positive, finite number (an int when `integer`); bools are not numbers here."""
    kinds = (int,) if integer else (int, float)
    # `0 < value` also refuses nan, which TOML allows; inf would mean waiting forever.
    return not isinstance(value, bool) and isinstance(value, kinds) and 0 < value < math.inf


def parse_settings(table: Mapping[str, Any], path: Path | None) -> Settings:
    try:
        config = _ConfigTable.model_validate(table)
    except ValidationError as exc:
        raise UsageError(_message(_first(exc.errors()), path)) from None
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
