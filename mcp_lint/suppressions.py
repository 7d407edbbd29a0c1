"""Suppressions in the config: `per-tool-ignores` entries and rules turned off in `[rules]`.

Each should say why (a reviewer reads the reason, not the rule); one without a reason is a warning.
One that silenced nothing in a run is reported as unused, like ruff's RUF100 or ESLint's unused
suppressions, so the config does not keep excuses for findings that were fixed long ago.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from mcp_lint.check.engine import ActiveRule, active_rules, matches_any
from mcp_lint.check.rules import Catalogue, Rule
from mcp_lint.config import Settings, ToolIgnore
from mcp_lint.model import Finding, UnusedSuppression, value_record


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class RuleOff:
    """A rule the config turns off in `[rules]`, under the key the config names it by."""

    key: str
    rule: Rule
    reason: str | None


def ignore_matches(
    ignore: ToolIgnore, finding: Finding, rule: Rule, aliases: Sequence[str] = ()
) -> tuple[str, ...] | None:
    """The selectors of `ignore` that silence `finding` (`("*",)` for an entry with no codes), or None.
    `aliases` are other names of the finding's server (see ServerSnapshot.aliases)."""
    if finding.tool is None:
        return None
    servers = dict.fromkeys([finding.server, *aliases])
    names = [finding.tool, *(f"{server}/{finding.tool}" for server in servers)]
    if not any(fnmatch.fnmatchcase(name, ignore.pattern) for name in names):
        return None
    if not ignore.selectors:
        return ("*",)
    hits = tuple(selector for selector in ignore.selectors if matches_any((selector,), rule))
    return hits or None


class SuppressionTracker:
    """Applies `per-tool-ignores` to a run's findings and remembers which entries silenced something."""

    def __init__(self, ignores: Sequence[ToolIgnore], catalogue: Catalogue) -> None:
        self._ignores = tuple(ignores)
        self._catalogue = catalogue
        self._used: set[tuple[int, str]] = set()

    def keep(self, findings: Iterable[Finding], aliases: Sequence[str] = ()) -> tuple[Finding, ...]:
        """The findings no entry silences; `aliases` are other names of their server."""
        if not self._ignores:  # no entry (most runs): nothing is silenced, no rule need be looked up
            return tuple(findings)
        kept: list[Finding] = []
        for finding in findings:
            rule = self._catalogue.find(finding.code)
            silenced = False
            for index, ignore in enumerate(self._ignores):
                hits = ignore_matches(ignore, finding, rule, aliases) if rule is not None else None
                if hits:
                    silenced = True
                    self._used.update((index, selector) for selector in hits)
            if not silenced:
                kept.append(finding)
        return tuple(kept)

    def unused(self, ran: Sequence[Rule]) -> list[UnusedSuppression]:
        """Entries that silenced nothing, and the codes of an entry that silenced nothing. Only codes
        of rules that `ran` are judged: an ignore for a rule --select left out may still be needed."""
        unused: list[UnusedSuppression] = []
        for index, ignore in enumerate(self._ignores):
            selectors = ignore.selectors or ("*",)
            idle = [
                selector
                for selector in selectors
                if (index, selector) not in self._used
                and (selector == "*" or any(matches_any((selector,), rule) for rule in ran))
            ]
            if len(idle) == len(selectors):
                unused.append(UnusedSuppression("per-tool-ignores", ignore.pattern, ignore.reason))
            else:
                unused += [
                    UnusedSuppression("per-tool-ignores", f"{ignore.pattern}: {selector}", ignore.reason)
                    for selector in idle
                ]
        return unused


def rule_offs(catalogue: Catalogue, settings: Settings) -> list[RuleOff]:
    """The rules `[rules]` turns off, with the reason given for each."""
    offs: list[RuleOff] = []
    for key, override in settings.rules.items():
        rule = catalogue.find(key)
        if rule is not None and not override.enabled:
            offs.append(RuleOff(key, rule, override.reason))
    return offs


def shadow_rules(catalogue: Catalogue, settings: Settings, offs: Sequence[RuleOff]) -> list[ActiveRule]:
    """The rules turned off as they would run if they were on (select and ignore still apply: a rule
    that --select leaves out is not run, so nobody can say its `off` is unused)."""
    if not offs:
        return []
    switched_on = {key: replace(override, enabled=True) for key, override in settings.rules.items()}
    codes = {off.rule.code for off in offs}
    return [
        active
        for active in active_rules(catalogue, replace(settings, rules=switched_on))
        if active.rule.code in codes
    ]


def unused_rule_offs(offs: Sequence[RuleOff], found: Mapping[str, int]) -> list[UnusedSuppression]:
    """The rules turned off that would have found nothing: `found` counts, by rule code, the findings
    a shadow run of the turned-off rules produced; a rule missing from it was not run (a rubric rule
    when no jury scored), so nobody can say it is unused."""
    return [
        UnusedSuppression("rules", off.key, off.reason)
        for off in offs
        if off.rule.code in found and found[off.rule.code] == 0
    ]


def missing_reason_warnings(offs: Sequence[RuleOff], where: str) -> list[str]:
    return [
        f'{where}: rules.{off.key} is turned off without a reason; write it as "off -- why it is fine"'
        for off in offs
        if not (off.reason and off.reason.strip())
    ]


def describe(item: UnusedSuppression) -> str:
    if item.kind == "rules":
        return f"rules.{item.key} (off): the rule would find nothing"
    return f"per-tool-ignores {item.key!r}: silenced nothing"
