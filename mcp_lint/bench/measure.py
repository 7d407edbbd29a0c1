"""Ranks, reciprocal ranks, recall and the paired bootstrap: plain Python, no retriever in sight.

Ties are common (BM25 gives every tool sharing no word with the question the same score), so a rank
never depends on the catalogue's order: a tool's rank is 1 + the tools scored above it + half of the
others scored the same, its expected rank when ties are broken at random.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass


def first_rank(scores: Sequence[float], relevant: Collection[int]) -> float:
    """The (tie-aware) rank of the best-scored relevant document: 1 + the others above it + half of
    the others level with it."""
    best = max(scores[index] for index in relevant)
    above = sum(1 for index, score in enumerate(scores) if score > best and index not in relevant)
    level = sum(1 for index, score in enumerate(scores) if score == best and index not in relevant)
    return 1.0 + above + level / 2.0


def recall_at(scores: Sequence[float], relevant: Collection[int], k: int) -> float:
    """The share of the relevant documents whose tie-aware rank among all documents is within `k`."""
    hits = 0
    for index in relevant:
        own = scores[index]
        above = sum(1 for score in scores if score > own)
        level = sum(1 for score in scores if score == own) - 1
        hits += 1.0 + above + level / 2.0 <= k
    return hits / len(relevant)


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def paired_bootstrap(
    before: Sequence[float], after: Sequence[float], *, resamples: int = 10_000, seed: int = 0
) -> Interval:
    """The 95% percentile interval of mean(after - before) over `resamples` resamplings of the
    tasks with replacement (each resample keeps a task's two values together)."""
    if len(before) != len(after) or not before:
        raise ValueError("paired_bootstrap needs two equally long, non-empty sequences")
    deltas = [b - a for a, b in zip(before, after, strict=True)]
    count = len(deltas)
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(deltas, k=count)) / count for _ in range(resamples))
    return Interval(_percentile(means, 0.025), _percentile(means, 0.975))


def _percentile(ordered: Sequence[float], share: float) -> float:
    """Linear interpolation between the closest ranks (numpy's default method)."""
    position = share * (len(ordered) - 1)
    lower = int(position)
    upper = min(lower + 1, len(ordered) - 1)
    return ordered[lower] + (ordered[upper] - ordered[lower]) * (position - lower)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0
