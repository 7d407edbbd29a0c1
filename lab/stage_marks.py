"""Run `mcp-lint ARGS` with a marker at each stage boundary, for callgrind to count each stage alone.

    valgrind --tool=callgrind --dump-before=getppid --callgrind-out-file=OUT/cg \\
        python -m lab.stage_marks check --isolated --format json tools.json

Each marker calls `os.getppid()` (which mcp-lint itself never calls), so callgrind writes one dump per
stage: dump N holds what ran between marker N-1 and marker N, and the last (OUT/cg) what ran after
the last marker. The markers' labels, in order, go to $STAGE_LABELS (default stage-labels.txt).
Stages are the imports of the modules in IMPORTS and the calls of the functions in WRAP, wrapped as
their modules are imported (so nothing is imported earlier than the run would import it).
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

LABELS = open(os.environ.get("STAGE_LABELS", "stage-labels.txt"), "w", encoding="utf-8")  # noqa: SIM115

WRAP: dict[str, tuple[str, ...]] = {
    "mcp_lint.jury.run": ("score_servers", "_score_offline", "_outcome"),
    "mcp_lint.fix.propose": ("add_proposals",),
    "mcp_lint.pipeline": ("_check", "conclude"),
    "mcp_lint.commands.reports": ("write_reports",),
    "mcp_lint.check.engine": ("check_server",),
    "mcp_lint.suppressions": ("SuppressionTracker.keep",),
}
IMPORTS = frozenset(
    (
        "mcp_lint.jury.run",
        "mcp_lint.jury.offline",
        "mcp_lint.jury.features",
        "mcp_lint.jury.rubric",
        "mcp_lint.jury.siblings",
        "mcp_lint.fix.propose",
        "mcp_lint.fix.compose",
        "mcp_lint.fix.grounding",
        "mcp_lint.report.json_report",
    )
)


def mark(label: str) -> None:
    LABELS.write(label + "\n")
    LABELS.flush()
    os.getppid()


def _wrap(module: ModuleType, dotted: str) -> None:
    owner: Any = module
    name = dotted
    if "." in dotted:
        holder, name = dotted.split(".")
        owner = getattr(module, holder)
    function: Callable[..., Any] = getattr(owner, name)

    @functools.wraps(function)
    def marked(*args: Any, **kwargs: Any) -> Any:
        mark(f"enter {module.__name__}.{dotted}")
        try:
            return function(*args, **kwargs)
        finally:
            mark(f"leave {module.__name__}.{dotted}")

    setattr(owner, name, marked)


class _Loader(importlib.abc.Loader):
    def __init__(self, real: Any) -> None:
        self.real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        made: ModuleType | None = self.real.create_module(spec)
        return made

    def exec_module(self, module: ModuleType) -> None:
        if module.__name__ in IMPORTS:
            mark(f"import< {module.__name__}")
        self.real.exec_module(module)
        if module.__name__ in IMPORTS:
            mark(f"import> {module.__name__}")
        for dotted in WRAP.get(module.__name__, ()):
            _wrap(module, dotted)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in WRAP and fullname not in IMPORTS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def main() -> None:
    sys.meta_path.insert(0, _Finder())
    mark("start")
    sys.argv = ["mcp-lint", *sys.argv[1:]]
    from mcp_lint.cli import main as lint

    try:
        lint()
    finally:
        mark("end")


if __name__ == "__main__":
    main()
