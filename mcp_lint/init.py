"""`mcp-lint init`: set a repository up for mcp-lint in one go.

It finds the MCP servers the repository holds, in this order: the client configs checked into it
(`.mcp.json`, `.vscode/mcp.json`, `.cursor/mcp.json`), a registry `server.json`, Python files that
build an MCP SDK server (`FastMCP(...)` / `MCPServer(...)`), and Node packages that depend on
`@modelcontextprotocol/sdk` and name an entry point (`bin`, else `main`). It then writes

- the `[servers]` table: into `pyproject.toml` as `[tool.mcp-lint]` when there is one, else as
  `mcp-lint.toml`;
- a workflow, `.github/workflows/mcp-lint.yml`, that runs the Action;

and returns the pre-commit lines for the caller to print (editing the user's pre-commit config is
left to them: it is theirs, and YAML comments would not survive a rewrite).

Nothing that exists is overwritten unless `force` is given; an existing `[tool.mcp-lint]` table in
`pyproject.toml` is never touched (the rest of that file is the user's, so it is edited only by
appending), and is reported instead.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib  # type: ignore[import-not-found,unused-ignore]

import mcp_lint
from mcp_lint.config import CONFIG_FILES
from mcp_lint.files import write_text_atomic
from mcp_lint.locate import SKIPPED_DIRS, walked_files
from mcp_lint.reach.client_config import is_disabled, parse_json_document, server_table
from mcp_lint.reach.resolve import PROJECT_CONFIGS

# Where the Action and the pre-commit hooks are published from: the workflow and the pre-commit lines
# name it, pinned to the release that wrote them.
REPOSITORY = "mcp-lint/mcp-lint"
RELEASE = f"v{mcp_lint.__version__}"
WORKFLOW_PATH = Path(".github/workflows/mcp-lint.yml")
STANDALONE_CONFIG = Path("mcp-lint.toml")

# Keys a client config entry may carry that `[servers]` understands, as `[servers]` spells them.
_ENTRY_KEYS = {"command": "command", "args": "args", "env": "env", "envFile": "env-file", "cwd": "cwd"}
_ENTRY_KEYS |= {"url": "url", "headers": "headers", "type": "type"}
_PYTHON_SDK_IMPORT = re.compile(
    r"^\s*(?:from\s+(?:mcp|fastmcp)[\w.]*\s+import|import\s+(?:mcp|fastmcp)\b)", re.M
)
_PYTHON_SERVER = re.compile(r"\b(?:FastMCP|MCPServer)\s*\(")
_NODE_SDK = "@modelcontextprotocol/sdk"
# A file named like this says nothing about which server it is: the folder or project names it.
_GENERIC_STEMS = {"server", "main", "__main__", "app", "index", "cli", "run"}
_MAX_SOURCE_BYTES = 512 * 1024


@dataclass(frozen=True)
class FoundServer:
    """A server init found: its `[servers]` entry and the repository file it was found in."""

    name: str
    entry: Mapping[str, Any]
    source: str
    kind: str  # "client config", "server.json", "python", "node"


@dataclass(frozen=True)
class Skipped:
    """A file init left alone, and why."""

    path: Path
    reason: str


@dataclass(frozen=True)
class InitResult:
    root: Path
    servers: tuple[FoundServer, ...]
    written: tuple[Path, ...]  # relative to root, in the order written
    skipped: tuple[Skipped, ...]
    pre_commit: str  # the lines to add under `repos:` of .pre-commit-config.yaml
    python: bool  # a Python server: the workflow installs the project before linting
    node: bool


# ----------------------------------------------------------------------------------------------
# Finding the servers


def _repository_files(root: Path) -> list[str]:
    # Walked rather than `git ls-files`: a server written a minute ago and not yet committed counts.
    return walked_files(root)


def _read(path: Path) -> str | None:
    try:
        if path.stat().st_size > _MAX_SOURCE_BYTES:
            return None
        return path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None


def _json(path: Path) -> Any:
    text = _read(path)
    if text is None:
        return None
    try:
        return parse_json_document(text, str(path))
    except Exception:  # a broken file is not ours to report here: the user's run of check will
        return None


def _from_client_config(root: Path, relative: str) -> list[FoundServer]:
    data = _json(root / relative)
    if not isinstance(data, Mapping):
        return []
    try:
        _, entries = server_table(data)
    except ValueError:
        return []
    found: list[FoundServer] = []
    for name, entry in entries.items():
        if not isinstance(entry, Mapping) or is_disabled(entry):
            continue
        translated = {_ENTRY_KEYS[key]: value for key, value in entry.items() if key in _ENTRY_KEYS}
        if "command" in translated or "url" in translated:
            found.append(FoundServer(str(name), translated, relative, "client config"))
    return found


def _from_server_json(root: Path, relative: str) -> list[FoundServer]:
    """A registry server.json: how a client would start its first package, else its first remote."""
    data = _json(root / relative)
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        return []
    name = data["name"].rsplit("/", 1)[-1]
    for package in data.get("packages") or ():
        entry = _package_entry(package)
        if entry is not None:
            return [FoundServer(name, entry, relative, "server.json")]
    for remote in data.get("remotes") or ():
        if isinstance(remote, Mapping) and isinstance(remote.get("url"), str):
            entry = {"url": remote["url"]}
            if remote.get("type") == "sse":
                entry["type"] = "sse"
            return [FoundServer(name, entry, relative, "server.json")]
    return []


def _package_entry(package: Any) -> dict[str, Any] | None:
    if not isinstance(package, Mapping):
        return None
    identifier, version = package.get("identifier"), package.get("version")
    if not isinstance(identifier, str):
        return None
    pinned = isinstance(version, str) and version not in {"", "latest"}
    registry = package.get("registryType")
    if registry == "npm":
        command, args = "npx", ["-y", f"{identifier}@{version}" if pinned else identifier]
    elif registry == "pypi":
        command, args = "uvx", [f"{identifier}=={version}" if pinned else identifier]
    elif registry == "oci":
        command, args = "docker", ["run", "-i", "--rm", identifier]
    else:
        return None
    hint = package.get("runtimeHint")
    entry: dict[str, Any] = {"command": hint if isinstance(hint, str) and hint else command, "args": args}
    # Each variable the package needs is passed through from the environment check runs in.
    variables = [
        item["name"]
        for item in package.get("environmentVariables") or ()
        if isinstance(item, Mapping) and isinstance(item.get("name"), str)
    ]
    if variables:
        entry["env"] = {variable: f"${{{variable}}}" for variable in variables}
    return entry


def _project_name(root: Path) -> str | None:
    text = _read(root / "pyproject.toml")
    if text is None:
        return None
    try:
        name = tomllib.loads(text).get("project", {}).get("name")
    except tomllib.TOMLDecodeError:
        return None
    return name if isinstance(name, str) else None


def _from_python(root: Path, relative: str) -> list[FoundServer]:
    text = _read(root / relative)
    if text is None or not _PYTHON_SDK_IMPORT.search(text) or not _PYTHON_SERVER.search(text):
        return []
    path = Path(relative)
    name = path.stem
    if name in _GENERIC_STEMS:
        parent = path.parent.name
        name = parent if parent and parent not in {"src", "."} else (_project_name(root) or root.name)
    return [FoundServer(name, {"command": "python", "args": [relative]}, relative, "python")]


def _from_node(root: Path, relative: str) -> list[FoundServer]:
    data = _json(root / relative)
    if not isinstance(data, Mapping):
        return []
    depends = any(
        isinstance(data.get(key), Mapping) and _NODE_SDK in data[key]
        for key in ("dependencies", "devDependencies", "peerDependencies")
    )
    if not depends:
        return []
    bin_entry = data.get("bin")
    entry_point = None
    if isinstance(bin_entry, str):
        entry_point = bin_entry
    elif isinstance(bin_entry, Mapping):
        entry_point = next((value for value in bin_entry.values() if isinstance(value, str)), None)
    if entry_point is None and isinstance(data.get("main"), str):
        entry_point = data["main"]
    if entry_point is None:
        return []
    folder = Path(relative).parent
    script = (folder / entry_point).as_posix().removeprefix("./")
    raw_name = data.get("name")
    name = raw_name.rsplit("/", 1)[-1] if isinstance(raw_name, str) and raw_name else folder.name or "node"
    return [FoundServer(name, {"command": "node", "args": [script]}, relative, "node")]


def _skipped(relative: str) -> bool:
    return bool(SKIPPED_DIRS.intersection(relative.split("/")[:-1]))


def find_servers(root: Path) -> list[FoundServer]:
    """The servers of the repository at `root`, each under a name unique among them."""
    files = [path for path in _repository_files(root) if not _skipped(path)]
    present = set(files)
    found: list[FoundServer] = []
    for config in PROJECT_CONFIGS:
        if config in present or (root / config).is_file():
            found += _from_client_config(root, config)
    for path in files:
        if Path(path).name == "server.json":
            found += _from_server_json(root, path)
    for path in files:
        if path.endswith(".py"):
            found += _from_python(root, path)
        elif Path(path).name == "package.json":
            found += _from_node(root, path)
    return _unique(found)


def _unique(found: Iterable[FoundServer]) -> list[FoundServer]:
    servers: list[FoundServer] = []
    names: set[str] = set()
    commands: set[str] = set()
    for server in found:
        # The same server named by a client config and found as a script is one server.
        launch = json.dumps([server.entry.get("command"), server.entry.get("args"), server.entry.get("url")])
        if launch in commands:
            continue
        commands.add(launch)
        name, number = server.name, 2
        while name in names:
            name, number = f"{server.name}-{number}", number + 1
        names.add(name)
        servers.append(FoundServer(name, server.entry, server.source, server.kind))
    return servers


# ----------------------------------------------------------------------------------------------
# What init writes


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    # JSON strings are valid TOML basic strings (same escapes); so are JSON arrays of strings.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return json.dumps(str(value))


def config_text(servers: Sequence[FoundServer], *, in_pyproject: bool) -> str:
    """The settings init writes: a commented `[tool.mcp-lint]` (or top-level) table and one
    `[servers.NAME]` table per server."""
    prefix = "tool.mcp-lint." if in_pyproject else ""
    lines = [
        f"[{prefix.rstrip('.')}]" if in_pyproject else "# mcp-lint settings (written by `mcp-lint init`)"
    ]
    if in_pyproject:
        lines.insert(0, "# mcp-lint settings (written by `mcp-lint init`)")
    lines.append('# fail-on = "high"  # the lowest severity that fails the run')
    if not servers:
        lines += [
            "# No MCP server found: name yours here, e.g.",
            f"# [{prefix}servers.local]",
            '# command = "python"',
            '# args = ["server.py"]',
        ]
    for server in servers:
        lines += [
            "",
            f"# found in {server.source} ({server.kind})",
            f"[{prefix}servers.{_toml_key(server.name)}]",
        ]
        lines += [f"{key} = {_toml_value(value)}" for key, value in server.entry.items()]
    return "\n".join(lines) + "\n"


def python_install(root: Path) -> str:
    """How the workflow installs what a Python server imports (mcp-lint starts the server)."""
    if (root / "requirements.txt").is_file():
        return "python -m pip install -r requirements.txt"
    if (root / "pyproject.toml").is_file() or (root / "setup.py").is_file():
        return "python -m pip install ."
    return "python -m pip install mcp"


def workflow_text(*, python_install: str | None, node: bool, branch: str = "main") -> str:
    """The workflow that runs the Action on pushes to `branch` and on pull requests; with
    `python_install` (a Python server) or `node`, it first installs what the server needs."""
    setup: list[str] = []
    if python_install:
        setup += [
            "      - uses: actions/setup-python@v5",
            "        with:",
            '          python-version: "3.12"',
            "      # mcp-lint starts your server: install what it imports",
            f"      - run: {python_install}",
        ]
    if node:
        setup += [
            "      - uses: actions/setup-node@v4",
            "        with:",
            "          node-version: 22",
            "      - run: npm ci && npm run build --if-present",
        ]
    lines = [
        "# Lints the MCP tool descriptions of this repository (written by `mcp-lint init`).",
        "name: mcp-lint",
        "on:",
        "  push:",
        f"    branches: [{json.dumps(branch)}]",
        "  pull_request:",
        "permissions:",
        "  contents: read",
        "  security-events: write  # to upload the SARIF report to code scanning",
        "jobs:",
        "  mcp-lint:",
        "    runs-on: ubuntu-latest",
        "    steps:",
        "      - uses: actions/checkout@v4",
        *setup,
        f"      - uses: {REPOSITORY}@{RELEASE}",
        "        # with:",
        "        #   args: --fail-on high",
        "        #   sarif: false  # no upload (without code scanning a failed upload only warns)",
    ]
    return "\n".join(lines) + "\n"


# What re-runs the hook besides the servers' source: the configs and snapshots it reads (the
# published hooks' `files:`).
_HOOK_CONFIGS = (
    r"(^|/)(\.?mcp-lint\.toml|pyproject\.toml|server\.json|\.?mcp\.json|claude_desktop_config\.json"
    r"|([^/]*[._-])?tools\.json)$|(^|/)(\.mcp-lint|snapshots?)/"
)


def _source_paths(server: FoundServer) -> list[str]:
    """Where a server's tools are written: the script it runs (its folder, unless that is the
    repository root, where the file alone), or a Node package's folder."""
    if server.kind == "node":
        folder = Path(server.source).parent.as_posix()
        return [f"{folder}/"] if folder != "." else ["src/", "package.json"]
    args = server.entry.get("args")
    scripts = (
        [arg for arg in args if isinstance(arg, str) and arg.endswith((".py", ".js", ".mjs", ".ts"))]
        if (isinstance(args, list))
        else []
    )
    paths: list[str] = []
    for script in scripts[:1]:
        folder = Path(script).parent.as_posix()
        paths.append(script if folder == "." else f"{folder}/")
    return paths


def hook_files(servers: Sequence[FoundServer]) -> str:
    """The `files:` pattern of the hook init prints: the configs and snapshots it reads, and each
    server's source, so a staged description edit runs it."""
    sources = sorted({path for server in servers for path in _source_paths(server)})
    exact = [re.escape(path) + ("" if path.endswith("/") else "$") for path in sources]
    return _HOOK_CONFIGS + "".join(f"|^{item}" for item in exact)


def _runs_python(server: FoundServer) -> bool:
    command = server.entry.get("command")
    return isinstance(command, str) and Path(command).name.startswith("python")


def project_runner(root: Path) -> str:
    """What puts the project's environment first on PATH for a command, from its lock file: `uv run`
    or `poetry run` (so `python`, for mcp-lint and for the server it starts, is the project's), else
    nothing (the environment the developer commits from)."""
    if (root / "uv.lock").is_file():
        return "uv run "
    if (root / "poetry.lock").is_file():
        return "poetry run "
    return ""


def pre_commit_text(servers: Sequence[FoundServer] = (), runner: str = "") -> str:
    """The lines to add under `repos:` of .pre-commit-config.yaml, for the servers init found.

    A server started with `python` needs the packages it imports, which the published hook's own
    environment does not have (it holds mcp-lint alone): for those, a local hook runs mcp-lint with
    the project's interpreter, the one `python` names where the developer commits, so the server
    starts as it does for them. Otherwise the published hook, told where the servers' source is.
    """
    files = json.dumps(hook_files(servers))
    if any(_runs_python(server) for server in servers):
        lines = [
            "  # The project's own Python runs mcp-lint and starts the server, so what the server imports",
            "  # is there: install mcp-lint into the project's environment (pip install mcp-lint).",
            "  - repo: local",
            "    hooks:",
            "      - id: mcp-lint",
            "        name: mcp-lint (offline)",
            f"        entry: {runner}python -m mcp_lint check --jury offline",
            "        language: system",
            "        pass_filenames: false",
            "        require_serial: true",
            f"        files: {files}",
        ]
    else:
        lines = [
            f"  - repo: https://github.com/{REPOSITORY}",
            f"    rev: {RELEASE}",
            "    hooks:",
            "      - id: mcp-lint  # offline: the configured servers and snapshots, the offline jury",
            f"        files: {files}",
            "      # - id: mcp-lint-live  # your configured jury, on pre-push and manual runs",
        ]
    return "\n".join(lines) + "\n"


def _has_table(pyproject: Path) -> bool | None:
    """Whether pyproject.toml has a `[tool.mcp-lint]` table; None when it cannot be read as TOML."""
    text = _read(pyproject)
    if text is None:
        return None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None
    tool = data.get("tool")
    return isinstance(tool, dict) and "mcp-lint" in tool


def _write_config(
    root: Path, servers: Sequence[FoundServer], force: bool
) -> tuple[Path | None, Skipped | None]:
    standalone = [Path(name) for name in CONFIG_FILES if name != "pyproject.toml" and (root / name).is_file()]
    if standalone:
        # The nearest of these wins over pyproject.toml: the settings belong there.
        target = standalone[0]
        if not force:
            return None, Skipped(target, "exists; pass --force to replace it")
        write_text_atomic(root / target, config_text(servers, in_pyproject=False))
        return target, None
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        has_table = _has_table(pyproject)
        if has_table is None:
            return None, Skipped(Path("pyproject.toml"), "not valid TOML; fix it, then run init again")
        if has_table:
            return None, Skipped(
                Path("pyproject.toml"), "already has a [tool.mcp-lint] table; left as it is (edit it by hand)"
            )
        existing = pyproject.read_text(encoding="utf-8")
        separator = "" if existing.endswith("\n\n") else "\n" if existing.endswith("\n") else "\n\n"
        write_text_atomic(pyproject, existing + separator + config_text(servers, in_pyproject=True))
        return Path("pyproject.toml"), None
    write_text_atomic(root / STANDALONE_CONFIG, config_text(servers, in_pyproject=False))
    return STANDALONE_CONFIG, None


def _branch(root: Path) -> str:
    try:
        import git

        return str(git.Repo(root).active_branch.name)
    except Exception:  # not a repository, a detached HEAD, no git: the usual default
        return "main"


def init_project(root: Path, *, force: bool = False) -> InitResult:
    """Find the servers of the repository at `root` and write its settings and workflow."""
    root = root.resolve()
    servers = find_servers(root)
    written: list[Path] = []
    skipped: list[Skipped] = []
    config, refused = _write_config(root, servers, force)
    written += [config] if config else []
    skipped += [refused] if refused else []
    python = any(server.kind == "python" for server in servers)
    node = any(server.kind == "node" for server in servers)
    workflow = root / WORKFLOW_PATH
    if workflow.exists() and not force:
        skipped.append(Skipped(WORKFLOW_PATH, "exists; pass --force to replace it"))
    else:
        install = python_install(root) if python else None
        write_text_atomic(workflow, workflow_text(python_install=install, node=node, branch=_branch(root)))
        written.append(WORKFLOW_PATH)
    return InitResult(
        root,
        tuple(servers),
        tuple(written),
        tuple(skipped),
        pre_commit_text(servers, project_runner(root)),
        python,
        node,
    )
