"""One function per command of the CLI, with plain typed options and an exit code.

The CLI module declares the click interface and calls these; nothing here imports click. Each
command module is imported only when its command runs, so `mcp-lint --version` stays fast.
"""
