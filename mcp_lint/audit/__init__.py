"""`mcp-lint audit`: the registry gate fanned out over many targets, on this machine or on Ray.

targets (what to run) -> engines (where: `local` or `ray`, each job `job.run_job`) -> store (one
SQLite row per target and rule set) -> report (the Markdown summary of the rows). `run` wires them.
"""
