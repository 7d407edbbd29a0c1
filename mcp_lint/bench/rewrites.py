"""The rewrites a benchmark run measures: read from a file or folder, made by mcp-lint's own fix stage,
or the length-matched filler control.

Accepted from a user (`--rewrites PATH`):

* an mcp-lint overrides file (`{"version": 1, "servers": {server: {tool: {"description": ...}}}}`,
  what `check --fix` writes for snapshots);
* a JSON object mapping `"server/tool"` to the new description, or `{server: {tool: description}}`;
* a folder of snapshots (`mcp-lint snapshot` files, or any `tools/list` result), one `*.json` per
  server named by its file name: every description that differs from the catalogue's is a rewrite.

Every (server, tool) must be one of the catalogue's: a name that is not is a one-line error, never
silently measured as nothing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_lint.bench.livemcpbench import BenchData, ToolKey
from mcp_lint.errors import UsageError, quote
from mcp_lint.files import read_input_file
from mcp_lint.limits import load_json

if TYPE_CHECKING:
    from mcp_lint.bench.tokens import Tokenizer
    from mcp_lint.config import JurySettings, Settings

# The control's text: says nothing about any tool, so whatever it changes in retrieval is length.
FILLER = (
    "This tool is one of the tools this server offers. It can be called whenever it is needed, with "
    "the arguments its input schema describes, and its result is returned to the caller as it is. "
)


@dataclass(frozen=True)
class RewriteSet:
    """New descriptions for some of the catalogue's tools, under a name the report shows."""

    name: str
    descriptions: Mapping[ToolKey, str]
    notes: tuple[str, ...] = ()  # how they were made (counts of kept / not kept rewrites, ...)
    control_for: str | None = None  # a control: the name of the set it pads like


def _known(bed: BenchData) -> dict[ToolKey, str]:
    return {(server.name, tool.name): tool.description for server in bed.servers for tool in server.tools}


def _check_key(key: ToolKey, known: Mapping[ToolKey, str], where: str) -> None:
    if key not in known:
        raise _unknown(key, known, where)


def _unknown(key: ToolKey, known: Mapping[ToolKey, str], where: str) -> UsageError:
    what = "tool" if key[0] in {server for server, _ in known} else "server"
    return UsageError(
        f"{where}: {quote(key[0] + '/' + key[1])}: no such {what} in the benchmark's catalogue; "
        "name tools as server/tool the way tools.json does"
    )


def _from_mapping(data: Mapping[str, Any], known: Mapping[ToolKey, str], where: str) -> dict[ToolKey, str]:
    by_text = {f"{server}/{tool}": (server, tool) for server, tool in known}
    found: dict[ToolKey, str] = {}
    for name, value in data.items():
        if isinstance(value, Mapping):  # {server: {tool: description}}
            for tool, text in value.items():
                if not isinstance(text, str):
                    raise UsageError(
                        f"{where}: {name}.{tool}: must be a description string, got {quote(text)}"
                    )
                _check_key((name, str(tool)), known, where)
                found[(name, str(tool))] = text
        elif isinstance(value, str):  # {"server/tool": description}
            key = by_text.get(name)
            if key is None:
                server, _, tool = name.partition("/")
                raise _unknown((server, tool), known, where)
            found[key] = value
        else:
            raise UsageError(
                f'{where}: {quote(name)}: must be a description string ("server/tool": text) or an '
                f"object of them (server: {{tool: text}}), got {quote(value)}"
            )
    return found


def _from_folder(folder: Path, known: Mapping[ToolKey, str]) -> dict[ToolKey, str]:
    from mcp_lint.reflect.snapshot import parse_snapshot

    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise UsageError(
            f"{folder}: no *.json snapshot in this folder; save one per server, named server.json"
        )
    found: dict[ToolKey, str] = {}
    for path in paths:
        text = read_input_file(path, "a snapshot")
        try:
            data = load_json(text, str(path))
        except ValueError as error:
            raise UsageError(f"{path}: not JSON ({error})") from None
        snapshot = parse_snapshot(data, path.stem, str(path))
        for tool in snapshot.tools:
            key = (snapshot.name, tool.name)
            _check_key(key, known, str(path))
            if tool.description != known[key]:
                found[key] = tool.description
    return found


def read_rewrites(path: Path, bed: BenchData) -> RewriteSet:
    """A user's rewrites (see the module doc), checked against the test bed's tools."""
    known = _known(bed)
    if path.is_dir():
        return RewriteSet(path.name, _from_folder(path, known))
    text = read_input_file(path, "a rewrites file", "no such rewrites file")
    try:
        data = load_json(text, str(path))
    except ValueError as error:
        raise UsageError(f"{path}: not JSON ({error}); pass a JSON object of descriptions") from None
    if not isinstance(data, Mapping):
        raise UsageError(f'{path}: expected a JSON object ("server/tool": description), got {quote(data)}')
    if "servers" in data and "version" in data:  # an mcp-lint overrides file
        from mcp_lint.overrides import parse_overrides

        overrides = parse_overrides(data, str(path))
        for key in overrides:
            _check_key(key, known, str(path))
        described = {key: item.description for key, item in overrides.items() if item.description is not None}
        return RewriteSet(path.name, described)
    return RewriteSet(path.name, _from_mapping(data, known, str(path)))


def filler_control(bed: BenchData, rewrites: RewriteSet, tokenizer: Tokenizer) -> RewriteSet:
    """Each rewritten tool's original description with generic filler appended, as many tokens as the
    rewrite added (none where it made the description shorter): the same cost, no meaning."""
    known = _known(bed)
    padded: dict[ToolKey, str] = {}
    for key, text in rewrites.descriptions.items():
        original = known[key]
        target = tokenizer.count(text)
        if target > tokenizer.count(original):
            padded[key] = _pad(original, target, tokenizer)
    return RewriteSet(f"filler control ({rewrites.name})", padded, control_for=rewrites.name)


def _pad(original: str, target: int, tokenizer: Tokenizer) -> str:
    """`original` followed by the fewest words of FILLER (repeated as needed) that bring it to
    `target` tokens or just past it."""
    words = FILLER.split()

    def padded(count: int) -> str:
        extra = " ".join(words[index % len(words)] for index in range(count))
        return f"{original} {extra}".strip()

    low, high = 1, 1
    while tokenizer.count(padded(high)) < target:  # a word is at least one token: this ends
        low, high = high + 1, high * 2
    while low < high:
        middle = (low + high) // 2
        if tokenizer.count(padded(middle)) < target:
            low = middle + 1
        else:
            high = middle
    return padded(low)


def proposed(bed: BenchData, settings: Settings, jury: JurySettings, *, unsafe: bool = False) -> RewriteSet:
    """The rewrites `mcp-lint check --fix` would apply to the catalogue's servers, made by the same
    stages: lint with the default rules and the jury, then plan the fixes (faithfulness check,
    re-score, description budget). With `unsafe` the jury's LLM writes them, as
    `check --fix --unsafe-fixes --jury MODEL` does; otherwise the offline augmentor."""
    from mcp_lint.check.engine import active_rules, description_budget, rubric_thresholds
    from mcp_lint.check.rules import load_catalogue
    from mcp_lint.fix.plan import Augmentor, plan_fixes
    from mcp_lint.pipeline import check_reflections
    from mcp_lint.reflect import Reflection

    catalogue = load_catalogue()
    rules = active_rules(catalogue, settings)
    result = check_reflections([Reflection(s.name, s) for s in bed.servers], settings, jury, catalogue)
    augmentor: Augmentor | None = None
    if unsafe:
        from mcp_lint.fix.llm import LLMAugmentor

        augmentor = LLMAugmentor(jury)
    with tempfile.TemporaryDirectory() as empty:
        # No source file to edit: every kept rewrite is planned as an override, nothing is written.
        plan = plan_fixes(
            result,
            jury=jury,
            augmentor=augmentor,
            unsafe=unsafe,
            thresholds=rubric_thresholds(rules) or None,
            max_tokens=description_budget(rules),
            root=Path(empty),
            overrides_path=Path(empty) / "overrides.json",
        )
    descriptions = {
        (outcome.server, outcome.tool): outcome.rewrite.description
        for outcome in plan.applied
        if outcome.rewrite is not None
    }
    made = [outcome for outcome in plan.outcomes if outcome.rewrite is not None]
    kept = sum(1 for outcome in made if outcome.kept)
    who = "offline augmentor" if augmentor is None else f"LLM augmentor ({', '.join(jury.models)})"
    notes = (
        f"{len(plan.outcomes)} tools with rubric smells; {len(made)} rewrites by the {who}, {kept} kept, "
        f"{len(descriptions)} applied",
        *plan.warnings,
    )
    return RewriteSet(f"mcp-lint --fix ({who})", descriptions, notes)


def dump(rewrites: RewriteSet) -> str:
    """The rewrites as the `"server/tool": description` JSON `read_rewrites` takes back."""
    flat = {f"{server}/{tool}": text for (server, tool), text in sorted(rewrites.descriptions.items())}
    return json.dumps(flat, indent=2, ensure_ascii=False) + "\n"
