"""A fast, deterministic token estimate shared by the budget rules.

Real tokenizers differ by model and are slow to load; budgets only need a stable order of
magnitude, and about four characters per token holds for English prose and for JSON alike.
"""

from __future__ import annotations

CHARS_PER_TOKEN = 4


def estimate_tokens(text: str) -> int:
    """Roughly how many tokens `text` costs a model: ceil(characters / 4)."""
    return -(-len(text) // CHARS_PER_TOKEN)
