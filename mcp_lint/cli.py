"""The command line. The only module that imports click; it parses, calls the stages, maps exits."""

from __future__ import annotations

import difflib
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

import mcp_lint
from mcp_lint.errors import EXIT_USAGE, McpLintError, UsageError
from mcp_lint.model import OFFLINE_JURY

if TYPE_CHECKING:
    from mcp_lint.config import JurySettings, Settings
REPORT_FORMATS = ("text", "json", "sarif", "github", "markdown")

_EXIT_USAGE_HELP = "  2  usage or configuration error"
_EXIT_SERVER_HELP = "  3  a server could not be reached or reflected"

EXIT_CODES_HELP = f"""\b
Exit codes:
  0  no finding at or above --fail-on
  1  findings at or above --fail-on
{_EXIT_USAGE_HELP}
{_EXIT_SERVER_HELP} (never masked)
  4  the jury could not score every tool (never masked)"""

# snapshot lints nothing and calls no judge, so 1 and 4 cannot happen.
SNAPSHOT_EXIT_CODES_HELP = f"""\b
Exit codes:
  0  every server was saved
{_EXIT_USAGE_HELP}
{_EXIT_SERVER_HELP} (the others are still saved)"""

CHECK_HELP = f"""Lint the tools of one or more MCP servers.

\b
TARGET is any of:
  -- COMMAND ARGS...      spawn a stdio server (everything after `--`)
  --url URL               Streamable HTTP, falling back to SSE
  PATH                    a saved snapshot (`mcp-lint snapshot`) or a client
                          config (.mcp.json, claude_desktop_config.json,
                          .vscode/mcp.json); pick entries with --server
  -                       a snapshot on stdin
  (nothing)               the [servers] of mcp-lint.toml, else ./.mcp.json

{EXIT_CODES_HELP}
"""


_CACHE_FILE_HELP = "Jury cache file [the config's jury.cache, else .mcp-lint/jury-cache.json]."


def _split_command(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    # Everything after the first `--` is the server's command line, options included.
    args = list(argv)
    if "--" in args:
        index = args.index("--")
        return args[:index], args[index + 1 :]
    return args, []


def _comma_list(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _selectors(option: str, values: Sequence[str]) -> tuple[str, ...]:
    """The rule selectors of --select or --ignore; one that matches nothing is an error naming the option."""
    from mcp_lint.check.engine import selector_problem
    from mcp_lint.check.rules import load_catalogue

    selectors = _comma_list(values)
    for selector in selectors:
        problem = selector_problem(selector, load_catalogue())
        if problem is not None:
            raise UsageError(f"{option} {problem}")
    return selectors


def _use_color(option: bool | None, output: str | None) -> bool:
    if option is not None:
        return option
    if output is not None or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


def _check_output(output: str | None, inputs: Sequence[str | Path | None], flag: str = "-o") -> None:
    """Refuse, before any server starts rather than after the lint, a report path that cannot be
    written or that is one of the run's `inputs` (a snapshot, the config, the jury cache): the report
    would destroy it."""
    from mcp_lint.files import unwritable_reason

    if output is None or output == "-":
        return
    target = Path(output).resolve()
    for item in inputs:
        if item is not None and str(item) != "-" and Path(item).resolve() == target:
            raise UsageError(
                f"{flag} {output}: this run reads that file; the report would overwrite it, "
                "so give another path"
            )
    problem = unwritable_reason(Path(output))
    if problem is not None:
        example = f", e.g. {flag} {Path(output) / 'report.json'}" if Path(output).is_dir() else ""
        raise UsageError(
            f"{flag} {output}: {problem}; give a file path the report can be written to{example}"
        )


def _write_output(text: str, output: str | None, color: bool = False, flag: str = "-o") -> None:
    if output is None or output == "-":
        # click strips ANSI codes off a non-terminal unless told the colour was asked for.
        click.echo(text, nl=False, color=color)
        return
    from mcp_lint.files import write_text_atomic

    try:
        write_text_atomic(Path(output), text)
    except OSError as exc:
        raise UsageError(f"{flag} {output}: cannot write the report: {exc.strerror or exc}") from None


def _env_pairs(values: Sequence[str], env_file: str | None) -> dict[str, str]:
    from mcp_lint.reach.resolve import parse_env_pair

    env: dict[str, str] = {}
    if env_file:
        path = Path(env_file)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise UsageError(f"--env-file {env_file}: cannot read: {exc.strerror}") from None
        for number, line in enumerate(lines, 1):
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                key, value = parse_env_pair(stripped.removeprefix("export "), f"{env_file}:{number}:")
                env[key] = value.strip().strip('"').strip("'")
    for value in values:
        key, item = parse_env_pair(value)
        env[key] = item
    return env


def _finite_seconds(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    # FloatRange lets nan and inf through: nan crashes the deadline arithmetic, inf waits forever.
    from mcp_lint.config import is_positive

    if value is not None and not is_positive(value):
        raise UsageError(f"--timeout {value}: not a finite number of seconds; pass one such as --timeout 30")
    return value


def _targets(*, refused: bool = False) -> Callable[[Any], Any]:
    """The target options as a decorator; `refused` hides the ones that pick servers from the help
    (a command that lints the whole project parses them only to refuse them with a clear message)."""
    options = [
        click.argument("paths", nargs=-1, metavar="" if refused else "[TARGET]..."),
        click.option(
            "--url", hidden=refused, help="An MCP server over Streamable HTTP (SSE as the fallback)."
        ),
        click.option(
            "--header",
            "headers",
            multiple=True,
            hidden=refused,
            metavar="NAME:VALUE",
            help="HTTP header for --url.",
        ),
        click.option(
            "--server",
            "servers",
            multiple=True,
            hidden=refused,
            metavar="NAME",
            help="Pick entries of a client config or of [servers].",
        ),
        click.option(
            "--env", "env", multiple=True, metavar="KEY=VALUE", help="Extra variable for spawned servers."
        ),
        click.option(
            "--env-file", type=click.Path(dir_okay=False), help="KEY=VALUE lines for spawned servers."
        ),
        click.option(
            "--timeout",
            type=click.FloatRange(min=0.1),
            callback=_finite_seconds,
            help="Seconds for start-up and each request [30].",
        ),
        click.option(
            "--config", "config_file", type=click.Path(dir_okay=False), help="Use this config file."
        ),
        click.option("--isolated", is_flag=True, help="Ignore every config file."),
    ]

    def decorate(function: Any) -> Any:
        for option in reversed(options):
            function = option(function)
        return function

    return decorate


_target_options = _targets()


def _load(config_file: str | None, isolated: bool, timeout: float | None) -> Any:
    from mcp_lint.config import load_settings

    settings = load_settings(Path(config_file) if config_file else None, isolated)
    if timeout is not None:
        settings = replace(settings, timeout=timeout)
    return settings


def _resolve(ctx: click.Context, settings: Any, **options: Any) -> Any:
    from mcp_lint.reach.resolve import Request, parse_header, resolve_targets

    request = Request(
        paths=tuple(options["paths"]),
        command=tuple(ctx.obj.get("command", ())),
        url=options["url"],
        headers=dict(parse_header(value) for value in options["headers"]),
        servers=tuple(options["servers"]),
        env=_env_pairs(options["env"], options["env_file"]),
    )
    return resolve_targets(request, settings)


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(mcp_lint.__version__, "--version", prog_name="mcp-lint")
def cli() -> None:
    """npm audit for MCP tool descriptions: reflect servers, lint what agents see."""


@cli.command(help=CHECK_HELP)
@_target_options
@click.option(
    "--format",
    "output_format",
    type=click.Choice(list(REPORT_FORMATS)),
    help="Report format [text; github when GITHUB_ACTIONS=true].",
)
@click.option("-o", "--output", metavar="FILE", help="Write the report to FILE instead of stdout.")
@click.option(
    "--sarif",
    "sarif_files",
    multiple=True,
    metavar="FILE",
    help="Also write SARIF 2.1.0 to FILE (repeatable).",
)
@click.option(
    "--markdown",
    "markdown_files",
    multiple=True,
    metavar="FILE",
    help="Also write the Markdown summary to FILE (repeatable).",
)
@click.option(
    "--json",
    "json_files",
    multiple=True,
    metavar="FILE",
    help="Also write the JSON report to FILE (repeatable).",
)
@click.option(
    "--fail-on",
    type=click.Choice(["info", "low", "moderate", "high", "critical", "none"], case_sensitive=False),
    help="Lowest severity that fails the run [low]; info never fails.",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even with findings (3 and 4 still fail).")
@click.option(
    "--select",
    multiple=True,
    metavar="CODES",
    help="Only these rules (codes, prefixes, names or categories).",
)
@click.option(
    "--ignore",
    multiple=True,
    metavar="CODES",
    help="Skip these rules (codes, prefixes, names or categories).",
)
@click.option(
    "--jury",
    "jury_models",
    multiple=True,
    metavar="MODEL",
    help=f"A litellm model id to judge the rubric; '{OFFLINE_JURY}' for the embedded offline jury.",
)
@click.option("--frozen", is_flag=True, help="A jury cache miss is exit 4; no model is called.")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the jury cache.")
@click.option("--refresh", is_flag=True, help="Re-judge every tool and overwrite its cache entry.")
@click.option("--cache-file", metavar="PATH", help=_CACHE_FILE_HELP)
@click.option("--show-settings", is_flag=True, help="Print the resolved settings and exit.")
@click.option("--color/--no-color", default=None, help="Colour the text report [auto: only on a terminal].")
@click.pass_context
def check(ctx: click.Context, /, **options: Any) -> None:
    settings = _load(options["config_file"], options["isolated"], options["timeout"])
    if options["fail_on"]:
        settings = replace(settings, fail_on=options["fail_on"])
    if options["select"]:
        settings = replace(settings, select=_selectors("--select", options["select"]))
    if options["ignore"]:
        settings = replace(settings, ignore=(*settings.ignore, *_selectors("--ignore", options["ignore"])))
    if options["show_settings"]:
        click.echo(
            json.dumps(_settings_document(settings, _check_jury_settings(settings, options)), indent=2)
        )
        ctx.exit(0)
    from mcp_lint.gate import exit_code
    from mcp_lint.pipeline import lint

    jury = _check_jury_settings(settings, options)
    inputs = [*options["paths"], settings.config_path, jury.cache_path]
    extra_outputs = [("sarif", path) for path in options["sarif_files"]]
    extra_outputs += [("markdown", path) for path in options["markdown_files"]]
    extra_outputs += [("json", path) for path in options["json_files"]]
    _check_output(options["output"], inputs)
    for kind, path in extra_outputs:
        _check_output(path, inputs, f"--{kind}")
    targets = _resolve(ctx, settings, **options)
    result = lint(targets, settings, jury)
    _write_reports(result, options, extra_outputs)
    for server in result.servers:
        if server.error is not None:
            click.echo(f"mcp-lint: error: {server.error}", err=True)
    if result.jury is not None:
        for warning in result.jury.warnings:
            click.echo(f"mcp-lint: warning: {warning}", err=True)
        unscored = result.jury.unscored
        if unscored:
            first = unscored[0]
            click.echo(
                f"mcp-lint: error: {len(unscored)} tool/judge pair(s) unscored, e.g. {first.server}/"
                f"{first.tool} by {first.judge}: {first.reason}",
                err=True,
            )
    ctx.exit(exit_code(result, settings.fail_on, options["exit_zero"]))


def _report_format(chosen: str | None) -> str:
    """--format, else `github` inside GitHub Actions (annotations), else `text`."""
    if chosen:
        return chosen
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def _terminal_width(output: str | None, output_format: str) -> int | None:
    import shutil

    if output_format != "text" or (output is not None and output != "-") or not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def _write_reports(result: Any, options: Any, extra_outputs: Sequence[tuple[str, str]]) -> None:
    """The report on stdout or -o, each --sarif/--markdown file, and under GitHub Actions the job
    summary (appended to $GITHUB_STEP_SUMMARY when the format is `github`)."""
    from mcp_lint.report import ReportOptions, reporters
    from mcp_lint.report.github import write_step_summary

    output_format = _report_format(options["output_format"])
    color = _use_color(options["color"], options["output"])
    width = _terminal_width(options["output"], output_format)
    report_options = ReportOptions(color=color, cwd=os.getcwd(), width=width)
    render = reporters()
    _write_output(render[output_format](result, report_options), options["output"], color)
    plain = replace(report_options, color=False, width=None)
    for kind, path in extra_outputs:
        _write_output(render[kind](result, plain), path, flag=f"--{kind}")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if output_format == "github" and summary:
        try:
            write_step_summary(result, plain, Path(summary))
        except OSError as exc:
            click.echo(f"mcp-lint: warning: cannot append the job summary to {summary}: {exc}", err=True)


def _settings_document(settings: Settings, jury: JurySettings) -> dict[str, Any]:
    """The settings as the run will use them: the config's, with the jury flags applied."""
    document: dict[str, Any] = settings.as_document()
    document["jury"].update(
        {
            "models": list(jury.models),  # empty: the embedded offline jury
            "cache": None if jury.cache_path is None else str(jury.cache_path),
            "frozen": jury.frozen,
            "refresh": jury.refresh,
        }
    )
    return document


def _check_jury_settings(settings: Settings, options: Any) -> JurySettings:
    """The jury settings of `check`, refused before any server starts when the flags contradict."""
    from mcp_lint.config import jury_settings
    from mcp_lint.jury.run import validate_jury_settings

    jury = jury_settings(
        settings,
        options["jury_models"],
        cache_file=options["cache_file"],
        no_cache=options["no_cache"],
        refresh=options["refresh"],
        frozen=options["frozen"],
    )
    validate_jury_settings(jury)
    return jury


@cli.command(
    help=f"Save the reflected tools so later runs can replay them offline.\n\n{SNAPSHOT_EXIT_CODES_HELP}"
)
@_target_options
@click.option("-o", "--output", metavar="PATH", help="File (one server) or folder (several) [stdout].")
@click.pass_context
def snapshot(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.reflect import reflect_all
    from mcp_lint.reflect.snapshot import snapshot_document, write_json_atomic

    settings = _load(options["config_file"], options["isolated"], options["timeout"])
    targets = _resolve(ctx, settings, **options)
    output = options["output"]
    folder = _snapshot_folder(output, len(targets))
    reflections = reflect_all(targets, settings.timeout)
    failed = 0
    for item in reflections:
        if item.snapshot is None:
            click.echo(f"mcp-lint: error: {item.error}", err=True)
            failed += 1
            continue
        document = snapshot_document(item.snapshot)
        if output is None or output == "-":
            click.echo(json.dumps(document, indent=2, ensure_ascii=False))
            continue
        path = Path(output) / f"{item.name}.json" if folder else Path(output)
        try:
            write_json_atomic(path, document)
        except OSError as exc:
            raise UsageError(f"-o {output}: cannot write {path}: {exc.strerror or exc}") from None
        click.echo(f"wrote {path} ({len(item.snapshot.tools)} tools)", err=True)
    ctx.exit(3 if failed else 0)


def _snapshot_folder(output: str | None, count: int) -> bool:
    """Whether snapshots go into the folder `output`; refuses, before any server starts, an output
    that cannot hold `count` snapshots or cannot be written."""
    from mcp_lint.files import unwritable_reason

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


def _refuse_server_command(ctx: click.Context) -> None:
    """main() sets aside everything after `--` as a server command; a command that starts none refuses it."""
    command = (ctx.obj or {}).get("command")
    if command:
        raise UsageError(
            f"unexpected `-- {' '.join(command)}`: {ctx.command_path} starts no server; "
            "drop everything from `--` on"
        )


@cli.command("rules")
@click.option(
    "--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.pass_context
def list_rules(ctx: click.Context, output_format: str) -> None:
    """List every rule: code, name, severity and category."""
    from mcp_lint.check.rules import load_catalogue

    _refuse_server_command(ctx)

    catalogue = load_catalogue()
    if output_format == "json":
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "severity": r.severity.label,
                "category": r.category,
                "status": r.status,
            }
            for r in catalogue.rules
        ]
        click.echo(json.dumps(rows, indent=2))
        return
    width = max(len(rule.name) for rule in catalogue.rules)
    for rule in catalogue.rules:
        click.echo(f"{rule.code}  {rule.name:<{width}}  {rule.severity.label:<8}  {rule.category}")


@cli.command("rule")
@click.argument("key", metavar="CODE-or-NAME")
@click.pass_context
def show_rule(ctx: click.Context, key: str) -> None:
    """Print one rule's documentation."""
    from mcp_lint.check.rules import load_catalogue

    _refuse_server_command(ctx)

    catalogue = load_catalogue()
    rule = catalogue.find(key)
    if rule is None:
        names = [r.name for r in catalogue.rules] + [r.code for r in catalogue.rules]
        # a fragment of a name ("phantom" for phantom-parameter) first, then near spellings
        close = [name for name in names if key.strip() and key.strip().lower() in name.lower()][:3]
        close = close or difflib.get_close_matches(key, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `mcp-lint rules`"
        raise UsageError(f"no rule {key!r}{hint}")
    click.echo(rule.render_docs(), nl=False)


@cli.group()
def cache() -> None:
    """Inspect or prune the jury cache."""


@cache.command("stats")
@click.option("--cache-file", metavar="PATH", help=_CACHE_FILE_HELP)
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Use this config file.")
@click.option("--isolated", is_flag=True, help="Ignore every config file.")
@click.pass_context
def cache_stats(ctx: click.Context, cache_file: str | None, config_file: str | None, isolated: bool) -> None:
    """Entries, size and models in the jury cache."""
    from mcp_lint.config import resolve_cache_path
    from mcp_lint.jury.cache import JuryCache

    _refuse_server_command(ctx)

    path = resolve_cache_path(_load(config_file, isolated, None), cache_file)
    store = JuryCache(path, read_only=True)
    stats = store.stats()
    if not stats.exists:
        click.echo(f"mcp-lint: no jury cache at {path} yet; a check with LLM judges creates it", err=True)
    for warning in store.warnings:
        click.echo(f"mcp-lint: warning: {warning}", err=True)
    click.echo(json.dumps(_plain(stats), indent=2))


PRUNE_HELP = f"""Drop the entries that no current tool of the project uses.

\b
The cache records each verdict's judge and tool, not its server, so prune
always reflects every server of the project: the [servers] of the config,
else ./.mcp.json (what `mcp-lint check` with no target lints). It takes no
TARGET, --server or --url. Only entries of the judges being pruned can go:
the configured jury models, or those given with --jury. If a server cannot
be reflected nothing is pruned. --dry-run lists what would go.

\b
Exit codes:
  0  pruned (or nothing to prune)
{_EXIT_USAGE_HELP}
{_EXIT_SERVER_HELP}: nothing was pruned
"""


@cache.command("prune", help=PRUNE_HELP)
@_targets(refused=True)
@click.option("--cache-file", metavar="PATH", help=_CACHE_FILE_HELP)
@click.option(
    "--jury",
    "jury_models",
    multiple=True,
    metavar="MODEL",
    help="Prune only this judge's entries [the configured jury models].",
)
@click.option("--dry-run", is_flag=True, help="List the entries that would be removed; write nothing.")
@click.pass_context
def cache_prune(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.config import jury_settings, resolve_cache_path
    from mcp_lint.errors import ServerError
    from mcp_lint.jury.run import check_prunable, prune_cache
    from mcp_lint.reflect import reflect_all

    picked = [
        *options["paths"],
        *(["-- COMMAND"] if ctx.obj.get("command") else []),
        *(["--url"] if options["url"] else []),
        *(["--server"] if options["servers"] else []),
        *(["--header"] if options["headers"] else []),
    ]
    if picked:
        # Pruning against some servers would drop the verdicts of every other one: the cache cannot tell.
        raise UsageError(
            f"cache prune takes no target ({picked[0]}): the cache does not record which server a verdict "
            "is for, so prune reflects every server of the project ([servers] in the config, else "
            "./.mcp.json); list all your servers there, and see what would go with --dry-run"
        )
    settings = _load(options["config_file"], options["isolated"], options["timeout"])
    path = resolve_cache_path(settings, options["cache_file"])
    if OFFLINE_JURY in options["jury_models"]:
        raise UsageError(
            f"--jury {OFFLINE_JURY}: the offline jury keeps no cache, so there is nothing to prune"
        )
    jury = jury_settings(settings, options["jury_models"], cache_file=options["cache_file"])
    check_prunable(jury)
    if not path.exists():
        click.echo(f"no jury cache at {path}; nothing to prune")
        ctx.exit(0)
    targets = _resolve(ctx, settings, **options)
    reflections = reflect_all(targets, settings.timeout)
    failed = [item for item in reflections if item.snapshot is None]
    if failed:
        # Pruning against a partial list of tools would drop the verdicts of the server that failed.
        raise ServerError(f"not pruning: {failed[0].error}")
    snapshots = [item.snapshot for item in reflections if item.snapshot]
    try:
        result = prune_cache(snapshots, jury, dry_run=options["dry_run"])
    except OSError as exc:
        raise UsageError(f"{path}: cannot rewrite the jury cache: {exc.strerror or exc}") from None
    for warning in result.warnings:
        click.echo(f"mcp-lint: warning: {warning}", err=True)
    for model in result.unknown_judges:
        click.echo(
            f"mcp-lint: warning: the cache has no entry of judge {model!r}; `mcp-lint cache stats` lists "
            "the judges it has",
            err=True,
        )
    count = len(result.removed)
    entries = f"{count} stale entr{'y' if count == 1 else 'ies'}"
    if options["dry_run"]:
        for key, entry in sorted(
            result.removed.items(), key=lambda item: (item[1].model, item[1].tool, item[0])
        ):
            click.echo(f"would remove {key[:12]}  {entry.model}  {entry.tool}")
        click.echo(f"would remove {entries} from {path} (dry run: nothing written)")
    else:
        click.echo(f"removed {entries} from {path}")
    if result.other_judges:
        kept = sum(result.other_judges.values())
        names = ", ".join(f"{model} ({n})" for model, n in result.other_judges.items())
        click.echo(
            f"kept {kept} entr{'y' if kept == 1 else 'ies'} of judges not pruned: {names}; "
            "name them with --jury to prune them"
        )


def _plain(value: Any) -> Any:
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def _one_line(error: click.ClickException, args: Sequence[str]) -> str:
    """click's message without its Usage/Try/Error block, pointing at the command's --help."""
    plain = error.message if isinstance(error, click.NoSuchOption) else error.format_message()
    message = " ".join(plain.split()).rstrip(".")
    message = message[:1].lower() + message[1:]
    if isinstance(error, click.NoSuchOption) and error.possibilities:
        message += f"; did you mean {', '.join(error.possibilities)}?"
    context = getattr(error, "ctx", None)
    if context is not None:
        command = context.command_path
    else:  # some parser errors carry no context: name the subcommand when there is one
        command = f"mcp-lint {args[0]}" if args and args[0] in cli.commands else "mcp-lint"
    return f"{message} (see '{command} --help')"


# click 8.2+ raises this for a bare group; 8.1 printed the help and exited 0 instead.
_NO_ARGS_IS_HELP: type[click.ClickException] | tuple[()] = getattr(click.exceptions, "NoArgsIsHelpError", ())

EXIT_INTERRUPTED = 128 + signal.SIGINT
EXIT_TERMINATED = 128 + signal.SIGTERM


def _on_sigterm(received: list[int]) -> Callable[[int, FrameType | None], None]:
    """A SIGTERM handler that takes the Ctrl-C path, so spawned servers are stopped the same way."""

    def handle(signum: int, frame: FrameType | None) -> None:
        received.append(signum)
        interrupt = signal.getsignal(signal.SIGINT)
        if callable(interrupt):
            # Inside anyio.run this is asyncio's handler: it cancels the run, the transports' clean-up
            # stops each server, then KeyboardInterrupt is raised; otherwise the default one raises it.
            interrupt(signal.SIGINT, frame)
        else:  # SIGINT ignored (a background job): interrupt directly, the clean-up still runs
            raise KeyboardInterrupt

    return handle


def main(argv: Sequence[str] | None = None) -> int:
    args, command = _split_command(sys.argv[1:] if argv is None else argv)
    received: list[int] = []
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm(received))
    except ValueError:  # not the main thread: signals are for whoever runs us
        return _run(args, command, received)
    try:
        return _run(args, command, received)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _run(args: list[str], command: list[str], terminated: list[int]) -> int:
    try:
        # Without standalone mode click returns what ctx.exit() was given instead of exiting.
        code = cli.main(args=args, prog_name="mcp-lint", standalone_mode=False, obj={"command": command})
    except McpLintError as error:
        click.echo(f"mcp-lint: error: {error}", err=True)
        return error.exit_code
    except click.exceptions.Exit as done:
        return int(done.exit_code)
    except click.ClickException as error:
        if isinstance(error, _NO_ARGS_IS_HELP):
            error.show()  # a bare group (`mcp-lint`, `mcp-lint cache`) prints its help
        else:
            click.echo(f"mcp-lint: error: {_one_line(error, args)}", err=True)
        return EXIT_USAGE
    except click.exceptions.Abort:
        # click turns KeyboardInterrupt into Abort; SIGTERM raises it too (see _on_sigterm).
        click.echo("mcp-lint: terminated" if terminated else "mcp-lint: aborted", err=True)
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    except KeyboardInterrupt:
        return EXIT_TERMINATED if terminated else EXIT_INTERRUPTED
    except Exception as error:  # a bug of ours must still end in one line and a non-zero exit
        if os.environ.get("MCP_LINT_DEBUG"):
            raise
        click.echo(
            f"mcp-lint: internal error: {type(error).__name__}: {error}; rerun with MCP_LINT_DEBUG=1 "
            "for the traceback and please report it",
            err=True,
        )
        return EXIT_USAGE
    return code if isinstance(code, int) else 0
