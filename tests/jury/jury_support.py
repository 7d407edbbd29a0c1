"""Shared data for the offline jury tests: a well-written description, and the texts the jury's fast
paths are checked on against the plain regexes (test_offline.py, test_regex_scan.py)."""

from __future__ import annotations

from lab.corpus import load_rows
from mcp_lint.jury.features import schema_as_prose

ROWS = load_rows()

GOOD = """Search the company's issue tracker and return matching issues, newest first.

Use this when the user asks about bugs, tickets or feature requests by keyword; to read one issue
in full use get_issue instead, and do not use it for pull requests (use search_prs).

Returns: a JSON list of at most 50 issues, each with `id`, `title`, `state` and `url`.
Limitations: only searches open and closed issues of the configured repository; it cannot search
comments, and the API rate limit is 30 requests per minute.

Args:
    query (str, required): keywords, e.g. "login timeout" or "label:bug crash".
    state (str, optional): one of "open", "closed" or "all". Defaults to "open".
    limit (int, optional): maximum number of results, 1-50. Defaults to 20.

Example: search_issues(query="oauth redirect", state="all", limit=5)
"""


def sample_texts() -> list[str]:
    """Each calibration description as given, lower- and upper-cased, with its lines broken
    differently, and its schema as prose; `GOOD`; and a few odd texts."""
    out = []
    for row in ROWS:
        desc = row["description"]
        out += [desc, desc.lower(), desc.upper(), schema_as_prose(row["input_schema"]), GOOD]
        out.append(desc.replace(". ", ".\n  \t").replace(", ", ",\r\n"))
    out += [
        "",
        "\n\n  \t",
        "获取天气。仅支持中国城市；失败时返回错误。例如：北京",
        "Use it.This tool works\u2028It is \u00a0 fine!  \n\nYou can't?",
    ]
    return out
