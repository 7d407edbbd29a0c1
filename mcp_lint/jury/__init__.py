"""Rubric scoring: the embedded offline jury and LLM judges behind one protocol."""
