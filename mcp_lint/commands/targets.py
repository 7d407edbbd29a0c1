"""The target options that `check`, `snapshot` and `cache prune` share, and the settings they load."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from mcp_lint.config import Settings, load_settings
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.envfile import parse_env_file
from mcp_lint.reach.resolve import Request, parse_env_pair, parse_header, resolve_targets
from mcp_lint.reach.targets import Target


@dataclass(frozen=True, eq=False, repr=False)
class TargetOptions:
    """What picks the servers of a run, and the settings it runs with, as given on the command line."""

    paths: tuple[str, ...] = ()
    command: tuple[str, ...] = ()  # everything after `--`
    url: str | None = None
    headers: tuple[str, ...] = ()
    servers: tuple[str, ...] = ()
    env: tuple[str, ...] = ()
    env_file: str | None = None
    timeout: float | None = None
    config_file: str | None = None
    isolated: bool = False


def load_run_settings(config_file: str | None, isolated: bool, timeout: float | None = None) -> Settings:
    """The config's settings (or the defaults), with --timeout applied."""
    settings = load_settings(Path(config_file) if config_file else None, isolated)
    if timeout is not None:
        settings = replace(settings, timeout=timeout)
    return settings


def env_pairs(values: Sequence[str], env_file: str | None) -> dict[str, str]:
    """The variables of --env-file, then each --env KEY=VALUE over them."""
    env: dict[str, str] = {}
    if env_file:
        env.update(parse_env_file(Path(env_file), unreadable=f"--env-file {env_file}: cannot read"))
    for value in values:
        key, item = parse_env_pair(value)
        env[key] = item
    return env


def resolve(options: TargetOptions, settings: Settings) -> list[Target | UnreachableTarget]:
    request = Request(
        paths=options.paths,
        command=options.command,
        url=options.url,
        headers=dict(parse_header(value) for value in options.headers),
        servers=options.servers,
        env=env_pairs(options.env, options.env_file),
    )
    return resolve_targets(request, settings)
