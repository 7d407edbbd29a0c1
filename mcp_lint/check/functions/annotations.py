"""Annotation rules (MCP5xx): are the behaviour hints present, and do they match what the tool does?"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim, words
from mcp_lint.model import Tool

READ = "read"
WRITE = "write"
DESTROY = "destroy"

# Ambiguous verbs (open, log, download, run, call, export...) are left out on purpose: a wrong
# guess here is a false contradiction.
_VERBS: dict[str, str] = {
    **dict.fromkeys(
        words(
            "get list read search find fetch query lookup describe show view inspect browse retrieve "
            "count check diff explain"
        ),
        READ,
    ),
    **dict.fromkeys(
        words(
            "create add insert append write update edit set put patch post send publish upload move "
            "rename copy merge push commit install deploy start stop restart execute exec submit "
            "approve assign close lock unlock archive enable disable invite schedule save store "
            "upsert modify change replace overwrite tag label comment reply transfer apply"
        ),
        WRITE,
    ),
    **dict.fromkeys(
        words(
            "delete remove drop destroy purge wipe truncate erase kill terminate revoke reset clear "
            "uninstall unlink rm del"
        ),
        DESTROY,
    ),
}
# Writes that overwrite or discard existing state are destructive in the spec's sense.
_OVERWRITING = frozenset(
    words("update edit set put patch write move rename overwrite replace modify change merge push")
)
_DESC_WORDS = re.compile(r"[A-Za-z]+")
_READ_ONLY_CLAIM = re.compile(
    r"read[- ]?only|does not (?:modify|change|write)|without (?:modifying|changing)|no side effects", re.I
)


def _desc_verb(word: str) -> str:
    # "Deletes", "Creates", "Lists", "Searches" -> their base verb.
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", ""), ("", "")):
        if word.endswith(suffix) and (word[: len(word) - len(suffix)] + replacement) in _VERBS:
            return word[: len(word) - len(suffix)] + replacement
    return ""


def leading_verb(tool: Tool) -> tuple[str, str] | None:
    """(verb, where) from the name first; from the description's first words when the name has none."""
    for word in name_words(tool.name):
        if word in _VERBS:
            return word, "name"
    first = re.split(r"(?<=[.!?])\s", tool.description.strip(), maxsplit=1)[0]
    for word in _DESC_WORDS.findall(first)[:6]:
        verb = _desc_verb(word.lower())
        if verb:
            return verb, "description"
    return None


def _suggest(verb: str | None) -> str:
    kind = _VERBS.get(verb or "")
    if kind == READ:
        return '"readOnlyHint": true'
    if kind == DESTROY or verb in _OVERWRITING:
        return '"readOnlyHint": false, "destructiveHint": true'
    if kind == WRITE:
        return '"readOnlyHint": false, "destructiveHint": false'
    return '"readOnlyHint": true if it only reads, else "readOnlyHint": false with "destructiveHint"'


@check_function("missing_annotations")
def missing_annotations(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        hints = tool.annotations or {}
        if hints.get("readOnlyHint") is True or "destructiveHint" in hints:
            continue
        # readOnlyHint: false alone leaves destructiveHint at its default (true): writes look destructive.
        missing = ["destructiveHint"] if "readOnlyHint" in hints else ["readOnlyHint", "destructiveHint"]
        found = leading_verb(tool)
        yield Hit(
            tool=tool.name,
            fields={"missing": " and ".join(missing)},
            evidence="annotations: " + (trim(str(dict(hints)), 100) if hints else "(none)"),
            path="annotations",
            suggestion="Add " + _suggest(found[0] if found else None) + ".",
        )


def _contradiction(tool: Tool) -> tuple[str, str] | None:
    hints = tool.annotations or {}
    read_only = hints.get("readOnlyHint") is True
    destructive = hints.get("destructiveHint")
    if read_only and destructive is True:
        return "declares both readOnlyHint: true and destructiveHint: true", "annotations.destructiveHint"
    found = leading_verb(tool)
    if found is None:
        return None
    verb, where = found
    kind = _VERBS[verb]
    if read_only and kind in (WRITE, DESTROY) and not _READ_ONLY_CLAIM.search(tool.description):
        return f"its {where} says {verb!r} but it declares readOnlyHint: true", "annotations.readOnlyHint"
    if kind == READ and destructive is True and hints.get("readOnlyHint") is not False:
        return (
            f"its {where} says {verb!r} (read-only) but it declares destructiveHint: true",
            "annotations.destructiveHint",
        )
    if kind == DESTROY and destructive is False and not read_only:
        return (
            f"its {where} says {verb!r} but it declares destructiveHint: false",
            "annotations.destructiveHint",
        )
    return None


@check_function("contradictory_annotations")
def contradictory_annotations(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        if not tool.annotations:
            continue
        found = _contradiction(tool)
        if found is not None:
            reason, path = found
            yield Hit(
                tool=tool.name,
                fields={"reason": reason},
                evidence="annotations: " + trim(str(dict(tool.annotations)), 100),
                path=path,
            )
