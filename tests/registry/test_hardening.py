"""What the gate contains when a server.json is hostile: an install cache shared across registries
and installers, versions that walk out of the cache, installers that see the caller's secrets or run
package code, private network targets, and servers that echo a secret input back."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from registry_support import entry_document, gate, package, seed_install, write_entry

from mcp_lint.errors import UsageError
from mcp_lint.registry.entry import Package, RegistryEntry, Transport, validate_entry
from mcp_lint.registry.launch import (
    HERE,
    MANIFEST,
    InstallFailed,
    NpmInstaller,
    PipInstaller,
    ensure_installed,
    plan,
    run_installer,
)

SECRET = "s3cr3t-echoed-value"
OTHER_SECRET = "an0ther-s3cr3t-argument"
ECHO_SERVER = Path(__file__).resolve().parent / "secret_echo_server.py"


def entry_of(**fields: object) -> RegistryEntry:
    validation = validate_entry(entry_document(**fields))
    assert validation.entry is not None, validation.problems
    return validation.entry


def problems_of(document: dict[str, Any]) -> list[str]:
    return [str(problem) for problem in validate_entry(document).problems]


class FakeInstaller:
    """Writes a marker file where it installs; counts its installs."""

    def __init__(self, name: str = "fake") -> None:
        self.name = name
        self.calls: list[Path] = []

    def missing(self) -> str | None:
        return None

    def install(self, package: Package, into: Path, timeout: float) -> list[str]:
        self.calls.append(into)
        (into / "server.py").write_text("print('hi')\n", encoding="utf-8")
        return ["python3", f"{HERE}/server.py"]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MCP_LINT_CACHE_DIR", raising=False)
    return tmp_path


# -- the install cache -------------------------------------------------------------------------------


def test_the_cache_is_keyed_by_registry_and_installer(tmp_path: Path) -> None:
    official = entry_of(packages=[package(registryType="npm", identifier="weather-mcp")]).packages[0]
    other = entry_of(
        packages=[
            package(registryType="npm", identifier="weather-mcp", registryBaseUrl="https://npm.example.com")
        ]
    ).packages[0]
    installer = FakeInstaller()
    ensure_installed(official, installer, tmp_path)
    _, cached = ensure_installed(other, installer, tmp_path)
    assert not cached and len(installer.calls) == 2, "another registry's name@version is installed anew"
    _, cached = ensure_installed(official, FakeInstaller("another-installer"), tmp_path)
    assert not cached, "another installer's folder is not reused"
    _, cached = ensure_installed(official, installer, tmp_path)
    assert cached and len(installer.calls) == 2


def test_a_manifest_for_another_package_is_not_reused(tmp_path: Path) -> None:
    first = entry_of().packages[0]
    argv, _ = ensure_installed(first, FakeInstaller(), tmp_path)
    manifest_path = Path(argv[1]).parent / MANIFEST
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    manifest["package"] = "pypi someone-else==1.0.0"
    manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    installer = FakeInstaller()
    _, cached = ensure_installed(first, installer, tmp_path)
    assert not cached and len(installer.calls) == 1


@pytest.mark.parametrize("version", ["..", ".", "../.."])
def test_a_version_never_reaches_outside_its_cache_folder(tmp_path: Path, version: str) -> None:
    # Past validation (a Package built by hand): the cache still refuses before removing anything.
    kept = ensure_installed(entry_of().packages[0], FakeInstaller(), tmp_path)[0]
    hostile = Package("pypi", "weather-mcp", version, Transport("stdio"), "packages[0]")
    with pytest.raises(InstallFailed, match="version"):
        ensure_installed(hostile, FakeInstaller(), tmp_path)
    assert Path(kept[1]).is_file(), "the cache is intact"


def test_installers_end_their_options_before_the_package() -> None:
    npm = entry_of(packages=[package(registryType="npm", identifier="@x/server")]).packages[0]
    argv = NpmInstaller().command(npm, Path("/tmp/x"))
    assert argv[-2:] == ["--", "@x/server@1.0.0"] and "--ignore-scripts" in argv
    assert "--ignore-scripts" not in NpmInstaller(allow_scripts=True).command(npm, Path("/tmp/x"))
    pypi = entry_of().packages[0]
    pip = PipInstaller().command(pypi, Path("/tmp/venv/bin/python"))
    assert pip[-1] == "weather-mcp==1.0.0" and pip[pip.index("--only-binary") + 1] == ":all:"
    assert "--only-binary" not in PipInstaller(allow_scripts=True).command(pypi, Path("/tmp/venv/bin/python"))


def test_the_installer_environment_holds_no_secret_of_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI_DEPLOY_TOKEN", SECRET)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    printed = run_installer(
        [sys.executable, "-c", "import os, json; print(json.dumps(dict(os.environ)))"], 30
    )
    seen = json.loads(printed)
    assert SECRET not in printed
    assert seen.get("PATH") == os.environ["PATH"], "what an installer needs to run is kept"


# -- private network targets -------------------------------------------------------------------------

PRIVATE_URLS = [
    "http://127.0.0.1:8080/mcp",
    "http://localhost/mcp",
    "http://api.localhost/mcp",
    "http://[::1]:8080/mcp",
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.5/mcp",
    "http://192.168.1.1/mcp",
    "http://0.0.0.0:8080/mcp",
    "http://[::ffff:127.0.0.1]/mcp",
    "http://2130706433/mcp",
    "http://[fe80::1]/mcp",
    "http://224.0.0.1/mcp",
]


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_a_remote_on_a_private_address_is_refused_unless_allowed(url: str) -> None:
    entry = entry_of(packages=[], remotes=[{"type": "streamable-http", "url": url}])
    with pytest.raises(UsageError, match=r"^remotes\[0\]\.url: .*--allow-private-network"):
        plan(entry, {})
    assert plan(entry, {}, allow_private_network=True).items[0].url == url


def test_a_remote_url_is_checked_after_its_variables_are_filled() -> None:
    entry = entry_of(
        packages=[],
        remotes=[
            {
                "type": "sse",
                "url": "https://{host}/sse",
                "variables": {"host": {"default": "mcp.example.com"}},
            }
        ],
    )
    assert plan(entry, {}).items[0].url == "https://mcp.example.com/sse"
    with pytest.raises(UsageError, match=r"remotes\[0\]\.url"):
        plan(entry, {"host": "127.0.0.1"})


@pytest.mark.parametrize("kind", ["npm", "pypi"])
def test_a_registry_on_a_private_address_is_refused(kind: str) -> None:
    entry = entry_of(packages=[package(registryType=kind, registryBaseUrl="http://127.0.0.1:4873")])
    with pytest.raises(UsageError, match=r"^packages\[0\]\.registryBaseUrl: "):
        plan(entry, {})
    plan(entry, {}, allow_private_network=True)


@pytest.mark.parametrize(
    ("kind", "url"), [("npm", "https://registry.npmjs.org"), ("pypi", "https://pypi.org/")]
)
def test_the_official_registry_is_never_refused(kind: str, url: str) -> None:
    # Where the installer goes anyway; here (and behind many proxies) its name resolves to a
    # non-public address.
    plan(entry_of(packages=[package(registryType=kind, registryBaseUrl=url)]), {})


def test_a_public_address_is_allowed() -> None:
    entry = entry_of(packages=[], remotes=[{"type": "streamable-http", "url": "https://8.8.8.8/mcp"}])
    assert plan(entry, {}).items[0].url == "https://8.8.8.8/mcp"


def test_a_private_remote_is_exit_2_in_one_line(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_entry(here, entry_document(packages=[], remotes=[{"type": "sse", "url": "http://127.0.0.1:9/sse"}]))
    code, out, err = gate(["--cache-dir", str(here / "cache")], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcp-lint: error: server.json: remotes[0].url: "), err
    assert "--allow-private-network" in lines[0]


# -- secrets a server echoes -------------------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["text", "json", "sarif", "markdown", "github"])
def test_a_secret_the_server_echoes_is_masked_in_every_report(
    here: Path, capsys: pytest.CaptureFixture[str], output_format: str
) -> None:
    document = entry_document(
        packages=[
            package(
                identifier="echo-mcp",
                environmentVariables=[{"name": "API_TOKEN", "isRequired": True, "isSecret": True}],
                packageArguments=[{"type": "named", "name": "--key", "isSecret": True, "isRequired": True}],
            )
        ]
    )
    write_entry(here, document)
    seed_install(here / "cache", document, 0, [sys.executable, str(ECHO_SERVER)])
    args = ["--cache-dir", str(here / "cache"), "--env", f"API_TOKEN={SECRET}", "--verdict", "verdict.json"]
    args += ["--env", f"--key={OTHER_SECRET}"]
    code, out, err = gate([*args, "--format", output_format], capsys)
    assert code in (0, 1), err
    assert "lookup_***" in out, out[:2000]
    # Where a report quotes the description past its first sentence, the argument shows masked; the
    # secrets themselves must be in no output at all (below).
    flat = out.replace("\n", " ")
    shown = [
        flat[at + len("Started as: --key ") :][:1]
        for at in range(len(flat))
        if flat.startswith("Started as: --key ", at)
    ]
    assert all(first == "*" for first in shown), out[:2000]
    verdict = (here / "verdict.json").read_text(encoding="utf-8")
    for secret in (SECRET, OTHER_SECRET):
        assert secret not in out + err + verdict


# -- URLs that parsers read differently (s28 audit) ------------------------------------------------------

# Python's urlsplit reads each host below as public (or as no resolvable name), while Node's URL parser,
# which npm uses, reads 127.0.0.1 or localhost: a backslash ends the host for it, and it decodes a
# percent-encoded host.
UNCLEAR_URLS = [
    "http://127.0.0.1:4873\\@example.com",
    "http://127.0.0.1:4873\\registry@example.com/",
    "http://%6c%6f%63%61%6c%68%6f%73%74:4873",
    "http://127%2e0%2e0%2e1:4873",
]


@pytest.mark.parametrize("url", UNCLEAR_URLS)
@pytest.mark.parametrize("kind", ["npm", "pypi"])
def test_a_registry_url_whose_host_parsers_read_differently_is_refused(kind: str, url: str) -> None:
    entry = entry_of(packages=[package(registryType=kind, registryBaseUrl=url)])
    with pytest.raises(UsageError, match=r"^packages\[0\]\.registryBaseUrl: .*--allow-private-network"):
        plan(entry, {})


@pytest.mark.parametrize("url", UNCLEAR_URLS)
def test_a_remote_url_whose_host_parsers_read_differently_is_refused(url: str) -> None:
    entry = entry_of(packages=[], remotes=[{"type": "streamable-http", "url": url + "/mcp"}])
    with pytest.raises(UsageError, match=r"^remotes\[0\]\.url: "):
        plan(entry, {})


class _Listener(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.server.seen.append(self.path)  # type: ignore[attr-defined]
        self.send_response(404)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
def test_npm_never_reaches_loopback_through_a_backslash_in_the_registry_url(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """For real: the gate with npm and a registry on loopback written `http://127.0.0.1:PORT\\@example.com`.
    Before the check, npm asked the loopback listener for the package (exit 3, 'npm error 404')."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Listener)
    server.seen = []  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}\\@example.com"
        write_entry(here, entry_document(packages=[package(registryType="npm", registryBaseUrl=url)]))
        code, out, err = gate(["--cache-dir", str(here / "cache"), "--timeout", "20"], capsys)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert server.seen == []  # type: ignore[attr-defined]
    errors = [line for line in err.splitlines() if line.startswith("mcp-lint: error: ")]
    assert code == 2 and out == "" and len(errors) == 1, err
    assert errors[0].startswith("mcp-lint: error: server.json: packages[0].registryBaseUrl: "), err


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/weather.mcpb",
        "https://169.254.169.254/weather.mcpb",
        "https://127.0.0.1\\@example.com/w.mcpb",
    ],
)
def test_an_mcpb_url_identifier_on_a_private_or_unclear_host_is_refused(url: str) -> None:
    entry = entry_of(packages=[package(registryType="mcpb", identifier=url, fileSha256="a" * 64)])
    with pytest.raises(UsageError, match=r"^packages\[0\]\.identifier: .*--allow-private-network"):
        plan(entry, {})
    plan(entry, {}, allow_private_network=True)
