"""The precision set: real servers' snapshots, today's findings on them, and a human verdict on each.

Shared by `benchmarks/rule_precision.py` (prints per-rule precision) and `test_precision.py` (holds
every deterministic rule at its recorded precision). Nothing here is part of the package.

A label names its finding by (server, tool, code, subject). The subject is what the finding is
*about*, taken from the finding's structure rather than its wording so that a reworded message keeps
its label: the schema path when the finding points into the input schema, else, for a rule whose
message template puts a name in backticks, the first such name that is not the tool's own (the
phantom parameter, the sibling tool; also when it points at a parameter's description), else
nothing (one finding of that rule per tool, as for rubric findings). When a rule's change moves the
subject, a label whose (server, tool, code) still has exactly one unmatched finding left is
matched loosely and reported as such, so re-labelling is a matter of refreshing the subject.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from mcp_lint.check.engine import active_rules, check_server
from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.config import parse_settings
from mcp_lint.model import Finding, ServerSnapshot, Severity
from mcp_lint.reflect.snapshot import parse_snapshot

HERE = Path(__file__).resolve().parent
SNAPSHOTS = HERE / "snapshots"
LABELS = HERE / "labels.yaml"
MANIFEST = HERE / "servers.yaml"
DEFECTS = HERE / "defects.yaml"
HUMAN = HERE / "human_scores.yaml"
FLOORS = HERE / "floors.yaml"

# Rules that report at low until they show 95% precision on the sealed part with 10+ findings (their
# rule files say so); measured here at moderate, the severity they had and would have again.
UNPROVEN = (
    "MCP203",
    "MCP208",
    "MCP209",
    "MCP210",
    "MCP403",
    "MCP405",
    "MCP502",
    "MCP601",
)
MEASURED_AT_ANY_SEVERITY = frozenset({"MCP301"})

# The bar is for findings a user is asked to act on: moderate and above.
LOWEST = Severity.parse("moderate")
VERDICTS = ("right", "wrong", "debatable")
SERVER_ROW = "(server)"

# The C loader, where PyYAML has it: the labels file is long.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_BACKTICKED = re.compile(r"`([^`\n]{1,80})`")


# The split of issue 24, fixed once: a server's part follows from its registry and package name alone.
SEALED_PERCENT = 40
PARTS = ("tuning", "sealed")


def part_of(entry: Mapping[str, Any]) -> str:
    """ "tuning" or "sealed" for one servers.yaml entry.

    Servers tuned on before the split (`seen`) and sealed servers whose errors were read (`spent`)
    are tuning. A server collected in a later round (`round: N`, N >= 2) to replace a spent sealed
    part is sealed as a whole: the round is written when the server is collected, before anyone has
    run a rule on it. Every other server is placed by a hash of "registry:package" that nobody chooses.
    """
    if entry.get("seen") or entry.get("spent"):
        return "tuning"
    if int(entry.get("round", 1)) >= 2:
        return "sealed"
    digest = hashlib.sha256(f"{entry['registry']}:{entry['package']}".encode()).digest()
    return "sealed" if int.from_bytes(digest[:4], "big") % 100 < SEALED_PERCENT else "tuning"


def load_manifest(path: Path = MANIFEST) -> list[dict[str, Any]]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    return list(data["servers"])


def parts(path: Path = MANIFEST) -> dict[str, str]:
    """Server name (the snapshot's file stem) -> its part."""
    return {str(entry["name"]): part_of(entry) for entry in load_manifest(path)}


@dataclass(frozen=True)
class Key:
    server: str
    tool: str
    code: str
    subject: str

    def loose(self) -> tuple[str, str, str]:
        return (self.server, self.tool, self.code)


@dataclass(frozen=True)
class Label:
    key: Key
    rule: str
    verdict: str
    why: str
    evidence: str
    kind: str  # "deterministic" or "rubric"


@dataclass(frozen=True)
class Match:
    finding: Finding
    key: Key
    label: Label | None
    loose: bool = False  # matched on (server, tool, code) only: the label's subject is stale


@dataclass(frozen=True)
class RuleTally:
    code: str
    rule: str
    kind: str
    findings: int = 0
    right: int = 0
    wrong: int = 0
    debatable: int = 0
    unlabelled: int = 0

    @property
    def precision(self) -> float | None:
        judged = self.right + self.wrong
        return self.right / judged if judged else None


@dataclass(frozen=True)
class Comparison:
    matches: tuple[Match, ...]
    stale: tuple[Label, ...]  # labels of findings no longer reported
    tallies: tuple[RuleTally, ...] = field(default=())

    @property
    def unlabelled(self) -> tuple[Match, ...]:
        return tuple(match for match in self.matches if match.label is None)

    @property
    def loose(self) -> tuple[Match, ...]:
        return tuple(match for match in self.matches if match.loose)


@functools.cache
def _codes_naming_a_subject() -> frozenset[str]:
    """Rules whose message template puts a name in backticks (`{parameter}`, `{other}`)."""
    return frozenset(rule.code for rule in load_catalogue().rules if "`{" in rule.message)


def subject_of(finding: Finding) -> str:
    path = finding.path or ""
    # A name found in a parameter's description (a tool named there) is about that name, not the path.
    if path.startswith("inputSchema") and not (
        path.endswith(".description") and finding.code in _codes_naming_a_subject()
    ):
        return path
    if finding.code in _codes_naming_a_subject():
        for name in _BACKTICKED.findall(finding.message):
            if name != finding.tool:
                return name
    return ""


def key_of(finding: Finding) -> Key:
    return Key(finding.server, finding.tool or SERVER_ROW, finding.code, subject_of(finding))


def snapshot_paths(directory: Path = SNAPSHOTS) -> list[Path]:
    return sorted(directory.glob("*.json"))


def load_snapshots(directory: Path = SNAPSHOTS) -> list[ServerSnapshot]:
    # The file's stem names the server in the labels, whatever name the server reports.
    return [
        parse_snapshot(json.loads(path.read_text(encoding="utf-8")), path.stem, str(path))
        for path in snapshot_paths(directory)
    ]


def lint(
    snapshots: Sequence[ServerSnapshot],
    rubric: bool,
    catalogue: Catalogue | None = None,
    lowest: Severity = LOWEST,
) -> list[Finding]:
    """Every finding at `lowest` or above (moderate), with the default rule settings and the offline jury.

    A rule that reports at low until it shows its precision (UNPROVEN) is measured at moderate, as it
    would report once proven; hidden-instructions is measured on all its findings, those read by
    meaning (reported at low) included.
    """
    catalogue = catalogue or load_catalogue()
    table: dict[str, Any] = {"rules": {code: "moderate" for code in UNPROVEN}}
    if not rubric:
        table["ignore"] = ["rubric"]
    settings = parse_settings(table, None)
    rules = active_rules(catalogue, settings)
    scores: Mapping[tuple[str, str], Any] = {}
    if rubric:
        from mcp_lint.jury.run import JurySettings, score_servers

        scores = score_servers(snapshots, JurySettings(cache_path=None)).tools
    findings: list[Finding] = []
    for snapshot in snapshots:
        tool_scores = {tool: value for (server, tool), value in scores.items() if server == snapshot.name}
        findings.extend(check_server(snapshot, rules, settings, tool_scores))
    return [finding for finding in findings if measured(finding, lowest)]


def measured(finding: Finding, lowest: Severity = LOWEST) -> bool:
    """Whether the precision set counts this finding: at `lowest` or above, or of a rule measured on
    all its findings."""
    return finding.severity >= lowest or finding.code in MEASURED_AT_ANY_SEVERITY


def rule_kinds(catalogue: Catalogue | None = None) -> dict[str, str]:
    catalogue = catalogue or load_catalogue()
    return {rule.code: "rubric" if rule.category == "rubric" else "deterministic" for rule in catalogue.rules}


def load_labels(path: Path = LABELS) -> list[Label]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) if path.exists() else None
    labels: list[Label] = []
    for section in ("deterministic", "rubric"):
        for entry in (data or {}).get(section) or ():
            verdict = str(entry["verdict"])
            if verdict not in VERDICTS:
                raise ValueError(f"{path}: verdict {verdict!r} of {entry} is not one of {VERDICTS}")
            key = Key(
                str(entry["server"]),
                str(entry["tool"]),
                str(entry["code"]),
                str(entry.get("subject") or ""),
            )
            labels.append(
                Label(
                    key=key,
                    rule=str(entry.get("rule", "")),
                    verdict=verdict,
                    why=str(entry.get("why", "")),
                    evidence=str(entry.get("evidence", "")),
                    kind=section,
                )
            )
    return labels


def compare(findings: Iterable[Finding], labels: Sequence[Label], kinds: Mapping[str, str]) -> Comparison:
    by_key: dict[Key, list[Label]] = {}
    for label in labels:
        by_key.setdefault(label.key, []).append(label)
    pending: list[tuple[Finding, Key]] = []
    matches: list[Match] = []
    for finding in findings:
        key = key_of(finding)
        candidates = by_key.get(key)
        if candidates:
            matches.append(Match(finding, key, candidates.pop(0)))
        else:
            pending.append((finding, key))
    # Loose pass: a reworded subject still pairs with the one label left for its (server, tool, code).
    left: dict[tuple[str, str, str], list[Label]] = {}
    for remaining in by_key.values():
        for label in remaining:
            left.setdefault(label.key.loose(), []).append(label)
    pending_per_loose: dict[tuple[str, str, str], int] = {}
    for _, key in pending:
        pending_per_loose[key.loose()] = pending_per_loose.get(key.loose(), 0) + 1
    for finding, key in pending:
        spare = left.get(key.loose()) or []
        if (
            len(spare) == 1
            and pending_per_loose[key.loose()] == 1
            and _same_kind(spare[0].key.subject, key.subject)
        ):
            matches.append(Match(finding, key, spare.pop(), loose=True))
        else:
            matches.append(Match(finding, key, None))
    stale = tuple(label for remaining in left.values() for label in remaining)
    return Comparison(tuple(matches), stale, tally(matches, kinds))


def _same_kind(labelled: str, now: str) -> bool:
    """A moved schema path may keep its verdict; a different name (another phantom, another sibling
    tool) is a different finding and needs its own."""
    if labelled.startswith("inputSchema") or now.startswith("inputSchema"):
        return labelled.startswith("inputSchema") and now.startswith("inputSchema")
    return not labelled or not now or labelled.casefold() == now.casefold()


def tally(matches: Iterable[Match], kinds: Mapping[str, str]) -> tuple[RuleTally, ...]:
    counts: dict[str, dict[str, Any]] = {}
    for match in matches:
        code = match.finding.code
        row = counts.setdefault(
            code,
            {"rule": match.finding.rule, "findings": 0, "unlabelled": 0, **dict.fromkeys(VERDICTS, 0)},
        )
        row["findings"] += 1
        row[match.label.verdict if match.label else "unlabelled"] += 1
    return tuple(
        RuleTally(code=code, kind=kinds.get(code, "deterministic"), **row)
        for code, row in sorted(counts.items())
    )


@dataclass(frozen=True)
class Defect:
    server: str
    tool: str
    rule: str  # the rule that should report it, or "none: ..." when none covers it
    subject: str
    why: str
    # Noticed only while judging findings (`found_after_findings: true`): kept as a fact about the
    # server, left out of recall, since a defect seen through a finding is one the rules found.
    after_findings: bool = False


def load_defects(path: Path = DEFECTS) -> list[Defect]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) if path.exists() else None
    return [
        Defect(
            str(entry["server"]),
            str(entry["tool"]),
            str(entry["rule"]),
            str(entry.get("subject") or ""),
            str(entry.get("why") or ""),
            bool(entry.get("found_after_findings")),
        )
        for entry in (data or {}).get("defects") or ()
    ]


def _same_subject(wanted: str, subject: str) -> bool:
    """A defect's subject (a name or a schema path) against a finding's, either spelled either way."""
    if not wanted or not subject:
        return True
    short = {wanted, wanted.rsplit(".", 1)[-1]}
    # A finding about a parameter's enum or default points at that keyword (`...color.enum`): it is
    # about the parameter all the same.
    named = {subject, subject.removesuffix(".enum").removesuffix(".default")}
    return any(name in short or name.rsplit(".", 1)[-1] in short for name in named)


def finds(finding: Finding, defect: Defect) -> bool:
    """Whether a finding reports a labelled defect: same server and rule, same tool (either tool of a
    pair for a rule that names a sibling), same subject when both name one."""
    if finding.server != defect.server or finding.rule != defect.rule:
        return False
    tool = finding.tool or SERVER_ROW
    subject = subject_of(finding)
    if defect.tool == SERVER_ROW or tool == SERVER_ROW:
        return True
    if tool == defect.tool:
        return _same_subject(defect.subject, subject)
    # A pair reported on the other tool of the two (ambiguous-tools, a sibling named in backticks).
    return subject == defect.tool and defect.subject in ("", tool)


NO_RULE = "(no rule covers it yet)"


@dataclass(frozen=True)
class RecallRow:
    rule: str
    defects: int
    found: int  # by a finding at any severity
    found_moderate: int  # by a finding at moderate or above


def recall(findings: Sequence[Finding], defects: Sequence[Defect]) -> tuple[RecallRow, ...]:
    """Per rule: how many labelled defects some finding reports (all severities, and moderate+).
    Only defects found by reading count: one noticed through a finding would flatter the rules."""
    rows: dict[str, list[int]] = {}
    for defect in defects:
        if defect.after_findings:
            continue
        # The kinds no rule covers yet are one row: what they are is in defects.yaml.
        name = NO_RULE if defect.rule.startswith("none:") else defect.rule
        row = rows.setdefault(name, [0, 0, 0])
        row[0] += 1
        hits = [finding for finding in findings if finds(finding, defect)]
        row[1] += bool(hits)
        row[2] += any(finding.severity >= LOWEST for finding in hits)
    return tuple(RecallRow(rule, *counts) for rule, counts in sorted(rows.items()))


# The rubric against people: per server, the tools with the smallest hash of "server/tool" are scored
# by reading (a sample nobody picks), up to this many per server.
HUMAN_PER_SERVER = 2
NOT_APPLICABLE = "n/a"  # parameters of a tool that takes none


def human_sample(
    snapshots: Iterable[ServerSnapshot], per_server: int = HUMAN_PER_SERVER
) -> list[tuple[str, str]]:
    """(server, tool) pairs to score by hand: a fixed pseudo-random few of every server."""
    chosen: list[tuple[str, str]] = []
    for snapshot in snapshots:
        names = sorted(
            {tool.name for tool in snapshot.tools},
            key=lambda name: hashlib.sha256(f"{snapshot.name}/{name}".encode()).hexdigest(),
        )
        chosen.extend((snapshot.name, name) for name in names[:per_server])
    return chosen


@dataclass(frozen=True)
class HumanScore:
    server: str
    tool: str
    scores: Mapping[str, int | None]  # component -> 1..5, None where not applicable
    why: str


def load_human_scores(path: Path = HUMAN) -> list[HumanScore]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) if path.exists() else None
    rows: list[HumanScore] = []
    for entry in (data or {}).get("scores") or ():
        scores: dict[str, int | None] = {}
        for component in ("purpose", "guidelines", "limitations", "parameters", "length", "examples"):
            value = entry[component]
            scores[component] = None if value == NOT_APPLICABLE else int(value)
        rows.append(HumanScore(str(entry["server"]), str(entry["tool"]), scores, str(entry.get("why") or "")))
    return rows


def load_floors(path: Path = FLOORS) -> dict[str, float]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER) if path.exists() else None
    return {str(code): float(value) for code, value in ((data or {}).get("precision") or {}).items()}


def label_stub(match: Match) -> dict[str, str]:
    """A labels.yaml entry for an unlabelled finding, to be completed by hand."""
    finding = match.finding
    return {
        "server": match.key.server,
        "tool": match.key.tool,
        "code": finding.code,
        "rule": finding.rule,
        "subject": match.key.subject,
        "evidence": finding.message[:160],
        "verdict": "TODO",
        "why": "TODO",
    }
