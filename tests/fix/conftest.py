from __future__ import annotations

import sys
from pathlib import Path

# The jury tests' local OpenAI-compatible server answers the rewriter's requests too.
sys.path.insert(0, str(Path(__file__).parents[1] / "jury"))

from fake_llm_server import fake_llm

__all__ = ["fake_llm"]
