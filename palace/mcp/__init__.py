"""palace for other agents: the MCP server (server, wings), Claude Code's hooks (hooks) and the AGENTS.md bridge."""
