"""mcp-lint: lint the tool descriptions an MCP server shows to agents."""

__version__ = "0.1.0"
