"""One benchmark run: every retriever over the original descriptions and over each set of rewrites.

Typed data in (the test bed, the rewrite sets, the retrievers, the tokenizer), a `BenchResult` out;
nothing is printed here (`mcp_lint.bench.report` renders it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import replace as replaced

from mcp_lint.bench.livemcpbench import BenchData, ToolKey
from mcp_lint.bench.measure import Interval, first_rank, mean, paired_bootstrap, ranks, within
from mcp_lint.bench.retrieve import Retriever
from mcp_lint.bench.rewrites import RewriteSet
from mcp_lint.bench.tokens import Tokenizer, tools_list
from mcp_lint.model import ServerSnapshot, Tool

RECALL_AT = (1, 5, 10)


@dataclass(frozen=True)
class Retrieval:
    """One retriever over one set of documents, per task: the reciprocal rank of the best-ranked
    tool it needs, and the rank of each tool it needs (in the order of `sorted(task.relevant)`)."""

    reciprocal: tuple[float, ...]
    ranks: tuple[tuple[float, ...], ...]

    @property
    def mrr(self) -> float:
        return mean(self.reciprocal)

    def recall(self, k: int) -> float:
        """recall@k averaged over the tasks."""
        return mean([within(positions, k) for positions in self.ranks])


def _moved(pairs: Sequence[tuple[float, float]]) -> tuple[int, int, int]:
    up = sum(1 for old, new in pairs if new > old)
    down = sum(1 for old, new in pairs if new < old)
    return up, down, len(pairs) - up - down


@dataclass(frozen=True)
class Change:
    """One retriever: the original descriptions vs one rewrite set."""

    retriever: str
    before: Retrieval
    after: Retrieval
    interval: Interval  # paired bootstrap 95% CI of the MRR change

    @property
    def moved(self) -> tuple[int, int, int]:
        """Tasks whose best-ranked needed tool moved up, down, or stayed."""
        return _moved(list(zip(self.before.reciprocal, self.after.reciprocal, strict=True)))

    @property
    def tools_moved(self) -> tuple[int, int, int]:
        """(task, needed tool) pairs whose tool moved up (a smaller rank), down, or stayed."""
        pairs = [
            (-old, -new)
            for olds, news in zip(self.before.ranks, self.after.ranks, strict=True)
            for old, new in zip(olds, news, strict=True)
        ]
        return _moved(pairs)


@dataclass(frozen=True)
class Versus:
    """A control against the rewrites it pads like, for one retriever: the rewrites' MRR minus the
    control's, and its paired bootstrap 95% CI."""

    gap: float
    interval: Interval


@dataclass(frozen=True)
class Measured:
    """One rewrite set: what it changed, what it costs in tokens, what each retriever made of it."""

    rewrites: RewriteSet
    changed: int  # tools whose description it changes
    description_tokens: tuple[int, int]  # all descriptions, before and after
    list_tokens: tuple[int, int]  # the whole tools/list, before and after
    changes: tuple[Change, ...]
    versus: tuple[Versus, ...] = ()  # a control's, per retriever

    @property
    def growth(self) -> float:
        before, after = self.list_tokens
        return (after - before) / before if before else 0.0


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
    task_ids: tuple[str, ...] = ()  # in the order of every per-task figure


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
    positions: list[tuple[float, ...]] = []
    for task, scores in zip(bed.tasks, rows, strict=True):
        relevant = [index[key] for key in sorted(task.relevant)]
        reciprocal.append(1.0 / first_rank(scores, relevant))
        positions.append(tuple(ranks(scores, relevant)))
    return Retrieval(tuple(reciprocal), tuple(positions))


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
    measured: list[Measured] = []
    by_name: dict[str, Measured] = {}
    for rewrites in sets:
        changed = {key: text for key, text in rewrites.descriptions.items() if originals[key] != text}
        texts = documents(bed, changed)
        changes = []
        for retriever in retrievers:
            before = baseline[retriever.name]
            after = retrieve(bed, retriever, texts)
            interval = paired_bootstrap(before.reciprocal, after.reciprocal, resamples=resamples, seed=seed)
            changes.append(Change(retriever.name, before, after, interval))
        versus: tuple[Versus, ...] = ()
        controlled = by_name.get(rewrites.control_for) if rewrites.control_for else None
        if controlled is not None:
            versus = tuple(
                Versus(
                    real.after.mrr - control.after.mrr,
                    paired_bootstrap(
                        control.after.reciprocal, real.after.reciprocal, resamples=resamples, seed=seed
                    ),
                )
                for real, control in zip(controlled.changes, changes, strict=True)
            )
        result = Measured(
            rewrites,
            len(changed),
            (
                descriptions_before,
                descriptions_before
                + sum(tokenizer.count(text) - counts[key] for key, text in changed.items()),
            ),
            (list_before, tokenizer.count(tools_list(rewritten(bed, changed)))),
            tuple(changes),
            versus,
        )
        measured.append(result)
        by_name.setdefault(rewrites.name, result)
    return BenchResult(
        len(bed.servers),
        len(bed.keys),
        len(bed.tasks),
        bed.unmatched,
        tokenizer.name,
        resamples,
        seed,
        tuple(measured),
        tuple(task.id for task in bed.tasks),
    )
