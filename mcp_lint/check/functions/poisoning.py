"""Security rules (MCP3xx): text aimed at the model instead of describing the tool."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._text import analysis
from mcp_lint.check.functions._util import schema_texts, snippet, trim
from mcp_lint.model import Tool


def tool_texts(tool: Tool) -> list[tuple[str, str]]:
    """(path, text) of everything the model reads about a tool besides its name."""
    texts = []
    if tool.description:
        texts.append(("description", tool.description))
    if tool.title:
        texts.append(("title", tool.title))
    return texts + schema_texts(tool.input_schema)


# --- MCP301 hidden-instructions ------------------------------------------------------------------

_SENSITIVE = (
    r"~/\.ssh|\.ssh/|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|~/\.aws|\bmcp\.json\b|"
    r"claude_desktop_config|\.npmrc\b|\.netrc\b|\.git-credentials|\.pgpass\b|\.kube/config|\.docker/config|"
    r"/etc/(?:passwd|shadow)|(?<![\w.])\.env\b|\bprivate keys?\b|\bcredentials? files?\b"
)
_ACCESS = (
    r"\b(?:read|cat|open|load|include|pass|send|attach|upload|copy|provide|extract|fetch|retrieve|collect|"
    r"exfiltrate|forward|append|embed|contents?\s+of)\b"
)
# (reason, pattern); first match per text wins, so the most specific come first.
# (reason, substrings, more substrings, pattern): every match contains one of the first substrings and,
# when the second tuple is not empty, one of those too (lower-cased). The substring tests skip most
# texts before the regex runs. The first match per text wins, most specific first.
_PATTERNS: list[tuple[str, tuple[str, ...], tuple[str, ...], re.Pattern[str]]] = [
    (
        "markup addressed to the model",
        ("<", "[", "#"),
        (),
        re.compile(
            r"<\s*/?\s*(?:important|system|instructions?|system[-_ ]?prompt|secret|hidden|admin|critical)\s*>"
            r"|\[/?INST\]|<\|im_(?:start|end)\|>|<\|system\|>|^\s*#+\s*system\b",
            re.IGNORECASE | re.MULTILINE,
        ),
    ),
    (
        "asks to hide something from the user",
        ("user",),
        ("not", "n't", "never", "without"),
        re.compile(
            r"\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t)\s+"
            r"(?:tell|inform|notify|alert|warn|let)\s+(?:the\s+)?users?\b"
            r"|\b(?:do\s+not|don'?t|never|must\s+not|should\s+not)\s+(?:mention|reveal|disclose|say|explain|show)\b"
            r"[^.\n]{0,60}?\bto\s+the\s+users?\b"
            r"|\b(?:do\s+not|don'?t|never)\s+mention\s+(?:this|that|these|it)\b"
            r"|\bwithout\s+(?:telling|informing|notifying|alerting|asking|letting)\s+(?:the\s+)?users?\b"
            r"|\b(?:the\s+)?users?\s+(?:must|should|need)\s+not\s+(?:know|see|notice|be\s+(?:told|informed|aware))"
            r"|\busers?\s+(?:does\s+not|doesn'?t)\s+need\s+to\s+know\b"
            r"|\b(?:keep|hide)\s+(?:this|it|that)\s+(?:secret\s+)?from\s+the\s+users?\b",
            re.IGNORECASE,
        ),
    ),
    (
        "tells the model to ignore its instructions",
        ("ignore", "disregard", "forget", "override", "you are now", "new instructions"),
        (),
        re.compile(
            r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|your\s+|the\s+)*"
            r"(?:previous|prior|above|earlier|preceding|system|original|other)\s+"
            r"(?:instructions|prompts?|rules|messages|directions|guidelines)\b"
            r"|\byou\s+are\s+now\s+(?:a|an|in)\b|\bnew\s+instructions\s*:",
            re.IGNORECASE,
        ),
    ),
    (
        "overrides the model's earlier instructions or policy",
        (
            "originally",
            "previously",
            "initially",
            "advised",
            "instructed",
            "told",
            "regardless",
            "apply",
            "policy",
        ),
        (),
        re.compile(
            r"\byou\s+(?:originally|previously|initially|were\s+originally)\s+"
            r"(?:did\s+not|didn'?t|could\s+not|couldn'?t|were\s+not|weren'?t|had\s+no|were\s+(?:told|advised|instructed))"
            r"|\b(?:were|was|been|are)\s+(?:advised|instructed|told)\s+to\s+(?:refuse|decline)\b"
            r"|\bregardless\s+of\s+(?:your|any|the)\s+(?:previous\s+|prior\s+|earlier\s+|system\s+|safety\s+|original\s+)*"
            r"(?:instructions|policy|policies|guidelines|rules|restrictions)\b"
            r"|\b(?:previous|prior|earlier|original|system|your)\s+(?:instructions|restrictions|rules|policies|guidelines)\s+"
            r"(?:no\s+longer|do\s+not|don'?t)\s+apply\b"
            r"|\b(?:ignore|bypass|override|disregard)\s+(?:your|any|all|the)\s+(?:safety\s+|content\s+|usage\s+)?"
            r"(?:policy|policies|guidelines|restrictions|safeguards)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "forbids the use of other tools or servers",
        ("other", "another", "different", "additional"),
        ("not", "n't", "never"),
        re.compile(
            r"\b(?:must\s+not|must\s+never|mustn'?t|should\s+not|should\s+never|shouldn'?t|do\s+not|don'?t|never|"
            r"may\s+not|is\s+not\s+allowed\s+to|are\s+not\s+allowed\s+to)\s+"
            r"(?:use|invoke|call|run|rely\s+on|consult|try)\s+(?:any\s+)?(?:other|another|different|additional)\s+"
            r"(?:tools?|servers?|mcp\s+servers?|functions?|plugins?|sources?)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "orders the model to send data elsewhere",
        ("send", "forward", "upload", "post", "transmit", "exfiltrate", "copy", "bcc"),
        ("http", "@"),
        re.compile(
            r"\b(?:send|forward|upload|post|transmit|exfiltrate|copy|bcc)\s+(?:a\s+copy\s+of\s+)?"
            r"(?:(?:the|all|your|this|every|any|full|entire|whole)\s+)*"
            r"(?:conversation|chat|messages?|history|context|prompts?|system\s+prompt|data|results?|output|files?|"
            r"contents?|responses?|user'?s?\s+\w+|tokens?|keys?|secrets?|credentials?|documents?)\b"
            r"[^.\n]{0,60}?\b(?:to|at)\s+(?:(?:the\s+|this\s+|our\s+)?(?:webhook|endpoint|server|url|address|email)\s+)?"
            r"(?:https?://|[\w.+-]+@[\w-]+\.\w)",
            re.IGNORECASE,
        ),
    ),
    (
        "orders the model to read credentials or private files",
        (
            "ssh",
            "id_",
            "aws",
            "mcp.json",
            "claude_desktop",
            "npmrc",
            "netrc",
            "credential",
            "pgpass",
            "kube",
            "docker",
            "/etc/",
            ".env",
            "private key",
            "content",
        ),
        (),
        re.compile(
            rf"{_ACCESS}[^.\n]{{0,80}}?(?:{_SENSITIVE})|(?:{_SENSITIVE})[^.\n]{{0,80}}?\b(?:and|then)\s+{_ACCESS}"
            r"|\bpass\s+(?:its|their|the(?:\s+file'?s)?|all)\s+(?:full\s+|entire\s+)?contents?\s+(?:as|in|to|into)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "gives instructions about other tools",
        (
            " tool is ",
            "other tool",
            "any tool",
            "all tool",
            "every tool",
            "tool call",
            "recipient",
            "destination",
            "to address",
            "to-address",
            "sender",
            "bcc",
            "webhook",
            "target ",
        ),
        (),
        re.compile(
            r"\bwhen(?:ever)?\s+(?:the\s+)?[`'\"]?[\w.-]+[`'\"]?\s+tool\s+is\s+(?:called|used|invoked|run)"
            r"|\bbefore\s+(?:using|calling|invoking|running)\s+(?:any|all|every)\s+(?:other\s+)?tools?\b"
            r"|\b(?:change|replace|redirect|override|rewrite)\s+(?:the\s+)?"
            r"(?:recipient|destination|to[- ]address|sender|bcc|webhook|target\s+(?:address|url|account))s?\b"
            # "REQUIRED for all tool calls" states this tool's own requirement; "for every other
            # tool call" and "before every tool call" reach beyond it.
            r"|\b(?:for|on)\s+(?:all|every|any)\s+other\s+tools?\s+calls?\b"
            r"|\b(?:before|after)\s+(?:all|every|any|each)\s+(?:other\s+)?tools?\s+calls?\b",
            re.IGNORECASE,
        ),
    ),
]


# Every match of a pattern above contains one of its keys (lower-cased), and a markup match also one
# of the words its tags are made of, so in ASCII text a tool whose joined texts lack them cannot match.
# Only ASCII: case-insensitive matching also maps a few other letters to ASCII ones ("ſ" matches "s").
_MARKUP_WORDS = ("important", "system", "instruction", "secret", "hidden", "admin", "critical")
_MARKUP_TOKENS = (*_MARKUP_WORDS, "inst]", "im_")
_OTHER_KEYS = tuple(dict.fromkeys(key for _, keys, _, _ in _PATTERNS[1:] for key in keys))


_CREDENTIALS = "orders the model to read credentials or private files"
# The credentials pattern's keys minus "content": its only match without one of these is
# "pass ... contents to", so in ASCII text "content" alone (common in real descriptions) is not enough.
_SENSITIVE_KEYS = tuple(
    key for reason, keys, _, _ in _PATTERNS if reason == _CREDENTIALS for key in keys if key != "content"
)
_Pattern = tuple[str, tuple[str, ...], tuple[str, ...], re.Pattern[str]]


def _keys_present(entry: _Pattern, lowered: str) -> bool:
    """Can `entry`'s pattern match a text whose lower-cased form is, or is contained in, `lowered`?"""
    reason, keys, also, _ = entry
    # map() over `in` keeps the loop in C: this runs for every text of every tool.
    if not any(map(lowered.__contains__, keys)):
        return False
    if also and not any(map(lowered.__contains__, also)):
        return False
    if reason == _CREDENTIALS and lowered.isascii() and "pass" not in lowered:
        return any(map(lowered.__contains__, _SENSITIVE_KEYS))
    return True


def _may_be_poisoned(blob: str) -> bool:
    if not blob.isascii():
        return True
    if ("<" in blob or "[" in blob or "#" in blob) and any(map(blob.__contains__, _MARKUP_TOKENS)):
        return True
    return any(map(blob.__contains__, _OTHER_KEYS))


@check_function("hidden_instructions")
def hidden_instructions(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        # One pass over the tool's lower-cased joined texts (shared with the other rules) decides
        # which patterns can match any of its texts; most tools have none and are never walked.
        blob = analysis(tool).blob
        if not _may_be_poisoned(blob):
            continue
        live = [entry for entry in _PATTERNS if _keys_present(entry, blob)]
        if not live:
            continue
        for path, text in tool_texts(tool):
            lowered = text.lower()
            for entry in live:
                if not _keys_present(entry, lowered):
                    continue
                match = entry[3].search(text)
                if match:
                    yield Hit(
                        tool=tool.name,
                        subject=path,
                        fields={"reason": entry[0], "where": path},
                        evidence=snippet(text, match.start(), match.end()),
                        path=path,
                    )
                    break


# --- MCP302 invisible-characters ----------------------------------------------------------------

# Cc except \t \n \r; Unicode 15 Cf; lone surrogates (Cs: no UTF-8 client can even send them); the
# whole tag block. Listed by hand because scanning every code
# point with unicodedata at import would cost a fifth of a second.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f]"
)
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_MAX_LISTED = 3


def _code_point(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def clean_text(text: str) -> str:
    return _INVISIBLE.sub("", _ANSI.sub("", text))


# The ASCII members of _INVISIBLE: an ASCII tool without them has nothing to report.
_ASCII_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@check_function("invisible_characters")
def invisible_characters(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        # Newline-joined: a newline is not invisible, so the test answers as for the bare texts.
        blob = analysis(tool).joined
        if blob.isascii() and _ASCII_INVISIBLE.search(blob) is None:
            continue
        fields: list[tuple[str, str]] = [("name", tool.name)]
        fields += [
            (f"inputSchema.properties.{name}", name) for name in tool.properties if isinstance(name, str)
        ]
        fields += tool_texts(tool)
        for path, text in fields:
            if text.isascii() and text.isprintable():
                continue
            found = [
                match
                for match in _INVISIBLE.finditer(text)
                # A byte-order mark that opens the text is an encoding artefact, not hidden content.
                if not (match.group() == "\ufeff" and match.start() == 0)
            ]
            if not found:
                continue
            counts: dict[str, int] = {}
            for match in found:
                counts[match.group()] = counts.get(match.group(), 0) + 1
            listed = [
                _code_point(char) + (f" ×{count}" if count > 1 else "") for char, count in counts.items()
            ]
            chars = ", ".join(listed[:_MAX_LISTED]) + (
                f" and {len(listed) - _MAX_LISTED} more" if len(listed) > _MAX_LISTED else ""
            )
            positions = ", ".join(str(match.start()) for match in found[:5]) + (
                " …" if len(found) > 5 else ""
            )
            yield Hit(
                tool=tool.name,
                subject=path,
                fields={"chars": chars, "where": path, "count": len(found)},
                evidence=trim(f"{chars} at {positions} in {text!r}"),
                path=path,
                suggestion=trim(clean_text(text), 300),
            )
