"""The config file's TOML tables as pydantic models, and their errors as one line each.

Imported by `mcp_lint.config.parse_settings` when a config file (or a table given in code) is read,
not by every command: building these models costs about 15 ms of start-up, which a lint without a
config file (`--isolated`, or no config found) does not need.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

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

from mcp_lint.config import DEFAULT_CACHE_PATH, JurySettings, RuleOverride, Settings, config_key
from mcp_lint.errors import UsageError, quote
from mcp_lint.model import Severity

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


def validate(table: Mapping[str, Any], path: Path | None) -> _ConfigTable:
    """The table as `_ConfigTable`, or a `UsageError` whose one line names the key and what is wrong."""
    try:
        return _ConfigTable.model_validate(table)
    except ValidationError as exc:
        raise UsageError(_message(_first(exc.errors()), path)) from None
