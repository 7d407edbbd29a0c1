"""Install-time code, for real: pip against a local package index (on loopback, so the gate runs with
--allow-private-network) that serves only a source distribution whose in-tree build backend records
that it ran, and the environment it ran with.

By default the gate installs wheels only, so the backend never runs and the install fails in one
line that names --allow-install-scripts. With the flag, it runs (and the gate says install-time code
ran), with the installers' environment: the caller's secrets are not in it. The backend then fails
on purpose, so nothing is installed either way. No network beyond 127.0.0.1.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import io
import json
import shutil
import tarfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from registry_support import entry_document, gate, package, write_entry

PROJECT = "mcp-lint-sdist-probe"
SECRET = "ci-s3cr3t-for-setup-code"

BACKEND = """\
import json, os

def _record():
    with open({marker!r}, "w", encoding="utf-8") as handle:
        json.dump(dict(os.environ), handle)
    raise RuntimeError("the probe builds nothing")

def get_requires_for_build_wheel(config_settings=None):
    return []

def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _record()

def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _record()
"""
PYPROJECT = """\
[build-system]
requires = []
build-backend = "backend"
backend-path = ["."]

[project]
name = "mcp-lint-sdist-probe"
version = "1.0.0"
"""


def _sdist(folder: Path, marker: Path) -> None:
    base = "mcp_lint_sdist_probe-1.0.0"
    files = {
        "pyproject.toml": PYPROJECT,
        "backend.py": BACKEND.format(marker=str(marker)),
        "PKG-INFO": "Metadata-Version: 2.1\nName: mcp-lint-sdist-probe\nVersion: 1.0.0\n",
    }
    folder.mkdir(parents=True)
    with tarfile.open(folder / f"{base}.tar.gz", "w:gz") as archive:
        for name, text in files.items():
            data = text.encode("utf-8")
            info = tarfile.TarInfo(f"{base}/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def index(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A PEP 503 index on loopback holding only the probe's sdist; yields its URL and the marker."""
    marker = tmp_path / "setup-code-ran.json"
    _sdist(tmp_path / "index" / "simple" / PROJECT, marker)
    handler = functools.partial(_Quiet, directory=str(tmp_path / "index"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", marker
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MCP_LINT_CACHE_DIR", raising=False)
    monkeypatch.setenv("CI_DEPLOY_TOKEN", SECRET)
    return tmp_path


def _entry(here: Path, url: str) -> None:
    write_entry(
        here, entry_document(packages=[package(identifier=PROJECT, version="1.0.0", registryBaseUrl=url)])
    )


def test_an_sdist_is_not_built_by_default(
    here: Path, index: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    url, marker = index
    _entry(here, url)
    code, _, err = gate(["--cache-dir", str(here / "cache"), "--allow-private-network"], capsys)
    assert code == 3, err
    # A registryBaseUrl that is not pypi.org is warned about; the failure is one error line.
    lines = [line for line in err.splitlines() if line.startswith("mcp-lint: error: ")]
    assert len(lines) == 1, err
    assert lines[0].startswith(
        f"mcp-lint: error: packages[0]: cannot install pypi {PROJECT}==1.0.0: pip failed:"
    )
    assert "Could not find a version" in lines[0] and "--allow-install-scripts" in lines[0]
    assert not marker.exists(), "no package code ran"


def test_an_sdist_is_built_when_allowed_without_the_callers_secrets(
    here: Path, index: tuple[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    url, marker = index
    _entry(here, url)
    args = ["--cache-dir", str(here / "cache"), "--allow-private-network", "--allow-install-scripts"]
    code, _, err = gate(args, capsys)
    assert code == 3, err
    assert (
        "mcp-lint: warning: packages[0]: install-time code ran (--allow-install-scripts): pip could "
        "build source distributions, running their setup code" in err.splitlines()
    ), err
    assert marker.is_file(), "the backend ran"
    seen = json.loads(marker.read_text(encoding="utf-8"))
    assert SECRET not in json.dumps(seen), "the caller's environment is not the installer's"
    assert "PATH" in seen
    assert not list((here / "cache").rglob("launch.json")), "nothing installed"


# -- npm, for real: a registry on loopback serving one package whose postinstall records its environment

NPM_PROJECT = "mcp-lint-postinstall-probe"


def _postinstall(marker: Path) -> str:
    """A script that writes the environment it runs with to `marker`."""
    return f"node -e \"require('fs').writeFileSync('{marker}', JSON.stringify(process.env))\""


def _npm_tarball(marker: Path) -> bytes:
    manifest = {
        "name": NPM_PROJECT,
        "version": "1.0.0",
        "bin": {NPM_PROJECT: "index.js"},
        "scripts": {"postinstall": _postinstall(marker)},
    }
    files = {"package/package.json": json.dumps(manifest), "package/index.js": "#!/usr/bin/env node\n"}
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as archive:
        for name, text in files.items():
            encoded = text.encode("utf-8")
            info = tarfile.TarInfo(name)
            info.size = len(encoded)
            info.mode = 0o755
            archive.addfile(info, io.BytesIO(encoded))
    return data.getvalue()


class _NpmRegistry(BaseHTTPRequestHandler):
    tarball = b""
    marker = Path()
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).seen.append(self.path)
        origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        tarball = type(self).tarball
        if self.path.endswith(".tgz"):
            body = tarball
            kind = "application/octet-stream"
        elif self.path.strip("/") == NPM_PROJECT:
            integrity = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
            version = {
                "name": NPM_PROJECT,
                "version": "1.0.0",
                "bin": {NPM_PROJECT: "index.js"},
                "scripts": {"postinstall": _postinstall(type(self).marker)},
                "dist": {
                    "tarball": f"{origin}/{NPM_PROJECT}/-/{NPM_PROJECT}-1.0.0.tgz",
                    "shasum": hashlib.sha1(tarball).hexdigest(),
                    "integrity": integrity,
                },
            }
            document = {"name": NPM_PROJECT, "dist-tags": {"latest": "1.0.0"}, "versions": {"1.0.0": version}}
            body = json.dumps(document).encode("utf-8")
            kind = "application/json"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("content-type", kind)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def _serving_npm(marker: Path) -> Iterator[tuple[str, list[str]]]:
    """An npm registry on loopback holding only the probe (whose postinstall writes `marker`); yields
    its URL and the paths it is asked for."""
    seen: ClassVar[list[str]] = []
    handler = type(
        "Registry", (_NpmRegistry,), {"tarball": _npm_tarball(marker), "marker": marker, "seen": seen}
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture
def npm_registry(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    marker = tmp_path / "postinstall-ran.json"
    with _serving_npm(marker) as (url, _):
        yield url, marker


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
@pytest.mark.parametrize("allowed", [False, True])
def test_npm_install_scripts_run_only_when_allowed_and_without_the_callers_secrets(
    here: Path, npm_registry: tuple[str, Path], capsys: pytest.CaptureFixture[str], allowed: bool
) -> None:
    url, marker = npm_registry
    document = entry_document(
        packages=[package(registryType="npm", identifier=NPM_PROJECT, version="1.0.0", registryBaseUrl=url)]
    )
    write_entry(here, document)
    args = ["--cache-dir", str(here / "cache"), "--allow-private-network", "--timeout", "20"]
    code, _, err = gate([*args, *(["--allow-install-scripts"] if allowed else [])], capsys)
    assert code in (1, 3), err  # the probe's server is no MCP server
    said = "install-time code ran (--allow-install-scripts): npm ran the install scripts" in err
    if not allowed:
        assert not marker.exists() and not said, err
        return
    assert said and marker.is_file(), err
    seen = json.loads(marker.read_text(encoding="utf-8"))
    assert SECRET not in json.dumps(seen), "the caller's environment is not the installer's"
    assert "PATH" in seen


@pytest.mark.skipif(shutil.which("npm") is None, reason="needs npm")
def test_the_same_name_and_version_from_another_npm_registry_is_installed_anew(
    here: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """For real: one registry's install of name@version is reused for that registry only."""
    with (
        _serving_npm(tmp_path / "a.json") as (first, first_seen),
        _serving_npm(tmp_path / "b.json") as (
            second,
            second_seen,
        ),
    ):
        said = []
        for url in (first, first, second):
            entry = package(registryType="npm", identifier=NPM_PROJECT, version="1.0.0", registryBaseUrl=url)
            write_entry(here, entry_document(packages=[entry]))
            args = ["--cache-dir", str(here / "cache"), "--allow-private-network", "--timeout", "20"]
            code, _, err = gate(args, capsys)
            assert code in (1, 3), err  # the probe's server is no MCP server
            said.append("started from the install cache" in err)
    assert said == [False, True, False]
    assert first_seen and second_seen, "the second registry was asked, not the first one's install reused"
    assert len(list((here / "cache").rglob("launch.json"))) == 2
