"""Records and the protocol every judge satisfies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mcp_lint import model
from mcp_lint.model import Tool

# The rubric components (defined in model.py), typed as plain strings for the judges' and the
# calibration's str-keyed score tables; the typed records use `model.Component`.
COMPONENTS: tuple[str, ...] = model.COMPONENTS


@dataclass(frozen=True)
class JudgeVerdict:
    """One judge's scores for one tool: component -> score on the 1-5 scale."""

    judge: str
    scores: Mapping[str, float]
    reasons: Mapping[str, str] = field(default_factory=dict)
    rewrite: str | None = None


class Judge(Protocol):
    """Anything that scores one tool on the rubric: the offline jury, or one LLM judge.

    The jury runner calls the offline jury through it; LLM judges also offer `ajudge`, which the
    runner uses to make their calls concurrently.
    """

    @property
    def name(self) -> str: ...

    def judge(self, tool: Tool, siblings: Sequence[str]) -> JudgeVerdict: ...
