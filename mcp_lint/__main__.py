from mcp_lint.cli import main

raise SystemExit(main())
