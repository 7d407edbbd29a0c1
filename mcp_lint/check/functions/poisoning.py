"""Security rules (MCP3xx): text aimed at the model instead of describing the tool."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._text import analysis
from mcp_lint.check.functions._util import name_words, schema_texts, snippet, trim
from mcp_lint.lazyre import lazy
from mcp_lint.model import Severity, Tool


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
_MARKUP = "markup addressed to the model"
# Tags servers use to lay out their own guidance, as opposed to a chat template's roles.
_GUIDANCE_TAG = lazy(r"^<\s*/?\s*(?:instructions?|important|critical)\s*>$", re.IGNORECASE)
# The reason given when a text tells the model how to use other tools.
_OTHER_TOOLS_REASON = "gives instructions about other tools"

# (reason, pattern); first match per text wins, so the most specific come first.
# (reason, substrings, more substrings, pattern): every match contains one of the first substrings and,
# when the second tuple is not empty, one of those too (lower-cased). The substring tests skip most
# texts before the regex runs. The first match per text wins, most specific first.
_PATTERNS: list[tuple[str, tuple[str, ...], tuple[str, ...], re.Pattern[str]]] = [
    (
        "markup addressed to the model",
        ("<", "[", "#"),
        (),
        lazy(
            r"<\s*/?\s*(?:important|system|instructions?|system[-_ ]?prompt|secret|hidden|admin|critical)\s*>"
            r"|\[/?INST\]|<\|im_(?:start|end)\|>|<\|system\|>|^\s*#+\s*system\b",
            re.IGNORECASE | re.MULTILINE,
        ),
    ),
    (
        "asks to hide something from the user",
        ("user",),
        ("not", "n't", "never", "without"),
        lazy(
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
        lazy(
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
        lazy(
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
        lazy(
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
        lazy(
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
        lazy(
            rf"{_ACCESS}[^.\n]{{0,80}}?(?:{_SENSITIVE})|(?:{_SENSITIVE})[^.\n]{{0,80}}?\b(?:and|then)\s+{_ACCESS}"
            r"|\bpass\s+(?:its|their|the(?:\s+file'?s)?|all)\s+(?:full\s+|entire\s+)?contents?\s+(?:as|in|to|into)\b",
            re.IGNORECASE,
        ),
    ),
    (
        _OTHER_TOOLS_REASON,
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
        lazy(
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


# --- MCP301 by meaning: who is addressed, and what is asked ----------------------------------------
#
# Poisoning rarely comes in markup. It is text written to the model rather than about the tool:
# it speaks to the model ("if you are an AI"), or asks of it what no description of a tool needs:
# to keep something from the user, to report its own instructions or identity, to pass on the
# conversation, to prefer this tool over every other or over the client's own, or to call tools at
# times the user never chose ("before every response"). Usage guidance has the same imperative mood
# ("You must provide a project id", "Always call list_tables first", "Do not use for Y; use Z") but
# asks for nothing of that kind: it is about this tool's inputs, or names the one tool to use instead.
#
# Each signal below has a kind and a weight. A text is reported when the weights of its kinds (the
# strongest match of each kind counted once) reach 2: a strong request alone (weight 2), or two weak
# ones together (1 + 1), such as a text that speaks to the model and asks it to always use this tool,
# or one that passes the conversation on at the start of every session.

_NEGATION = r"(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|no\s+need\s+to|avoid)"
# The model's own verbs, base form: what a text asks it to do (a description says "runs", "sends").
_DO = (
    r"(?:call|invoke|run|use|execute|send|report|log|pass|submit|post|forward|notify|ping|trigger|save|"
    r"record|store|include|add|append|attach|upload|copy|read|collect|gather|fetch|share|write|fill)"
)
# Who the model answers to, by any name: "the user", "the human", "the person you are helping".
_USER = (
    r"(?:(?:the|your|any)\s+)?(?:(?:end[- ])?users?\b(?!['’]s)|humans?\b|"
    r"person\s+(?:you(?:'re|\s+are)\s+(?:chatting|talking|speaking|working)\s+(?:with|to)|you(?:'re|\s+are)\s+helping))"
)
_MODEL = (
    r"(?:ai|a\.i\.|llm|large\s+language\s+model|language\s+model|ai\s+assistant|assistant|ai\s+agent|agent|"
    r"chatbot|bot|model|claude|gpt|chatgpt|copilot|gemini)"
)


class _LazyPattern:
    """A case-insensitive regex compiled when first searched: the substring keys rule most texts out
    before a signal's regex runs, so a run need not compile them all (some 20 ms of start-up)."""

    __slots__ = ("_compiled", "_source")

    def __init__(self, source: str) -> None:
        self._source = source
        self._compiled: re.Pattern[str] | None = None

    def search(self, text: str) -> re.Match[str] | None:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self._source, re.IGNORECASE)
        return compiled.search(text)


@dataclass(frozen=True, eq=False, repr=False)
class _Signal:
    kind: str  # a key of _REASONS, or "addressed" (speaks to the model: no request of its own)
    weight: int
    # Groups of lower-case substrings: every match contains one of each group, so a text without
    # them is not searched (most texts lack one group or another).
    keys: tuple[tuple[str, ...], ...]
    pattern: _LazyPattern
    verb: bool  # the match counts only in a sentence that also asks the model to act (_DO)


_REASONS = {
    "conceal": "asks to hide something from the user",
    "self": "asks the model to report its own instructions or identity",
    "prefer": "tells the model to prefer this tool over every other",
    "timing": "orders tool calls the user did not ask for",
    "conversation": "asks the model to pass on the conversation or other tools' results",
    "other tools": "asks the model to pass on the conversation or other tools' results",
}


def _signal(
    kind: str, weight: int, keys: tuple[str, ...], pattern: str, *also: tuple[str, ...], verb: bool = False
) -> _Signal:
    return _Signal(kind, weight, (keys, *also), _LazyPattern(pattern), verb)


_SIGNALS: tuple[_Signal, ...] = (
    # --- kept from the user: the user is the one not told, not the owner of what is protected
    _signal(
        "conceal",
        2,
        ("user", "human", "person"),
        rf"\b{_NEGATION}\s+(?:ever\s+)?(?:tell|inform|notify|alert|warn|let|bother)(?:ing)?\s+{_USER}"
        rf"|\b{_NEGATION}\s+(?:ever\s+)?(?:mention|reveal|disclose|say|explain|show|share|display|report|discuss|surface|expose)"
        rf"(?:ing)?\b[^.\n]{{0,60}}?\b(?:to|with)\s+{_USER}"
        r"|\bwithout\s+(?:the\s+)?(?:users?|humans?)['’]?s?\s+"
        r"(?:knowing|knowledge|noticing|awareness|seeing|being\s+(?:aware|told|informed))"
        rf"|\bwithout\s+(?:telling|informing|notifying|alerting|letting|showing)\s+{_USER}"
        rf"|\b{_USER}\s+(?:must|should|need|needs|is|are|may)\s+(?:not|never)\s+(?:to\s+)?"
        r"(?:know|see|notice|find\s+out|learn|hear|be\s+(?:told|informed|aware|notified|shown|made\s+aware))\b"
        rf"|\b{_USER}\s+(?:does\s+not|doesn'?t|do\s+not|don'?t)\s+need\s+to\s+(?:know|see|hear|be\s+told)\b"
        r"|\b(?:keep|hide|conceal)\s+(?:this|it|that|these|them|everything)\s+(?:secret\s+|hidden\s+)?from\s+"
        rf"{_USER}",
        ("not", "n't", "never", "without", "avoid", "keep", "hide", "conceal"),
    ),
    _signal(
        "conceal",
        2,
        ("mention", "reveal", "disclose", "acknowledge", "discuss", "bring up", "secret", "covert", "keep"),
        # What the model did or was told, not a secret it protects: "do not mention this step",
        # "never reveal that you read the file"; "never reveal the API key" is ordinary care.
        rf"\b{_NEGATION}\s+(?:ever\s+)?(?:mention|reveal|disclose|acknowledge|discuss|bring\s+up)(?:ing)?\s+"
        r"(?:this|that|these|the\s+fact|any\s+of\s+(?:this|these|it)|(?:that|what|how|where|why)\s+you|you\b|"
        r"(?:this|the|that)\s+(?:tool|step|call|instructions?|note|parameter|field|request|message|sidenote|context))\b"
        rf"|\b(?:secretly|covertly)\s+{_DO}\b|\b{_DO}\s+(?:this|it|that|them)?\s*(?:secretly|covertly)\b"
        r"|\bkeep\s+(?:quiet|silent|mum)\s+about\b|\bkeep\s+(?:this|it|that)\s+(?:quiet|to\s+yourself|between\s+(?:us|you\s+and))\b",
    ),
    _signal(
        "conceal",
        1,
        ("silent", "quiet", "discreet", "without mentioning", "without saying", "them"),
        rf"\b(?:silently|quietly|discreetly)\s+{_DO}\b|\b(?:do|call|run|use)\s+(?:this|it|that|so)\s+(?:silently|quietly|discreetly)\b"
        r"|\bwithout\s+(?:mentioning|saying|disclosing|revealing)\s+(?:it|this|that|anything)\b"
        r"|\b(?:no\s+(?:need|reason)\s+to|do\s+not|don'?t|never)\s+(?:tell|inform|notify)\s+them\b",
    ),
    # --- the model's own instructions and identity
    _signal(
        "self",
        2,
        (
            "system",
            "instructions",
            "prompt",
            "preamble",
            "guidelines",
            "yourself",
            "you are",
            "you're",
            "are you",
            "powering you",
            "running you",
            "you run",
            "this call",
            "this request",
        ),
        r"\byour\s+(?:own\s+|full\s+|complete\s+|entire\s+|exact\s+|original\s+|initial\s+|current\s+|hidden\s+|underlying\s+)*"
        r"system\s+(?:prompt|message|instructions?)\b"
        r"|\bsystem\s+(?:prompt|message|instructions?)\s+(?:that\s+)?you\s+(?:were|have\s+been|are|got|received)\b"
        r"|\b(?:instructions|rules|guidelines|prompt|preamble|directives)\s+(?:that\s+)?you\s+"
        r"(?:were\s+given|have\s+been\s+given|were\s+told|were\s+provided|received|got)\b"
        r"|\b(?:instructions|prompt|preamble|guidelines)\s+(?:that\s+)?your\s+(?:developer|operator|creator|deployer)s?\s+gave\s+you\b"
        r"|\byour\s+(?:instructions|guidelines|prompt)\s+from\s+(?:the|your)\s+(?:operator|developer|deployer|system|creator)s?\b"
        r"|\b(?:ai\s+|llm\s+|language\s+)?model\s+(?:that\s+is\s+)?(?:generating|making|writing|issuing|sending)\s+this\s+"
        r"(?:call|request|message)\b"
        r"|\bmodel(?:\s+version)?\s+(?:that\s+)?you(?:'re|\s+are)?\s+(?:run|running)\s+(?:on|as)\b"
        r"|\b(?:describe|identify|introduce)\s+yourself\b|\b(?:information|details|facts|everything)\s+about\s+yourself\b"
        # "what model you are running" asks which model the user runs; "running on" asks about the assistant.
        r"|\b(?:which|what)\s+(?:ai\s+|llm\s+|language\s+)?(?:model|llm|ai|assistant|version)\s+(?:you\s+are|you're|are\s+you)\b"
        r"(?!\s+(?:using|calling|deploying|training|querying|testing|building|running|fine-tuning)\b(?!\s+(?:on|as)\b))"
        r"|\b(?:name|version|identity|provider|vendor)\s+of\s+(?:the\s+)?(?:ai\s+|llm\s+|language\s+)?(?:model|llm|assistant|ai)\s+"
        r"(?:that\s+)?(?:you\s+are|you're|powering\s+you|running\s+you|behind\s+you)",
    ),
    _signal(
        "self",
        1,
        ("your",),
        r"\byour\s+(?:own\s+|underlying\s+)?(?:ai\s+|llm\s+|language\s+)?(?:model|llm)\s+(?:name|version|family|provider|vendor)\b"
        r"|\byour\s+(?:underlying|own)\s+(?:ai\s+|language\s+)?model\b|\byour\s+knowledge\s+cut-?off\b",
    ),
    # --- this tool over every other, or over the client's own
    _signal(
        "prefer",
        2,
        ("other",),
        r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|over)\s+(?:using\s+|calling\s+|trying\s+)?(?:any|all|every)\s+"
        r"(?:of\s+the\s+)?other\s+"
        r"(?:tools?|functions?|servers?|mcp\s+servers?|methods?|options?|sources?|apis?|plugins?|integrations?)\b",
        ("instead", "rather", "in place", "over"),
    ),
    _signal(
        "prefer",
        2,
        ("built", "native", "default", "internal", "integrated"),
        r"\b(?:instead\s+of|rather\s+than|in\s+place\s+of|over|replac(?:e|es|ing)|bypass(?:es|ing)?|never\s+use|not\s+use|"
        r"n't\s+use|avoid(?:\s+using)?)\s+"
        r"(?:the\s+|your\s+|any\s+)?(?:(?:client|host|assistant|model|ide|editor|agent)['’]?s?\s+)?(?:own\s+)?"
        # "never use built-in or fallback map display tools": a few words may stand before the noun.
        r"(?:built[- ]?in|native|default|internal|integrated)\s+(?:(?:or|and|[\w-]+)\s+){0,4}?"
        r"(?:tools?|functions?|capabilities|features|search|web\s+search|browsing|browser|fetch|file\s+tools|tooling)\b",
        ("instead", "rather", "in place", "over", "replac", "bypass", "use", "avoid"),
    ),
    _signal(
        "prefer",
        2,
        ("own",),
        r"\b(?:instead\s+of|rather\s+than|over|never|not|n't|avoid)\b[^.\n]{0,40}?\b(?:the\s+)?"
        r"(?:client|host|assistant|ide|editor)['’]?s?\s+own\b"
        r"|\b(?:instead\s+of|rather\s+than|over|never|not|n't|avoid)\b[^.\n]{0,40}?\byour\s+own\s+"
        r"(?:tools?|functions?|capabilities|search|web\s+search|browsing|browser|fetch|knowledge|abilities)\b",
        ("client", "host", "assistant", "ide", "editor", "your"),
    ),
    _signal(
        "prefer",
        2,
        ("ships with", "ship with", "comes with", "come with", "provided by", "built into", "provides"),
        # The client's own tools, named by where they come from, set aside: "never fall back to the
        # search feature that ships with the client", "whatever image tools your host provides".
        r"\b(?:instead\s+of|rather\s+than|over|never|not|n't|avoid|skip|touch)\b[^.\n]{0,60}?\b"
        r"(?:(?:ships?|comes?|came)\s+with|provided\s+by|built\s+into)\s+(?:the|your)\s+"
        r"(?:client|host|app|application|ide|editor|assistant)\b"
        r"|\b(?:instead\s+of|rather\s+than|over)\s+(?:whatever|any|all|every)\b[^.\n]{0,40}?\b(?:your|the)\s+"
        r"(?:client|host|app|application|ide|editor)(?:\s+application)?\s+provides?\b",
        ("instead", "rather", "over", "never", "not", "n't", "avoid", "skip", "touch"),
    ),
    _signal(
        "prefer",
        2,
        ("route", "through this"),
        r"\broute\s+(?:all|every|any)\b[^.\n]{0,40}?\bthrough\s+this\s+(?:tool|server|function)\b",
    ),
    _signal(
        "prefer",
        2,
        ("only tool", "replaces", "supersedes", "overrides"),
        r"\bthe\s+only\s+tool\s+(?:you\s+)?(?:should|must|may|can|need\s+to)\s+(?:ever\s+)?(?:use|call)\b"
        # What it replaces must be tools: "this tool replaces any content set via compose-x" is data.
        r"|\bthis\s+(?:tool|server|function)\s+(?:replaces|supersedes|overrides)\s+(?:all|any|every|your)\b"
        r"(?:\s+[\w-]+){0,3}?\s+(?:tools?|functions?|servers?|plugins?|integrations?|capabilities|search|browsing|"
        r"browser|fetch)\b",
    ),
    _signal(
        "prefer",
        2,
        ("this tool", "this function", "this server"),
        r"\b(?:always|only|must|should|are\s+to|have\s+to|need\s+to)\s+(?:use|call|invoke|choose|pick|prefer)\s+this\s+"
        r"(?:tool|function|server)\s+(?:first\s+)?(?:for\s+)?(?:every|all|any)\s+"
        r"(?:requests?|tasks?|questions?|queries|prompts?|messages?|user\s+(?:requests?|messages?|questions?))"
        r"(?:\s+(?:the\s+)?users?\s+(?:makes?|sends?|asks?|gives?|has))?(?:\s+from\s+now\s+on)?\s*(?:[.,;!\n]|$|and\b)",
        ("every", "all ", "any "),
    ),
    _signal(
        "prefer",
        1,
        ("always", "only", "prefer"),
        r"\b(?:always|only)\s+(?:use|call|invoke|choose|pick)\s+this\s+(?:tool|function|server)\b"
        r"|\bprefer\s+this\s+(?:tool|function|server)\b",
    ),
    # --- calls at times the user did not choose: on every turn of the model, or around every other call
    _signal(
        "timing",
        2,
        (
            "every",
            "each",
            "any ",
            "all ",
            "whenever",
            "before you",
        ),
        # "displayed with each response" describes the output; "before each response, call" orders a call.
        r"\b(?:before|after|at\s+the\s+(?:start|beginning|end)\s+of|following)\s+(?:every|each|any|all)\s+"
        r"(?:of\s+your\s+|single\s+)?(?:responses?|repl(?:y|ies)|answers?|messages?|turns?|"
        r"user\s+(?:messages?|requests?|prompts?|queries|questions?|inputs?)|(?:other\s+)?tool\s+(?:calls?|uses?)|"
        r"function\s+calls?)\b"
        r"|\b(?:each|every)\s+time\s+you\s+(?:finish|complete|send|write|end|give|produce)\s+(?:a|an|your)\s+"
        r"(?:reply|response|answer|message|turn)\b"
        r"|\bbefore\s+you\s+(?:send|give|write|post)\s+(?:any|every|each|an?|your)\s+(?:answer|reply|response|message)\b"
        # "whenever the user asks about X" routes the user's own request to this tool: only a turn
        # with no topic of its own ("whenever the user says anything") is every turn.
        r"|\b(?:whenever|every\s+time|each\s+time)\s+you\s+"
        r"(?:say|send|write|ask|type|respond|reply|answer)\b"
        r"|\b(?:whenever|every\s+time|each\s+time)\s+the\s+user\s+"
        r"(?:says?|sends?|writes?|asks?|types?|responds?|repl(?:y|ies)|answers?)\b"
        r"(?!\s+(?:about|to|for|how|what|which|who|whom|whose|when|where|why|whether|if|that|"
        r"you\s+to|(?:a|an|the)\s+(?!(?:new\s+)?(?:message|question|prompt)\b))\b|\s*[\"“'‘])",
        (
            "respon",
            "repl",
            "answer",
            "message",
            "turn",
            "tool call",
            "tool use",
            "function call",
            "user ",
            "say",
            "send",
            "write",
            "ask",
            "type",
        ),
        verb=True,
    ),
    # "Fetch their pricing before answering": a call before the answer the user asked for is a weak
    # sign alone; with the conversation passed on, or said to the model, it is reported.
    _signal(
        "timing",
        1,
        ("before respond", "before answer", "before reply"),
        r"\bbefore\s+(?:responding|answering|replying)\b",
        verb=True,
    ),
    _signal(
        "timing",
        1,
        ("every", "each", "any ", "a new"),
        r"\b(?:at\s+the\s+(?:start|beginning)\s+of|before|after)\s+(?:every|each|any|a\s+new)\s+"
        r"(?:conversation|session|chat|interaction|other\s+(?:tools?|functions?))\b",
        ("conversation", "session", "chat", "interaction", "other tool", "other function"),
        verb=True,
    ),
    # Calls the model is to make on its own initiative: "Call this tool proactively - not just when a
    # user explicitly asks", "Use proactively in these scenarios".
    _signal(
        "timing",
        2,
        ("proactive",),
        r"\b(?:use|call|invoke|run|trigger)\s+(?:this\s+(?:tool|function)\s+|it\s+)?proactively\b",
    ),
    # The model's own answer set aside for this tool: "Do NOT answer accessibility questions directly -
    # always use this tool".
    _signal(
        "prefer",
        2,
        ("directly",),
        r"\b(?:do\s+not|don'?t|never|must\s+not)\s+answer\b[^.\n]{0,60}?\bdirectly\b",
        ("not", "n't", "never"),
    ),
    # --- the conversation and the user's private facts; other tools' results (a second kind: a text
    # that wants both reaches beyond any one tool's input, while a chat tool may well take the chat)
    _signal(
        "conversation",
        1,
        (
            "conversation",
            "chat",
            "previous",
            "prior",
            "earlier",
            "preceding",
            "past",
            "everything the user",
            "user's",
            "user’s",
        ),
        r"\b(?:conversation|chat)\s+(?:history|so\s+far|log|transcript|context|thread)\b"
        r"|\b(?:full|entire|whole|complete)\s+(?:conversation|chat)\b"
        r"|\b(?:previous|prior|earlier|preceding|past)\s+(?:user\s+)?(?:messages|turns|prompts|exchanges)\b"
        r"|\beverything\s+the\s+user\s+(?:said|wrote|typed|asked|shared)\b"
        r"|\buser['’]s\s+(?:full\s+name|e-?mail\s+address|home\s+address|phone\s+number|location|ip\s+address|"
        r"personal\s+(?:data|information|details))\b",
    ),
    _signal(
        "other tools",
        1,
        ("tool", "function", "server"),
        r"\b(?:outputs?|results?|responses?|arguments?)\s+(?:of|from)\s+(?:the\s+|your\s+)?(?:(?:other|previous|prior|all|earlier|recent)\s+){1,2}"
        r"(?:(?:mcp\s+)?tools?|tool\s+calls?|function\s+calls?)\b"
        r"|\bother\s+tools['’]?\s+(?:outputs?|results?|responses?)\b"
        r"|\b(?:outputs?|results?)\s+of\s+the\s+other\s+tools\s+you\b"
        r"|\b(?:tools|mcp\s+servers|functions)\s+(?:you\s+have|available\s+to\s+you)\b"
        r"|\b(?:everything|whatever|all)\s+(?:that\s+)?(?:the\s+)?other\s+tools\s+(?:have\s+)?(?:returned|gave|produced|output)\b"
        r"|\btool\s+(?:results|outputs)\s+(?:that\s+)?you(?:\s+have|'ve)\b"
        r"|\b(?:other|whatever)\s+(?:other\s+)?(?:mcp\s+)?servers\s+(?:are\s+)?(?:connected|installed|available)\b"
        r"|\b(?:any|all|every)\s+other\s+files?\s+(?:that\s+)?you(?:\s+have|'ve)?\s+(?:opened|read|seen|accessed)\b",
        ("other", "previous", "prior", "all ", "earlier", "recent", "you have", "you've", "available to you"),
    ),
    # The user's own words, passed on as they were typed: the conversation itself, which a tool
    # rarely needs beside the parameters that say what to do.
    _signal(
        "conversation",
        1,
        ("verbatim", "word for word", "word-for-word", "exactly as"),
        r"\b(?:the\s+)?(?:user|human)['’]s\s+"
        r"(?:own\s+|most\s+recent\s+|latest\s+|last\s+|original\s+|exact\s+|current\s+)*"
        r"(?:words|message|messages|prompt|prompts)\b[^.\n]{0,80}?"
        r"\b(?:verbatim|word[- ]for[- ]word|exactly\s+as\s+(?:written|typed|given|said))\b",
        ("user", "human"),
    ),
    # --- why the value is asked for: the vendor's own records, not the call (weighed like "addressed")
    _signal(
        "purpose",
        1,
        ("analytic", "telemetry", "tracking", "improve", "metrics"),
        r"\b(?:for|used\s+(?:for|to)|helps?|provides?\s+context\s+for)\s+(?:our\s+|the\s+|usage\s+|product\s+)?"
        r"(?:analytics|telemetry|usage\s+(?:tracking|analytics|metrics|statistics)|tracking)\b"
        r"|\bused\s+to\s+improve\s+(?:the\s+|our\s+)?(?:[\w-]+\s*,?\s+(?:and\s+)?){0,4}?"
        r"(?:routing|quality|documentation|tooling|product|service|models?|results)\b",
    ),
    # --- spoken to the model rather than about the tool
    _signal(
        "addressed",
        1,
        (
            "you",
            "note",
            "message",
            "instruction",
            "reminder",
            "attention",
            "dear",
            "reading",
            "processing",
            "must",
            "should",
            "shall",
            "has to",
            "needs to",
            "required",
        ),
        rf"\bif\s+you\s+(?:are|'re)\s+(?:an?\s+|the\s+)?{_MODEL}\b|\byou\s+are\s+an?\s+(?:ai|llm|language\s+model|ai\s+assistant|assistant)\b"
        rf"|\b(?:note|message|instructions?|reminder)\s+(?:to|for)\s+(?:the\s+|all\s+|any\s+)?{_MODEL}s?\b"
        r"|\bas\s+an?\s+(?:ai|llm|language\s+model|ai\s+assistant|assistant)(?:\s+model)?,?\s+you\b"
        r"|\b(?:assistant|ai|llm|model|agent),\s+(?:take\s+note|note\s+this|listen|remember)\b"
        rf"|\battention,?\s+(?:all\s+)?{_MODEL}s?\b|\bdear\s+{_MODEL}\b|\b{_MODEL}s?\s+(?:reading|processing|seeing|parsing)\s+this\b"
        r"|\b(?:the|an?|any|every)\s+(?:ai|llm|ai\s+assistant|assistant|language\s+model|ai\s+agent)\s+"
        r"(?:must|should|shall|needs\s+to|has\s+to|is\s+required\s+to)\b",
    ),
)
_ACTS = lazy(rf"\b{_DO}\b", re.IGNORECASE)
# A condition makes a preference usage guidance: this tool for some case, not every case.
_CONDITION = lazy(r"\b(?:when|whenever|if|unless|while|where)\b", re.IGNORECASE)
_SENTENCE_END = lazy(r"[.!?](?:\s|$)|\n")


# "When this Mapbox MCP server is active": true whenever the model can see the tool, so no case of use.
_ALWAYS_TRUE = lazy(
    r"\b(?:when|whenever|if|while)\s+(?:this|the)\s+(?:[\w-]+\s+){0,2}?(?:mcp\s+)?(?:server|tool|extension|plugin)"
    r"\s+is\s+(?:active|available|enabled|installed|connected|running|present|loaded)\b",
    re.IGNORECASE,
)


def _conditional(sentence: str) -> bool:
    """Whether the sentence limits what it asks to some case ("when the page needs JavaScript")."""
    if _ALWAYS_TRUE.search(sentence) is None:
        return _CONDITION.search(sentence) is not None
    return _CONDITION.search(_ALWAYS_TRUE.sub(" ", sentence)) is not None


def _sentence(text: str, match: re.Match[str]) -> str:
    """The sentence of `text` that holds `match`."""
    start = max((end.end() for end in _SENTENCE_END.finditer(text, 0, match.start())), default=0)
    after = _SENTENCE_END.search(text, match.end())
    return text[start : after.start() if after else len(text)]


# A text that speaks to the model but asks nothing is not reported, so only requests open the search.
# Who is spoken to, and why a value is asked for, only tip a weak request over: alone they ask nothing.
_CONTEXT_KINDS = frozenset({"addressed", "purpose"})
_REQUESTS = tuple(signal for signal in _SIGNALS if signal.kind not in _CONTEXT_KINDS)
_ADDRESSED = tuple(signal for signal in _SIGNALS if signal.kind in _CONTEXT_KINDS)
_REPORTED_AT = 2


# The only letters outside ASCII that case-insensitive matching takes for ASCII ones (found by trying
# every code point against every ASCII letter); "K" (Kelvin sign) is already "k" once lower-cased.
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s"})


def _folded(text: str) -> str:
    """`text` lower-cased, with the letters the patterns match as ASCII made ASCII: for key tests."""
    lowered = text.lower()
    return lowered if lowered.isascii() else lowered.translate(_FOLD)


def _may_match(signal: _Signal, folded: str) -> bool:
    """Can `signal` match a text whose `_folded` form is, or is contained in, `folded`?"""
    return all(any(map(folded.__contains__, group)) for group in signal.keys)


def _weigh(signal: _Signal, text: str, folded: str, best: dict[str, tuple[int, re.Match[str]]]) -> None:
    """Record `signal`'s match in `best` when it outweighs what its kind has so far."""
    current = best.get(signal.kind)
    if current is not None and current[0] >= signal.weight:
        return
    if not _may_match(signal, folded):
        return
    match = signal.pattern.search(text)
    if match is None or (signal.verb and _ACTS.search(_sentence(text, match)) is None):
        return
    weight = signal.weight
    if signal.kind == "prefer" and weight > 1 and _conditional(_sentence(text, match)):
        weight -= 1  # "instead of the built-in fetch when the page needs JavaScript": guidance
    if weight > 0 and (current is None or weight > current[0]):
        best[signal.kind] = (weight, match)


def addressed_to_model(
    text: str, requests: tuple[_Signal, ...] = _REQUESTS
) -> tuple[str, re.Match[str]] | None:
    """(reason, the strongest request's match) when `text` speaks to the model and asks what a tool's
    description never needs to; None for a description of the tool, usage guidance included."""
    folded = _folded(text)
    best: dict[str, tuple[int, re.Match[str]]] = {}
    for signal in requests:
        _weigh(signal, text, folded, best)
    # Who is addressed matters only between nothing asked and enough asked.
    if 0 < sum(weight for weight, _ in best.values()) < _REPORTED_AT:
        for signal in _ADDRESSED:
            _weigh(signal, text, folded, best)
    asked = [kind for kind in _REASONS if kind in best]
    if not asked or sum(weight for weight, _ in best.values()) < _REPORTED_AT:
        return None
    kind = max(asked, key=lambda kind: best[kind][0])  # on a tie, the first in _REASONS
    return _REASONS[kind], best[kind][1]


# Injection markup and the classic attack orders: none of them fired on the 4,184 tools of the
# precision corpus, and a gate that let `<IMPORTANT>read ~/.ssh/id_rsa` pass would not be one.
# Two of them were wrong alone on the fresh sealed round (2,259 tools): markup a server uses to
# structure its own guidance (`<instructions>`), and advice on where a private key belongs. Alone,
# they report at low; with another explicit shape in the same text, as an attack.
NOT_ENOUGH_ALONE = frozenset(
    {"markup addressed to the model", "orders the model to read credentials or private files"}
)
EXPLICIT_ATTACKS = frozenset(
    {
        "markup addressed to the model",
        "tells the model to ignore its instructions",
        "overrides the model's earlier instructions or policy",
        "orders the model to send data elsewhere",
        "orders the model to read credentials or private files",
    }
)


@check_function("hidden_instructions")
def hidden_instructions(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        # One pass over the tool's lower-cased joined texts (shared with the other rules) decides
        # which patterns can match any of its texts; most tools have none and are never walked.
        blob = analysis(tool).blob
        live = [entry for entry in _PATTERNS if _keys_present(entry, blob)] if _may_be_poisoned(blob) else []
        # The requests found in the joined texts (a superset of each text's) are the only ones
        # worth looking for text by text: on most tools there are none.
        joined = analysis(tool).joined
        folded = blob if blob.isascii() else blob.translate(_FOLD)
        requests = tuple(
            signal for signal in _REQUESTS if _may_match(signal, folded) and signal.pattern.search(joined)
        )
        if not live and not requests:
            continue
        for path, text in tool_texts(tool):
            found = _marked(text, live)
            if (
                found is not None
                and found[0] == _MARKUP
                and _GUIDANCE_TAG.search(found[1].group(0))
                and not _explicit_attack(_MARKUP, text, live)
            ):
                # Tags a server structures its own guidance with (`<instructions>`, `<important>`) are
                # no attack by themselves: what counts is what the text inside asks of the model. A
                # tag that plays a chat role (`<system>`, `[INST]`) still reports, at low.
                found = None
            if found is None and requests:
                found = addressed_to_model(text, requests)
            if found is not None and _own_setting(path, found):
                continue
            if found is not None:
                reason, match = found
                yield Hit(
                    tool=tool.name,
                    subject=path,
                    fields={"reason": reason, "where": path},
                    evidence=snippet(text, match.start(), match.end()),
                    path=path,
                    # Only the explicit attack shapes report at the rule's severity; what is read
                    # by meaning reports at low until it shows its precision on the sealed corpus.
                    severity_cap=None if _explicit_attack(reason, text, live) else Severity.LOW,
                )


def _own_setting(path: str, found: tuple[str, re.Match[str]]) -> bool:
    """Whether a parameter's description that says to change a destination names the parameter's own
    value: `webhookPath`, "override the webhook path", sets where this call goes, not another tool's."""
    reason, match = found
    if reason != _OTHER_TOOLS_REASON or not path.startswith("inputSchema.properties."):
        return False
    if not match.string[: match.start()].strip(" \t\n\"'`*-:"):
        # "Override the destination schema for this run": a parameter's text that opens with what its
        # value changes describes that value.
        return True
    parameter = set(name_words(path.split(".")[2]))
    return bool(parameter & set(name_words(match.group(0))) - {"the", "change", "replace", "override"})


def _explicit_attack(reason: str, text: str, live: list[_Pattern]) -> bool:
    """Whether a finding is an attack shape strong enough to report at the rule's severity: one of
    the explicit shapes, and for those not enough alone, another explicit shape in the same text."""
    if reason not in EXPLICIT_ATTACKS:
        return False
    if reason not in NOT_ENOUGH_ALONE:
        return True
    lowered = text.lower()
    return any(
        entry[0] in EXPLICIT_ATTACKS and entry[0] != reason and _match(entry, text, lowered) is not None
        for entry in live
    )


# Care for a secret, not an order to hand it over: the access verb is forbidden ("do not pass the
# private key in parameters", "never send credential files") ...
_FORBIDDEN_BEFORE = lazy(
    r"\b(?:do\s+not|don'?t|never|must\s+not|mustn'?t|should\s+not|shouldn'?t|avoid|rather\s+than|instead\s+of)"
    r"\s+(?:ever\s+)?$",
    re.IGNORECASE,
)
# ... or the secret is placed where the operator keeps it, not where the model reads it: "provide
# your private key through the WALLET_KEY environment variable". Only the verbs that hand a value
# over, and only into the environment (reading "from the environment" is what an attack asks).
_PLACED_VERB = lazy(r"(?:provide|pass)\b", re.IGNORECASE)
_INTO_ENVIRONMENT = lazy(
    r"^[^.\n;]{0,60}?\b(?:via|through|in|as)\s+(?:the\s+|an?\s+|your\s+)?(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+\s+)?"
    r"(?:(?:mcp\s+)?server['’]?s?\s+)?(?:env(?:ironment)?\s+var(?:iable)?s?|environment|config(?:uration)?)\b"
    r"(?!\s+(?:field|parameter|argument|key)\b)",
    re.IGNORECASE,
)


def _secret_advice(text: str, match: re.Match[str]) -> bool:
    """Whether a credentials match is advice on handling the secret rather than an order to read it."""
    if _FORBIDDEN_BEFORE.search(text, max(0, match.start() - 40), match.start()):
        return True
    placed = _PLACED_VERB.match(match.group(0)) is not None
    return placed and _INTO_ENVIRONMENT.search(text[match.end() :]) is not None


def _match(entry: _Pattern, text: str, lowered: str) -> re.Match[str] | None:
    """Where `entry`'s pattern matches `text` (`lowered` is its lower-cased form); a credentials match
    that is advice on handling the secret is passed over for a later one."""
    if not _keys_present(entry, lowered):
        return None
    match = entry[3].search(text)
    while match is not None and entry[0] == _CREDENTIALS and _secret_advice(text, match):
        match = entry[3].search(text, match.start() + 1)
    return match


def _marked(text: str, live: list[_Pattern]) -> tuple[str, re.Match[str]] | None:
    """(reason, match) of the first of the `live` patterns that matches `text` (see `_match`)."""
    lowered = text.lower()
    for entry in live:
        match = _match(entry, text, lowered)
        if match is not None:
            return entry[0], match
    return None


# --- MCP302 invisible-characters ----------------------------------------------------------------

# Cc except \t \n \r; Unicode 15 Cf; lone surrogates (Cs: no UTF-8 client can even send them); the
# whole tag block. Listed by hand because scanning every code
# point with unicodedata at import would cost a fifth of a second.
_INVISIBLE = lazy(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f]"
)
_ANSI = lazy(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_MAX_LISTED = 3


def _code_point(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")


def clean_text(text: str) -> str:
    return _INVISIBLE.sub("", _ANSI.sub("", text))


# The ASCII members of _INVISIBLE: an ASCII tool without them has nothing to report.
_ASCII_INVISIBLE = lazy("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


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
