"""`mcp-lint snapshot`: reflect the targets and save what each server lists, one file per server."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcp_lint.commands.output import Output, writing
from mcp_lint.commands.targets import TargetOptions, load_run_settings, resolve
from mcp_lint.errors import EXIT_UNREACHABLE, UsageError
from mcp_lint.files import unwritable_reason
from mcp_lint.reflect import reflect_all
from mcp_lint.reflect.snapshot import snapshot_document, write_json_atomic
from mcp_lint.sanitize import dumps_strict


@dataclass(frozen=True)
class SnapshotOptions:
    targets: TargetOptions
    output: str | None = None  # a file (one server), a folder (several), or stdout


def run_snapshot(options: SnapshotOptions, out: Output) -> int:
    settings = load_run_settings(
        options.targets.config_file, options.targets.isolated, options.targets.timeout
    )
    targets = resolve(options.targets, settings)
    output = options.output
    folder = snapshot_folder(output, len(targets))
    reflections = reflect_all(targets, settings.timeout)
    failed = 0
    for item in reflections:
        if item.snapshot is None:
            out.error(f"{item.error}")
            failed += 1
            continue
        document = snapshot_document(item.snapshot)
        if output is None or output == "-":
            out.line(dumps_strict(document))
            continue
        path = Path(output) / f"{item.name}.json" if folder else Path(output)
        with writing(f"-o {output}", str(path)):
            write_json_atomic(path, document)
        out.note(f"wrote {path} ({len(item.snapshot.tools)} tools)")
    return EXIT_UNREACHABLE if failed else 0


def snapshot_folder(output: str | None, count: int) -> bool:
    """Whether snapshots go into the folder `output`; refuses, before any server starts, an output
    that cannot hold `count` snapshots or cannot be written."""
    fix = "pass -o FOLDER to write FOLDER/NAME.json for each, or --server NAME to snapshot one"
    if count > 1 and output is None:
        raise UsageError(f"{count} servers to snapshot and a snapshot holds one: {fix}")
    if count > 1 and output == "-":
        raise UsageError(f"-o -: stdout takes one snapshot, not {count} (that would not be JSON); {fix}")
    if output is None or output == "-":
        return False
    path = Path(output)
    folder = count > 1 or path.is_dir()
    if count > 1 and not path.is_dir() and path.suffix.lower() == ".json":
        raise UsageError(f"-o {output}: {count} servers need a folder, not a .json file; {fix}")
    problem = unwritable_reason(path, folder=folder)
    if problem is not None:
        hint = fix if count > 1 else "give a file path the snapshot can be written to"
        raise UsageError(f"-o {output}: {problem}; {hint}")
    return folder
