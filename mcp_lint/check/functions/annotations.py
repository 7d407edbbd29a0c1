"""Annotation rules (MCP5xx): are the behaviour hints present, and do they match what the tool does?"""

from __future__ import annotations

import re
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words, trim, words
from mcp_lint.lazyre import lazy
from mcp_lint.model import SchemaFix, Tool

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
_DESC_WORDS = lazy(r"[A-Za-z]+")
# A description that opens with a verb in the third person ("Generates ...", "Computes ...").
_OWN_VERB = lazy(r"\s*[A-Z][a-z]{2,}(?:es|s)\s+(?:a|an|the|one|all|each|every|your|its|their)\b")
_READ_ONLY_CLAIM = lazy(
    r"read[- ]?only|does not (?:modify|change|write)|without (?:modifying|changing)|no side effects", re.I
)


def _desc_verb(word: str) -> str:
    # "Deletes", "Creates", "Lists", "Searches" -> their base verb.
    for suffix, replacement in (("ies", "y"), ("es", ""), ("s", ""), ("", "")):
        if word.endswith(suffix) and (word[: len(word) - len(suffix)] + replacement) in _VERBS:
            return word[: len(word) - len(suffix)] + replacement
    return ""


_STRENGTH = {READ: 0, WRITE: 1, DESTROY: 2}
# Words a description may open with before its verb: "This tool will create ...", "Used to list ...".
_FILLER = frozenset(
    words("this tool will can used use to allows you lets it helps the mcp function method endpoint")
)
_CONJUNCTIONS = frozenset({"and", "or", "then"})
_EVALUATED = frozenset(words("template render condition expression select formula"))
# "add two numbers", "add_numbers": arithmetic, not a new record. `add` counts as a write only with
# an object that is not one of these.
_ARITHMETIC = frozenset(
    words("number numbers two three integers ints floats values sum digits a b x y operands matrices vectors")
)
# A later sentence saying the tool writes ("... and saves it to disk"): a write whatever the name says.
_WRITES_IN_TEXT = lazy(
    r"(?:\b(?:it\s+|and\s+|then\s+|also\s+)|(?:^|(?<=[.!?:]\s))\s*)"
    r"(?:writes|saves|stores|deletes|removes|overwrites|modifies|updates)"
    r"\s+(?:the|a|an|it|them|its|their|your|to|into|each|every|all|output)\b"
    # "... and save the output audio file to a given directory": the base form after "and"
    r"|\band\s+(?:save|write|store)\s+(?:the|a|an|it|them|its|their|your|output)\b[^.\n]{0,40}\b(?:to|in|into)\b",
    re.IGNORECASE | re.MULTILINE,
)


# What a tool sends when it asks something and reads the answer.
_ASKED = frozenset(words("prompt prompts query queries question questions"))


def _counts(verb: str, following: list[str]) -> bool:
    """Whether `verb` followed by `following` words means what _VERBS says (`add` a number does not,
    and starting a search only reads: `start_search`, `start_query`)."""
    if verb in ("start", "restart"):
        # the head noun of what is started, within a short noun phrase ("start a streaming search")
        return not any(_VERBS.get(word) == READ for word in following[:3])
    if verb in ("send", "post", "submit") and any(word in _ASKED for word in following[:3]):
        return False  # "Send a prompt to Grok and get back insights": asking a question reads
    if verb in ("execute", "exec"):
        # executing a query, a template render or a condition check reads; a command or a script writes
        return not any(_VERBS.get(word) == READ or word in _EVALUATED for word in following[:4])
    if verb != "add":
        return True
    objects = [word for word in following[:3] if word not in ("up", "together", "the")]
    return bool(objects) and objects[0] not in _ARITHMETIC


def _name_verb(name: str) -> str | None:
    """The effective verb of a name: the strongest of the verbs heading its parts.

    `search_and_replace` replaces (it writes), `get_or_create_user` may create; a noun that looks
    like a verb after the head verb (`get_commit`, `list_tags`) is the object, not an action.
    """
    parts: list[list[str]] = [[]]
    for word in name_words(name):
        if word in _CONJUNCTIONS:
            parts.append([])
        else:
            parts[-1].append(word)
    best: str | None = None
    for part in parts:
        for index, word in enumerate(part):
            if word in _VERBS:
                if _counts(word, part[index + 1 :]) and (
                    best is None or _STRENGTH[_VERBS[word]] > _STRENGTH[_VERBS[best]]
                ):
                    best = word
                break
    return best


def _opening_verb(text: str) -> str | None:
    """The verb a sentence opens with, after filler ("This tool will ...") and adverbs ("Quickly read").

    A verb-looking word further in is part of the object: "Gather git history (commits, tags)".
    """
    first = re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]
    found = _DESC_WORDS.findall(first)
    for index, word in enumerate(found[:6]):
        lowered = word.lower()
        verb = _desc_verb(lowered)
        if verb:
            return verb if _counts(verb, [item.lower() for item in found[index + 1 :]]) else None
        if lowered not in _FILLER and not (lowered.endswith("ly") and len(lowered) > 4):
            return None
    return None


def _description_verb(tool: Tool) -> str | None:
    """The verb the description's first sentence opens with."""
    return _opening_verb(tool.description)


def leading_verb(tool: Tool) -> tuple[str, str] | None:
    """(verb, where) from the name first; from the description's first words when the name has none.

    A verb that is not the first word of the name may be a noun (`weather_archive`, `label_store`):
    when the description opens with a read, the description is believed.
    """
    verb = _name_verb(tool.name)
    said = _description_verb(tool)
    if verb is not None:
        parts = " ".join(name_words(tool.name))
        head = re.search(rf"(?:^|\b(?:and|or|then) ){verb}\b", parts) is not None
        if not head and _VERBS[verb] != READ and (said is None or _VERBS[said] == READ):
            # The title says what the tool does in words of its own ("Get CLI installation
            # instructions" for `extension_cli_install`); a read there makes the name's verb a noun too.
            titled = _opening_verb(tool.title) if tool.title else None
            if said is None and titled is not None and _VERBS[titled] == READ:
                return titled, "title"
            if said is None and _OWN_VERB.match(tool.description or ""):
                # `suggest_loki_alloy_label_config`, "Generates an Alloy snippet ...": the description
                # opens with an action of its own, so the name's later verb-like word is its object.
                return None
        if head or said is None or _VERBS[said] != READ or _VERBS[verb] == READ:
            return verb, "name"
        return said, "description"
    return (said, "description") if said is not None else None


def effective_verb(tool: Tool) -> tuple[str, str] | None:
    """`leading_verb`, unless that reads and the description says the tool also writes."""
    found = leading_verb(tool)
    if found is not None and _VERBS[found[0]] != READ:
        return found
    said = _WRITES_IN_TEXT.search(tool.description)
    if said is not None:
        verbs = [_desc_verb(word.lower()) for word in said.group(0).split()]
        return next((verb for verb in verbs if verb and _VERBS[verb] != READ), "write"), "description"
    return found


# Writes that only add something new: for these, and only these, "destructiveHint": false is what the
# verb says. A tool that runs a command or a script can do anything the command does.
_ADDITIVE = frozenset(
    words(
        "create add insert append post send publish upload copy comment reply invite schedule save store "
        "submit tag label"
    )
)
_RUNS_ANYTHING = frozenset(words("execute exec"))


def _suggest(verb: str | None) -> str:
    kind = _VERBS.get(verb or "")
    if kind == READ:
        return '"readOnlyHint": true'
    if kind == DESTROY or verb in _OVERWRITING or verb in _RUNS_ANYTHING:
        return '"readOnlyHint": false, "destructiveHint": true'
    if kind == WRITE and verb in _ADDITIVE:
        return '"readOnlyHint": false, "destructiveHint": false'
    if kind == WRITE:
        return '"readOnlyHint": false, with "destructiveHint": false only if it never deletes or overwrites'
    return '"readOnlyHint": true if it only reads, else "readOnlyHint": false with "destructiveHint"'


def annotation_fix(tool: Tool, verb: str | None) -> SchemaFix | None:
    """The hints an unambiguous verb calls for, as an edit of the tool's `annotations` (what `_suggest`
    prints): a read (get, list, search, read, ...) that the description does not say also writes is
    `readOnlyHint: true`; a delete (delete, remove, drop, ...) that is not taking one thing off another
    ("Remove a label from an email") is `readOnlyHint: false, destructiveHint: true`. Writes are left
    alone: whether one destroys is not in the verb. Keys the tool already declares are kept."""
    kind = _VERBS.get(verb or "")
    hints = tool.annotations or {}
    if kind == READ and effective_verb(tool) == leading_verb(tool):
        values: dict[str, bool] = {"readOnlyHint": True}
    elif kind == DESTROY and not (verb in _DETACHING and _DETACHES.search(tool.description)):
        values = {"readOnlyHint": False, "destructiveHint": True}
    else:
        return None
    if "annotations" in tool.raw and not isinstance(tool.raw["annotations"], dict):
        return None
    if any(hints.get(key, value) != value for key, value in values.items()):
        return None
    added = {key: value for key, value in values.items() if key not in hints}
    return SchemaFix(("annotations",), added) if added else None


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
            fix=annotation_fix(tool, found[0] if found else None),
        )


# "Remove a label from an email", "Remove approval from a pull request": taking one thing off another
# deletes no data and is undone by adding it back; destructiveHint: false is right for it.
_DETACHING = frozenset(words("remove unlink revoke"))
_DETACHES = lazy(
    r"^\W*(?:remove|unlink|revoke|detach)s?\b(?!\s+(?:all|every|each|any)\b)[^.\n]{0,60}?\bfrom\b",
    re.IGNORECASE,
)
# A "create" or "merge" whose result is handed back rather than kept: "Merge two polygons ... Returns a
# Polygon", "Create a composition plan ... The returned plan". Computed, not written, unless the text
# says it keeps something (saves, stores, writes a file) or spends something (incurs costs).
_HANDS_BACK = lazy(r"\breturn(?:s|ed)?\b|\bworks offline\b|\bwithout (?:any )?API calls?\b", re.IGNORECASE)
_KEEPS = lazy(
    r"\b(?:saves?|saving|stores?|storing|writes?|writing|persists?|uploads?|incurs?|sends?|posts|publish(?:es)?)\b"
    r"|\b(?:to|in|into) (?:a |the |your )?(?:local |new )?(?:file|disk|database|folder|directory)\b",
    re.IGNORECASE,
)


def _computes(verb: str, description: str) -> bool:
    return (
        verb in ("create", "merge")
        and bool(_HANDS_BACK.search(description))
        and not _KEEPS.search(description)
    )


def _contradiction(tool: Tool) -> tuple[str, str] | None:
    hints = tool.annotations or {}
    read_only = hints.get("readOnlyHint") is True
    destructive = hints.get("destructiveHint")
    if read_only and destructive is True:
        return "declares both readOnlyHint: true and destructiveHint: true", "annotations.destructiveHint"
    found = effective_verb(tool)
    if found is None:
        return None
    verb, where = found
    kind = _VERBS[verb]
    if read_only and kind == WRITE and _computes(verb, tool.description):
        return None
    if read_only and kind in (WRITE, DESTROY) and not _READ_ONLY_CLAIM.search(tool.description):
        return f"its {where} says {verb!r} but it declares readOnlyHint: true", "annotations.readOnlyHint"
    if kind == READ and destructive is True and hints.get("readOnlyHint") is not False:
        return (
            f"its {where} says {verb!r} (read-only) but it declares destructiveHint: true",
            "annotations.destructiveHint",
        )
    if (
        kind == DESTROY
        and destructive is False
        and not read_only
        and not (verb in _DETACHING and _DETACHES.search(tool.description))
    ):
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
