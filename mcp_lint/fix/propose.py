"""The propose stage: one proposed description per smelly tool, what every report suggests and what
`--fix` starts from.

`propose` makes the mechanical fixes the tool's findings call for (`mechanical.repair`), grounds the
tool (schema, annotations, confusable siblings, traces), lets the offline augmentor compose the
smallest rewrite that clears its smells under the offline jury, and says which smells it clears.
`add_proposals` runs it once for each tool with a rubric finding or a mechanical fix and puts the
result on the server's `proposals`, with the suggestion text on the tool's rubric findings. A tool
whose description carries hidden instructions (a security finding on its description other than
invisible characters, which are removed mechanically) gets no rewrite: keeping the original's text
would keep the attack, so those must be removed by hand first. A description in another language than
English gets its mechanical fixes only: mcp-lint writes English, and mixing it in helps no reader.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mcp_lint.check.functions._util import words
from mcp_lint.check.functions.schema.undocumented_parameter import said_in_description, self_explanatory
from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.check.tokens import estimate_tokens
from mcp_lint.fix.compose import (
    PART_OF,
    RETURNS,
    Composition,
    compose,
    echo_purpose,
    empty,
    english,
    joined,
    listed,
    restates_name,
)
from mcp_lint.fix.grounding import Grounding, ground, server_spellings, trimmed
from mcp_lint.fix.mechanical import DANGLING, INVISIBLE, Repair, flat_name, repair
from mcp_lint.model import (
    COMPONENTS,
    OFFLINE_JURY,
    Category,
    Component,
    Finding,
    Proposal,
    Relint,
    RunResult,
    ServerReport,
    ServerSnapshot,
    Tool,
    replaced,
)
from mcp_lint.overrides import Part
from mcp_lint.schema_walk import property_variants
from mcp_lint.traces import TraceRecord
from mcp_lint.words import name_words, singular

if TYPE_CHECKING:
    from mcp_lint.jury.offline import OfflineJury

SUGGESTION_HEAD = "Proposed description"
# What each added part really is, as the claim names it.
PART_SAYS: Mapping[str, str] = {
    "purpose": "what it does or returns",
    "guidelines": "when to use a rival instead",
    "limitations": "recorded failures",
    "parameters": "recorded parameter values",
    "examples": "a recorded call",
}
NOT_GROUNDED = "Not grounded:"
EMPTY_FILLED = "MCP101 a purpose from its name and inputs for the empty description"
ECHO = "MCP103"
ECHO_FILLED = "MCP103 the input it acts on, added to a description that only restates the name"
NOTHING_GROUNDED = "nothing is known of it that an agent cannot already see in its listing"
NOT_ENGLISH = (
    "the description is not in English; mcp-lint writes its additions in English only and does not "
    "mix languages, so it adds nothing to it"
)


def rubric_codes(catalogue: Catalogue | None = None) -> dict[Component, str]:
    """The rubric rule of each component (its `component` option in `rules/`): what a report calls
    the smell a rewrite clears."""
    found: dict[Component, str] = {}
    for rule in (catalogue or load_catalogue()).rules:
        if rule.component is not None:
            found.setdefault(rule.component, rule.code)
    return found


def thresholds() -> dict[str, float]:
    from mcp_lint.jury.rubric import load_rubric

    rubric = load_rubric()
    return {name: float(rubric.components[name].threshold) for name in COMPONENTS}


def refusal(findings: Iterable[Finding]) -> str | None:
    """Why the description must not be rewritten by keeping its text: a security finding (hidden
    instructions) on it, as the run's own rules and settings found it. Invisible characters are no
    reason: the rewrite removes them (`mechanical.repair`)."""
    attacks = sorted(
        (
            finding
            for finding in findings
            if finding.category is Category.SECURITY
            and finding.path == "description"
            and finding.code != INVISIBLE
        ),
        key=lambda finding: finding.code,
    )
    if not attacks:
        return None
    first = attacks[0]
    return f"the description carries {first.rule.replace('-', ' ')} ({first.code}); remove them by hand first"


def repairable(findings: Iterable[Finding]) -> bool:
    """Whether some finding calls for a mechanical fix of the description (see `mechanical`)."""
    return any(
        finding.code in (INVISIBLE, DANGLING) and finding.path == "description" for finding in findings
    )


def with_text(tool: Tool, description: str) -> Tool:
    if description == tool.description:
        return tool
    raw = dict(tool.raw)
    raw["description"] = description
    return Tool(tool.name, raw, tool.sdk_rejection, tool.named)


def relinter(tool: Tool, company: Sequence[Tool], relint: Relint | None) -> Callable[[str], tuple[str, ...]]:
    """What the run's deterministic rules find in a candidate text of `tool` that they do not find in
    its own: each new finding as "MCP203 Description mentions ...". `relint` is the check stage's
    (`RunResult.relint`: the rules the run selected, with its options and settings), run over the tool
    beside `company` (the rivals a rewrite may name); a rewrite must never add a finding, so a
    candidate with one is not proposed. Without a re-lint (a result no check stage made) nothing is
    found."""
    others = tuple(peer for peer in company if peer.name != tool.name)

    def found(text: str) -> dict[tuple[str, str | None], str]:
        if relint is None:
            return {}
        snapshot = ServerSnapshot(name="relint", tools=(with_text(tool, text), *others))
        return {
            (finding.code, finding.subject): f"{finding.code} {finding.message}"
            for finding in relint(snapshot)
            if finding.tool == tool.name
        }

    own: list[dict[tuple[str, str | None], str]] = []  # the original's findings, once asked
    memo: dict[str, tuple[str, ...]] = {}

    def added(text: str) -> tuple[str, ...]:
        if not own:
            own.append(found(tool.description))
        if text not in memo:
            memo[text] = tuple(message for key, message in sorted(found(text).items()) if key not in own[0])
        return memo[text]

    return added


RECORD_HINT = "record calls with `mcp-lint record`, then pass --traces: real results and failures get added"


# Parameter name words that ask for an amount: the most it accepts is a limit worth stating.
_AMOUNT_WORDS = frozenset(("limit", "max", "maximum", "count", "size", "top", "num", "results", "per"))
# What a bound on an ID or a time is (`maxId`, `max_date`): a filter, not a count, so no "the most it
# accepts" is asked of it.
_BOUND_NOT_COUNT = frozenset(("id", "ids", "uuid", "key", "date", "time", "timestamp", "at", "version"))
# Verbs whose result an agent needs and cannot guess: what a new thing is called (its ID) comes back.
_MAKES = frozenset(("create", "add", "insert", "fork", "copy", "clone", "duplicate", "upload", "import"))
# Verbs that take something away: whether it can be had back is a limit worth stating.
_TAKES = frozenset(("delete", "remove", "destroy", "drop", "erase", "purge", "uninstall"))
_NAME_VERBS = _MAKES | _TAKES
# What a description says when it tells whether a deletion can be undone.
_PERMANENCE = re.compile(
    r"\b(?:permanent\w*|irreversibl\w*|undo\w*|undone|recover\w*|restor\w*|trash|bin|archiv\w*|soft)\b",
    re.IGNORECASE,
)
# An example the description already shows: a call, a JSON object, a fenced block or "e.g.".
_SHOWN = re.compile(r"\b(?:e\.g\.|for example|example)|```|\{\s*\"", re.IGNORECASE)
UNDOCUMENTED = "MCP202"
_PREPOSITIONS = frozenset(("to", "in", "into", "on", "for", "from", "of", "with", "at", "by"))


def _verb(tool: Tool) -> str:
    """The verb the tool's name opens with, after a product prefix (`jira_create_issue`), or closes
    with (`projects-list`); "" when neither end is one of the verbs below."""
    words = [word.lower() for word in name_words(tool.name)]
    for word in (*words[:2], *words[-1:]):
        if word in _NAME_VERBS:
            return word
    return ""


def _takes_off(tool: Tool) -> bool:
    """Whether the tool takes one thing off another rather than deleting it: `remove_member_from_card`,
    or a first sentence "Remove a label from an email". Nothing is lost to recover. Only "remove" reads
    so: `delete_footnote_from_document` deletes the footnote."""
    if _verb(tool) != "remove":
        return False
    words = [word.lower() for word in name_words(tool.name)]
    first = tool.description.strip().split(".", 1)[0].lower()
    return "from" in words or bool(re.match(r"^removes?\b.*\bfrom\b", first))


# Things that are a tie between two others or a pointer to one kept elsewhere: deleting them loses
# no content (the member, the linked item, the saved place stay), and they are made again at will.
_TIES = frozenset(
    words(
        "member membership link association assignment subscription follower collaborator watcher "
        "reaction bookmark favorite favourite alias shortcut star pin"
    )
)
# A qualifier of a thing kept as a pointer: a saved place, a favourite search.
_POINTERS = frozenset(words("saved favorite favourite starred pinned bookmarked"))


def _unties(tool: Tool) -> bool:
    """Whether what the tool deletes is a tie or a pointer rather than content (`delete_project_member`,
    `remove_saved_location`, `delete_issue_link`): nothing is lost that whether it can be recovered
    would matter for."""
    words_ = [word.lower() for word in name_words(tool.name)]
    verb = _verb(tool)
    if verb not in words_:
        return False
    after = [word for word in words_[words_.index(verb) + 1 :] if word not in ("by", "id")]
    return bool(after) and (singular(after[-1]) in _TIES or bool(_POINTERS & set(after)))


def _says_bound(tool: Tool, name: str) -> bool:
    """Whether the description says something about how much `name` takes: a number next to it."""
    text = tool.description
    return any(
        re.search(r"\d", text[max(0, found.start() - 40) : found.end() + 40])
        for found in re.finditer(re.escape(name), text)
    )


def _limits(tool: Tool) -> list[str]:
    """What limits a maintainer can state that the listing does not: the largest value of an amount
    parameter with no `maximum` that the description gives no number for, and for a tool whose name
    says it deletes, whether that can be undone when the description does not say."""
    items: list[str] = []
    amounts = [
        name
        for name, schema in tool.properties.items()
        if isinstance(schema, Mapping)
        and schema.get("type") in ("integer", "number")
        and "maximum" not in schema
        and "exclusiveMaximum" not in schema
        and _AMOUNT_WORDS & set(name_words(name))
        and name_words(name)[-1].lower() not in _BOUND_NOT_COUNT
        and not _says_bound(tool, name)
        and not re.search(r"\d", str(schema.get("description") or ""))
    ]
    if amounts:
        shown = joined([f"`{name}`" for name in amounts[:2]], "or")
        items.append(f"state the most {shown} accepts (no maximum in the schema)")
    if (
        _verb(tool) in _TAKES
        and not _PERMANENCE.search(tool.description)
        and not _takes_off(tool)
        and not _unties(tool)
    ):
        items.append("say whether what it deletes can be recovered")
    return items


def _taken_id(tool: Tool, peers: Sequence[Tool]) -> tuple[str, str, str] | None:
    """For a tool that makes something (`create_board`), the ID of what it makes that another tool of
    the server takes (`get_board` takes `board_id`): (the object, the parameter, that tool). An agent
    that creates one to work on it needs that ID back, so whether it comes back is worth saying.

    A thing of several words (`create_email_campaign`) is another kind than its last word says: a
    tool taking a bare `campaign_id` takes it only when its own name is a verb and the same thing
    (`get_email_campaign`); one whose ID is the whole (`email_campaign_id`) takes it wherever. The
    tools whose name says the thing come first, so a tool that merely shares the ID's word is not
    the one named."""
    words = [word.lower() for word in name_words(tool.name)]
    if _verb(tool) not in words:
        return None
    after = words[words.index(_verb(tool)) + 1 :]
    cut = next((index for index, word in enumerate(after) if word in _PREPOSITIONS), len(after))
    kind = [word for word in after[:cut] if word not in _NOT_OF_THE_KIND]  # `add_card_to_list` makes a card
    if not kind:
        return None
    thing = singular(kind[-1])
    kind = [*kind[:-1], thing]
    whole = {"".join(kind) + "id", "".join(kind) + "ids"}
    bare = {f"{thing}id", f"{thing}ids"}
    if _verb(tool) == "add" and any(flat_name(str(name)) in whole | bare for name in tool.properties):
        # "add" both makes and attaches; one given the thing's own ID attaches a thing that exists
        # (`add_label_to_issue(label_id)`): nothing new comes back. A copy, fork or clone is given
        # its source's ID and does make a new one; a create given an ID (`eventId`) may be left to
        # make one.
        return None

    prefix = words[: words.index(_verb(tool))]  # `ebay_` of `ebay_create_email_campaign`

    def says_the_thing(peer: Tool) -> bool:
        # Its name is the same prefix, one verb and the thing: `ebay_get_email_campaign`, not
        # `get_app_card_item` for a card item nor `get_item_price_markdown_promotion` for an item
        # promotion (other words before or inside the thing make it another kind).
        said = [singular(word.lower()) for word in name_words(peer.name)]
        start = len(prefix) + 1
        return said[: len(prefix)] == prefix and said[start : start + len(kind)] == kind

    others = sorted(
        (peer for peer in peers if peer.name != tool.name), key=lambda peer: not says_the_thing(peer)
    )
    for peer in others:
        for name in peer.properties:
            flat = flat_name(str(name))
            if flat in whole or (flat in bare and (len(kind) == 1 or says_the_thing(peer))):
                return " ".join(kind), str(name), peer.name
    return None


# Words of a made thing's name that say no kind of it: `create_new_board` makes a board.
_NOT_OF_THE_KIND = frozenset(("new", "a", "an", "the"))


# Last words of a name that say what to send whatever the tool: an ID, a name, a title.
_SAYS_ITSELF = frozenset(words("id ids uuid key slug name title number index"))


def _plain(tool: Tool, name: str) -> bool:
    """Whether an undescribed parameter needs no description: the description already explains it,
    or its name says what to send in any tool (`list_id`, `title`, `page`, `latitude`, a switch like
    `include_archived`). Not a word the server merely shares between tools (`symbol`), nor the
    tool's own object (`option_symbol` of `options_parse_symbol`): both are reported at low, but
    what format they take is often the one thing to write."""
    prop = tool.properties.get(name)
    if said_in_description(tool, name, prop):
        return True
    parts = [word.lower() for word in name_words(name)]
    own = {singular(word.lower()) for word in name_words(tool.name)}
    if (
        isinstance(prop, Mapping)
        and prop.get("type") == "string"
        and parts
        and singular(parts[-1]) in own
        and parts[-1] not in _SAYS_ITSELF
    ):
        return False
    return self_explanatory(tool, name, prop, Counter())


def _described(tool: Tool, name: str) -> bool:
    """Whether the parameter has a description of its own (in any of its variants)."""
    root = tool.input_schema
    return any(
        isinstance(text := variant.get("description"), str) and bool(text.strip())
        for variant in property_variants(root, tool.properties.get(name))
    )


def checklist(
    grounding: Grounding,
    targets: Sequence[str],
    findings: Sequence[Finding] = (),
    peers: Sequence[Tool] = (),
) -> tuple[str, ...]:
    """What a maintainer should write, for a tool with no grounded rewrite: for each smelly component,
    only what a fact about this tool calls for, and nothing the description already says. A
    component with no such fact gets no item (no generic advice):
    - purpose: an empty description; else, for a tool that makes something (create, add, fork,
      upload...) whose ID another tool of the server (`peers`) takes, whether it returns that ID,
      when neither an output schema nor the description says what it returns (an "add" given that
      ID itself attaches a thing that exists, and is not asked);
    - guidelines: when to use it rather than a sibling an agent would confuse it with;
    - parameters: the parameters the run's undocumented-parameter findings (`MCP202`) name, so the
      list agrees with them (a parameter the description explains is not one), asked whether or
      not the parameters component smells; one with a description of its own is reported for the
      fields inside it, and those are what is asked for;
    - limitations: the most an amount parameter accepts (a count or limit, not a bound on an ID or
      a time like `maxId`), when neither schema nor text gives a number;
      whether a deletion can be undone, when the text does not say;
    - examples: one example call, only for an input with nested fields and no example in the text."""
    tool = grounding.tool
    items: list[str] = []
    flagged = {
        finding.subject
        for finding in findings
        if finding.code == UNDOCUMENTED and finding.tool == tool.name and finding.subject
    }
    # In the schema's order; a name that says what to send in any tool (`list_id`, `title`) or one
    # the description already explains is not asked for: its description would only repeat it.
    bare = [name for name in tool.properties if name in flagged and not _plain(tool, name)]
    # A parameter described itself is reported for the fields inside it that nothing describes.
    inner = [name for name in bare if _described(tool, name)]
    bare = [name for name in bare if name not in inner]
    describe = [f"describe {listed(bare)} (no description)"] if bare else []
    describe += [f"describe the fields inside {listed(inner)} (they have no description)"] if inner else []
    for component in targets:
        if component == "purpose":
            if empty(tool.description):
                items.append("say what it does and to what")
            elif (
                not tool.raw.get("outputSchema")
                and not RETURNS.search(tool.description)
                and _verb(tool) in _MAKES  # after the cheaper tests: it splits the name
                and (taken := _taken_id(tool, peers))
            ):
                items.append(
                    f"say whether it returns the new {taken[0]}'s ID (`{taken[2]}` takes `{taken[1]}`)"
                )
        elif component == "guidelines" and grounding.rivals:
            names = joined([f"`{rival.name}`" for rival in grounding.rivals], "or")
            items.append(f"say when to use it rather than {names}")
        elif component == "parameters" and describe:
            items.extend(describe)
        elif component == "limitations":
            items.extend(_limits(tool))
        elif component == "examples" and not _SHOWN.search(tool.description):
            nested = [
                item.path
                for item in grounding.parameters
                if item.required and item.fields and "." not in item.path
            ]
            if nested:
                items.append(f"show one example call with a real value of {listed(nested[:2])}")
    if describe and "parameters" not in targets:
        # The run reports these parameters (MCP202) whether or not the jury smells the parameters:
        # the list of what to write agrees with the findings shown beside it.
        items.extend(describe)
    return tuple(items)


def propose(
    server: str,
    tool: Tool,
    peers: Sequence[Tool],
    scores: Mapping[str, float],
    traces: Sequence[TraceRecord] = (),
    components: Collection[Part] | None = None,
    limits: Mapping[str, float] | None = None,
    refused: str | None = None,
    names: Sequence[str] = (),
    known: Mapping[str, float] | None = None,
    findings: Sequence[Finding] = (),
    search: bool = True,
    relint: Relint | None = None,
    spelt: Mapping[str, str] | None = None,
) -> Proposal:
    """The offline augmentor's rewrite of `tool`, made for the components `scores` finds smelly (or
    for the parts `components` names), after the mechanical fixes `findings` call for; none when
    `refused` says why (see `refusal`).

    `peers` are the server's tools, among which the rivals an agent would confuse it with are found.
    Candidates are scored by the offline jury with the server's other tool `names`, as the jury stage
    scores the tool, so what a proposal says it clears is what the run's offline jury will find;
    `known` is that jury's score of the original when the run already has it. Without `search` (the
    run's jury is another), the grounded parts of the smelly components are added as they are. `relint`
    is the check stage's re-lint (see `relinter`); `spelt` is the server's `spellings`, made here
    from `peers` when None."""
    limits = dict(limits) if limits is not None else thresholds()
    targets = tuple(name for name in COMPONENTS if scores.get(name, 5.0) < limits.get(name, 3.0))
    if refused is not None:
        return Proposal(server, tool.name, tool.description, targets, refused=refused)
    # Without a finding that calls for one, `repair` leaves the text as it is: the server's names
    # are listed only for a tool that needs them (listing them per tool is quadratic in the tools).
    fixed = Repair(tool.description)
    if repairable(findings):
        fixed = repair(tool, findings, [peer.name for peer in peers])
    base = with_text(tool, fixed.text)

    def repaired_only(why: str) -> Proposal:
        if not fixed.notes:
            return Proposal(server, tool.name, tool.description, targets, refused=why)
        return Proposal(
            server,
            tool.name,
            tool.description,
            targets,
            description=fixed.text,
            repairs=fixed.notes,
            note=why,
        )

    if not english(fixed.text):
        return repaired_only(NOT_ENGLISH)
    if not targets:
        return repaired_only("no rubric smell")
    grounding = ground(base, peers, traces, spelt)
    offline = _offline_jury().text_scorer(tool, names)
    scored: dict[str, dict[str, float]] = {}
    if known is not None and not fixed.notes:
        scored[tool.description] = {str(name): float(value) for name, value in known.items()}

    def score(text: str) -> dict[str, float]:
        # The search asks about the same candidate texts more than once.
        if text not in scored:
            scored[text] = offline(text)
        return scored[text]

    if components is None and not search:
        # Another jury scores this run: it, not the offline jury, says what the parts clear.
        components = tuple(dict.fromkeys(part for name in targets if (part := PART_OF.get(name))))
    rival_names = {rival.name for rival in grounding.rivals}
    company = [peer for peer in peers if peer.name in rival_names] if rival_names else []
    added = relinter(base, company, relint)

    offences: list[str] = []  # the first new finding a candidate brought, for the reason given

    def clean(text: str) -> bool:
        found = added(text)
        if found and not offences:
            offences.append(found[0])
        return not found

    composition: Composition | None = compose(grounding, targets, limits, score, components, clean)
    if composition is None and empty(base.description):
        # An empty description says nothing at all: what the name and inputs say is better than it,
        # whatever the jury thinks, so it is made like a mechanical fix.
        purpose: tuple[Part, ...] = ("purpose",)
        composition = compose(grounding, targets, limits, score, purpose, clean)
        if composition is not None:
            fixed = Repair(fixed.text, (*fixed.notes, EMPTY_FILLED))
    named = composition is not None and empty(base.description)
    if (
        composition is None
        and (components is None or "purpose" in components)
        and (any(finding.code == ECHO for finding in findings) or restates_name(base.description, tool.name))
        and (sentence := echo_purpose(grounding)) is not None
        and clean(sentence)
    ):
        # A description that only says what the name says gets the input that says what it acts
        # on, in its own words (see `echo_purpose`): like an empty one's purpose, it is certain.
        composition = Composition(sentence, {"purpose": sentence}, ("purpose",), {})
        reported = any(finding.code == ECHO for finding in findings)
        fixed = Repair(fixed.text, (*fixed.notes, ECHO_FILLED if reported else ECHO_FILLED[len(ECHO) + 1 :]))
        named = True
    if composition is None:
        todo = checklist(grounding, targets, findings, peers)
        record = not traces
        why = NOTHING_GROUNDED
        if offences:
            why = f"each grounded addition would bring a new finding ({trimmed(offences[0], 100)})"
        if not fixed.notes:
            return Proposal(
                server,
                tool.name,
                tool.description,
                targets,
                refused=why,
                checklist=todo,
                record=record,
            )
        return replace(repaired_only(why), checklist=todo, record=record)
    after = score(composition.description)
    # No examples without an example, whatever the score: a rewrite without a real call does not fix
    # "no examples", even when the jury is satisfied by more prose.
    clears = tuple(
        name
        for name in targets
        if after[name] >= limits.get(name, 3.0) and not (name == "examples" and name in composition.absent)
    )
    return Proposal(
        server,
        tool.name,
        tool.description,
        targets,
        description=composition.description,
        parts=composition.parts,
        touched=composition.touched,
        scores=after,
        clears=clears,
        absent=composition.absent,
        repairs=fixed.notes,
        before={name: float(scores[name]) for name in COMPONENTS if name in scores},
        grounded_in={part: _source(part, grounding, named) for part in composition.touched},
    )


_JURY: list[type[OfflineJury]] = []  # the offline jury's class, once its module is imported


def _offline_jury() -> OfflineJury:
    """A new offline jury. Its module is imported by the first proposal that needs it (a run that
    proposes nothing never loads the jury), then read from `_JURY`: an import statement run per
    tool costs a few microseconds, more than making the jury."""
    if not _JURY:
        from mcp_lint.jury.offline import OfflineJury

        _JURY.append(OfflineJury)
    return _JURY[0]()


def _source(part: str, grounding: Grounding, named: bool = False) -> str:
    """What the added `part` rests on (see `Proposal.grounded_in`); `named`: the purpose comes from
    the name and inputs (an empty or name-echoing description)."""
    if part == "guidelines":
        return joined([f"`{rival.name}`" for rival in grounding.rivals]) + ": descriptions and schemas"
    if part == "purpose" and named:
        return "its name and input schema"
    return "recorded calls (--traces)"


def suggestion_text(
    proposal: Proposal, offline: bool = True, codes: Mapping[Component, str] | None = None
) -> str:
    """The suggestion every rubric finding of the tool shows: the description to paste, first line
    saying which smells it clears (by the offline jury; other juries re-score under `--fix`)."""
    by_component = codes if codes is not None else rubric_codes()

    def _codes(components: Sequence[Component]) -> str:
        return ", ".join(by_component[name] for name in components)

    if proposal.description is None:
        hint = proposal.record
        if proposal.checklist:
            text = f"No grounded rewrite. Write by hand: {'; '.join(proposal.checklist)}."
            return text + (f" Or {RECORD_HINT}." if hint else "")
        return f"No grounded rewrite: {proposal.refused}" + (f"; {RECORD_HINT}." if hint else ".")
    left = [name for name in proposal.targets if name not in proposal.clears]

    def _moved(name: Component) -> str:
        before, after = proposal.before.get(name), proposal.scores.get(name)
        if before is None or after is None:
            return by_component[name]
        return f"{by_component[name]} {before:.1f} -> {after:.1f}"

    if offline:
        # What the offline jury's re-score of this very text shows, component by component.
        claim = "clears " + ", ".join(map(_moved, proposal.clears)) if proposal.clears else "clears no smell"
        if left:
            claim += "; not " + ", ".join(map(_moved, left))
    else:
        claim = f"written for {_codes(proposal.targets)}; `check --fix` re-scores it with your jury"
    # A tool with no smell (a mechanical fix only) has nothing to claim.
    said = [claim] if proposal.targets else []
    if proposal.repairs:
        said.insert(0, "fixes " + ", ".join(proposal.repairs))
    if proposal.touched:
        said.append("adds " + ", ".join(PART_SAYS.get(part, part) for part in proposal.touched))
    elif proposal.note and proposal.targets:
        said.append(f"adds nothing: {proposal.note}")
    head = f"{SUGGESTION_HEAD} ({'; '.join(said)}):"
    lines = [head, proposal.description]
    if proposal.absent:
        lines.append(
            f"{NOT_GROUNDED} " + "; ".join(f"{part} ({why})" for part, why in proposal.absent.items()) + "."
        )
    return "\n".join(lines)


def over_budget(original: str, description: str, touched: Collection[str], max_tokens: int) -> int | None:
    """The tokens of `description` when it breaks the description budget, else None: it is over
    `max_tokens`, longer than the `original`, and adds a part (`touched`). A mechanical fix alone
    (a tool name respelt, an invisible character dropped) adds nothing of its own, so an original
    already over the budget may still get it, although a respelt name may cost a token more. The
    same rule for the report (`within_budget`) and for what `--fix` writes (`plan`)."""
    tokens = estimate_tokens(description)
    if touched and tokens > max_tokens and tokens > estimate_tokens(original):
        return tokens
    return None


def within_budget(proposal: Proposal, max_tokens: int) -> Proposal:
    """The proposal, or none in its place when its text breaks the description budget (`over_budget`):
    `--fix` would refuse to write it, so it is not shown as the description to paste either."""
    if proposal.description is None:
        return proposal
    tokens = over_budget(proposal.original, proposal.description, proposal.touched, max_tokens)
    if tokens is None:
        return proposal
    return Proposal(
        proposal.server,
        proposal.tool,
        proposal.original,
        proposal.targets,
        refused=f"the rewrite would be about {tokens} tokens, over the description budget of {max_tokens}",
        before=proposal.before,
    )


def _server_proposals(
    report: ServerReport,
    limits: Mapping[str, float],
    codes: Mapping[Component, str],
    relint: Relint | None,
    max_tokens: int,
) -> ServerReport:
    snapshot = report.snapshot
    by_tool: dict[str, list[Finding]] = {}
    for finding in report.findings:
        if finding.tool is not None:
            by_tool.setdefault(finding.tool, []).append(finding)
    smelly = {f.tool for f in report.findings if f.component is not None and f.tool is not None}
    wanted = smelly | {name for name, found in by_tool.items() if repairable(found)}
    if snapshot is None or not wanted:
        return report
    from mcp_lint.jury.siblings import ServerNames

    named = [tool for tool in snapshot.tools if tool.named]
    names = ServerNames(tool.name for tool in named)
    spelt = server_spellings(named)
    proposals: dict[str, Proposal] = {}
    suggestions: dict[str, str] = {}
    for tool in snapshot.tools:
        scores = report.tool_scores.get(tool.name)
        if tool.name not in wanted or not tool.named:
            continue
        if scores is None and tool.name in smelly:
            continue
        aggregate = {str(name): value for name, value in scores.aggregate.items()} if scores else {}
        proposal = propose(
            report.name,
            tool,
            named,
            aggregate,
            limits=limits,
            refused=refusal(by_tool[tool.name]),
            names=names.without(tool.name),
            # The run's offline verdict is the score of the original with the same siblings.
            known=aggregate if scores is not None and set(scores.judges) == {OFFLINE_JURY} else None,
            findings=by_tool[tool.name],
            search=scores is None or set(scores.judges) <= {OFFLINE_JURY},
            relint=relint,
            spelt=spelt,
        )
        proposal = within_budget(proposal, max_tokens)
        if proposal.description is None and tool.name not in smelly:
            continue
        proposals[tool.name] = proposal
        offline = scores is None or set(scores.judges) <= {OFFLINE_JURY}
        suggestions[tool.name] = suggestion_text(proposal, offline, codes)
    findings = tuple(
        replaced(finding, suggestion=suggestions[finding.tool])
        if finding.component is not None and finding.tool in suggestions
        else finding
        for finding in report.findings
    )
    return replace(report, findings=findings, proposals=proposals)


def add_proposals(
    result: RunResult,
    limits: Mapping[str, float] | None = None,
    catalogue: Catalogue | None = None,
    max_tokens: int | None = None,
) -> RunResult:
    """The result with one proposal per tool that has a rubric finding, on its server's `proposals`,
    and the proposal's text as the suggestion of each of the tool's rubric findings. `limits` are the
    run's rubric thresholds (the rubric's defaults when None); `max_tokens` the run's description
    budget (the rule file's default when None), which no proposed text may go over (`within_budget`)."""
    from mcp_lint.check.engine import description_budget

    chosen = dict(limits) if limits is not None else thresholds()
    codes = rubric_codes(catalogue)
    budget = max_tokens if max_tokens is not None else description_budget(catalogue=catalogue)
    return replace(
        result,
        servers=tuple(
            _server_proposals(report, chosen, codes, result.relint, budget) for report in result.servers
        ),
    )
