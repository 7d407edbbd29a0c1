"""One benchmark run: every retriever over the original descriptions and over each set of rewrites.

Typed data in (the test bed, the rewrite sets, the retrievers, the tokenizer), a `BenchResult` out;
nothing is printed here (`mcp_lint.bench.report` renders it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as replaced

from mcp_lint.bench.livemcpbench import BenchData, ToolKey
from mcp_lint.bench.measure import Interval, first_rank, mean, paired_bootstrap, recall_at
from mcp_lint.bench.retrieve import Retriever
from mcp_lint.bench.rewrites import RewriteSet
from mcp_lint.bench.tokens import Tokenizer, tools_list
from mcp_lint.model import ServerSnapshot, Tool

RECALL_AT = (1, 5, 10)


@dataclass(frozen=True)
class Retrieval:
    """One retriever over one set of documents: each task's reciprocal rank and recall@k."""

    reciprocal: tuple[float, ...]
    recall: Mapping[int, tuple[float, ...]]

    @property
    def mrr(self) -> float:
        return mean(self.reciprocal)


@dataclass(frozen=True)
class Change:
    """One retriever: the original descriptions vs one rewrite set."""

    retriever: str
    before: Retrieval
    after: Retrieval
    interval: Interval  # paired bootstrap 95% CI of the MRR change

    @property
    def moved(self) -> tuple[int, int, int]:
        """Tasks whose first relevant tool moved up, down, or stayed."""
        pairs = list(zip(self.before.reciprocal, self.after.reciprocal, strict=True))
        up = sum(1 for old, new in pairs if new > old)
        down = sum(1 for old, new in pairs if new < old)
        return up, down, len(pairs) - up - down


@dataclass(frozen=True)
class Measured:
    """One rewrite set: what it changed, what it costs in tokens, what each retriever made of it."""

    rewrites: RewriteSet
    changed: int  # tools whose description it changes
    description_tokens: tuple[int, int]  # all descriptions, before and after
    list_tokens: tuple[int, int]  # the whole tools/list, before and after
    changes: tuple[Change, ...]


@dataclass(frozen=True)
class BenchResult:
    servers: int
    tools: int
    tasks: int
    unmatched: tuple[str, ...]
    tokenizer: str
    resamples: int
    seed: int
    measured: tuple[Measured, ...]


def documents(bed: BenchData, descriptions: Mapping[ToolKey, str]) -> list[str]:
    """Each tool's name and description, the description rewritten where `descriptions` says."""
    return [
        f"{tool.name} {descriptions.get((server.name, tool.name), tool.description)}".strip()
        for server in bed.servers
        for tool in server.tools
    ]


def retrieve(bed: BenchData, retriever: Retriever, texts: Sequence[str]) -> Retrieval:
    index = {key: position for position, key in enumerate(bed.keys)}
    rows = retriever.scores([task.question for task in bed.tasks], texts)
    reciprocal: list[float] = []
    recall: dict[int, list[float]] = {k: [] for k in RECALL_AT}
    for task, scores in zip(bed.tasks, rows, strict=True):
        relevant = {index[key] for key in task.relevant}
        reciprocal.append(1.0 / first_rank(scores, relevant))
        for k in RECALL_AT:
            recall[k].append(recall_at(scores, relevant, k))
    return Retrieval(tuple(reciprocal), {k: tuple(values) for k, values in recall.items()})


def rewritten(bed: BenchData, descriptions: Mapping[ToolKey, str]) -> tuple[ServerSnapshot, ...]:
    servers = []
    for server in bed.servers:
        tools = []
        for tool in server.tools:
            text = descriptions.get((server.name, tool.name))
            if text is not None:
                tool = Tool(tool.name, {**tool.raw, "description": text})
            tools.append(tool)
        servers.append(replaced(server, tools=tuple(tools)))
    return tuple(servers)


def run(
    bed: BenchData,
    sets: Sequence[RewriteSet],
    retrievers: Sequence[Retriever],
    tokenizer: Tokenizer,
    *,
    resamples: int = 10_000,
    seed: int = 0,
) -> BenchResult:
    originals = {(s.name, t.name): t.description for s in bed.servers for t in s.tools}
    baseline = {retriever.name: retrieve(bed, retriever, documents(bed, {})) for retriever in retrievers}
    list_before = tokenizer.count(tools_list(bed.servers))
    counts = {key: tokenizer.count(text) for key, text in originals.items()}
    descriptions_before = sum(counts.values())
    measured = []
    for rewrites in sets:
        changed = {key: text for key, text in rewrites.descriptions.items() if originals[key] != text}
        texts = documents(bed, changed)
        changes = []
        for retriever in retrievers:
            before = baseline[retriever.name]
            after = retrieve(bed, retriever, texts)
            interval = paired_bootstrap(before.reciprocal, after.reciprocal, resamples=resamples, seed=seed)
            changes.append(Change(retriever.name, before, after, interval))
        measured.append(
            Measured(
                rewrites,
                len(changed),
                (
                    descriptions_before,
                    descriptions_before
                    + sum(tokenizer.count(text) - counts[key] for key, text in changed.items()),
                ),
                (list_before, tokenizer.count(tools_list(rewritten(bed, changed)))),
                tuple(changes),
            )
        )
    return BenchResult(
        len(bed.servers),
        len(bed.keys),
        len(bed.tasks),
        bed.unmatched,
        tokenizer.name,
        resamples,
        seed,
        tuple(measured),
    )
