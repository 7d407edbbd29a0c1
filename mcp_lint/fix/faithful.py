"""The faithfulness check: a rewrite may add grounded facts, never invent one or lose one.

A rewrite is rejected, with one reason per problem, when it
- names a parameter (in code style, or as `name=` in a call) that the input schema lacks, unless the
  original already named it or it is a tool of the server, a field of the result or a parameter of a
  confusable sibling that this tool lacks (what sets the two apart);
- shows an example call that no successful recorded call supports (its arguments must be those of a
  recorded call), or quotes a result no recorded call returned;
- drops a fact the original stated: a number, a code-styled name, a URL, a quoted value, or a
  sentence that says what the tool does not do (not, never, cannot, only, no);
- plants text aimed at the model: anything the hidden-instructions (MCP301) or invisible-characters
  (MCP302) rule flags that the original did not carry, or a recorded result, error or argument that
  speaks to the model ("always call ...", markup, the model named) copied into it.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from mcp_lint.fix.compose import quotable
from mcp_lint.fix.grounding import Grounding
from mcp_lint.model import Tool

_CODE = re.compile(r"`([^`\n]{1,80})`")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\[\]-]*$")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_URL = re.compile(r"https?://[^\s)\"'`>\]]+")
_QUOTED = re.compile(r"\"([^\"\n]{1,80})\"|'([^'\n]{1,80})'")
_NEGATION = re.compile(r"\b(?:not|never|cannot|can't|don't|doesn't|won't|only|no)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_RETURNED = re.compile(r"\breturned\s+(\"(?:[^\"\\]|\\.)*\")")


def _flat(text: str) -> str:
    return " ".join(text.split()).lower()


def _calls(text: str, tool: str) -> Iterator[str]:
    """The argument lists of `tool(...)` calls in `text`, parentheses balanced."""
    start = text.find(tool + "(")
    while start != -1:
        index = start + len(tool) + 1
        depth = 1
        quote: str | None = None
        while index < len(text) and depth:
            char = text[index]
            if quote:
                if char == "\\":
                    index += 1
                elif char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char in "([{":
                depth += 1
            elif char in ")]}":
                depth -= 1
            index += 1
        if depth == 0:
            yield text[start + len(tool) + 1 : index - 1]
        start = text.find(tool + "(", index)


def _arguments(call: str) -> dict[str, Any] | None:
    """`a="x", b=2` as a dict (JSON or Python literals), or None when it is not plain keyword values."""
    try:
        parsed = ast.parse(f"f({call})", mode="eval")
    except SyntaxError:
        return None
    node = parsed.body
    if not isinstance(node, ast.Call) or node.args:
        return None
    found: dict[str, Any] = {}
    for keyword in node.keywords:
        if keyword.arg is None:
            return None
        try:
            found[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            if isinstance(keyword.value, ast.Name) and keyword.value.id in ("true", "false", "null"):
                found[keyword.arg] = {"true": True, "false": False, "null": None}[keyword.value.id]
            else:
                return None
    return found


def _supported(arguments: Mapping[str, Any], grounding: Grounding) -> bool:
    return any(
        all(name in record.arguments and record.arguments[name] == value for name, value in arguments.items())
        for record in grounding.successes
    )


def dropped_facts(original: str, rewrite: str) -> list[str]:
    """The facts of `original` that `rewrite` no longer states, each described for a report."""
    kept = _flat(rewrite)
    reasons: list[str] = []
    seen: set[tuple[str, str]] = set()

    def need(kind: str, value: str) -> None:
        if value.lower() not in kept and (kind, value) not in seen:
            seen.add((kind, value))
            reasons.append(f"drops the {kind} {value!r} the original states")

    for match in _URL.finditer(original):
        need("URL", match.group(0).rstrip(".,;:"))
    for match in _CODE.finditer(original):
        need("name", f"`{match.group(1)}`")
    for match in _NUMBER.finditer(original):
        need("number", match.group(0))
    for match in _QUOTED.finditer(original):
        need("quoted value", match.group(1) or match.group(2))
    for sentence in _SENTENCE.findall(original):
        if _NEGATION.search(sentence) and len(sentence.split()) >= 2:
            need("statement", " ".join(sentence.split()))
    return reasons


def check(
    original: str,
    rewrite: str,
    grounding: Grounding,
    tool_names: Collection[str] = (),
) -> list[str]:
    """Why `rewrite` is not faithful to `original` and the grounding; empty when it is."""
    reasons: list[str] = []
    before = original.lower()
    allowed = (
        set(grounding.names)
        | set(tool_names)
        | set(grounding.rival_names)
        | {name for name, _ in grounding.output_fields}
    )
    named: list[str] = []
    for match in _CODE.finditer(rewrite):
        value = match.group(1).strip()
        if _IDENTIFIER.match(value) and value not in allowed and value.lower() not in before:
            named.append(value)
    for call in _calls(rewrite, grounding.tool.name):
        arguments = _arguments(call)
        if arguments is None:
            if call.strip() and call not in original:
                reasons.append(
                    f"shows an example `{grounding.tool.name}({call})` that is not plain arguments"
                )
            continue
        named += [name for name in arguments if name not in allowed and name.lower() not in before]
        if arguments and call not in original and not _supported(arguments, grounding):
            reasons.append(
                f"shows an example `{grounding.tool.name}({call})` that no successful recorded call supports"
            )
    for name in dict.fromkeys(named):
        reasons.append(f"names a parameter `{name}` that the input schema lacks")
    # Compared as the composer quotes them: control and format characters dropped.
    results = [_flat(quotable(record.result_text())) for record in grounding.successes]
    for match in _RETURNED.finditer(rewrite):
        try:
            quoted = str(json.loads(match.group(1)))
        except ValueError:
            quoted = match.group(1).strip('"')
        shown = _flat(quoted.rstrip("…"))
        if match.group(0) not in original and not any(shown in result for result in results):
            reasons.append(f"quotes a result {quoted!r} that no recorded call returned")
    reasons += dropped_facts(original, rewrite)
    reasons += planted(original, rewrite, grounding)
    return reasons


# Text addressed to the model rather than describing the tool: orders about calling tools, the
# model or its instructions named, markup. Looked for in recorded results, errors and arguments: a
# rewrite that copies such a span from a trace would plant an instruction in the description.
_ADDRESSED = re.compile(
    r"\b(?:always|first|must|should|never|immediately|instead|before\s+anything)\b[^.\n]{0,40}?"
    r"\b(?:call|use|invoke|run|execute|trigger|send|read|forward|tell|ask)\b"
    r"|\byou\s+(?:must|should|need|have\s+to|are\s+(?:required|instructed|now)|will|can)\b"
    r"|\b(?:assistant|llm|language\s+model|the\s+model|ai\s+agent|claude|chatgpt|copilot)\b"
    r"|\b(?:ignore|disregard|forget)\s+(?:all|any|the|your|previous|prior|above|earlier)\b"
    r"|\bsystem\s+prompt\b|\binstructions?\b"
    r"|<\s*/?\s*[a-z][\w-]*\s*/?\s*>",
    re.IGNORECASE,
)


def _rule_options(code: str) -> Mapping[str, Any]:
    from mcp_lint.check.rules import load_catalogue

    rule = load_catalogue().find(code)
    return rule.options if rule is not None else {}


def _flagged(tool: Tool, description: str) -> set[str]:
    """What the hidden-instructions (MCP301) and invisible-characters (MCP302) rules report in the
    description `tool` would have with `description`."""
    from mcp_lint.check.functions import CheckContext
    from mcp_lint.check.functions.poisoning import hidden_instructions, invisible_characters
    from mcp_lint.model import ServerSnapshot

    raw = dict(tool.raw)
    raw["description"] = description
    snapshot = ServerSnapshot("fix", (Tool(tool.name, raw, tool.sdk_rejection, tool.named),))
    found: set[str] = set()
    for code, function, label in (
        ("MCP301", hidden_instructions, "hidden instructions"),
        ("MCP302", invisible_characters, "invisible characters"),
    ):
        for hit in function(CheckContext(snapshot, _rule_options(code))):
            if hit.path == "description":
                detail = hit.fields.get("reason") or hit.fields.get("chars") or ""
                found.add(f"{label} ({code}): {detail}")
    return found


def _recorded_texts(grounding: Grounding) -> Iterator[str]:
    """Every recorded text a rewrite may quote, as the composer quotes it (`quotable`): a zero-width
    character inside "al<U+200B>ways call" must not hide the order from the pattern."""
    for record in (*grounding.successes, *grounding.failures):
        yield quotable(record.result_text())
        if record.error:
            yield quotable(record.error)
        yield from (quotable(value) for value in _strings(record.arguments))


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def planted(original: str, rewrite: str, grounding: Grounding) -> list[str]:
    """Why `rewrite` would plant text aimed at the model: anything MCP301 or MCP302 flags in it that
    they do not flag in `original`, or a span of a recorded result, error or argument that is
    addressed to the model (an order to call a tool, markup, the model named) copied into it."""
    reasons = [
        f"adds text the security rules flag, {found}"
        for found in sorted(_flagged(grounding.tool, rewrite) - _flagged(grounding.tool, original))
    ]
    now, before = _flat(rewrite), _flat(original)
    seen: set[str] = set()
    for text in _recorded_texts(grounding):
        for match in _ADDRESSED.finditer(" ".join(text.split())):
            span = _flat(match.group(0))
            if span in now and span not in before and span not in seen:
                seen.add(span)
                reasons.append(f"copies recorded text addressed to the model: {match.group(0)!r}")
    return reasons


def tool_names(siblings: Sequence[str] | Mapping[str, str]) -> frozenset[str]:
    return frozenset(siblings)
