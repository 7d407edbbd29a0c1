"""A server.json entry of the MCP registry: validated into a frozen record, or a list of problems.

The rules are those of the published `server.schema.json` (2025-07-09 through 2025-12-11, camelCase
since 2025-09-16) and of the official registry's own checks, each problem one line naming its JSON
path (`packages[0].version: ...`). Nothing here installs or starts anything: see `launch`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_lint.errors import quote
from mcp_lint.files import InputFileError, read_input_bytes, read_input_file
from mcp_lint.json_types import a_json_type as _json_type
from mcp_lint.limits import document_problem, too_deep_message, too_long_number_message

SCHEMA_URL = "https://static.modelcontextprotocol.io/schemas/{date}/server.schema.json"
# Every dated schema the registry has published, oldest first. 2025-07-09 is the snake_case one; the
# field names became camelCase on 2025-09-16 (an old name is silently ignored, see SNAKE_CASE_NAMES).
SCHEMA_DATES = ("2025-07-09", "2025-09-16", "2025-09-29", "2025-10-11", "2025-10-17", "2025-12-11")
PUBLISHED_SCHEMAS = {SCHEMA_URL.format(date=date): date for date in SCHEMA_DATES}
LATEST_SCHEMA = SCHEMA_URL.format(date=SCHEMA_DATES[-1])
SNAKE_CASE_SCHEMAS = frozenset(SCHEMA_URL.format(date=date) for date in ("2025-07-09",))

REGISTRY_TYPES = ("npm", "pypi", "nuget", "oci", "mcpb")
LOCAL_TRANSPORTS = ("stdio", "streamable-http", "sse")
REMOTE_TRANSPORTS = ("streamable-http", "sse")
INPUT_FORMATS = ("string", "number", "boolean", "filepath")
ARGUMENT_TYPES = ("positional", "named")

# Where each registry type is published; the official registry accepts no other base URL.
OFFICIAL_BASE_URLS = {
    "npm": ("https://registry.npmjs.org",),
    "pypi": ("https://pypi.org",),
    "nuget": ("https://api.nuget.org", "https://api.nuget.org/v3/index.json"),
    "mcpb": ("https://github.com", "https://gitlab.com"),
}

NAME_PATTERN = re.compile(r"^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$")
URL_PATTERN = re.compile(r"^(https?://[^\s]+|\{[a-zA-Z_][a-zA-Z0-9_]*\}[^\s]*)$")
SHA256_PATTERN = re.compile(r"^[a-f0-9]{64}$")
VARIABLE = re.compile(r"\{([a-zA-Z_][a-zA-Z0-9_]*)\}")
# The names the gate hands an installer, as each registry allows them: a name that starts with "-" would
# be read as an option, and a URL, path or git spec would install something other than the package.
# npm: validate-npm-package-name (old names may hold capitals); PyPI: PEP 508's name.
NPM_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[A-Za-z0-9][A-Za-z0-9._~-]*$")
MAX_NPM_NAME = 214
PYPI_NAME = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$")
# A version the gate installs is also a cache folder's name: letters and digits joined by one of
# ". - + ! _" (PEP 440 and semver fit), so never "." or ".." or a path.
INSTALL_VERSION = re.compile(r"^[A-Za-z0-9]+([._+!-][A-Za-z0-9]+)*$")
INSTALLED_TYPES = ("npm", "pypi")
# A version the registry refuses as a range: an operator, a wildcard part, alternatives, a hyphen range.
_RANGE = re.compile(r"^\s*(\^|~|[<>]=?|=)|(^|\.)[xX*](\.|$)|\|\||\s-\s|^\*$")

# The 2025-07-09 names (and a few of its other spellings) the camelCase schemas replaced. The registry
# ignores an unknown key, so `registry_type` is not an error there: the package silently has no type.
SNAKE_CASE_NAMES = {
    "registry_type": "registryType",
    "registry_name": "registryType",
    "registry_base_url": "registryBaseUrl",
    "file_sha256": "fileSha256",
    "runtime_hint": "runtimeHint",
    "runtime_arguments": "runtimeArguments",
    "package_arguments": "packageArguments",
    "environment_variables": "environmentVariables",
    "is_required": "isRequired",
    "is_secret": "isSecret",
    "value_hint": "valueHint",
    "is_repeated": "isRepeated",
    "website_url": "websiteUrl",
    "transport_type": "type",
    "version_detail": "version",
}
_SNAKE_FOR: dict[str, set[str]] = {}
for _snake, _camel in SNAKE_CASE_NAMES.items():
    _SNAKE_FOR.setdefault(_camel, set()).add(_snake)

PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided"
MAX_PUBLISHER_META = 4096


@dataclass(frozen=True)
class Problem:
    path: str  # the JSON path, `packages[0].version`; `(entry)` for the document as a whole
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass(frozen=True)
class Input:
    """A value the client fills in: given (`value`), defaulted, or asked of the user."""

    value: str | None = None
    default: str | None = None
    description: str | None = None
    is_required: bool = False
    is_secret: bool = False
    choices: tuple[str, ...] = ()
    format: str = "string"
    placeholder: str | None = None
    variables: Mapping[str, Input] = field(default_factory=dict)


@dataclass(frozen=True)
class KeyValue:
    """An environment variable or an HTTP header."""

    name: str
    input: Input
    path: str


@dataclass(frozen=True)
class Argument:
    kind: str  # positional | named
    name: str | None  # the flag of a named argument, `--port`
    value_hint: str | None  # the label of a positional one
    input: Input
    path: str
    is_repeated: bool = False

    @property
    def label(self) -> str:
        """What names the argument in messages and in --env: its valueHint, else its flag."""
        return self.value_hint or self.name or self.path


@dataclass(frozen=True)
class Transport:
    type: str
    url: str | None = None
    headers: tuple[KeyValue, ...] = ()
    variables: Mapping[str, Input] = field(default_factory=dict)  # remotes only


@dataclass(frozen=True)
class Package:
    registry_type: str
    identifier: str
    version: str | None
    transport: Transport
    path: str
    registry_base_url: str | None = None
    runtime_hint: str | None = None
    runtime_arguments: tuple[Argument, ...] = ()
    package_arguments: tuple[Argument, ...] = ()
    environment_variables: tuple[KeyValue, ...] = ()
    file_sha256: str | None = None

    @property
    def spec(self) -> str:
        """How the package is named in messages: `pypi mcp-server-time==2026.10.19`."""
        joiner = "==" if self.registry_type == "pypi" else "@"
        return f"{self.registry_type} {self.identifier}{joiner + self.version if self.version else ''}"


@dataclass(frozen=True)
class Remote:
    transport: Transport
    path: str


@dataclass(frozen=True)
class RegistryEntry:
    name: str
    description: str
    version: str
    schema: str
    packages: tuple[Package, ...] = ()
    remotes: tuple[Remote, ...] = ()
    title: str | None = None
    source: Path | None = None  # the server.json file, when it came from one


@dataclass(frozen=True)
class Validation:
    """An entry, or the problems that make it one the registry (or the gate) would refuse."""

    entry: RegistryEntry | None
    problems: tuple[Problem, ...] = ()
    warnings: tuple[Problem, ...] = ()


def load_entry(path: Path) -> Validation:
    """Read and validate a server.json file; a file that cannot be read or parsed is one problem."""
    try:
        data = read_input_bytes(path, "a server.json")
    except InputFileError as error:
        return Validation(None, (Problem("(entry)", error.detail),))
    validation = parse_entry(data, path)
    if validation.entry is not None:
        extra = ownership_warnings(validation.entry, path.parent)
        return Validation(validation.entry, validation.problems, (*validation.warnings, *extra))
    return validation


def parse_entry(data: bytes, source: Path) -> Validation:
    """Validate the bytes of a server.json read from `source` (`mcp-lint audit` reads the file once,
    and its job may run on another machine); a file that cannot be decoded or parsed is one problem."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        return Validation(
            None, (Problem("(entry)", f"not UTF-8 text (byte {error.start}); save it as UTF-8"),)
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno} column {error.colno}"
        return Validation(None, (Problem("(entry)", f"not valid JSON: {error.msg} at {where}"),))
    except RecursionError:
        return Validation(None, (Problem("(entry)", too_deep_message()),))
    except ValueError:  # "Exceeds the limit (4300 digits) for integer string conversion"
        return Validation(None, (Problem("(entry)", too_long_number_message()),))
    problem = document_problem(document)
    if problem is not None:
        return Validation(None, (Problem("(entry)", problem),))
    return validate_entry(document, source=source)


def validate_entry(document: Any, source: Path | None = None) -> Validation:
    checker = _Checker()
    entry = checker.entry(document, source)
    problems = tuple(checker.problems)
    return Validation(None if problems else entry, problems, tuple(checker.warnings))


def _shown(value: Any) -> str:
    """A value as the user wrote it in JSON, cut like every quoted value of mcp-lint."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else quote(value)


def version_problem(version: str) -> str | None:
    """Why `version` is not the one exact version the registry needs, or None."""
    if not version.strip():
        return 'is empty; the registry needs one exact version, e.g. "1.2.0"'
    if version.strip().lower() == "latest":
        return f'{_shown(version)} is not a version; the registry needs one exact version, e.g. "1.2.0"'
    if _RANGE.search(version) or " " in version.strip():
        bare = re.sub(r"^[\^~<>=v\s]+", "", version).split(" ")[0]
        example = bare if re.fullmatch(r"\d+(\.\d+)*([-+][0-9A-Za-z.-]+)?", bare) else "1.2.0"
        return f'{_shown(version)} is a range; the registry needs one exact version, e.g. "{example}"'
    return None


def identifier_problem(registry_type: str | None, identifier: str) -> str | None:
    """Why `identifier` is not a name the gate may hand the registry's installer, or None."""
    if registry_type == "npm":
        if len(identifier) > MAX_NPM_NAME or not NPM_NAME.fullmatch(identifier):
            return (
                f"{_shown(identifier)} is not an npm package name (@scope/name or name: letters, digits, "
                '".", "_", "-", "~", starting with a letter or digit; no URL, path or git spec)'
            )
    elif registry_type == "pypi":
        if not PYPI_NAME.fullmatch(identifier):
            return (
                f'{_shown(identifier)} is not a PyPI project name (letters, digits, ".", "_", "-", '
                "starting and ending with a letter or digit; no URL, path or requirement)"
            )
    elif registry_type != "mcpb" and (identifier.startswith("-") or identifier != identifier.strip()):
        return f'{_shown(identifier)} is not a package name: it starts with "-" or a space'
    return None


def install_version_problem(version: str) -> str | None:
    """Why `version`, exact for the registry, is still none the gate installs and caches, or None."""
    if INSTALL_VERSION.fullmatch(version):
        return None
    return (
        f"{_shown(version)} is not a version an installer takes: letters and digits joined by "
        '".", "-", "+", "!" or "_", e.g. "1.2.0"'
    )


class _Checker:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append(Problem(path, message))

    def warn(self, path: str, message: str) -> None:
        self.warnings.append(Problem(path, message))

    # -- helpers ---------------------------------------------------------------------------------

    def _missing(self, obj: Mapping[str, Any], key: str, path: str, what: str) -> None:
        # An old snake_case spelling already has its own line; "missing" would say the same twice.
        if _SNAKE_FOR.get(key, set()) & obj.keys() or (key == "identifier" and "name" in obj):
            return
        self.problem(_join(path, key), f"missing; {what}")

    def string(
        self,
        obj: Mapping[str, Any],
        key: str,
        path: str,
        *,
        required: str | None = None,
        min_length: int = 0,
        max_length: int | None = None,
    ) -> str | None:
        where = _join(path, key)
        if key not in obj:
            if required is not None:
                self._missing(obj, key, path, required)
            return None
        value = obj[key]
        if not isinstance(value, str):
            self.problem(where, f"expected a string, got {_json_type(value)}")
            return None
        if len(value) < min_length:
            allowed = f"; {min_length} to {max_length} characters are allowed" if max_length else ""
            self.problem(where, f"is empty{allowed}")
            return None
        if max_length is not None and len(value) > max_length:
            self.problem(where, f"{len(value)} characters; at most {max_length} are allowed")
            return None
        return value

    def boolean(self, obj: Mapping[str, Any], key: str, path: str) -> bool:
        value = obj.get(key, False)
        if not isinstance(value, bool):
            self.problem(_join(path, key), f"expected true or false, got {_json_type(value)}")
            return False
        return value

    def items(self, obj: Mapping[str, Any], key: str, path: str) -> Iterator[tuple[str, Mapping[str, Any]]]:
        """The objects of the array `obj[key]`, with their paths; a wrong shape is a problem."""
        value = obj.get(key)
        if value is None:
            return
        if not isinstance(value, list):
            self.problem(_join(path, key), f"expected an array, got {_json_type(value)}")
            return
        for index, item in enumerate(value):
            where = f"{_join(path, key)}[{index}]"
            if isinstance(item, dict):
                yield where, item
            else:
                self.problem(where, f"expected an object, got {_json_type(item)}")

    def url(self, value: str, where: str) -> bool:
        if URL_PATTERN.match(value):
            return True
        self.problem(
            where,
            f"{_shown(value)} is not a URL; expected http:// or https:// (or a {{variable}} first), "
            "with no spaces",
        )
        return False

    # -- the document ----------------------------------------------------------------------------

    def entry(self, document: Any, source: Path | None) -> RegistryEntry | None:
        if not isinstance(document, dict):
            self.problem("(entry)", f"expected a JSON object, got {_json_type(document)}")
            return None
        self.snake_case(document, "")
        schema = self.schema(document)
        name = self.string(
            document, "name", "", required='the reverse-DNS server name, e.g. "io.github.owner/server"'
        )
        if name is not None:
            if not 3 <= len(name) <= 200:
                self.problem("name", f"{len(name)} characters; a name is 3 to 200 characters")
            elif not NAME_PATTERN.match(name):
                self.problem(
                    "name",
                    f"{_shown(name)} is not reverse-DNS with exactly one slash, "
                    'e.g. "io.github.owner/server" (letters, digits, ".", "-"; then "_" too after the slash)',
                )
        description = self.string(
            document,
            "description",
            "",
            required="one line of 1 to 100 characters saying what the server does",
            min_length=1,
            max_length=100,
        )
        version = self.string(document, "version", "", required='the exact version, e.g. "1.0.0"')
        if version is not None:
            if len(version) > 255:
                self.problem("version", f"{len(version)} characters; at most 255 are allowed")
            else:
                problem = version_problem(version)
                if problem:
                    self.problem("version", problem)
        title = self.string(document, "title", "", min_length=1, max_length=100)
        packages = tuple(
            package
            for where, item in self.items(document, "packages", "")
            if (package := self.package(item, where))
        )
        remotes = tuple(
            remote
            for where, item in self.items(document, "remotes", "")
            if (remote := self.remote(item, where))
        )
        if not document.get("packages") and not document.get("remotes") and not self.problems:
            self.problem("(entry)", "no packages and no remotes: the gate has nothing to start or connect to")
        self.meta(document)
        if self.problems or name is None or description is None or version is None or schema is None:
            return None
        return RegistryEntry(name, description, version, schema, packages, remotes, title, source)

    def schema(self, document: Mapping[str, Any]) -> str | None:
        schema = self.string(document, "$schema", "", required=f'add "$schema": "{LATEST_SCHEMA}"')
        if schema is None:
            return None
        if schema not in PUBLISHED_SCHEMAS:
            self.problem(
                "$schema",
                f"{_shown(schema)} is not a published server.json schema; use {_shown(LATEST_SCHEMA)}",
            )
            return None
        if schema in SNAKE_CASE_SCHEMAS:
            self.warn(
                "$schema",
                f"the {PUBLISHED_SCHEMAS[schema]} schema used snake_case names the registry no longer "
                f"reads; move to {LATEST_SCHEMA} with camelCase names",
            )
        return schema

    def snake_case(self, value: Any, path: str) -> None:
        """A line for every old snake_case key, anywhere but in `_meta` (free-form by design)."""
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "_meta":
                    continue
                where = _join(path, key)
                if key in SNAKE_CASE_NAMES:
                    self.problem(
                        where,
                        f"{_shown(key)} is a snake_case name of the 2025-07-09 schema, which the registry "
                        f"silently ignores; rename it to {_shown(SNAKE_CASE_NAMES[key])}",
                    )
                self.snake_case(item, where)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                self.snake_case(item, f"{path}[{index}]")

    def meta(self, document: Mapping[str, Any]) -> None:
        meta = document.get("_meta")
        if meta is None:
            return
        if not isinstance(meta, dict):
            self.problem("_meta", f"expected an object, got {_json_type(meta)}")
            return
        for key in meta:
            if key != PUBLISHER_META:
                self.warn(
                    f"_meta.{key}",
                    f"the official registry keeps only {_shown(PUBLISHER_META)} and drops this key",
                )
        provided = meta.get(PUBLISHER_META)
        if provided is not None:
            size = len(json.dumps(provided, separators=(",", ":")).encode("utf-8"))
            if size > MAX_PUBLISHER_META:
                self.problem(
                    f"_meta.{PUBLISHER_META}", f"{size} bytes of JSON; the registry takes at most 4096"
                )

    # -- packages and remotes --------------------------------------------------------------------

    def package(self, item: Mapping[str, Any], path: str) -> Package | None:
        before = len(self.problems)
        registry_type = self.string(
            item, "registryType", path, required=f"one of {', '.join(REGISTRY_TYPES)}", min_length=1
        )
        if registry_type is not None and registry_type not in REGISTRY_TYPES:
            self.problem(
                _join(path, "registryType"),
                f"{_shown(registry_type)} is not a registry type; use one of {', '.join(REGISTRY_TYPES)}",
            )
        identifier = self.string(
            item,
            "identifier",
            path,
            required='the package name, e.g. "@owner/server" on npm or "mcp-server-x" on PyPI',
            min_length=1,
        )
        if "name" in item and "identifier" not in item:
            self.problem(
                _join(path, "name"),
                '"name" is the 2025-07-09 spelling, which the registry silently ignores; rename it to '
                '"identifier"',
            )
        needs_version = registry_type != "mcpb"
        version = self.string(
            item,
            "version",
            path,
            required='the exact package version to install, e.g. "1.2.0"' if needs_version else None,
        )
        if version is not None:
            problem = version_problem(version)
            if problem is None and registry_type in INSTALLED_TYPES:
                problem = install_version_problem(version)
            if problem:
                self.problem(_join(path, "version"), problem)
        if identifier is not None:
            problem = identifier_problem(registry_type, identifier)
            if problem:
                self.problem(_join(path, "identifier"), problem)
        base_url = self.string(item, "registryBaseUrl", path, min_length=1)
        if base_url is not None and self.url(base_url, _join(path, "registryBaseUrl")):
            official = OFFICIAL_BASE_URLS.get(registry_type or "")
            if official and base_url.rstrip("/") not in official:
                self.warn(
                    _join(path, "registryBaseUrl"),
                    f"the official registry accepts only {', '.join(official)} for {registry_type}",
                )
        sha = self.string(
            item,
            "fileSha256",
            path,
            required="the SHA-256 of the .mcpb file (64 lowercase hex digits)"
            if registry_type == "mcpb"
            else None,
        )
        if sha is not None and not SHA256_PATTERN.match(sha):
            self.problem(_join(path, "fileSha256"), f"{_shown(sha)} is not 64 lowercase hex digits")
        if registry_type == "mcpb" and identifier is not None and not identifier.startswith("https://"):
            self.problem(_join(path, "identifier"), "an mcpb package is the https:// URL of the .mcpb file")
        runtime_hint = self.string(item, "runtimeHint", path, min_length=1)
        runtime_arguments = self.arguments(item, "runtimeArguments", path)
        if runtime_arguments and runtime_hint is None:
            self.warn(
                _join(path, "runtimeHint"),
                "missing while runtimeArguments are given; clients need it to know their runtime",
            )
        package_arguments = self.arguments(item, "packageArguments", path)
        environment = tuple(
            value
            for where, env in self.items(item, "environmentVariables", path)
            if (value := self.key_value(env, where, "environment variable"))
        )
        transport = self.transport(item, path, remote=False)
        if transport is not None and transport.url is not None:
            known = {
                *(argument.value_hint or "" for argument in (*runtime_arguments, *package_arguments)),
                *((argument.name or "").lstrip("-") for argument in (*runtime_arguments, *package_arguments)),
                *(env.name for env in environment),
            }
            self.variables_defined(transport.url, known, _join(path, "transport.url"), "the package's inputs")
        if len(self.problems) > before or registry_type is None or identifier is None or transport is None:
            return None
        return Package(
            registry_type=registry_type,
            identifier=identifier,
            version=version,
            transport=transport,
            path=path,
            registry_base_url=base_url,
            runtime_hint=runtime_hint,
            runtime_arguments=runtime_arguments,
            package_arguments=package_arguments,
            environment_variables=environment,
            file_sha256=sha,
        )

    def remote(self, item: Mapping[str, Any], path: str) -> Remote | None:
        before = len(self.problems)
        transport = self.transport(item, path, remote=True)
        if transport is None or len(self.problems) > before:
            return None
        return Remote(transport, path)

    def transport(self, item: Mapping[str, Any], path: str, *, remote: bool) -> Transport | None:
        allowed = REMOTE_TRANSPORTS if remote else LOCAL_TRANSPORTS
        if remote:
            body: Mapping[str, Any] = item
            where = path
        else:
            if "transport" not in item:
                self._missing(item, "transport", path, '{"type": "stdio"} for a server a client spawns')
                return None
            raw = item["transport"]
            where = _join(path, "transport")
            if not isinstance(raw, dict):
                self.problem(where, f'expected an object such as {{"type": "stdio"}}, got {_json_type(raw)}')
                return None
            body = raw
        before = len(self.problems)
        kind = self.string(body, "type", where, required=f"one of {', '.join(allowed)}")
        if kind is not None and kind not in allowed:
            self.problem(
                _join(where, "type"),
                f"{_shown(kind)} is not a transport here; use one of {', '.join(allowed)}",
            )
        url: str | None = None
        if kind in REMOTE_TRANSPORTS:
            url = self.string(body, "url", where, required=f"the URL a client connects to over {kind}")
            if url is not None:
                self.url(url, _join(where, "url"))
        elif "url" in body and kind == "stdio" and not remote:
            self.warn(_join(where, "url"), "ignored: a stdio transport has no URL")
        headers = tuple(
            header
            for at, raw_header in self.items(body, "headers", where)
            if (header := self.key_value(raw_header, at, "header"))
        )
        variables = self.variables(body, where) if remote else {}
        if remote and url is not None:
            self.variables_defined(url, set(variables), _join(where, "url"), "its variables")
        if kind is None or len(self.problems) > before:
            return None
        return Transport(kind, url, headers, variables)

    def variables_defined(self, url: str, known: set[str], where: str, source: str) -> None:
        for name in VARIABLE.findall(url):
            if name not in known:
                self.problem(where, f"{{{name}}} is not defined by {source}; define it or write the value")

    def variables(self, item: Mapping[str, Any], path: str) -> dict[str, Input]:
        raw = item.get("variables")
        if raw is None:
            return {}
        where = _join(path, "variables")
        if not isinstance(raw, dict):
            self.problem(where, f"expected an object of name: input, got {_json_type(raw)}")
            return {}
        found: dict[str, Input] = {}
        for name, value in raw.items():
            if not isinstance(value, dict):
                self.problem(_join(where, name), f"expected an object, got {_json_type(value)}")
                continue
            found[name] = self.input(value, _join(where, name), nested=True)
        return found

    def input(self, item: Mapping[str, Any], path: str, *, nested: bool = False) -> Input:
        value = self.string(item, "value", path)
        default = self.string(item, "default", path)
        description = self.string(item, "description", path)
        placeholder = self.string(item, "placeholder", path)
        form = self.string(item, "format", path) or "string"
        if form not in INPUT_FORMATS:
            self.problem(_join(path, "format"), f"{_shown(form)} is not one of {', '.join(INPUT_FORMATS)}")
        choices: tuple[str, ...] = ()
        raw_choices = item.get("choices")
        if raw_choices is not None:
            if not isinstance(raw_choices, list) or not all(
                isinstance(choice, str) for choice in raw_choices
            ):
                self.problem(_join(path, "choices"), "expected an array of strings")
            else:
                choices = tuple(raw_choices)
                for key, given in (("default", default), ("value", value)):
                    if given is not None and choices and given not in choices:
                        self.problem(_join(path, key), f"{_shown(given)} is not one of its choices")
        return Input(
            value=value,
            default=default,
            description=description,
            is_required=self.boolean(item, "isRequired", path),
            is_secret=self.boolean(item, "isSecret", path),
            choices=choices,
            format=form,
            placeholder=placeholder,
            variables={} if nested else self.variables(item, path),
        )

    def key_value(self, item: Mapping[str, Any], path: str, what: str) -> KeyValue | None:
        name = self.string(item, "name", path, required=f"the {what}'s name", min_length=1)
        value = self.input(item, path)
        return KeyValue(name, value, path) if name is not None else None

    def arguments(self, item: Mapping[str, Any], key: str, path: str) -> tuple[Argument, ...]:
        found: list[Argument] = []
        for where, raw in self.items(item, key, path):
            kind = self.string(raw, "type", where, required='"positional" or "named"')
            if kind is None:
                continue
            if kind not in ARGUMENT_TYPES:
                self.problem(_join(where, "type"), f'{_shown(kind)} is not "positional" or "named"')
                continue
            value_hint = self.string(raw, "valueHint", where, min_length=1)
            name: str | None = None
            if kind == "positional":
                if "value" not in raw and value_hint is None and "value_hint" not in raw:
                    self.problem(where, 'a positional argument needs "value" or "valueHint"')
            else:
                name = self.string(raw, "name", where, required='the flag, e.g. "--port"', min_length=1)
            found.append(
                Argument(
                    kind=kind,
                    name=name,
                    value_hint=value_hint,
                    input=self.input(raw, where),
                    path=where,
                    is_repeated=self.boolean(raw, "isRepeated", where),
                )
            )
        return tuple(found)


def _join(path: str, key: str) -> str:
    if not path:
        return key
    return f"{path}.{key}"


# -- ownership markers ---------------------------------------------------------------------------------

_READMES = ("README.md", "README.rst", "README.txt", "README")


def ownership_warnings(entry: RegistryEntry, folder: Path) -> list[Problem]:
    """The registry's proof that the publisher owns each package, where it can be read beside the file.

    Only warned about: the package published may be built elsewhere, and the registry checks the
    published one. npm: `mcpName` in package.json; PyPI and NuGet: `mcp-name: <name>` in the README;
    mcpb: "mcp" in the file's URL. OCI labels live in the image, not here.
    """
    warnings: list[Problem] = []
    for package in entry.packages:
        kind = package.registry_type
        if kind == "npm":
            manifest = _read_json(folder / "package.json")
            ours = isinstance(manifest, dict) and manifest.get("name") == package.identifier
            if ours and manifest.get("mcpName") != entry.name:
                warnings.append(
                    Problem(
                        package.path,
                        f'package.json has no "mcpName": {_shown(entry.name)}; the registry refuses '
                        "an npm package without it",
                    )
                )
        elif kind in {"pypi", "nuget"}:
            readme = next((folder / name for name in _READMES if (folder / name).is_file()), None)
            if readme is not None and f"mcp-name: {entry.name}" not in _read_text(readme):
                warnings.append(
                    Problem(
                        package.path,
                        f"{readme.name} does not say `mcp-name: {entry.name}`; the registry refuses a "
                        f"{kind} package whose README lacks it (an HTML comment will do)",
                    )
                )
        elif kind == "mcpb" and "mcp" not in package.identifier.lower():
            warnings.append(
                Problem(_join(package.path, "identifier"), 'the registry needs "mcp" in an mcpb file\'s URL')
            )
    return warnings


def _read_json(path: Path) -> Any:
    try:
        return json.loads(read_input_file(path, "a package.json"))
    except (InputFileError, ValueError):
        return None


def _read_text(path: Path) -> str:
    try:
        return read_input_file(path, "a README")
    except InputFileError:
        return ""
