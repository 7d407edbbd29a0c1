"""LiveMCPBench's tool catalogue and annotated tasks as typed records: the benchmark's test bed.

The catalogue (`tools.json`) lists servers, each with its `tools/list`; a task names the tools a
solution uses by their bare name. A name can belong to several servers (`read_file`): every tool of
that name is then relevant to the task. A task name that matches no tool exactly is matched ignoring
case and `-`/`_`, then to the one catalogue name that begins with it (`trial_references` ->
`trial_references_getter`); names still unmatched are kept aside and reported, never guessed.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError
from mcp_lint.model import ServerSnapshot, Tool

# (server, tool): one document of the retrieval
ToolKey = tuple[str, str]

_VENDORED = "data/livemcpbench"
_STEP = re.compile(r"^\s*\d+[.)]\s*")


@dataclass(frozen=True)
class Task:
    id: str
    question: str
    needs: tuple[str, ...]  # the tool names as annotated
    relevant: frozenset[ToolKey]  # the catalogue tools those names match


@dataclass(frozen=True)
class BenchData:
    servers: tuple[ServerSnapshot, ...]
    tasks: tuple[Task, ...]  # only tasks with at least one relevant catalogue tool
    unmatched: tuple[str, ...] = ()  # annotated tool names no catalogue tool matches

    @property
    def keys(self) -> tuple[ToolKey, ...]:
        return tuple((server.name, tool.name) for server in self.servers for tool in server.tools)


def _read_json(path: Path | None, vendored: str) -> Any:
    """A JSON file, gzip-compressed when its name ends in .gz; None reads the vendored copy."""
    where = str(path) if path is not None else f"the vendored {vendored}"
    try:
        if path is None:
            data = resources.files("mcp_lint.bench").joinpath(f"{_VENDORED}/{vendored}").read_bytes()
        else:
            data = path.read_bytes()
        if (path is None and vendored.endswith(".gz")) or (path is not None and path.suffix == ".gz"):
            data = gzip.decompress(data)
        return json.loads(data.decode("utf-8"))
    except OSError as error:
        raise UsageError(
            f"{where}: cannot read it ({error.strerror or error}); pass an existing file"
        ) from None
    except (ValueError, EOFError) as error:
        raise UsageError(f"{where}: not JSON ({error}); pass LiveMCPBench's file as it is") from None


def catalogue_servers(data: Any, origin: str) -> tuple[ServerSnapshot, ...]:
    """The servers of a LiveMCPBench `tools.json`: a list of entries, each with `tools` mapping a
    server name to its `tools/list` result."""
    if not isinstance(data, list):
        raise UsageError(f"{origin}: expected LiveMCPBench's tools.json, a JSON array of server entries")
    servers: list[ServerSnapshot] = []
    for index, entry in enumerate(data):
        listing = entry.get("tools") if isinstance(entry, dict) else None
        if not isinstance(listing, dict):
            raise UsageError(f"{origin}: entry {index} has no 'tools' object mapping server names to tools")
        for name, result in listing.items():
            raw_tools = result.get("tools") if isinstance(result, dict) else None
            if not isinstance(raw_tools, list):
                raise UsageError(f"{origin}: server {name!r} (entry {index}) has no 'tools' array")
            tools = tuple(
                Tool(raw["name"], raw)
                for raw in raw_tools
                if isinstance(raw, dict) and isinstance(raw.get("name"), str)
            )
            servers.append(ServerSnapshot(str(name), tools, origin=origin))
    return tuple(servers)


def annotated_needs(entry: Mapping[str, Any]) -> tuple[str, ...]:
    """The tool names of one annotation ("1. get_weather\\n2. ..."), numbering stripped."""
    meta = entry.get("Annotator Metadata")
    text = meta.get("Tools") if isinstance(meta, dict) else None
    if not isinstance(text, str):
        return ()
    names = (_STEP.sub("", line).strip() for line in text.splitlines())
    return tuple(dict.fromkeys(name for name in names if name))


def _normal(name: str) -> str:
    return name.casefold().replace("-", "_")


def match(name: str, catalogue: Mapping[str, Collection[ToolKey]]) -> frozenset[ToolKey]:
    """The catalogue tools an annotated name means (see the module doc); empty when none."""
    if name in catalogue:
        return frozenset(catalogue[name])
    wanted = _normal(name)
    same = [key for tool, keys in catalogue.items() if _normal(tool) == wanted for key in keys]
    if same:
        return frozenset(same)
    longer = [tool for tool in catalogue if _normal(tool).startswith(wanted + "_")]
    return frozenset(catalogue[longer[0]]) if len(longer) == 1 else frozenset()


def build(servers: tuple[ServerSnapshot, ...], annotations: Any, origin: str) -> BenchData:
    if not isinstance(annotations, list):
        raise UsageError(f"{origin}: expected LiveMCPBench's annotations, a JSON array of tasks")
    by_name: dict[str, list[ToolKey]] = {}
    for server in servers:
        for tool in server.tools:
            by_name.setdefault(tool.name, []).append((server.name, tool.name))
    tasks: list[Task] = []
    unmatched: dict[str, None] = {}
    for index, entry in enumerate(annotations):
        question = entry.get("Question") if isinstance(entry, dict) else None
        if not isinstance(question, str) or not question.strip():
            raise UsageError(f"{origin}: task {index} has no 'Question' text")
        needs = annotated_needs(entry)
        relevant: set[ToolKey] = set()
        for name in needs:
            found = match(name, by_name)
            if not found:
                unmatched[name] = None
            relevant |= found
        if relevant:
            tasks.append(Task(str(entry.get("task_id", index)), question, needs, frozenset(relevant)))
    return BenchData(servers, tuple(tasks), tuple(unmatched))


def load(tools: Path | None = None, annotations: Path | None = None) -> BenchData:
    """The test bed from LiveMCPBench's two files; None for either reads the vendored copy."""
    servers = catalogue_servers(
        _read_json(tools, "tools.json.gz"), str(tools) if tools else "the vendored tools.json"
    )
    data = _read_json(annotations, "all_annotations.json.gz")
    return build(servers, data, str(annotations) if annotations else "the vendored all_annotations.json")


def restrict(bed: BenchData, servers: Iterable[str]) -> BenchData:
    """Only the named servers, and the tasks that still have a relevant tool among them."""
    keep = set(servers)
    unknown = sorted(keep - {server.name for server in bed.servers})
    if unknown:
        raise UsageError(
            f"--server {unknown[0]}: no such server in the catalogue; `mcp-lint bench --list-servers` "
            "names them"
        )
    tasks = []
    for task in bed.tasks:
        relevant = frozenset(key for key in task.relevant if key[0] in keep)
        if relevant:
            tasks.append(replace(task, relevant=relevant))
    return replace(bed, servers=tuple(s for s in bed.servers if s.name in keep), tasks=tuple(tasks))
