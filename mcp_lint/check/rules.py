"""Load the rule catalogue from `rules/*.yaml`, validated by `rule.schema.json`."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_lint.errors import UsageError
from mcp_lint.model import COMPONENTS, Category, Component, Severity, value_record
from mcp_lint.parsed_yaml import load_yaml, yaml_error
from mcp_lint.quick_schema import surely_valid
from mcp_lint.resources import PACKAGE_DIR, rules_dir

if TYPE_CHECKING:
    import jsonschema

    from mcp_lint.jury.rubric import Rubric


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class RuleDocs:
    what: str
    why: str
    example: str
    instead: str


def _fenced(text: str) -> list[str]:
    """An example in a code fence: `json` when it is JSON, else `text`; the fence outgrows any run of
    backticks inside."""
    body = text.strip("\n").rstrip()
    try:
        json.loads(body)
        language = "json"
    except ValueError:
        language = "text"
    ticks = "`" * max(3, _longest_backtick_run(body) + 1)
    return [f"{ticks}{language}", body, ticks]


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    return longest


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Rule:
    code: str
    name: str
    severity: Severity
    category: Category
    function: str
    message: str
    docs: RuleDocs
    options: Mapping[str, Any]  # option -> default (a rubric threshold's comes from rubric.yaml)
    status: str = "stable"
    aliases: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    source: str = ""
    # Fails the run under the default profile whatever its severity (see mcp_lint.profiles).
    breaking: bool = False
    # option -> its type, range and `expected` words, as the rule file declares them.
    option_specs: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)

    @property
    def component(self) -> Component | None:
        """The rubric component a rubric rule reports on (None for the other rules)."""
        value = self.options.get("component")
        return value if self.category is Category.RUBRIC and value in COMPONENTS else None

    def render_docs(self) -> str:
        """The rule's documentation as Markdown; `mcp-lint rule`, SARIF help and the docs use it."""
        lines = [
            f"# {self.name} ({self.code})",
            "",
            f"Severity: {self.severity.label}. Category: {self.category}. Status: {self.status}.",
            *(
                ["Breaking: the default profile fails the run on it whatever its severity."]
                if self.breaking
                else []
            ),
            "",
            "## What it does",
            self.docs.what.strip(),
            "",
            "## Why is this bad?",
            self.docs.why.strip(),
            "",
            "## Example",
            *_fenced(self.docs.example),
            "",
            "## Use instead",
            *_fenced(self.docs.instead),
        ]
        if self.options:
            lines += ["", "## Options"]
            lines += [
                f"- `{key}` (default: `{json.dumps(value)}`): {self.option_specs[key]['expected']}"
                if key in self.option_specs
                else f"- `{key}` (default: `{json.dumps(value)}`)"
                for key, value in sorted(self.options.items())
            ]
        return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=1)
def _rule_schema() -> dict[str, Any]:
    with (PACKAGE_DIR / "data" / "rule.schema.json").open(encoding="utf-8") as handle:
        schema: dict[str, Any] = json.load(handle)
    return schema


@functools.lru_cache(maxsize=1)
def _rule_validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(_rule_schema())


def parse_rule(data: Any, source: str) -> Rule:
    """Validate one rule file's content and build its record. `jsonschema` (some 45 ms to import) is
    asked only about a file the quick check is not certain of: it decides, and words the error."""
    if not surely_valid(data, _rule_schema()):
        import jsonschema

        error = jsonschema.exceptions.best_match(_rule_validator().iter_errors(data))
        if error is not None:
            where = "/".join(str(part) for part in error.absolute_path) or "(top level)"
            raise UsageError(f"{source}: invalid rule at {where}: {error.message}")
    docs = data["docs"]
    return Rule(
        code=data["code"],
        name=data["name"],
        severity=Severity.parse(data["severity"]),
        category=Category(data["category"]),
        function=data["function"],
        message=data["message"],
        docs=RuleDocs(what=docs["what"], why=docs["why"], example=docs["example"], instead=docs["instead"]),
        options={
            name: spec["default"] for name, spec in (data.get("options") or {}).items() if "default" in spec
        },
        option_specs={
            name: {key: value for key, value in spec.items() if key != "default"}
            for name, spec in (data.get("options") or {}).items()
        },
        status=data.get("status", "stable"),
        aliases=tuple(data.get("aliases") or ()),
        tags=tuple(data.get("tags") or ()),
        source=source,
        breaking=bool(data.get("breaking", False)),
    )


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Catalogue:
    """Every known rule, in code order, with lookups by code, name and alias."""

    rules: tuple[Rule, ...]

    @functools.cached_property
    def _positions(self) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
        # By code, name and alias: the position of the first rule with it (a run looks up every
        # finding's rule, hundreds of times).
        codes: dict[str, int] = {}
        names: dict[str, int] = {}
        aliases: dict[str, int] = {}
        for position, rule in enumerate(self.rules):
            codes.setdefault(rule.code, position)
            names.setdefault(rule.name, position)
            for alias in rule.aliases:
                aliases.setdefault(alias, position)
        return codes, names, aliases

    def find(self, key: str) -> Rule | None:
        """The first rule whose code is `key` in upper case, whose name is `key` in lower case, or
        which has `key` as an alias (surrounding blanks ignored)."""
        wanted = key.strip()
        codes, names, aliases = self._positions
        found = [
            position
            for position in (codes.get(wanted.upper()), names.get(wanted.lower()), aliases.get(wanted))
            if position is not None
        ]
        return self.rules[min(found)] if found else None


def with_rubric_defaults(rule: Rule, rubric: Rubric) -> Rule:
    """A rubric rule with its `threshold` default taken from the rubric's component.

    One number per component, kept with the rubric it belongs to: the rule file must not set its own,
    or the two could drift apart. Users still override it per rule in their config.
    """
    if "threshold" in rule.options:
        raise UsageError(
            f"{rule.source}: a rubric rule takes its threshold from rules/rubric.yaml; "
            "remove options.threshold"
        )
    component = str(rule.options.get("component", ""))
    if component not in rubric.components:
        raise UsageError(f"{rule.source}: options.component {component!r} is not a rubric component")
    threshold = rubric.threshold(component)
    # Integral thresholds stay ints so the generated docs read `3`, not `3.0`.
    default: float | int = int(threshold) if threshold.is_integer() else threshold
    return dataclasses.replace(rule, options={**rule.options, "threshold": default})


@functools.lru_cache(maxsize=4)
def load_catalogue(directory: Path | None = None) -> Catalogue:
    """Read and validate every rule file; codes and names must be unique."""
    from mcp_lint.check.functions import FUNCTIONS
    from mcp_lint.jury.rubric import load_rubric

    rubric = load_rubric()
    folder = directory or rules_dir()
    rules: list[Rule] = []
    for path in sorted(folder.glob("MCP*.yaml")):
        text = path.read_text(encoding="utf-8")
        try:
            data = load_yaml(path, text)
        except yaml_error() as exc:
            raise UsageError(f"{path}: not valid YAML: {exc}") from None
        rule = parse_rule(data, str(path))
        if rule.function not in FUNCTIONS:
            raise UsageError(f"{path}: function {rule.function!r} is not a registered check function")
        rules.append(with_rubric_defaults(rule, rubric) if rule.function == "rubric_component" else rule)
    seen: dict[str, str] = {}
    for rule in rules:
        for key in (rule.code, rule.name, *rule.aliases):
            if key in seen:
                raise UsageError(f"{rule.source}: {key!r} is already used by {seen[key]}")
            seen[key] = rule.source
    rules.sort(key=lambda rule: rule.code)
    return Catalogue(rules=tuple(rules))
