"""MCP208 required-mismatch: the description says required (or optional) and the schema says otherwise.

A statement counts only when it is about the parameter itself, always. "Required confirmation for
action='delete'", "For create: folder name (required)" and "Required (True) to run destructive
actions" hold for some calls only; "input_number: min, max (required)" in an object's prose is about a
key inside it. The schema's `required` list is right for such a parameter whichever way it goes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._common import identifier_shaped, prop_path
from mcp_lint.check.functions.schema._prose import parameter_prose
from mcp_lint.lazyre import lazy
from mcp_lint.schema_walk import property_variants

# A condition right after "required", past a bracket and up to two words: "required if ...",
# "Required (True) to run ...", "Required confirmation for action='delete'".
_CONDITION_AFTER = lazy(
    r"\s*(?:\([^()\n]{0,30}\))?(?:(?:\s+[\w-]+){0,2}?\s+(?:if|when|whenever|for|unless|only)\b"
    r"|\s+(?:to|by|in|on|with(?:out)?|fields?|parameters?|permissions?|scopes?)\b)",
    re.IGNORECASE,
)
# "Required.", "(required)", "REQUIRED:", "This parameter is required", "- required".
_SAYS_REQUIRED = lazy(
    r"(?:^|(?<=[.!?]\s))\s*\(?required\b\)?|\(required\)|\[required\]"
    r"|\b(?:this (?:parameter|field|argument|value) is|is always) required\b"
    r"|[.;]\s+required[.!]?\s*$",
    re.IGNORECASE | re.MULTILINE,
)
# "If not provided, ask the user ...": an instruction to get the value first, not a way to leave it out.
_ASK = (
    r"ask|prompt|always|never|use|call|request|get|do|don't|first|please|tell|confirm|check|you|make|run"
    r"|fetch"
)
_SAYS_OPTIONAL = lazy(
    r"^\s*\(?optional\b\)?|\(optional\)|\[optional\]|\([\w\[\] |]{1,20},\s*optional\)"
    r"|\b(?:this (?:parameter|field|argument) is) optional\b|[.;]\s+optional[.!]?\s*$"
    # "If omitted, ...", "If the type is not specified, the default is ...": it may be left out.
    r"|\b(?:if|when)\s+(?:(?:it|this|the\s+[\w-]+|[\w-]+)\s+(?:is|are)\s+)?(?:omitted|left\s+(?:out|empty|blank)"
    rf"|not\s+(?:provided|specified|given|set|passed|supplied|included))\b(?!,?\s*(?:{_ASK})\b)"
    r"|\bif\s+you\s+(?:do\s+not|don't)\s+(?:include|provide|specify|pass|set)\b"
    # "Prefer setting it in the server environment; do not pass it in tool parameters": the value has
    # another source, so the call can go without it.
    r"|\b(?:do\s+not|don't|never|avoid)\s+(?:pass|provide|send|supply)(?:ing)?\b[^.;\n]{0,40}?"
    r"\b(?:in|as|via|through)\s+(?:the\s+)?(?:tool\s+)?(?:parameters?|arguments?|inputs?)\b"
    r"|\bprefer(?:ably)?\s+(?:setting|to\s+set|set)\b[^.;\n]{0,60}?\benvironment\b",
    re.IGNORECASE | re.MULTILINE,
)
_NOT_STATED = lazy(r"\bnot required\b|\bif required\b|\bas required\b|\bwhere required\b", re.IGNORECASE)
# A sentence that holds for some calls only: "For create: ...", "When mode is 'x', ...", "If ...".
_SCOPED_SENTENCE = lazy(
    r"^\s*(?:for|when|if|with|on|in)\b[^.:;\n]{1,60}[:,]|\b(?:for|when|if)\s+(?:the\s+)?"
    r"(?:action|operation|mode|command|method|type)\b|\b(?:for|when|if)\s+[\w.]+\s*(?:=|is\b)|"
    r"\bfor\s+[`'\"]",
    re.IGNORECASE,
)


# "detail: required - the run UUID": required in one mode of the tool, named before a colon.
_MODE_LABEL = lazy(r"(?:^|\n)\W*[\w-]+\W*:\s*required\b", re.IGNORECASE)


# A description that opens on a scope holds for those calls only, all its sentences: "[managed] AWS
# region. REQUIRED.", "For "update" action, the field to update. Required."
_SCOPED_TEXT = lazy(
    r"^\W{0,3}(?:\[[\w -]{1,30}\]|(?:for|when|if|only\s+(?:for|when|with))\b[^.:;\n]{1,60}[:,])",
    re.IGNORECASE | re.MULTILINE,
)


def _sentence_around(text: str, start: int) -> str:
    cut = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start), text.rfind("; ", 0, start))
    return text[cut + 1 : start]


def _unconditional(text: str, pattern: re.Pattern[str], name: str) -> bool:
    """Whether `pattern` states something of the parameter as a whole, for every call.

    One statement that holds for some calls only ("detail: required", "For move: ... (required)")
    makes the others doubtful too: the text describes a parameter whose need depends on the call.
    """
    if _SCOPED_TEXT.search(text):
        return False
    if _MODE_LABEL.search(text) and not re.search(rf"(?:^|\n)\W*{re.escape(name)}\W*:\s*required", text):
        return False
    stated = False
    for match in pattern.finditer(text):
        before = _sentence_around(text, match.start())
        if _CONDITION_AFTER.match(text, match.end()) or _SCOPED_SENTENCE.search(
            before + text[match.start() : match.end() + 60].split(".")[0]
        ):
            return False
        # "min, max (required)" after a colon lists keys of an object, unless the colon follows the name.
        head = before.rsplit(":", 1)
        if len(head) == 2 and not head[0].strip(" -*`'\"").endswith(name):
            continue
        stated = True
    return stated


# In the tool's description, what happens when a named parameter is left out: "If you do not include the
# `workspace` query parameter, the system creates it in ...", "If the `region` argument is omitted, ...".
# The name is set in code style or called a parameter, so the sentence is about this input.
_CALLED = r"(?:\s+(?:query\s+)?(?:parameter|argument))"
_NAME = r"(?:\\?[`'\"](?P<q>[A-Za-z_][\w-]*)\\?[`'\"]|(?P<w>[A-Za-z_][\w-]*)(?=" + _CALLED + r"))"
_NOT_GIVEN = r"(?:omitted|left\s+out|not\s+(?:provided|specified|given|set|passed|supplied|included))"
_LEFT_OUT = lazy(
    r"\bif\s+(?:you\s+(?:do\s+not|don't)\s+(?:include|provide|specify|pass|set|supply)\s+(?:the\s+|a\s+)?"
    + _NAME
    + _CALLED
    + r"?|(?:the\s+)?"
    + _NAME.replace("?P<q>", "?P<q2>").replace("?P<w>", "?P<w2>")
    + _CALLED
    + r"?\s+is\s+"
    + _NOT_GIVEN
    + r")"
    + r"\s*,\s*(?P<then>[^.\n]{0,120})",
    re.IGNORECASE,
)
# The consequence says the call cannot go on without it: then it is required after all.
_FAILS = lazy(r"\b(?:error|errors|fail|fails|invalid|rejected|reject|required|must)\b", re.IGNORECASE)
_ASKS = lazy(rf"^(?:then\s+)?(?:{_ASK})\b", re.IGNORECASE)


def _left_out_in_description(description: str) -> dict[str, str]:
    """Parameter names the description says may be left out, with the sentence saying so."""
    if "if " not in description.lower():
        return {}
    found: dict[str, str] = {}
    for match in _LEFT_OUT.finditer(description):
        name = match.group("q") or match.group("w") or match.group("q2") or match.group("w2")
        then = match.group("then")
        if name and not _FAILS.search(then) and not _ASKS.match(then):
            found.setdefault(name, match.group(0))
    return found


# A marker in brackets after a name: "repo_id (string, required)", "name (required)", "region
# (optional)". It is about the name before it.
_MARKED_NAME = lazy(
    r"(?P<name>[A-Za-z_][\w.-]*)[`'\"]?\s*\((?:[^()\n]{0,30}[,;]\s*)?(?:required|optional)\b", re.IGNORECASE
)


def _marks_another(text: str, name: str, structured: bool) -> bool:
    """Whether the text's bracketed required/optional markers are about other names than the
    parameter: a name in code spelling ("repo_id (string, required)") is another name than this one;
    in the text of an object or a list of objects, a marker after any word but the text's first is
    about a key inside it ("Each item should include name (required)")."""
    for match in _MARKED_NAME.finditer(text):
        found = match.group("name")
        if found == name:
            continue
        if identifier_shaped(found):
            return True
        if structured and text[: match.start()].strip(" -*([`'\""):
            return True
    return False


# "Params:" once per operation ("2. get_event: ... Params: event_id (required)"): each list holds for
# its operation only.
_PARAMS_HEADER = lazy(r"\b(?:params|parameters|args|arguments)\s*:", re.IGNORECASE)


def _own_says_required(root: Any, prop: Mapping[str, Any], name: str) -> bool:
    own = " ".join(
        variant["description"]
        for variant in property_variants(root, prop)
        if isinstance(variant.get("description"), str)
    )
    return bool(own) and _unconditional(own, _SAYS_REQUIRED, name)


def _structured(root: Any, prop: Mapping[str, Any]) -> bool:
    """An object, or a list of objects: its text names keys inside it."""
    for variant in property_variants(root, prop):
        kind = variant.get("type")
        if kind == "object" or (isinstance(kind, list) and "object" in kind):
            return True
        items = variant.get("items")
        if (
            kind == "array"
            and isinstance(items, Mapping)
            and any(item.get("type") == "object" for item in property_variants(root, items))
        ):
            return True
    return False


# "Use the lookup tool to find it if not provided": the sentence tells the model how to get the value.
_IMPERATIVE_SENTENCE = lazy(rf"^\W*(?:{_ASK})\b", re.IGNORECASE)


def _says_optional(text: str) -> bool:
    """Whether the text calls the parameter optional or says what happens when it is left out, other
    than in a sentence that tells the model how to get the value ("Use X to find it if not given")."""
    for match in _SAYS_OPTIONAL.finditer(text):
        if _IMPERATIVE_SENTENCE.match(_sentence_around(text, match.start())):
            continue
        return True
    return False


# In the tool's description, a parameter named in code style and called required: "REQUIRED parameter
# `account_type`: ...", "`project` is required", "`region` (required)".
_QUOTED_NAME = r"\\?[`'\"](?P<{}>[A-Za-z_][\w-]*)\\?[`'\"]"
_REQUIRED_NAMED = lazy(
    r"\brequired\s+(?:parameter|argument|field|input)s?\s*:?\s*"
    + _QUOTED_NAME.format("before")
    + r"|"
    + _QUOTED_NAME.format("after")
    + r"\s*(?:\((?:[^()\n]{0,20},\s*)?required\)|(?:\s+(?:parameter|argument|field))?\s+is\s+required\b)",
    re.IGNORECASE,
)


# "At least one of `status` or `assignee` is required": the need is of the group, not of one name.
_ONE_OF_SEVERAL = lazy(
    r"(?:\b(?:or|nor|either|and)|,|/|\+)\s*$|\b(?:one|any|either|some)\s+of\b", re.IGNORECASE
)


# A line labelled by a mode or a value: `- "detail": single run by "runId" (required)`.
_LINE_LABEL = lazy(r"^\s*(?:[-*\u2022]\s*)?[`'\"]?(?P<label>[\w-]+)[`'\"]?\s*:")


def _labelled_for_another(sentence: str, name: str) -> bool:
    label = _LINE_LABEL.match(sentence)
    return label is not None and label.group("label") != name


def _required_on_labelled_lines(description: str) -> set[str]:
    """Names the description calls required on a line labelled by a mode or value (`- "detail": one
    run by "runId" (required)`): required in that mode only."""
    if "required" not in description.lower():
        return set()
    found: set[str] = set()
    for line in description.splitlines():
        label = _LINE_LABEL.match(line)
        if label is None or "required" not in line.lower():
            continue
        quoted = re.findall(r"[`'\"]([A-Za-z_][\w-]*)[`'\"]", line)
        found.update(name for name in quoted if name != label.group("label"))
    return found


def _required_in_description(description: str) -> dict[str, str]:
    """Parameter names the tool's description calls required, for every call, with the sentence."""
    if "required" not in description.lower():
        return {}
    found: dict[str, str] = {}
    for match in _REQUIRED_NAMED.finditer(description):
        name = match.group("before") or match.group("after")
        ends = [at for at in (description.find(mark, match.end()) for mark in (". ", "\n")) if at >= 0]
        end = min(ends, default=len(description))
        sentence = _sentence_around(description, match.start()) + description[match.start() : end]
        if (
            _CONDITION_AFTER.match(description, match.end())
            or _SCOPED_SENTENCE.search(sentence)
            or _ONE_OF_SEVERAL.search(description[max(0, match.start() - 40) : match.start()])
            or _labelled_for_another(sentence, name)
        ):
            continue
        found.setdefault(name, sentence.strip())
    return found


@check_function("required_mismatch")
def required_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        required = set(tool.required)
        root = tool.input_schema
        left_out = _left_out_in_description(tool.description) if required else {}
        called_required = _required_in_description(tool.description)
        in_one_mode = _required_on_labelled_lines(tool.description)
        per_operation = len(_PARAMS_HEADER.findall(tool.description)) > 1
        for name, prop in tool.properties.items():
            if not isinstance(prop, Mapping):
                continue
            text = parameter_prose(tool, str(name), prop, top_level=True)
            where = f"{prop_path(name)}.description"
            if name in left_out and not text:
                text, where = left_out[name], "description"
            called = name in called_required and name not in required and not _says_optional(text)
            if called:
                text, where = called_required[name], "description"
            if not text or _NOT_STATED.search(text):
                continue
            named = re.compile(rf"[`'\"]?\b{re.escape(str(name))}\b[`'\"]?\s+is\s+required\b", re.IGNORECASE)
            says_required = (
                called
                or _unconditional(text, _SAYS_REQUIRED, str(name))
                or _unconditional(text, named, str(name))
            )
            says_optional = _says_optional(text)
            if (says_required or says_optional) and _marks_another(text, str(name), _structured(root, prop)):
                continue
            if name in required and name in left_out and _SAYS_REQUIRED.search(text) is None:
                text, where, says_optional = left_out[name], "description", True
            # the description's "required" on a mode's line, or in one operation's Params list, holds
            # for that call only
            scoped = name in in_one_mode or per_operation
            if scoped and not called and not _own_says_required(root, prop, name):
                says_required = False
            if name not in required and says_required and not says_optional:
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "says": "required", "schema": "optional"},
                    evidence=f"{where}: " + trim(text, 90),
                    path=prop_path(name),
                    suggestion=f'Add "{name}" to `required`, or stop calling it required.',
                )
            elif name in required and says_optional and _SAYS_REQUIRED.search(text) is None:
                has_default = any("default" in v for v in property_variants(root, prop))
                yield Hit(
                    tool=tool.name,
                    subject=name,
                    fields={"parameter": name, "says": "optional", "schema": "required"},
                    evidence=f"{where}: " + trim(text, 90),
                    path=prop_path(name),
                    suggestion=f'Remove "{name}" from `required`'
                    + (" (it has a default)." if has_default else ", or stop calling it optional."),
                )
