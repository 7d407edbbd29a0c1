"""Fuzzing the server.json reader and the gate in front of it: mutated entries, hostile values, deep
nesting, numbers past the digit limit and broken bytes. Whatever goes in:

- `load_entry` returns problems or an entry and never raises; every problem is one line;
- an entry that validates is planned (`plan`) or refused with a UsageError, nothing else;
- what validates and plans hands no installer a name starting with "-", a URL or a path, nor a
  version that is no folder name, and reaches no private, loopback or link-local address;
- `mcp-lint gate` on an entry that does not validate or plan exits 2 with only `mcp-lint: ` lines on
  stderr, printable, never `internal error`, and writes a strict JSON verdict saying "invalid".

Deterministic (derandomize) and bounded like tests/test_fuzz.py. Nothing is installed or connected
to: the gate runs only on entries that stop before the install, and `plan` resolves host names at
most (the remotes' hosts are example.com names or the addresses the fuzzer picks).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")

from fuzz_support import BIG_MARK, DEEP_MARK, paths, replace_at, serialize  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from registry_support import entry_document, gate, package  # noqa: E402

from mcp_lint.errors import UsageError  # noqa: E402
from mcp_lint.registry.entry import load_entry  # noqa: E402
from mcp_lint.registry.launch import plan  # noqa: E402
from mcp_lint.registry.network import private_target, unclear_host  # noqa: E402

FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=30,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)

SEED = entry_document(
    packages=[
        package(
            packageArguments=[
                {"type": "named", "name": "--port", "valueHint": "port", "default": "8080"},
                {"type": "positional", "value": "--db={path}", "variables": {"path": {"default": "a.db"}}},
            ],
            environmentVariables=[{"name": "API_TOKEN", "isSecret": True, "default": "t0k3n"}],
        ),
        package(registryType="npm", identifier="@example/weather", runtimeHint="npx"),
    ],
    remotes=[
        {
            "type": "streamable-http",
            "url": "https://{tenant}.example.com/mcp",
            "variables": {"tenant": {"default": "acme", "choices": ["acme", "globex"]}},
            "headers": [
                {"name": "Authorization", "value": "Bearer {t}", "variables": {"t": {"default": "x"}}}
            ],
        }
    ],
)

HOSTILE_SNIPPETS = [
    "\x00",
    "\x1b]0;owned\x07",
    "\x1b[2J",
    "\u202e",
    "\x85",
    "\ud800",
    "\n",
    "-",
    "--registry=http://127.0.0.1",
    "..",
    "../../",
    "http://127.0.0.1:1/x",
    "http://[::1]/x",
    "http://169.254.169.254/",
    "https://evil.example.com/p.tgz",
    "{tenant}",
    "{undefined}",
    "latest",
    "^1.0",
    "npm",
    "pypi",
    "mcpb",
    "stdio",
    "sse",
]
hostile_text = st.lists(st.one_of(st.sampled_from(HOSTILE_SNIPPETS), st.text(max_size=6)), max_size=4).map(
    "".join
)
hostile_number = st.one_of(
    st.sampled_from([math.nan, math.inf, -0.0, 2**63, 1e308]),
    st.integers(),
    st.sampled_from([4299, 4301, 10_000]).map(lambda digits: f"{BIG_MARK}{digits}"),
)
scalars = st.one_of(st.none(), st.booleans(), hostile_number, hostile_text)
hostile_value = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(hostile_text, inner, max_size=3)),
    max_leaves=8,
)
deep_levels = st.sampled_from([1, 150, 199, 201, 5_000])


def _get(document: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        document = document[key]
    return document


@st.composite
def mutated_entries(draw: st.DrawFn) -> bytes:
    document: Any = SEED
    for _ in range(draw(st.integers(0, 3))):
        every = paths(document)
        path = every[draw(st.integers(0, len(every) - 1))]
        # A string stays a string half the time: the entry then often still validates, and the
        # value reaches the installers' names, the URLs and the inputs.
        strings = isinstance(_get(document, path), str) and draw(st.booleans())
        replacement = hostile_text if strings else st.one_of(hostile_value, st.just(DEEP_MARK))
        document = replace_at(document, path, draw(replacement))
    text = serialize(document, draw(deep_levels))
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.integers(0, 4)) == 0:  # a truncated file, or a stray byte that is no UTF-8
        cut = draw(st.integers(0, len(data)))
        data = data[:cut] + draw(st.sampled_from([b"", b"\xff", b"\xef\xbb\xbf", b"\x00"]))
    return data


def _assert_printable(text: str, where: str) -> None:
    for char in text:
        code = ord(char)
        bad = (code < 0x20 and char != "\n") or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF
        assert not bad and char not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", (
            f"{where} holds {char!r}: {text[:400]!r}"
        )


def _refuse_constant(constant: str) -> Any:
    raise AssertionError(f"not strict JSON: {constant}")


def _check(data: bytes, folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = folder / "server.json"
    path.write_bytes(data)
    validation = load_entry(path)
    for problem in (*validation.problems, *validation.warnings):
        assert "\n" not in str(problem).strip() or "\\n" in str(problem), str(problem)[:400]
    if validation.entry is not None:
        try:
            plan(validation.entry, {})
        except UsageError:
            pass
        else:
            return  # would install and connect: the thirdparty tests gate real entries
    verdict = folder / "verdict.json"
    capsys.readouterr()
    code, out, err = gate(
        [str(path), "--cache-dir", str(folder / "cache"), "--verdict", str(verdict)], capsys
    )
    assert code == 2, (code, err[:600])
    assert out == "" and "internal error" not in err and "Traceback" not in err, err[:600]
    _assert_printable(err, "stderr")
    assert all(line.startswith("mcp-lint: ") for line in err.splitlines()), err[:600]
    document = json.loads(verdict.read_text(encoding="utf-8"), parse_constant=_refuse_constant)
    assert document["status"] == "invalid" and document["exitCode"] == 2
    assert not (folder / "cache").exists(), "nothing installed for an entry the gate refuses"


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MCP_LINT_CACHE_DIR", raising=False)


@FUZZ
@given(data=mutated_entries())
def test_mutated_entries(data: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / f"case-{hashlib.sha256(data).hexdigest()[:12]}"
    folder.mkdir(exist_ok=True)
    _check(data, folder, capsys)


@FUZZ
@given(document=hostile_value, levels=deep_levels)
def test_any_json_document(
    document: Any, levels: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = serialize(document, levels).encode("utf-8", "surrogatepass")
    folder = tmp_path / f"case-{hashlib.sha256(data).hexdigest()[:12]}"
    folder.mkdir(exist_ok=True)
    _check(data, folder, capsys)


URLS = [
    "https://mcp.example.com/mcp",
    "https://{host}/mcp",
    "http://127.0.0.1:8080/mcp",
    "http://localhost./mcp",
    "http://[::ffff:7f00:1]/mcp",
    "http://0x7f000001/mcp",
    "http://017700000001/mcp",
    "http://169.254.169.254/latest",
    "http://[fd00::1]/mcp",
    "http://100.64.0.1/mcp",
    "https://8.8.8.8/mcp",
    "https://user@127.0.0.1:443@example.com/mcp",
    "http://127.0.0.1:4873\\@example.com",
    "http://%6c%6f%63%61%6c%68%6f%73%74/mcp",
]
field_text = st.one_of(hostile_text, st.sampled_from(URLS))


@st.composite
def hostile_fields(draw: st.DrawFn) -> dict[str, Any]:
    """A valid entry whose installer-facing and network-facing strings are the fuzzer's."""
    item: dict[str, Any] = {
        "registryType": draw(st.sampled_from(["npm", "pypi"])),
        "identifier": draw(st.one_of(field_text, st.sampled_from(["weather-mcp", "@x/weather"]))),
        "version": draw(st.one_of(field_text, st.just("1.0.0"))),
        "transport": {"type": "stdio"},
    }
    if draw(st.booleans()):
        item["registryBaseUrl"] = draw(field_text)
    remote = {
        "type": "sse",
        "url": draw(field_text),
        "variables": {"host": {"default": draw(st.one_of(field_text, st.just("127.0.0.1")))}},
    }
    return entry_document(packages=[package(**item)], remotes=[remote])


@FUZZ
@given(document=hostile_fields())
def test_installer_and_network_fields(
    document: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.dumps(document).encode("utf-8", "surrogatepass")
    folder = tmp_path / f"case-{hashlib.sha256(data).hexdigest()[:12]}"
    folder.mkdir(exist_ok=True)
    (folder / "server.json").write_bytes(data)
    validation = load_entry(folder / "server.json")
    if validation.entry is not None:
        try:
            planned = plan(validation.entry, {})
        except UsageError:
            pass
        else:
            chosen = validation.entry.packages[0]
            assert not chosen.identifier.startswith("-") and "://" not in chosen.identifier
            assert (
                "/" not in chosen.identifier.lstrip("@").replace("/", "", 1) and ".." not in chosen.identifier
            )
            assert chosen.version is not None and chosen.version.strip(".") and "/" not in chosen.version
            for url in (chosen.registry_base_url, planned.items[-1].url):
                assert url is None or private_target(url) is None, url
                assert url is None or unclear_host(url) is None, url
            return
    _check(data, folder, capsys)
