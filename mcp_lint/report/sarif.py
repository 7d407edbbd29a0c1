"""The `sarif` format: SARIF 2.1.0 as GitHub code scanning ingests it.

Built from `sarif-om`, the object model generated from the SARIF schema itself, and serialized by
`_Builder.document`, which writes every field the builder set. jschema-to-python's `to_json` (the
usual serializer) drops any field equal to its attrs default, so `level: "warning"` and a whole
`defaultConfiguration` would vanish from the file.

One run holds every server (code scanning rejects several runs of one tool and category). Every
result has a physical location (the locate stage, `mcp_lint.anchors`, found it): GitHub rejects the
whole upload for one without.
"""

from __future__ import annotations

import hashlib
from typing import Any

import attr
import sarif_om as om

import mcp_lint
from mcp_lint.check.rules import Catalogue, Rule, load_catalogue
from mcp_lint.model import Anchor, Category, Finding, RunResult, ServerReport, Severity
from mcp_lint.report import ReportOptions
from mcp_lint.report.rows import rank
from mcp_lint.report.scores import tool_rewrite
from mcp_lint.sanitize import dumps_strict

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
AUTOMATION_ID = "mcp-lint/"
FINGERPRINT_KEY = "mcpLint/v1"
# GitHub shows at most 1024 characters of a rule's short and full descriptions.
MAX_DESCRIPTION = 1024
SECURITY_CATEGORY = "security"

LEVELS = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MODERATE: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}
# GitHub's bands: over 9.0 critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low.
SECURITY_SEVERITY = {
    Severity.CRITICAL: "9.5",
    Severity.HIGH: "8.0",
    Severity.MODERATE: "5.5",
    Severity.LOW: "2.0",
    Severity.INFO: "0.1",
}
PROBLEM_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}


class _Builder:
    """Makes sarif-om objects and remembers which fields each was given, so the document keeps
    exactly those, default-valued or not."""

    def __init__(self) -> None:
        # The names given to each object, in the order given: the document keeps that order.
        self._given: dict[int, tuple[str, ...]] = {}

    def __call__(self, cls: type[Any], **fields: Any) -> Any:
        given = {name: value for name, value in fields.items() if value is not None}
        instance = cls(**given)
        self._given[id(instance)] = tuple(given)
        return instance

    def document(self, value: Any) -> Any:
        if attr.has(type(value)):
            given = self._given.get(id(value))
            if given is None:
                raise TypeError(
                    f"{type(value).__name__} was not made by this builder; its fields are unknown"
                )
            fields = attr.fields_dict(type(value))
            return {
                fields[name].metadata["schema_property_name"]: self.document(getattr(value, name))
                for name in given
            }
        if isinstance(value, dict):
            return {key: self.document(item) for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.document(item) for item in value]
        return value


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    end = flat.find(". ")
    return flat[: end + 1] if end != -1 else flat


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else text + "."


def _is_security(rule: Rule) -> bool:
    return rule.category == SECURITY_CATEGORY or SECURITY_CATEGORY in rule.tags


def _rule_descriptor(build: _Builder, rule: Rule) -> Any:
    level = LEVELS[rule.severity]
    tags = list(dict.fromkeys([rule.category, *rule.tags]))[:20]
    properties: dict[str, Any] = {"tags": tags}
    if _is_security(rule):
        properties["security-severity"] = SECURITY_SEVERITY[rule.severity]
    else:
        properties["problem.severity"] = PROBLEM_SEVERITY[level]
    docs = rule.render_docs()
    return build(
        om.ReportingDescriptor,
        id=rule.code,
        name=rule.name,
        short_description=build(om.MultiformatMessageString, text=_clip(_first_sentence(rule.docs.what))),
        full_description=build(
            om.MultiformatMessageString, text=_clip(f"{rule.docs.what.strip()} {rule.docs.why.strip()}")
        ),
        help=build(om.MultiformatMessageString, text=docs, markdown=docs),
        default_configuration=build(om.ReportingConfiguration, level=level),
        properties=properties,
    )


def level_for(finding: Finding) -> str:
    """`error` exactly for what fails the run; the rest `warning` (moderate and up) or `note`, so
    code scanning's error filter shows what blocks the merge and nothing else."""
    if finding.fails:
        return "error"
    return "warning" if finding.severity >= Severity.MODERATE else "note"


def fingerprint(finding: Finding, category: Category | None) -> str:
    """Stable across runs and line moves: the rule, server, tool and what in the tool it is about.

    The message of a rubric finding carries its score, which changes as a description improves, so
    those are keyed on the tool alone (one finding per rule and tool)."""
    key = finding.path or ("" if category is Category.RUBRIC else finding.message)
    material = "\0".join([finding.code, finding.server, finding.tool or "", key])
    return hashlib.sha256(material.encode("utf-8", "surrogatepass")).hexdigest()


def _message(finding: Finding, rewrite: str | None, proposed: str | None) -> str:
    """The finding, where it is, and its suggestion; a judge's own rewrite only when the suggestion
    is not already a proposed description (one description to paste, not two)."""
    parts = [_sentence(finding.message)]
    where = (
        f"tool '{finding.tool}' of server '{finding.server}'"
        if finding.tool
        else f"server '{finding.server}'"
    )
    parts.append(f"In {where}.")
    if finding.suggestion:
        parts.append(f"Suggestion: {_sentence(finding.suggestion)}")
    if rewrite and proposed is None:
        parts.append(f"Suggested description: {rewrite.strip()}")
    return " ".join(parts)


def _location(build: _Builder, anchor: Anchor) -> Any:
    region = anchor.region
    if region is not None:
        sarif_region = build(
            om.Region,
            start_line=region.start_line,
            start_column=region.start_column,
            end_line=region.end_line,
            end_column=region.end_column,
        )
    else:
        sarif_region = build(om.Region, start_line=anchor.start_line)
    return build(
        om.Location,
        physical_location=build(
            om.PhysicalLocation,
            artifact_location=build(om.ArtifactLocation, uri=anchor.uri),
            region=sarif_region,
        ),
    )


def _fix(build: _Builder, anchor: Anchor) -> Any | None:
    """A replacement of the description literal, where the locate stage found its exact region holding
    the served description: the same literal `check --fix` writes, escaped for the file's language."""
    located = anchor.source
    if located is None or anchor.replacement is None:
        return None
    region = located.region
    replacement = build(
        om.Replacement,
        deleted_region=build(
            om.Region,
            start_line=region.start_line,
            start_column=region.start_column,
            end_line=region.end_line,
            end_column=region.end_column,
        ),
        inserted_content=build(om.ArtifactContent, text=anchor.replacement),
    )
    return build(
        om.Fix,
        description=build(om.Message, text="Replace the description with the suggested one."),
        artifact_changes=[
            build(
                om.ArtifactChange,
                artifact_location=build(om.ArtifactLocation, uri=anchor.uri),
                replacements=[replacement],
            )
        ],
    )


class _Results:
    def __init__(self, build: _Builder, catalogue: Catalogue, run: RunResult) -> None:
        self.build = build
        self.run = run
        self.index = {rule.code: number for number, rule in enumerate(catalogue.rules)}
        self.rules = {rule.code: rule for rule in catalogue.rules}
        self.placeholders: dict[str, str] = {}
        self._fixed: set[tuple[str, str]] = set()

    def result(self, report: ServerReport, finding: Finding) -> Any:
        build = self.build
        rule = self.rules.get(finding.code)
        category = rule.category if rule else None
        anchor = report.anchor_for(finding.tool)
        place = report.place(finding)
        proposal = report.proposals.get(finding.tool) if finding.tool and finding.component else None
        proposed = proposal.description if proposal is not None else None
        rewrite = tool_rewrite(report, finding.tool) if finding.tool else None
        properties: dict[str, Any] = {
            "server": finding.server,
            "tool": finding.tool,
            "severity": finding.severity.label,
            "rule": finding.rule,
            "anchor": place.kind,
            # Whether it fails the run under the gate profile (the level says so too: `error`).
            "fails": finding.fails,
        }
        for name, value in (("suggestion", finding.suggestion), ("evidence", finding.evidence)):
            if value:
                properties[name] = value
        if finding.path:
            properties["path"] = finding.path
        if rewrite:
            properties["rewrite"] = rewrite
        fixes = None
        # One fix per tool: each rubric finding of a tool suggests the same new description.
        if proposed and finding.tool and (report.name, finding.tool) not in self._fixed:
            fix = _fix(build, anchor)
            if fix is not None:
                fixes = [fix]
                self._fixed.add((report.name, finding.tool))
        if place.kind == "placeholder":
            self.placeholders.setdefault(place.uri, _placeholder_description(report))
        return build(
            om.Result,
            rule_id=finding.code,
            rule_index=self.index.get(finding.code),
            level=level_for(finding),
            message=build(om.Message, text=_message(finding, rewrite, proposed)),
            locations=[_location(build, place)],
            # On every result, source-anchored or not: upload-sarif adds GitHub's line hash to those on
            # source lines, but a direct API upload (or another consumer) has only what is here.
            partial_fingerprints={FINGERPRINT_KEY: fingerprint(finding, category)},
            fixes=fixes,
            # With a baseline, SARIF's own field says which findings it records.
            baseline_state=(
                None if self.run.baseline is None else "unchanged" if finding.baselined else "new"
            ),
            properties={name: value for name, value in properties.items() if value is not None},
        )


def _placeholder_description(report: ServerReport) -> str:
    origin = report.snapshot.origin if report.snapshot else None
    where = f" ({origin})" if origin else ""
    return f"MCP server '{report.name}'{where}: no file in the repository defines its tools."


def sarif_document(result: RunResult, options: ReportOptions) -> dict[str, Any]:
    build = _Builder()
    catalogue = options.catalogue or load_catalogue()
    results = _Results(build, catalogue, result)
    # What fails the run first, then by severity, as every report orders them (a stable sort: the
    # servers' and checks' order otherwise).
    pairs = [(report, finding) for report in result.servers for finding in report.findings]
    ordered = sorted(pairs, key=lambda pair: rank(pair[1]))
    sarif_results = [results.result(report, finding) for report, finding in ordered]
    failed = [report for report in result.servers if report.error is not None]
    notifications = [
        build(
            om.Notification,
            level="error",
            message=build(om.Message, text=f"server '{report.name}' could not be linted: {report.error}"),
        )
        for report in failed
    ]
    invocation = build(
        om.Invocation,
        execution_successful=not failed,
        tool_execution_notifications=notifications or None,
    )
    artifacts = [
        build(
            om.Artifact,
            location=build(om.ArtifactLocation, uri=uri),
            description=build(om.Message, text=text),
        )
        for uri, text in sorted(results.placeholders.items())
    ]
    run = build(
        om.Run,
        tool=build(
            om.Tool,
            driver=build(
                om.ToolComponent,
                name="mcp-lint",
                semantic_version=mcp_lint.__version__,
                rules=[_rule_descriptor(build, rule) for rule in catalogue.rules],
            ),
        ),
        automation_details=build(om.RunAutomationDetails, id=AUTOMATION_ID),
        invocations=[invocation],
        artifacts=artifacts or None,
        column_kind="utf16CodeUnits",
        results=sarif_results,
    )
    log = build(om.SarifLog, schema_uri=SCHEMA_URI, version="2.1.0", runs=[run])
    document: dict[str, Any] = build.document(log)
    return document


def render(result: RunResult, options: ReportOptions) -> str:
    return dumps_strict(sarif_document(result, options)) + "\n"
