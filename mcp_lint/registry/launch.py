"""Install and start what a registry entry describes, the way an MCP client would.

Every package is installed by its registry's own installer (pip or uv for PyPI, npm for npm) into a
cache folder, then started with an argument vector, never through a shell: the schema warns that
arguments may hold user input. Remotes are connected to by URL. The inputs an entry declares
(environment variables, arguments, URL variables, headers) are filled from the entry's values and
defaults and from `--env NAME=VALUE`; a required one left empty stops the run before anything is
installed. Secret values are collected so that every line the gate prints can be cleaned of them.

The cache: `<cache dir>/registry/<registryType>/<identifier>-<key>/<version>`, the key a hash of the
registry type, the registry's base URL, the identifier and the installer, so one registry's
`name@version` is never started for another's. Each entry is installed into a temporary folder beside
it and renamed into place once complete, with a `launch.json` saying how to start it and what it is;
a manifest that does not name the same package, registry and installer is installed again. An
interrupted install leaves no entry, so the next run installs again.

Installers run with the environment a server gets (the MCP SDK's safe variables), plus the proxy and
certificate variables they need to reach a registry: the caller's other variables (CI tokens, cloud
keys) are not theirs to read. They run no package code unless allowed: npm with `--ignore-scripts`,
pip with wheels only (`--only-binary :all:`), since building a source distribution runs its setup.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from mcp_lint.errors import UsageError
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import HttpTarget, StdioTarget, Target
from mcp_lint.registry.entry import (
    INSTALL_VERSION,
    OFFICIAL_BASE_URLS,
    VARIABLE,
    Argument,
    Input,
    KeyValue,
    Package,
    RegistryEntry,
    Remote,
)
from mcp_lint.registry.network import refusal

CACHE_ENV = "MCP_LINT_CACHE_DIR"
MANIFEST = "launch.json"
HERE = "{here}"  # stands for the cache entry's folder in a manifest's argv: the folder may move
INSTALL_TIMEOUT = 600.0
_ERROR_CHARS = 300


def default_cache_dir() -> Path:
    """$MCP_LINT_CACHE_DIR, else the user's cache folder ($XDG_CACHE_HOME or the platform's) /mcp-lint."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin" and not os.environ.get("XDG_CACHE_HOME"):
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "mcp-lint"


# -- inputs ------------------------------------------------------------------------------------------


@dataclass
class Inputs:
    """The values given with --env, and every secret value met while filling the entry's inputs."""

    given: Mapping[str, str]
    secrets: set[str] = field(default_factory=set)

    def fill(self, value: Input, label: str, path: str, aliases: Sequence[str] = ()) -> str | None:
        """The value of one input: --env LABEL (or an alias), else the entry's value, else its default."""
        named = next((name for name in (label, *aliases) if name in self.given), None)
        if named is not None:
            text: str | None = self.given[named]
        else:
            text = value.value if value.value is not None else value.default
        if text is None:
            if value.is_required:
                secret = " (a secret: it is never printed)" if value.is_secret else ""
                raise UsageError(
                    f"{path}: {label} is required and has no default; pass --env {label}=VALUE{secret}"
                )
            return None
        text = self.substitute(text, value.variables, path)
        if value.is_secret and text:
            self.secrets.add(text)
        return text

    def substitute(self, text: str, variables: Mapping[str, Input], path: str) -> str:
        # An identifier the map does not define stays as written, as the schema says.
        def replace(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in variables:
                return match.group(0)
            filled = self.fill(variables[name], name, f"{path}.variables.{name}")
            return "" if filled is None else filled

        return VARIABLE.sub(replace, text)

    def redact(self, text: str) -> str:
        for secret in sorted(self.secrets, key=len, reverse=True):
            text = text.replace(secret, "***")
        return text


def argument_vector(arguments: Sequence[Argument], inputs: Inputs) -> list[str]:
    """`--flag value` for a named argument, the value for a positional one. A named argument that
    declares no value at all (no value, default or valueHint) is a switch: the flag alone. An optional
    argument left without a value is left out."""
    argv: list[str] = []
    for argument in arguments:
        # A named argument answers to its flag with or without the dashes: --env port=8080.
        aliases = [argument.name, argument.name.lstrip("-")] if argument.name else []
        value = inputs.fill(argument.input, argument.label, argument.path, aliases)
        if argument.kind == "named" and argument.name is not None:
            if value is not None:
                argv.extend((argument.name, value))
            elif argument.value_hint is None:
                argv.append(argument.name)
        elif value is not None:
            argv.append(value)
    return argv


def environment(variables: Sequence[KeyValue], inputs: Inputs) -> dict[str, str]:
    env = dict(inputs.given)
    for variable in variables:
        value = inputs.fill(variable.input, variable.name, variable.path)
        if value is not None:
            env[variable.name] = value
    return env


# -- installers --------------------------------------------------------------------------------------


# Besides the SDK's safe variables, what an installer needs to reach a registry from behind a proxy or
# a private certificate authority, and where its own config and cache live.
INSTALLER_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "PIP_CERT",
    "NODE_EXTRA_CA_CERTS",
    "TMPDIR",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
)


def installer_environment() -> dict[str, str]:
    """The environment every installer step runs with: what a server gets, plus INSTALLER_VARIABLES."""
    from mcp.client.stdio import get_default_environment  # as reflect/live.py gives a server

    env = get_default_environment()
    env.update({name: os.environ[name] for name in INSTALLER_VARIABLES if os.environ.get(name)})
    return env


class InstallFailed(Exception):
    """The installer refused or failed; the message is one line, the installer's own error in it."""


class Installer(Protocol):
    """Installs one package into an empty folder and says how to start it there."""

    name: str

    def missing(self) -> str | None:
        """Why this installer cannot run on this machine (a tool not on PATH), else None."""

    def install(self, package: Package, into: Path, timeout: float) -> list[str]:
        """Install; return the argv that starts the server, HERE standing for the folder."""


def _bin_dir(venv: Path) -> Path:
    return venv / ("Scripts" if os.name == "nt" else "bin")


def _venv_python(venv: Path) -> Path:
    return _bin_dir(venv) / ("python.exe" if os.name == "nt" else "python")


_CONSOLE_SCRIPTS = (
    "import importlib.metadata as m, json, sys\n"
    "d = m.distribution(sys.argv[1])\n"
    "print(json.dumps([e.name for e in d.entry_points if e.group == 'console_scripts']))\n"
)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _pypi_index(base_url: str | None) -> str | None:
    """The index pip is pointed at for a registryBaseUrl; None for PyPI itself (pip's configured one)."""
    if base_url is None or base_url.rstrip("/") in OFFICIAL_BASE_URLS["pypi"]:
        return None
    base = base_url.rstrip("/")
    return base if base.endswith("/simple") else f"{base}/simple"


_SDIST_HINT = "Could not find a version that satisfies"


class PipInstaller:
    """A fresh virtual environment with the package from PyPI, as `pip install NAME==VERSION` makes it;
    `uv` builds it instead when the entry hints `uvx` and uv is on PATH (what uvx would run). Wheels
    only, unless `allow_scripts`: building a source distribution runs its setup code."""

    def __init__(self, use_uv: bool = False, allow_scripts: bool = False) -> None:
        self.use_uv = use_uv
        self.allow_scripts = allow_scripts
        self.name = ("uv" if use_uv else "pip") + ("+sdist" if allow_scripts else "")

    def missing(self) -> str | None:
        return None

    def _mode(self) -> str:
        if self.use_uv and shutil.which("uv") is not None:
            return "uv"
        # mcp-lint's own pip installs into a venv made without one: seconds faster than ensurepip.
        return "own-pip" if importlib.util.find_spec("pip") is not None else "venv-pip"

    def command(self, package: Package, python: Path) -> list[str]:
        """The install step into the venv whose interpreter is `python`; `--` ends the options."""
        spec = f"{package.identifier}=={package.version}" if package.version else package.identifier
        mode = self._mode()
        quiet = ["--quiet", "--disable-pip-version-check"]
        if mode == "uv":
            head = [shutil.which("uv") or "uv", "pip", "install", "--quiet", "--python", str(python)]
        elif mode == "own-pip":
            head = [sys.executable, "-m", "pip", "--python", str(python), "install", *quiet]
        else:
            head = [str(python), "-m", "pip", "install", *quiet]
        options = [] if self.allow_scripts else ["--only-binary", ":all:"]
        index = _pypi_index(package.registry_base_url)
        if index is not None:
            options.extend(("--index-url", index))
        return [*head, *options, "--", spec]

    def install(self, package: Package, into: Path, timeout: float) -> list[str]:
        venv = into / "venv"
        python = _venv_python(venv)
        mode = self._mode()
        if mode == "uv":
            uv = shutil.which("uv") or "uv"
            run_installer([uv, "venv", "--quiet", "--python", sys.executable, str(venv)], timeout)
        elif mode == "own-pip":
            run_installer([sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout)
        else:
            run_installer([sys.executable, "-m", "venv", str(venv)], timeout)
        try:
            run_installer(self.command(package, python), timeout, "uv" if mode == "uv" else "pip")
        except InstallFailed as error:
            if self.allow_scripts or _SDIST_HINT not in str(error):
                raise
            raise InstallFailed(
                f"{error} (the gate installs wheels only; --allow-install-scripts lets it build a "
                "source distribution, running its setup code)"
            ) from None
        listed = run_installer([str(python), "-c", _CONSOLE_SCRIPTS, package.identifier], timeout)
        scripts: list[str] = json.loads(listed.strip().splitlines()[-1])
        script = _pick(package.identifier, scripts)
        if script is None:
            offered = ", ".join(scripts) or "none"
            raise InstallFailed(
                f"{package.spec} installs no console script named after it (it has: {offered}); "
                "a client could not tell which to start"
            )
        # The venv's python runs the script file: its #! line names the temporary folder it was made in.
        relative = _bin_dir(venv).relative_to(into) / script
        python_relative = python.relative_to(into)
        return [f"{HERE}/{python_relative.as_posix()}", f"{HERE}/{relative.as_posix()}"]


def _pick(identifier: str, names: Sequence[str]) -> str | None:
    """The command a runner (uvx, npx) would start: the one named after the package, else the only one."""
    unscoped = identifier.rsplit("/", 1)[-1]
    for name in names:
        if _normal(name) in {_normal(identifier), _normal(unscoped)}:
            return name
    return names[0] if len(names) == 1 else None


class NpmInstaller:
    """`npm install NAME@VERSION` into the folder, then `node` on the package's bin, as npx would run it.
    With `--ignore-scripts` unless `allow_scripts`: an install script is the package's own code."""

    def __init__(self, allow_scripts: bool = False) -> None:
        self.allow_scripts = allow_scripts
        self.name = "npm+scripts" if allow_scripts else "npm"

    def command(self, package: Package, into: Path) -> list[str]:
        """The install step into the folder `into`; `--` ends the options."""
        npm = shutil.which("npm") or "npm"
        spec = f"{package.identifier}@{package.version}" if package.version else package.identifier
        flags = ["--no-audit", "--no-fund", "--no-save", "--loglevel=error", "--no-update-notifier"]
        if not self.allow_scripts:
            flags.append("--ignore-scripts")
        if package.registry_base_url:
            flags.append(f"--registry={package.registry_base_url}")
        return [npm, "install", "--prefix", str(into), *flags, "--", spec]

    def missing(self) -> str | None:
        if shutil.which("npm") is None or shutil.which("node") is None:
            return "npm packages need node and npm on PATH"
        return None

    def install(self, package: Package, into: Path, timeout: float) -> list[str]:
        run_installer(self.command(package, into), timeout)
        folder = into / "node_modules" / package.identifier
        try:
            manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InstallFailed(f"{package.spec}: npm installed no readable package.json ({exc})") from None
        bins = manifest.get("bin")
        if isinstance(bins, str):
            bins = {package.identifier.rsplit("/", 1)[-1]: bins}
        if not isinstance(bins, dict) or not bins:
            raise InstallFailed(
                f'{package.spec} declares no "bin" in its package.json; npx could not start it'
            )
        chosen = _pick(package.identifier, list(bins))
        if chosen is None:
            raise InstallFailed(
                f"{package.spec} has several bins ({', '.join(bins)}) and none named after the package"
            )
        script = (folder / str(bins[chosen])).resolve().relative_to(into.resolve())
        return ["node", f"{HERE}/{script.as_posix()}"]


# No installer yet: they are reported (exit 3), never passed.
UNSUPPORTED = {
    "nuget": "nuget packages (dnx) are not supported by the gate yet",
    "oci": "oci images (docker) are not supported by the gate yet",
    "mcpb": "mcpb bundles are not supported by the gate yet",
}


# What runs at install time when --allow-install-scripts is given: said once per fresh install.
INSTALL_TIME_CODE = {
    "npm": "npm ran the install scripts of the package and its dependencies",
    "pypi": "pip could build source distributions, running their setup code",
}


def installer_for(package: Package, allow_scripts: bool = False) -> Installer | None:
    if package.registry_type == "pypi":
        use_uv = package.runtime_hint == "uvx" and shutil.which("uv") is not None
        return PipInstaller(use_uv=use_uv, allow_scripts=allow_scripts)
    if package.registry_type == "npm":
        return NpmInstaller(allow_scripts=allow_scripts)
    return None


def run_installer(argv: Sequence[str], timeout: float, label: str | None = None) -> str:
    """Run an installer step (no shell, no stdin) and return its stdout; a failure is InstallFailed
    with the installer's own error line. The step runs in a session of its own, so a timeout or a
    Ctrl-C stops what it started too (npm runs scripts in child processes), and with
    installer_environment(), never the caller's whole environment."""
    try:
        process = subprocess.Popen(
            list(argv),
            env=installer_environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            errors="replace",
            start_new_session=os.name != "nt",
        )
    except OSError as exc:
        raise InstallFailed(f"cannot run {Path(argv[0]).name}: {exc.strerror or exc}") from None
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _stop(process)
        raise InstallFailed(f"{Path(argv[0]).name} did not finish within {timeout:g}s") from None
    except BaseException:
        _stop(process)
        raise
    if process.returncode != 0:
        program = label or Path(argv[0]).name
        raise InstallFailed(installer_error(program, stderr or stdout, process.returncode))
    return stdout


def _stop(process: subprocess.Popen[str]) -> None:
    with contextlib.suppress(OSError):
        if os.name != "nt":
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
    process.wait()


def installer_error(program: str, output: str, code: int) -> str:
    """The line of an installer's output that says what went wrong: pip's `ERROR:` line, npm's first
    `npm error` line that is more than its code, else the last line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    chosen = next((line for line in lines if line.startswith("ERROR:")), None)
    if chosen is None:
        npm = [line for line in lines if re.match(r"npm (error|ERR!)", line)]
        detailed = [line for line in npm if not re.match(r"npm (error|ERR!) code\b", line)]
        chosen = next(iter(detailed or npm), None)
    if chosen is None:
        chosen = lines[-1] if lines else f"exit status {code}"
    if len(chosen) > _ERROR_CHARS:
        chosen = chosen[:_ERROR_CHARS] + "..."
    return f"{program} failed: {chosen}"


# -- the cache ---------------------------------------------------------------------------------------


def cache_entry(cache_dir: Path, package: Package, installer: str) -> Path:
    """`registry/<type>/<identifier>-<key>/<version>`: the identifier made a safe folder name, the key
    a hash of the registry type, its base URL, the identifier and the installer, so neither two names
    that clean alike nor one name on two registries share a folder. A version that is no plain folder
    name (".", "..", a path) is InstallFailed: nothing is read or removed for it."""
    version = package.version or "unversioned"
    if not INSTALL_VERSION.fullmatch(version) or not re.fullmatch(r"[a-z]+", package.registry_type):
        raise InstallFailed(f"{package.spec}: the version or registry type is no plain folder name")
    key = json.dumps([package.registry_type, package.registry_base_url, package.identifier, installer])
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", package.identifier).strip("._")[:80] or "package"
    return cache_dir / "registry" / package.registry_type / f"{safe}-{digest}" / version


def _manifest(package: Package, installer: str, argv: Sequence[str]) -> dict[str, object]:
    return {
        "argv": list(argv),
        "package": package.spec,
        "registryBaseUrl": package.registry_base_url,
        "installer": installer,
    }


def write_manifest(folder: Path, package: Package, installer: str, argv: Sequence[str]) -> None:
    """Say how to start the install in `folder` and what it is: the check before every reuse."""
    text = json.dumps(_manifest(package, installer, argv), indent=2) + "\n"
    (folder / MANIFEST).write_text(text, encoding="utf-8")


def read_manifest(folder: Path, package: Package, installer: str) -> list[str] | None:
    """The argv of the install in `folder`, when its manifest names this package, registry and
    installer; else None (the folder is installed again)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    argv = data.get("argv")
    if not (isinstance(argv, list) and argv and all(isinstance(part, str) for part in argv)):
        return None
    if data != _manifest(package, installer, argv):
        return None
    return argv


def _inside_cache(folder: Path, cache_dir: Path) -> bool:
    """Whether `folder`, resolved, is an entry three levels under the cache's registry folder."""
    try:
        relative = folder.resolve().relative_to((cache_dir / "registry").resolve())
    except (OSError, ValueError):
        return False
    return len(relative.parts) == 3


def ensure_installed(
    package: Package, installer: Installer, cache_dir: Path, timeout: float = INSTALL_TIMEOUT
) -> tuple[list[str], bool]:
    """The argv that starts the installed package, and whether it came from the cache."""
    final = cache_entry(cache_dir, package, installer.name)
    if not _inside_cache(final, cache_dir):
        raise InstallFailed(f"{package.spec}: its cache folder {final} is outside the cache; not installed")
    cached = read_manifest(final, package, installer.name)
    if cached is not None:
        return _expand(cached, final), True
    if final.exists() or final.is_symlink():
        # A folder without a manifest of this package was not put there by a complete install of it.
        if final.is_symlink() or not final.is_dir():
            final.unlink()
        else:
            shutil.rmtree(final, ignore_errors=True)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        temp = Path(tempfile.mkdtemp(prefix=f".{final.name}.", suffix=".partial", dir=final.parent))
    except OSError as exc:
        raise InstallFailed(f"cannot write the install cache {cache_dir}: {exc.strerror or exc}") from None
    try:
        argv = installer.install(package, temp, timeout)
        write_manifest(temp, package, installer.name, argv)
        try:
            os.rename(temp, final)
        except OSError:
            if (
                read_manifest(final, package, installer.name) is None
            ):  # not another gate that finished first: a real failure
                raise
            shutil.rmtree(temp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        with contextlib.suppress(OSError):
            final.parent.rmdir()  # only when empty: the package's other versions stay
        raise
    return _expand(argv, final), False


def _expand(argv: Sequence[str], folder: Path) -> list[str]:
    expanded = [part.replace(HERE, str(folder)) for part in argv]
    if expanded[0] == "node":
        expanded[0] = shutil.which("node") or "node"
    return expanded


# -- planning and launching --------------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """One package or remote of the entry, its inputs filled, ready to install or connect to."""

    path: str  # packages[0], remotes[1]
    name: str  # the server's name in reports
    package: Package | None = None
    remote: Remote | None = None
    args: tuple[str, ...] = ()
    runtime_args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Plan:
    entry: RegistryEntry
    items: tuple[Planned, ...]
    inputs: Inputs
    notes: tuple[str, ...] = ()


# Runtimes whose own arguments the gate can pass: it starts the server with this program itself.
_OWN_RUNTIMES = {"npm": "node", "pypi": "python"}


def _refuse_private(url: str, where: str, inputs: Inputs, allowed: bool) -> None:
    reason = None if allowed else refusal(url)
    if reason is not None:
        raise UsageError(inputs.redact(f"{where}: {reason}"))


def plan(entry: RegistryEntry, given: Mapping[str, str], *, allow_private_network: bool = False) -> Plan:
    """Fill every input of the entry before anything is installed: a required one that is missing
    is a UsageError (exit 2) naming it. So is a registry or remote URL (its variables filled) that
    reaches a private, loopback or link-local address, unless `allow_private_network`."""
    inputs = Inputs(given)
    items: list[Planned] = []
    notes: list[str] = []
    names: set[str] = set()
    for package in entry.packages:
        base_url = package.registry_base_url
        # The official registry is where the installer goes without a base URL: never refused, however
        # this machine resolves it (a mirror or a proxy on a private address is common).
        if base_url is not None and base_url.rstrip("/") not in OFFICIAL_BASE_URLS.get(
            package.registry_type, ()
        ):
            where = f"{package.path}.registryBaseUrl"
            _refuse_private(base_url, where, inputs, allow_private_network)
        if package.registry_type == "mcpb":
            _refuse_private(package.identifier, f"{package.path}.identifier", inputs, allow_private_network)
        name = _unique(package.identifier.rsplit("/", 1)[-1], names)
        runtime = argument_vector(package.runtime_arguments, inputs)
        if runtime and package.runtime_hint != _OWN_RUNTIMES.get(package.registry_type):
            notes.append(
                f"{package.path}.runtimeArguments: for {package.runtime_hint or 'an unnamed runtime'}, "
                "which the gate does not run; left out"
            )
            runtime = []
        items.append(
            Planned(
                path=package.path,
                name=name,
                package=package,
                args=tuple(argument_vector(package.package_arguments, inputs)),
                runtime_args=tuple(runtime),
                env=environment(package.environment_variables, inputs),
            )
        )
    for remote in entry.remotes:
        transport = remote.transport
        url = inputs.substitute(transport.url or "", transport.variables, f"{remote.path}.url")
        _refuse_private(url, f"{remote.path}.url", inputs, allow_private_network)
        headers = {}
        for header in transport.headers:
            value = inputs.fill(header.input, header.name, header.path)
            if value is not None:
                headers[header.name] = value
        host = urlsplit(url).netloc or "remote"
        items.append(Planned(remote.path, _unique(host, names), remote=remote, url=url, headers=headers))
    return Plan(entry, tuple(items), inputs, tuple(notes))


def _unique(name: str, taken: set[str]) -> str:
    candidate, counter = name, 1
    while candidate in taken:
        counter += 1
        candidate = f"{name}-{counter}"
    taken.add(candidate)
    return candidate


@dataclass(frozen=True)
class Launch:
    """What to reflect: a target per planned item, or the one line saying why it cannot be started."""

    path: str
    target: Target | UnreachableTarget
    cached: bool = False
    install_time_code: str | None = None  # what package code ran at install (--allow-install-scripts)


def launch(
    item: Planned,
    cache_dir: Path,
    origin: str,
    timeout: float = INSTALL_TIMEOUT,
    *,
    allow_scripts: bool = False,
) -> Launch:
    """Install (or find in the cache) a planned package and build its target; a remote's target.
    Install-time package code runs only with `allow_scripts`, and the Launch then says so."""
    if item.remote is not None:
        kind = "sse" if item.remote.transport.type == "sse" else "http"
        remote = HttpTarget(item.name, item.url or "", dict(item.headers), transport=kind, origin=origin)
        return Launch(item.path, remote)
    package = item.package
    assert package is not None
    unsupported = UNSUPPORTED.get(package.registry_type)
    if unsupported is not None:
        return Launch(item.path, UnreachableTarget(item.name, f"{item.path} ({package.spec}): {unsupported}"))
    if package.transport.type != "stdio":
        reason = f"a package served over {package.transport.type} is not supported by the gate yet (stdio is)"
        return Launch(item.path, UnreachableTarget(item.name, f"{item.path} ({package.spec}): {reason}"))
    installer = installer_for(package, allow_scripts)
    assert installer is not None
    missing = installer.missing()
    if missing is not None:
        return Launch(item.path, UnreachableTarget(item.name, f"{item.path} ({package.spec}): {missing}"))
    ran = INSTALL_TIME_CODE.get(package.registry_type) if allow_scripts else None
    try:
        argv, cached = ensure_installed(package, installer, cache_dir, timeout)
    except InstallFailed as error:
        reason = f"{item.path}: cannot install {package.spec}: {error}"
        return Launch(item.path, UnreachableTarget(item.name, reason), install_time_code=ran)
    command, *rest = argv
    target = StdioTarget(
        name=item.name,
        command=command,
        args=(*item.runtime_args, *rest, *item.args),
        env=dict(item.env),
        origin=origin,
    )
    return Launch(item.path, target, cached, None if cached else ran)


def launch_all(
    items: Sequence[Planned],
    cache_dir: Path,
    origin: str,
    timeout: float = INSTALL_TIMEOUT,
    *,
    allow_scripts: bool = False,
) -> list[Launch]:
    return [
        launch(item, cache_dir, f"{origin} [{item.path}]", timeout, allow_scripts=allow_scripts)
        for item in items
    ]
