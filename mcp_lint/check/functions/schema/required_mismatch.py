"""MCP208 required-mismatch: the description says required (or optional) and the schema says otherwise.

A statement counts only when it is about the parameter itself, always. "Required confirmation for
action='delete'", "For create: folder name (required)" and "Required (True) to run destructive
actions" hold for some calls only; "input_number: min, max (required)" in an object's prose is about a
key inside it. The schema's `required` list is right for such a parameter whichever way it goes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import trim
from mcp_lint.check.functions.schema._common import prop_path
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
    r"|\bif\s+you\s+(?:do\s+not|don't)\s+(?:include|provide|specify|pass|set)\b",
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


@check_function("required_mismatch")
def required_mismatch(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        required = set(tool.required)
        root = tool.input_schema
        left_out = _left_out_in_description(tool.description) if required else {}
        for name, prop in tool.properties.items():
            if not isinstance(prop, Mapping):
                continue
            text = parameter_prose(tool, str(name), prop, top_level=True)
            where = f"{prop_path(name)}.description"
            if name in left_out and not text:
                text, where = left_out[name], "description"
            if not text or _NOT_STATED.search(text):
                continue
            named = re.compile(rf"[`'\"]?\b{re.escape(str(name))}\b[`'\"]?\s+is\s+required\b", re.IGNORECASE)
            says_required = _unconditional(text, _SAYS_REQUIRED, str(name)) or _unconditional(
                text, named, str(name)
            )
            says_optional = _SAYS_OPTIONAL.search(text) is not None
            if name in required and name in left_out and _SAYS_REQUIRED.search(text) is None:
                text, where, says_optional = left_out[name], "description", True
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
