from __future__ import annotations

from fake_llm_server import fake_llm

__all__ = ["fake_llm"]
