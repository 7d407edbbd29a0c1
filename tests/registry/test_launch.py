"""Installing and starting an entry's packages: inputs, the install cache, installer errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from registry_support import entry_document, package

from mcp_lint.errors import UsageError
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import HttpTarget, StdioTarget
from mcp_lint.registry.entry import Package, RegistryEntry, validate_entry
from mcp_lint.registry.launch import (
    CACHE_ENV,
    HERE,
    MANIFEST,
    Inputs,
    InstallFailed,
    argument_vector,
    default_cache_dir,
    ensure_installed,
    installer_error,
    launch,
    plan,
)


def entry_of(**fields: object) -> RegistryEntry:
    validation = validate_entry(entry_document(**fields))
    assert validation.entry is not None, validation.problems
    return validation.entry


class FakeInstaller:
    """Writes a marker file where it installs; fails on request, or is interrupted."""

    name = "fake"

    def __init__(self, fail: BaseException | None = None) -> None:
        self.calls: list[Path] = []
        self.fail = fail

    def missing(self) -> str | None:
        return None

    def install(self, package: Package, into: Path, timeout: float) -> list[str]:
        self.calls.append(into)
        (into / "server.py").write_text("print('hi')\n", encoding="utf-8")
        if self.fail is not None:
            raise self.fail
        return ["python3", f"{HERE}/server.py"]


def test_cache_dir_follows_the_env_variable_then_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "chosen"))
    assert default_cache_dir() == tmp_path / "chosen"
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "mcp-lint"


def test_an_install_is_renamed_into_place_and_reused(tmp_path: Path) -> None:
    first_package = entry_of().packages[0]
    installer = FakeInstaller()
    argv, cached = ensure_installed(first_package, installer, tmp_path)
    assert not cached and len(installer.calls) == 1
    folder = Path(argv[1]).parent
    assert folder.parent.parent == tmp_path / "registry" / "pypi"
    assert folder.name == "1.0.0" and (folder / MANIFEST).is_file()
    assert installer.calls[0] != folder, "installed into a temporary folder, then renamed"
    again, cached = ensure_installed(first_package, installer, tmp_path)
    assert cached and again == argv and len(installer.calls) == 1, "the second run installs nothing"
    assert [path.name for path in folder.parent.iterdir()] == ["1.0.0"], "no temporary folder is left"


@pytest.mark.parametrize(
    "failure", [InstallFailed("pip failed: ERROR: no such package"), KeyboardInterrupt()]
)
def test_a_failed_or_interrupted_install_leaves_no_cache_entry(
    tmp_path: Path, failure: BaseException
) -> None:
    first_package = entry_of().packages[0]
    with pytest.raises(type(failure)):
        ensure_installed(first_package, FakeInstaller(fail=failure), tmp_path)
    leftovers = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert leftovers == [], "no half-written install"
    installer = FakeInstaller()
    _, cached = ensure_installed(first_package, installer, tmp_path)
    assert not cached and len(installer.calls) == 1, "the next run installs again"


def test_a_folder_without_its_manifest_is_installed_again(tmp_path: Path) -> None:
    first_package = entry_of().packages[0]
    argv, _ = ensure_installed(first_package, FakeInstaller(), tmp_path)
    (Path(argv[1]).parent / MANIFEST).unlink()
    installer = FakeInstaller()
    _, cached = ensure_installed(first_package, installer, tmp_path)
    assert not cached and len(installer.calls) == 1


def test_arguments_are_built_as_a_client_would_without_a_shell() -> None:
    entry = entry_of(
        packages=[
            package(
                packageArguments=[
                    {"type": "named", "name": "--local-timezone", "value": "UTC"},
                    {"type": "named", "name": "--read-only"},
                    {"type": "named", "name": "--port", "valueHint": "port"},
                    {"type": "positional", "valueHint": "folder", "default": "/data; rm -rf ~"},
                    {
                        "type": "positional",
                        "value": "--db={path}",
                        "variables": {"path": {"default": "a b.db"}},
                    },
                ]
            )
        ]
    )
    argv = argument_vector(entry.packages[0].package_arguments, Inputs({}))
    assert argv == ["--local-timezone", "UTC", "--read-only", "/data; rm -rf ~", "--db=a b.db"]
    given = argument_vector(entry.packages[0].package_arguments, Inputs({"port": "8080", "folder": "/srv"}))
    assert given == ["--local-timezone", "UTC", "--read-only", "--port", "8080", "/srv", "--db=a b.db"]


def test_a_required_secret_without_a_value_names_it_and_never_a_value() -> None:
    entry = entry_of(
        packages=[package(environmentVariables=[{"name": "API_TOKEN", "isRequired": True, "isSecret": True}])]
    )
    with pytest.raises(UsageError) as raised:
        plan(entry, {})
    assert str(raised.value) == (
        "packages[0].environmentVariables[0]: API_TOKEN is required and has no default; "
        "pass --env API_TOKEN=VALUE (a secret: it is never printed)"
    )
    planned = plan(entry, {"API_TOKEN": "s3cr3t-token"})
    assert planned.items[0].env == {"API_TOKEN": "s3cr3t-token"}
    assert planned.inputs.redact("failed: API_TOKEN=s3cr3t-token") == "failed: API_TOKEN=***"


def test_a_remote_fills_its_url_variables_and_headers() -> None:
    entry = entry_of(
        packages=[],
        remotes=[
            {
                "type": "sse",
                "url": "https://{tenant}.example.com/sse",
                "variables": {"tenant": {"default": "acme"}},
                "headers": [
                    {
                        "name": "Authorization",
                        "value": "Bearer {token}",
                        "variables": {"token": {"isRequired": True, "isSecret": True}},
                    }
                ],
            }
        ],
    )
    with pytest.raises(UsageError, match=r"remotes\[0\]\.headers\[0\]\.variables\.token: token is required"):
        plan(entry, {})
    planned = plan(entry, {"token": "t0k3n"})
    item = planned.items[0]
    result = launch(item, Path("/nonexistent"), "server.json [remotes[0]]")
    assert isinstance(result.target, HttpTarget)
    assert (result.target.url, result.target.transport) == ("https://acme.example.com/sse", "sse")
    assert result.target.headers == {"Authorization": "Bearer t0k3n"}
    assert planned.inputs.redact(str(result.target.headers)) == "{'Authorization': 'Bearer ***'}"


@pytest.mark.parametrize("kind", ["nuget", "oci", "mcpb"])
def test_unsupported_package_types_are_one_line_never_a_pass(kind: str, tmp_path: Path) -> None:
    extra = {"fileSha256": "a" * 64, "identifier": "https://github.com/x/mcp/releases/download/v1/x.mcpb"}
    entry = entry_of(packages=[package(registryType=kind, **(extra if kind == "mcpb" else {}))])
    result = launch(plan(entry, {}).items[0], tmp_path, "server.json")
    assert isinstance(result.target, UnreachableTarget)
    assert result.target.reason.startswith("packages[0] (")
    assert f"{kind} " in result.target.reason and "not supported by the gate yet" in result.target.reason
    assert not any(tmp_path.iterdir()), "nothing installed"


def test_a_cached_install_starts_with_the_entry_arguments_and_environment(tmp_path: Path) -> None:
    entry = entry_of(
        packages=[
            package(
                packageArguments=[{"type": "named", "name": "--local-timezone", "value": "UTC"}],
                environmentVariables=[{"name": "MODE", "default": "fast"}],
            )
        ]
    )
    item = plan(entry, {"EXTRA": "1"}).items[0]
    installer = FakeInstaller()
    installer.name = "pip"  # the cache is keyed by installer: the one the gate picks for this package
    ensure_installed(entry.packages[0], installer, tmp_path)
    result = launch(item, tmp_path, "server.json [packages[0]]")
    assert result.cached and isinstance(result.target, StdioTarget)
    assert result.target.command == "python3"
    assert result.target.args[1:] == ("--local-timezone", "UTC")
    assert dict(result.target.env) == {"EXTRA": "1", "MODE": "fast"}
    assert result.target.origin == "server.json [packages[0]]"


PIP_OUTPUT = """\
ERROR: Could not find a version that satisfies the requirement no-such-pkg==1.0.0 (from versions: none)
ERROR: No matching distribution found for no-such-pkg==1.0.0
"""
NPM_OUTPUT = """\
npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@x%2fno-such - Not found
npm error 404
npm error A complete log of this run can be found in: /root/.npm/_logs/x.log
"""


def test_the_installer_error_line_is_the_one_that_says_why() -> None:
    assert installer_error("pip", PIP_OUTPUT, 1) == f"pip failed: {PIP_OUTPUT.splitlines()[0]}"
    assert installer_error("npm", NPM_OUTPUT, 1) == f"npm failed: {NPM_OUTPUT.splitlines()[1]}"
    assert installer_error("uv", "", 2) == "uv failed: exit status 2"
    assert len(installer_error("pip", "ERROR: " + "x" * 1000, 1)) < 330


def test_manifest_is_json_with_the_argv(tmp_path: Path) -> None:
    first_package = entry_of().packages[0]
    argv, _ = ensure_installed(first_package, FakeInstaller(), tmp_path)
    manifest = json.loads((Path(argv[1]).parent / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["argv"] == ["python3", f"{HERE}/server.py"]
    assert manifest["package"] == "pypi weather-mcp==1.0.0"
