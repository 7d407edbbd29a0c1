"""Records and the protocol every judge satisfies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mcp_lint.model import Tool

# The six rubric components, in report order. These keys are public: they appear in the JSON report.
COMPONENTS: tuple[str, ...] = ("purpose", "guidelines", "limitations", "parameters", "length", "examples")

# The calibration corpus (the research jury's published scores) names the same components differently.
CORPUS_KEYS: Mapping[str, str] = {
    "purpose": "purpose",
    "guidelines": "usage_guideline",
    "limitations": "limitation",
    "parameters": "parameter_explanation",
    "length": "length_completeness",
    "examples": "examples_balance",
}


@dataclass(frozen=True)
class JudgeVerdict:
    """One judge's scores for one tool: component -> score on the 1-5 scale."""

    judge: str
    scores: Mapping[str, float]
    reasons: Mapping[str, str] = field(default_factory=dict)
    rewrite: str | None = None


class Judge(Protocol):
    """Anything that can score a batch of tools on the rubric."""

    @property
    def name(self) -> str: ...

    def judge(self, tool: Tool, siblings: Sequence[str]) -> JudgeVerdict: ...
