"""The agent-benefit benchmark (`mcp-lint bench`, docs/agent-benefit.md): do rewritten descriptions
help an agent find the tools a task needs, and what do they cost in tokens?

LiveMCPBench's catalogue and annotated tasks (vendored in `data/livemcpbench`) are the test bed:
each task's question is a query, each tool's name and description a document. Retrievers rank the
documents for every query with the original descriptions and with a set of rewrites; the change in
mean reciprocal rank comes with a paired bootstrap confidence interval. The retrievers and the
tokenizer are the `bench` extra (`pip install 'mcp-lint[bench]'`), imported only when used.
"""
