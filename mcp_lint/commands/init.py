"""`mcp-lint init`: run `mcp_lint.init` on the working directory and say what it did."""

from __future__ import annotations

from pathlib import Path

from mcp_lint.commands.output import Output
from mcp_lint.init import init_project


def run_init(root: Path, force: bool, out: Output) -> int:
    result = init_project(root, force=force)
    if result.servers:
        out.line(f"found {len(result.servers)} server(s):")
        for server in result.servers:
            out.line(f"  {server.name}  ({server.kind}, {server.source})")
    else:
        out.line("found no MCP server: name yours under [servers] in the config init wrote")
    for path in result.written:
        out.line(f"wrote {path.as_posix()}")
    for skipped in result.skipped:
        out.line(f"left {skipped.path.as_posix()}: {skipped.reason}")
    if result.python or result.node:
        out.line("the workflow installs your project before linting: check that step starts your server")
    out.line("")
    out.line("add to .pre-commit-config.yaml, under repos:")
    out.report(result.pre_commit)
    return 0
