"""Rules about a tool's `inputSchema` and its parameters (MCP2xx), one module each.

`mcp_lint.check.functions.FUNCTION_MODULES` lists these modules; `_common` holds what several of
them share, and `mcp_lint.schema_walk` the walk through nested parameters that they and the fixer use.
"""
