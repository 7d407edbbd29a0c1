"""The check stage: deterministic rules and rubric findings over reflected servers."""
