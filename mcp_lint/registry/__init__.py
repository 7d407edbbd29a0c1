"""The registry stage: a server.json entry of the MCP registry, validated (`entry`), installed and
started the way a client would (`launch`), and the verdict a registry can store beside it (`verdict`).

`mcp-lint gate` (mcp_lint/commands/registry_gate.py) wires them to the lint pipeline under the `registry`
profile; nothing here prints or parses a command line.
"""
