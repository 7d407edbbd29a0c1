"""The shape of an LLM judge's answer (pydantic models, built when first imported: only a run with
an LLM judge, or `--fix` with one, needs them; see `mcp_lint.jury.prompt`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from mcp_lint.jury.base import COMPONENTS


class ComponentAnswer(BaseModel):
    # `reason` comes first so a model writing the fields in order justifies before it scores.
    model_config = ConfigDict(extra="forbid")

    reason: str
    score: int = Field(ge=1, le=5)


class JudgeAnswer(BaseModel):
    model_config = ConfigDict(extra="forbid")

    purpose: ComponentAnswer
    guidelines: ComponentAnswer
    limitations: ComponentAnswer
    parameters: ComponentAnswer
    length: ComponentAnswer
    examples: ComponentAnswer
    rewrite: str

    def scores(self) -> dict[str, int]:
        return {name: self._component(name).score for name in COMPONENTS}

    def reasons(self) -> dict[str, str]:
        return {name: self._component(name).reason for name in COMPONENTS}

    def _component(self, name: str) -> ComponentAnswer:
        value = getattr(self, name)
        assert isinstance(value, ComponentAnswer)
        return value


assert tuple(name for name in JudgeAnswer.model_fields if name != "rewrite") == COMPONENTS
