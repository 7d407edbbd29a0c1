from __future__ import annotations

import sys
from pathlib import Path

# The jury tests' local OpenAI-compatible server: it judges and rewrites for `bench --unsafe-fixes`.
sys.path.insert(0, str(Path(__file__).parents[1] / "jury"))

from fake_llm_server import fake_llm

__all__ = ["fake_llm"]
