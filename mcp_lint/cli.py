"""The command line. The only module that imports click; it parses, calls the stages, maps exits."""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import TYPE_CHECKING, Any

import click

import mcp_lint
from mcp_lint.errors import EXIT_USAGE, QUOTE_LIMIT, McpLintError, UsageError, quote
from mcp_lint.model import OFFLINE_JURY
from mcp_lint.report import REPORTER_MODULES

if TYPE_CHECKING:
    from mcp_lint.commands.output import Output
    from mcp_lint.commands.targets import TargetOptions

# Each command's module is imported inside its click callback: `mcp-lint --version` and `--help`
# load none of the pipeline, and a snapshot lint loads only what `check` uses.
REPORT_FORMATS = tuple(REPORTER_MODULES)

_EXIT_USAGE_HELP = "  2  usage or configuration error"
_EXIT_SERVER_HELP = "  3  a server could not be reached or reflected"

EXIT_CODES_HELP = f"""\b
Exit codes:
  0  no finding fails the gate (warnings and baselined findings do not)
  1  findings fail the gate (--profile, --fail-on), or a server's rubric
     score is under --min-score
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


def _target_values(ctx: click.Context, options: dict[str, Any]) -> TargetOptions:
    """Take the target options out of a command's `options`, leaving the command's own."""
    from mcp_lint.commands.targets import TargetOptions

    return TargetOptions(
        paths=options.pop("paths"),
        command=tuple((ctx.obj or {}).get("command", ())),
        url=options.pop("url"),
        headers=options.pop("headers"),
        servers=options.pop("servers"),
        env=options.pop("env"),
        env_file=options.pop("env_file"),
        timeout=options.pop("timeout"),
        config_file=options.pop("config_file"),
        isolated=options.pop("isolated"),
    )


def _output() -> Output:
    from mcp_lint.commands.output import Output

    # click.echo strips ANSI codes off a non-terminal unless told the colour was asked for.
    return Output(click.echo)


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
    "--profile",
    type=click.Choice(["default", "strict"], case_sensitive=False),
    help="Which findings can fail: default (breaking ones; smells warn) or strict (all) [default].",
)
@click.option(
    "--fail-on",
    "--audit-level",
    "fail_on",
    type=click.Choice(["info", "low", "moderate", "high", "critical", "none"], case_sensitive=False),
    help="Lowest severity that fails the run [low]; info never fails.",
)
@click.option(
    "--min-score",
    type=click.FloatRange(1, 5),
    metavar="SCORE",
    help="A server whose rubric score (1-5) is under SCORE fails the run [1.2].",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even with findings (3 and 4 still fail).")
@click.option(
    "--baseline",
    metavar="FILE",
    help="Findings recorded in FILE do not fail [.mcp-lint/baseline.json when it exists].",
)
@click.option("--no-baseline", is_flag=True, help="Ignore the baseline: every finding counts.")
@click.option("--update-baseline", is_flag=True, help="Record today's findings in the baseline file.")
@click.option("--since", metavar="REF", help="Lint only tools whose definition changed since git REF.")
@click.option(
    "--since-snapshot",
    metavar="FILE",
    help="With --since and a live server: the committed snapshot to compare with at REF.",
)
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
@click.option("--fix", is_flag=True, help="Rewrite smelly descriptions in their source (else overrides).")
@click.option("--diff", is_flag=True, help="Print the --fix changes as a unified diff; write nothing.")
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="Also apply unsafe fixes: ranges, value lists and hints moved into the schema; "
    "with --jury MODEL, the model's rewrites.",
)
@click.option("--components", metavar="PARTS", help="Rewrite only these parts, e.g. purpose,guidelines.")
@click.option(
    "--traces",
    "trace_files",
    multiple=True,
    metavar="FILE",
    help="Recorded calls (mcp-lint record) that ground examples and limits (repeatable).",
)
@click.pass_context
def check(ctx: click.Context, /, **options: Any) -> None:
    with _batch():
        from mcp_lint.commands.check import run_check
        from mcp_lint.commands.check_options import CheckOptions

        targets = _target_values(ctx, options)
        ctx.exit(run_check(CheckOptions(targets=targets, **options), _output()))


@cli.command(
    help=f"Save the reflected tools so later runs can replay them offline.\n\n{SNAPSHOT_EXIT_CODES_HELP}"
)
@_target_options
@click.option("-o", "--output", metavar="PATH", help="File (one server) or folder (several) [stdout].")
@click.pass_context
def snapshot(ctx: click.Context, /, **options: Any) -> None:
    with _batch():
        from mcp_lint.commands.snapshot import SnapshotOptions, run_snapshot

        targets = _target_values(ctx, options)
        ctx.exit(run_snapshot(SnapshotOptions(targets=targets, **options), _output()))


@cli.command("init")
@click.option("--force", is_flag=True, help="Replace mcp-lint.toml and the workflow if they exist.")
@click.pass_context
def init(ctx: click.Context, force: bool) -> None:
    """Set this repository up: name its MCP servers in the config, add a workflow using the
    GitHub Action, and print the pre-commit lines. Never overwrites a file without --force."""
    from pathlib import Path

    from mcp_lint.commands.init import run_init

    _refuse_server_command(ctx)
    ctx.exit(run_init(Path.cwd(), force, _output()))


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
    from mcp_lint.commands.rules import run_rules

    _refuse_server_command(ctx)
    ctx.exit(run_rules(output_format, _output()))


@cli.command("rule")
@click.argument("key", metavar="CODE-or-NAME")
@click.pass_context
def show_rule(ctx: click.Context, key: str) -> None:
    """Print one rule's documentation."""
    from mcp_lint.commands.rules import run_rule

    _refuse_server_command(ctx)
    ctx.exit(run_rule(key, _output()))


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
    from mcp_lint.commands.cache import CacheStatsOptions, run_cache_stats

    _refuse_server_command(ctx)
    options = CacheStatsOptions(cache_file=cache_file, config_file=config_file, isolated=isolated)
    ctx.exit(run_cache_stats(options, _output()))


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
    from mcp_lint.commands.cache import CachePruneOptions, run_cache_prune

    targets = _target_values(ctx, options)
    ctx.exit(run_cache_prune(CachePruneOptions(targets=targets, **options), _output()))


GATE_HELP = """Gate a registry entry before it is published: validate the server.json
(ENTRY, default ./server.json), install and start each package the way a
client would (PyPI, npm) and connect to each remote, then lint their tools
under the registry profile (high and critical findings and a server score
under the floor fail). Reads no config file unless --config names one.

\b
Exit codes:
  0  the entry passes the registry profile
  1  findings fail it, or a server's rubric score is under the floor
  2  the entry is invalid (one line per problem), a required input has no
     value (--env NAME=VALUE), or a usage error
  3  a package could not be installed, started or reflected (nuget, oci and
     mcpb packages are not supported yet)
  4  the jury could not score every tool"""


def _install_options(function: Any) -> Any:
    """The options `gate` and `audit` share: how each server is installed, started and judged."""
    options = [
        click.option(
            "--timeout",
            type=click.FloatRange(min=0.1),
            callback=_finite_seconds,
            help="Seconds for each server's start-up and each request [30].",
        ),
        click.option(
            "--min-score",
            type=click.FloatRange(1, 5),
            metavar="SCORE",
            help="A server whose rubric score (1-5) is under SCORE fails [1.2].",
        ),
        click.option(
            "--cache-dir",
            metavar="DIR",
            help="Where installs are cached [$MCP_LINT_CACHE_DIR, else the user's cache folder/mcp-lint].",
        ),
        click.option(
            "--allow-private-network",
            is_flag=True,
            help="Let remotes, registry URLs and URL identifiers reach loopback, private and link-local "
            "addresses [refused: exit 2].",
        ),
        click.option(
            "--allow-install-scripts",
            is_flag=True,
            help="Let installers run package code: npm install scripts, pip builds of source "
            "distributions [off: npm --ignore-scripts, pip wheels only].",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@cli.command("gate", help=GATE_HELP)
@click.argument("entry", required=False, metavar="[ENTRY]")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(list(REPORT_FORMATS)),
    help="Report format [text; github when GITHUB_ACTIONS=true].",
)
@click.option("-o", "--output", metavar="FILE", help="Write the report to FILE instead of stdout.")
@click.option("--verdict", metavar="FILE", help="Write the machine-readable verdict (JSON) to FILE.")
@click.option(
    "--env",
    "env",
    multiple=True,
    metavar="NAME=VALUE",
    help="A value for the entry's input NAME (variable, argument, header); also set in the environment.",
)
@click.option(
    "--jury",
    "jury_models",
    multiple=True,
    metavar="MODEL",
    help=f"Judge with these models' cached verdicts (needs --frozen) [{OFFLINE_JURY}].",
)
@click.option("--frozen", is_flag=True, help="Take every verdict from the jury cache; a miss is exit 4.")
@click.option("--cache-file", metavar="PATH", help=_CACHE_FILE_HELP)
@click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Use this config file.")
@click.option("--color/--no-color", default=None, help="Colour the text report [auto: only on a terminal].")
@_install_options
@click.pass_context
def gate(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.commands.registry_gate import GateOptions, run_gate

    _refuse_server_command(ctx)
    ctx.exit(run_gate(GateOptions(**options), _output()))


AUDIT_HELP = f"""Audit many servers at once: gate every server.json, lint every snapshot,
and record each verdict in a SQLite store.

\b
TARGET is any of (and folders of them, walked for .json files):
  server.json             installed and started as `mcp-lint gate` does
  snapshot                linted as `mcp-lint check` does (`mcp-lint snapshot`)
  registry export         a JSON list of server.json entries, or the
                          registry's list answer {{"servers": [...]}}

\b
Each target is one job: on this machine (--engine local, a process pool of
--workers) or on Ray (--engine ray, a local instance bound to 127.0.0.1, or
the cluster at --ray-address). Every job is judged by the same rules: no
config file is read, the offline jury scores, under --profile. Each row is
stored the moment its job ends; --resume skips the targets the store already
holds under the same rule set. See docs/registry.md.

\b
Exit codes:
  0  every target passed
  1  some target failed, was unreachable or ended in error (see the store
     and --report); the audit itself ran to the end
{_EXIT_USAGE_HELP} (a missing or unreadable target, an unusable
     --store, a bad option, --engine ray without Ray installed); nothing ran
  130 interrupted: every row recorded so far is kept (--resume goes on)"""


@cli.command("audit", help=AUDIT_HELP)
@click.argument("targets", nargs=-1, metavar="TARGET...")
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where the jobs run: a process pool here, or Ray tasks (pip install 'mcp-lint[distributed]').",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=4096),
    help="Jobs at once: local pool processes [CPUs], or Ray tasks in flight [cluster CPUs / --job-cpus].",
)
@click.option(
    "--ray-address", metavar="ADDR", help="An existing Ray cluster (ray start --head) [a local instance]."
)
@click.option(
    "--job-cpus",
    type=click.FloatRange(min=0.01, max=1024),
    default=1.0,
    show_default=True,
    help="CPUs each Ray task requests.",
)
@click.option("--store", metavar="FILE", help="The SQLite store of the results [.mcp-lint/audit.sqlite].")
@click.option("--resume", is_flag=True, help="Skip the targets the store holds under the same rule set.")
@click.option("--report", metavar="FILE.md", help="Write the audit's Markdown report to FILE.md.")
@click.option(
    "--profile",
    type=click.Choice(["registry", "default", "strict"]),
    default="registry",
    show_default=True,
    help="Which findings fail a target (as `gate` and `check --profile`).",
)
@click.option(
    "--job-timeout",
    type=click.FloatRange(min=1, max=86400),
    default=900.0,
    show_default=True,
    help="Seconds one job may take, install included; then it is stopped and recorded as an error.",
)
@click.option(
    "--max-retries",
    type=click.IntRange(min=0, max=10),
    default=2,
    show_default=True,
    help="Reruns of a job whose worker died (never of a verdict).",
)
@click.option(
    "--fresh-installs",
    is_flag=True,
    help="Install each job's packages into a folder of its own, removed after it (no shared cache).",
)
@_install_options
@click.pass_context
def audit(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.commands.audit import AuditOptions, run_audit_command

    _refuse_server_command(ctx)
    ctx.exit(run_audit_command(AuditOptions(**options), _output()))


_PROXY_EXIT_CODES_HELP = f"""\b
Exit codes:
  0  the client closed the session
{_EXIT_USAGE_HELP}; nothing was started
  3  the server could not be started or reached, or went away mid-session"""

RECORD_HELP = f"""Record every tools/call a client makes, through a transparent MCP proxy.

\b
Launch it in place of the server (in .mcp.json or claude_desktop_config.json):
  mcp-lint record --traces traces.jsonl -- COMMAND ARGS...
  mcp-lint record --traces traces.jsonl --url URL   (a stdio-to-HTTP bridge)
Every message passes unchanged; each answered call is appended to the trace
file as one JSON line, secrets redacted (docs/traces.md).

{_PROXY_EXIT_CODES_HELP}
"""

PROXY_HELP = f"""Serve description overrides to a client, through an MCP proxy.

\b
  mcp-lint proxy --overrides .mcp-lint/overrides.json -- COMMAND ARGS...
Each tools/list result has the overridden tools' descriptions replaced (or only
the --components chosen); everything else passes unchanged (docs/proxy.md).

{_PROXY_EXIT_CODES_HELP}
"""


def _proxy_options(function: Any) -> Any:
    """The options `record` and `proxy` share: the server to front and how its calls are filed."""
    options = [
        click.option("--url", help="Front an MCP server over HTTP instead of spawning a command."),
        click.option(
            "--header", "headers", multiple=True, metavar="NAME:VALUE", help="HTTP header for --url."
        ),
        click.option(
            "--transport",
            type=click.Choice(["streamable-http", "sse"]),
            default="streamable-http",
            show_default=True,
            help="The HTTP transport of --url.",
        ),
        click.option(
            "--env", "env", multiple=True, metavar="KEY=VALUE", help="Extra variable for the server."
        ),
        click.option("--env-file", type=click.Path(dir_okay=False), help="KEY=VALUE lines for the server."),
        click.option(
            "--server-name",
            metavar="NAME",
            help="The server's name in traces and overrides [its serverInfo name, else the command's].",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


@cli.command("record", help=RECORD_HELP)
@click.option("--traces", required=True, metavar="FILE", help="Append each tools/call to FILE (JSON Lines).")
@_proxy_options
@click.pass_context
def record(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.commands.proxy import ProxyOptions, run_record

    command = tuple((ctx.obj or {}).get("command", ()))
    ctx.exit(run_record(ProxyOptions(command=command, **options)))


@cli.command("proxy", help=PROXY_HELP)
@click.option("--overrides", required=True, metavar="FILE", help="The overrides file to serve.")
@click.option(
    "--components",
    metavar="PARTS",
    help="Serve only these parts of each rewrite, e.g. purpose,guidelines [all].",
)
@click.option("--traces", metavar="FILE", help="Also append each tools/call to FILE (JSON Lines).")
@_proxy_options
@click.pass_context
def proxy(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.commands.proxy import ProxyOptions, run_proxy

    command = tuple((ctx.obj or {}).get("command", ()))
    ctx.exit(run_proxy(ProxyOptions(command=command, **options)))


_CLICK_QUOTED = re.compile(rf"'([^']{{{QUOTE_LIMIT + 1},}})'")


BENCH_HELP = f"""Measure whether rewritten descriptions help an agent pick the right tools.

\b
Tool retrieval on LiveMCPBench (70 servers, 527 tools, 95 annotated tasks,
vendored): each task's question is the query, each tool's name and
description a document. Prints, per retriever (BM25, all-MiniLM-L6-v2), the
mean reciprocal rank of the tools a task needs with the original
descriptions and with the rewrites, the paired bootstrap 95% CI of the
change, recall@k, the tasks that moved up or down, and the whole tools/list
in tokens. A control appends generic filler of the same token count, so a gain
can be told from length. Needs the bench extra:
pip install 'mcp-lint[bench]'. See docs/agent-benefit.md.

\b
Rewrites measured:
  (no --rewrites)         what `mcp-lint check --fix` writes (offline)
  --rewrites PATH         an overrides file, a JSON object of
                          "server/tool": description, or a folder of
                          snapshots (one server.json per server)
  --fix                   mcp-lint's own as well as --rewrites
  --unsafe-fixes --jury MODEL   the LLM augmentor's, as `check --fix` makes

\b
Exit codes:
  0  measured (and within --max-growth and --min-change when given)
  1  rewrites grow the tools/list over --max-growth, or a retriever's MRR
     change has a 95% CI starting under --min-change
{_EXIT_USAGE_HELP}, or the bench extra is not installed"""


@cli.command("bench", help=BENCH_HELP)
@click.option(
    "--rewrites", multiple=True, metavar="PATH", type=click.Path(exists=True), help="Rewrites to measure."
)
@click.option("--fix", is_flag=True, help="Measure mcp-lint's own --fix rewrites as well as --rewrites.")
@click.option(
    "--jury",
    "jury_models",
    multiple=True,
    metavar="MODEL",
    help="Judge (and with --unsafe-fixes write) with this LLM.",
)
@click.option("--unsafe-fixes", is_flag=True, help="Let the --jury model write mcp-lint's rewrites.")
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    help="Read this config file (none by default).",
)
@click.option("--cache-file", metavar="PATH", help=_CACHE_FILE_HELP)
@click.option("--no-cache", is_flag=True, help="Use no jury cache.")
@click.option(
    "--control/--no-control",
    default=True,
    show_default=True,
    help="Also measure the length-matched filler control.",
)
@click.option(
    "--retriever",
    "retrievers",
    multiple=True,
    type=click.Choice(["bm25", "minilm"]),
    help="Retrievers to run [both].",
)
@click.option(
    "--resamples",
    type=click.IntRange(100, 1_000_000),
    default=10_000,
    show_default=True,
    help="Bootstrap resamples.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Bootstrap seed.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "markdown", "json"]),
    default="text",
    show_default=True,
)
@click.option(
    "--save-rewrites", metavar="PATH", help="Write mcp-lint's rewrites as JSON (--rewrites reads it back)."
)
@click.option(
    "--server", "servers", multiple=True, metavar="NAME", help="Only this catalogue server (repeatable)."
)
@click.option(
    "--catalogue", type=click.Path(dir_okay=False), help="LiveMCPBench tools.json [the vendored copy]."
)
@click.option(
    "--tasks", type=click.Path(dir_okay=False), help="LiveMCPBench annotations [the vendored copy]."
)
@click.option(
    "--max-growth",
    type=click.FloatRange(min=0),
    metavar="PERCENT",
    help="Exit 1 when rewrites grow the whole tools/list by more, e.g. 10.",
)
@click.option(
    "--min-change",
    type=click.FloatRange(-1, 1),
    metavar="MRR",
    help="Exit 1 when a retriever's MRR change has a 95% CI starting below this, e.g. -0.01.",
)
@click.pass_context
def bench(ctx: click.Context, /, **options: Any) -> None:
    from mcp_lint.commands.bench import BenchOptions, run_bench

    _refuse_server_command(ctx)
    options["retrievers"] = options["retrievers"] or ("bm25", "minilm")
    for key in ("rewrites", "jury_models", "servers"):
        options[key] = tuple(options[key])
    ctx.exit(run_bench(BenchOptions(**options), _output()))


def _one_line(error: click.ClickException, args: Sequence[str]) -> str:
    """click's message without its Usage/Try/Error block, pointing at the command's --help."""
    plain = error.message if isinstance(error, click.NoSuchOption) else error.format_message()
    message = " ".join(plain.split()).rstrip(".")
    # click quotes the value it refused ('severe'); a megabyte-long one is cut as our messages cut it.
    message = _CLICK_QUOTED.sub(lambda match: quote(match.group(1)), message)
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


def _printable(text: str) -> str:
    from mcp_lint.sanitize import printable

    return printable(text)


@contextlib.contextmanager
def _batch() -> Iterator[None]:
    """A one-shot command (check, snapshot) runs without the cyclic garbage collector: its imports
    (the SDK's and the config's pydantic models, the rules' and the jury's regexes) and its stages
    allocate long-lived or acyclic objects, which the collector would walk again and again for
    nothing (about a tenth of a 120-tool lint's CPU, a fifth of a 5,000-tool one's; the peak memory
    of the 5,000-tool lint is the same). Restored afterwards, for a caller that runs us in-process.

    Turned back on as it is, the collector's next young collection would walk every object the run
    made (all of them young, as none was collected): 35-40 ms of a 120-tool lint, just before the
    process ends. So the run's objects go to the oldest generation first, unexamined (freeze, then
    unfreeze): a caller that runs on still has them collected by its next full collection."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        # The program itself (the console script, `python -m mcp_lint`), not a caller in-process: when
        # it ends, the interpreter's last collection would walk every object left, only to free what
        # the exit frees anyway. Frozen objects are skipped (finalizers of cyclic garbage are not
        # promised at exit either); the output is flushed and closed as before.
        atexit.register(gc.freeze)
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
        # A message may carry what a server sent (its stderr tail): shown, never obeyed by the terminal.
        click.echo(f"mcp-lint: error: {_printable(str(error))}", err=True)
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
            f"mcp-lint: internal error: {type(error).__name__}: {_printable(str(error))}; "
            "rerun with MCP_LINT_DEBUG=1 for the traceback and please report it",
            err=True,
        )
        return EXIT_USAGE
    return code if isinstance(code, int) else 0
