"""Run the rule catalogue over a snapshot: selection, overrides, suppressions, messages."""

from __future__ import annotations

import difflib
import fnmatch
import gc
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from mcp_lint.check.functions import FUNCTIONS, CheckContext
from mcp_lint.check.functions._text import clear_cache
from mcp_lint.check.rules import Catalogue, Rule, load_catalogue
from mcp_lint.config import RuleOverride, Settings, ToolIgnore
from mcp_lint.errors import UsageError, quote
from mcp_lint.model import Category, Finding, Relint, ServerSnapshot, Severity, ToolScores

# An exact code or name beats any prefix, however long.
_EXACT = 1000
# A category (`security`, `rubric`, ...) is as specific as a one-digit series such as MCP3: a longer
# prefix or an exact code beats it, and between equals --ignore wins.
_CATEGORY = len("MCP3")


def selector_strength(selector: str, rule: Rule) -> int:
    """How specifically `selector` names `rule`: 0 when it does not match at all."""
    wanted = selector.strip()
    if wanted.lower() in {rule.name, *rule.aliases} or wanted.upper() == rule.code:
        return _EXACT
    if wanted.upper() == "ALL":
        return 1
    if wanted.lower() == rule.category:
        return _CATEGORY
    if wanted and rule.code.startswith(wanted.upper()):
        return len(wanted)
    return 0


def matches_any(selectors: Iterable[str], rule: Rule) -> bool:
    return any(selector_strength(selector, rule) for selector in selectors)


@dataclass(frozen=True, eq=False, repr=False)
class ActiveRule:
    rule: Rule
    severity: Severity
    options: Mapping[str, Any]


def _override_for(rule: Rule, overrides: Mapping[str, RuleOverride]) -> RuleOverride | None:
    for key in (rule.code, rule.name, *rule.aliases):
        if key in overrides:
            return overrides[key]
    return None


def selector_problem(selector: str, catalogue: Catalogue) -> str | None:
    """Why `selector` selects nothing, with what would, or None when it matches a rule."""
    if any(selector_strength(selector, rule) for rule in catalogue.rules):
        return None
    categories = list(dict.fromkeys(rule.category for rule in catalogue.rules))
    known = [*categories, *(rule.name for rule in catalogue.rules), *(rule.code for rule in catalogue.rules)]
    close = difflib.get_close_matches(selector.strip(), known, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return (
        f"{quote(selector)} matches no rule{hint}; give codes (MCP301), code prefixes (MCP3), rule names "
        f"(hidden-instructions) or categories ({', '.join(categories)}); see `mcp-lint rules`"
    )


def validate_settings(settings: Settings, catalogue: Catalogue) -> None:
    """Every selector, rule key and option must name something real; typos are errors."""
    where = str(settings.config_path) if settings.config_path else "settings"
    for key, selectors in (
        ("select", settings.select),
        ("ignore", settings.ignore),
        ("per-tool-ignores", [s for item in settings.per_tool_ignores for s in item.selectors]),
    ):
        for selector in selectors:
            problem = selector_problem(selector, catalogue)
            if problem is not None:
                raise UsageError(f"{where}: {key}: {problem}")
    for key, override in settings.rules.items():
        rule = catalogue.find(key)
        if rule is None:
            raise UsageError(f"{where}: rules.{key}: no such rule; see `mcp-lint rules`")
        unknown = sorted(set(override.options) - set(rule.option_specs))
        if unknown:
            allowed = ", ".join(sorted(rule.option_specs)) or "none"
            raise UsageError(f"{where}: rules.{key}: unknown option {quote(unknown[0])} (options: {allowed})")
        for option, value in sorted(override.options.items()):
            problem = option_problem(rule.option_specs[option], value)
            if problem is not None:
                raise UsageError(f"{where}: rules.{key}.{option}: {problem}, got {quote(value)}")


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_TYPES: Mapping[str, Callable[[Any], bool]] = {
    "integer": _whole,
    "number": _number,
    "boolean": lambda value: isinstance(value, bool),
    "string": lambda value: isinstance(value, str),
}


def option_problem(spec: Mapping[str, Any], value: Any) -> str | None:
    """What is wrong with a rule option's value against the option's spec in its rule file (type,
    minimum, maximum, exclusiveMinimum, enum), or None when it is acceptable."""
    ok = _TYPES[spec["type"]](value)
    if ok and "enum" in spec:
        ok = value in spec["enum"]
    if ok and "minimum" in spec:
        ok = value >= spec["minimum"]
    if ok and "maximum" in spec:
        ok = value <= spec["maximum"]
    if ok and "exclusiveMinimum" in spec:
        ok = value > spec["exclusiveMinimum"]
    return None if ok else f"expected {spec['expected']}"


def active_rules(catalogue: Catalogue, settings: Settings) -> list[ActiveRule]:
    selected: list[ActiveRule] = []
    for rule in catalogue.rules:
        chosen = max(
            (selector_strength(s, rule) for s in settings.select), default=1 if not settings.select else 0
        )
        ignored = max((selector_strength(s, rule) for s in settings.ignore), default=0)
        if chosen == 0 or ignored >= chosen:
            continue
        override = _override_for(rule, settings.rules)
        if override is not None and not override.enabled:
            continue
        severity = override.severity if override and override.severity is not None else rule.severity
        options = {**rule.options, **(override.options if override else {})}
        selected.append(ActiveRule(rule, severity, options))
    return selected


def _suppressed(rule: Rule, server: str, tool: str | None, ignores: tuple[ToolIgnore, ...]) -> bool:
    if tool is None:
        return False
    qualified = f"{server}/{tool}"
    for ignore in ignores:
        matched = fnmatch.fnmatchcase(tool, ignore.pattern) or fnmatch.fnmatchcase(qualified, ignore.pattern)
        if matched and (not ignore.selectors or matches_any(ignore.selectors, rule)):
            return True
    return False


def check_server(
    snapshot: ServerSnapshot,
    rules: list[ActiveRule],
    settings: Settings,
    scores: Mapping[str, ToolScores] | None = None,
) -> tuple[Finding, ...]:
    findings: list[Finding] = []
    # The rules allocate many short-lived objects and build no cycles, yet the cyclic collector
    # would walk the heap again and again on a large server: a third of the time at 10,000 tools.
    collecting = gc.isenabled()
    gc.disable()
    try:
        _check_rules(snapshot, rules, settings, scores, findings)
    finally:
        clear_cache()  # the per-tool text analysis the rules share lives for one server
        if collecting:
            gc.enable()
    order = {tool.name: index for index, tool in enumerate(snapshot.tools)}
    findings.sort(key=lambda f: (f.tool is not None, order.get(f.tool or "", 0), -f.severity, f.code))
    return tuple(findings)


@dataclass(frozen=True, eq=False, repr=False)
class _Relinter:
    rules: tuple[ActiveRule, ...]
    settings: Settings

    def __call__(self, snapshot: ServerSnapshot) -> tuple[Finding, ...]:
        return check_server(snapshot, list(self.rules), self.settings)


def relint_with(rules: Iterable[ActiveRule], settings: Settings) -> Relint:
    """The run's re-lint (`model.Relint`): its deterministic rules (no rubric rule: those need a
    jury's scores), as the run selected and configured them, with its settings."""
    return _Relinter(tuple(active for active in rules if active.rule.component is None), settings)


def _check_rules(
    snapshot: ServerSnapshot,
    rules: list[ActiveRule],
    settings: Settings,
    scores: Mapping[str, ToolScores] | None,
    findings: list[Finding],
) -> None:
    # An entry without a name (not a JSON object, or "name" not a string) is no tool a client can
    # call: the server rules report it (sdk-rejected-tool), and no other rule reads its placeholder.
    named = tuple(tool for tool in snapshot.tools if tool.named)
    tools_only = snapshot if len(named) == len(snapshot.tools) else replace(snapshot, tools=named)
    for active in rules:
        rule = active.rule
        if rule.category is Category.RUBRIC and not scores:
            continue
        server = snapshot if rule.category == "server" else tools_only
        context = CheckContext(server=server, options=active.options, scores=scores or {})
        component = rule.component
        ignores = settings.per_tool_ignores
        for hit in FUNCTIONS[rule.function](context):
            if ignores and _suppressed(rule, snapshot.name, hit.tool, ignores):
                continue
            fields = {"server": snapshot.name, "tool": hit.tool or "", **hit.fields}
            # Finding's fields in their order (a call by keyword costs about twice as much, and a
            # lint makes a finding per hit: four or five per tool from the rubric rules alone).
            findings.append(
                Finding(
                    rule.code,
                    rule.name,
                    active.severity if hit.severity_cap is None else min(active.severity, hit.severity_cap),
                    rule.message.format_map(fields),
                    snapshot.name,
                    hit.tool,
                    hit.evidence,
                    hit.path,
                    hit.suggestion,
                    hit.subject if hit.subject is not None else hit.path,  # subject
                    False,  # baselined
                    rule.category,
                    component,
                    False,  # fails
                    hit.fix,
                )
            )


# The rule whose `max-tokens` is the budget a rewritten description must stay within.
_DESCRIPTION_BUDGET = "description-too-long"


def description_budget(rules: Iterable[ActiveRule] = (), catalogue: Catalogue | None = None) -> int:
    """The description token budget: the active rule's `max-tokens`, else the rule file's default."""
    for active in rules:
        if active.rule.name == _DESCRIPTION_BUDGET:
            return int(active.options["max-tokens"])
    rule = (catalogue or load_catalogue()).find(_DESCRIPTION_BUDGET)
    if rule is None:
        raise UsageError(f"the rule catalogue has no {_DESCRIPTION_BUDGET} rule")
    return int(rule.options["max-tokens"])


def rubric_thresholds(rules: Iterable[ActiveRule]) -> dict[str, float]:
    """The threshold of each rubric component, as the run's active rubric rules set it."""
    return {
        active.rule.component: float(active.options["threshold"])
        for active in rules
        if active.rule.component is not None
    }
