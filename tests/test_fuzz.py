"""Fuzzing the whole CLI in-process: mutated real snapshots, hostile payloads, tools/list pages and
configs. Whatever goes in, what comes out keeps the documented invariants:

- the exit code is one of 0-4 and stderr never says `internal error`;
- the JSON report is strict JSON (no NaN) and valid against mcp_lint/data/report.schema.json;
- the text report and the error lines hold no control character, lone surrogate or bidi control.

Deterministic (derandomize) and bounded, so it runs in CI in well under a minute. No server process
is started: every command in a generated client config is a path that does not exist.
"""

from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path
from typing import Any

import jsonschema
import pytest

hypothesis = pytest.importorskip("hypothesis")

from fuzz_support import BIG_MARK, DEEP_MARK, big_numbers, paths, replace_at, serialize  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from mcp_lint.cli import main  # noqa: E402

ROOT = Path(__file__).parent
SEEDS = [
    *sorted((ROOT / "precision" / "snapshots").glob("*.json")),
    ROOT / "fixtures" / "golden" / "smelly-snapshot.json",
]
REPORT_SCHEMA = json.loads((ROOT.parent / "mcp_lint" / "data" / "report.schema.json").read_text("utf-8"))
REPORT_VALIDATOR = jsonschema.Draft202012Validator(REPORT_SCHEMA)

FUZZ = settings(
    derandomize=True,
    deadline=None,
    max_examples=25,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


# Text a server could choose to break a terminal, a JSON encoder or a UTF-8 writer.
HOSTILE_CHARS = [
    "\x00",
    "\x07",
    "\x1b",
    "\r",
    "\n",
    "\t",
    "\x7f",
    "\x85",
    "\x9b",
    "\u200b",
    "\u202e",
    "\u2066",
    "\ufeff",
    "\ud800",
    "\udcff",
    "\U000e0041",
    "%",
    ":",
    ",",
    '"',
    "\\",
    "/",
    "*",
]
HOSTILE_SNIPPETS = [
    "\x1b]0;owned\x07",
    "\x1b]52;c;aGVsbG8=\x07",
    "\x1b[2J",
    "\nfound 0 findings (1 server, 1 tool)",
    "::error::forged",
    "<!-- -->",
    "${HOME}",
    "{{x}}",
]
hostile_text = st.lists(
    st.one_of(st.sampled_from(HOSTILE_CHARS), st.sampled_from(HOSTILE_SNIPPETS), st.text(max_size=8)),
    max_size=6,
).map("".join)
# Numbers: NaN and the infinities, and integers around the 4,300-digit limit.
hostile_number = st.one_of(
    st.sampled_from([math.nan, math.inf, -math.inf, 1e308, -0.0, 2**63, -(2**63)]),
    st.integers(),
    # Spliced into the serialized text, like deep nesting: Python cannot even print such an int.
    st.sampled_from([4299, 4301, 10_000]).map(lambda digits: f"{BIG_MARK}{digits}"),
)
scalars = st.one_of(st.none(), st.booleans(), hostile_number, hostile_text)
hostile_value = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(hostile_text, inner, max_size=3)),
    max_leaves=8,
)
# Deep nesting is spliced into the serialized text: json.dumps itself would recurse.
deep_levels = st.sampled_from([1, 60, 199, 201, 1_000, 10_000])


def _load_seed(path: Path) -> Any:
    return json.loads(path.read_text("utf-8"))


SEED_DOCUMENTS = [_load_seed(path) for path in SEEDS]


@st.composite
def mutated_snapshots(draw: st.DrawFn) -> str:
    document = draw(st.sampled_from(SEED_DOCUMENTS))
    for _ in range(draw(st.integers(1, 4))):
        every = paths(document)
        path = every[draw(st.integers(0, len(every) - 1))]
        replacement = draw(st.one_of(hostile_value, st.just(DEEP_MARK)))
        document = replace_at(document, path, replacement)
    return serialize(document, draw(deep_levels))


@st.composite
def hostile_pages(draw: st.DrawFn) -> str:
    """A tools/list result as a server sends it: bare, wrapped in JSON-RPC, or a bare array."""
    tool = st.fixed_dictionaries(
        {"name": st.one_of(hostile_text, scalars)},
        optional={
            "description": st.one_of(hostile_text, hostile_value),
            "title": hostile_value,
            "inputSchema": st.one_of(
                hostile_value,
                st.fixed_dictionaries(
                    {
                        "type": st.just("object"),
                        "properties": st.dictionaries(hostile_text, hostile_value, max_size=3),
                    },
                    optional={
                        "$schema": st.sampled_from(
                            [
                                "http://json-schema.org/draft-03/schema#",
                                "http://json-schema.org/draft-04/schema#",
                                5,
                            ]
                        ),
                        "required": hostile_value,
                    },
                ),
                st.just(DEEP_MARK),
            ),
            "annotations": hostile_value,
            "outputSchema": hostile_value,
        },
    )
    tools = draw(st.lists(st.one_of(tool, hostile_value), max_size=4))
    page: Any = {"tools": tools}
    extra = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "serverInfo": st.one_of(
                    hostile_value, st.fixed_dictionaries({"name": hostile_text, "v": hostile_number})
                ),
                "name": hostile_value,
                "protocolVersion": hostile_value,
                "instructions": hostile_value,
                "observations": hostile_value,
                "nextCursor": hostile_value,
            },
        )
    )
    page.update(extra)
    shape = draw(st.sampled_from(["page", "rpc", "array"]))
    if shape == "rpc":
        page = {"jsonrpc": "2.0", "id": draw(scalars), "result": page}
    elif shape == "array":
        page = tools
    return serialize(page, draw(deep_levels))


# Keywords through which a schema can lead back to one of its own definitions.
_SCHEMA_KEYWORDS = ["items", "anyOf", "oneOf", "allOf", "additionalProperties", "properties", "$defs"]


@st.composite
def recursive_schemas(draw: st.DrawFn) -> str:
    """A tool whose input schema's `$defs` refer to each other and to themselves, through any
    keyword (`items`, branches, `additionalProperties`, nested properties): a walker that follows a
    `$ref` without remembering it never ends on these."""
    names = [f"D{index}" for index in range(draw(st.integers(1, 4)))]
    ref = st.sampled_from(names).map(lambda name: {"$ref": f"#/$defs/{name}"})

    def wrap(keyword: str, target: dict[str, Any]) -> dict[str, Any]:
        if keyword == "items":
            return {"type": "array", "items": target}
        if keyword in ("anyOf", "oneOf", "allOf"):
            return {keyword: [target, {"type": "null"}]}
        if keyword == "additionalProperties":
            return {"type": "object", "additionalProperties": target}
        if keyword == "$defs":
            return target
        return {"type": "object", "properties": {"inner": target}}

    def definition() -> dict[str, Any]:
        fields = draw(
            st.dictionaries(
                st.sampled_from(["children", "parent", "next", "left", "right", "value"]),
                st.tuples(st.sampled_from(_SCHEMA_KEYWORDS), ref),
                min_size=1,
                max_size=4,
            )
        )
        properties = {name: wrap(keyword, target) for name, (keyword, target) in fields.items()}
        properties["label"] = {"type": "string"}
        return {"type": "object", "properties": properties}

    defs = {name: definition() for name in names}
    top = {
        name: wrap(keyword, target)
        for name, (keyword, target) in draw(
            st.dictionaries(
                st.sampled_from(["data", "tree", "root"]),
                st.tuples(st.sampled_from(_SCHEMA_KEYWORDS), ref),
                min_size=1,
                max_size=3,
            )
        ).items()
    }
    schema = {"type": "object", "$defs": defs, "properties": top}
    tool = {"name": "draw_chart", "description": "Draws a chart of `data`.", "inputSchema": schema}
    return json.dumps({"tools": [tool]})


def _refuse_constant(constant: str) -> Any:
    raise AssertionError(f"not strict JSON: {constant}")


def _assert_printable(text: str, where: str) -> None:
    for char in text:
        code = ord(char)
        bad = (code < 0x20 and char != "\n") or 0x7F <= code <= 0x9F or 0xD800 <= code <= 0xDFFF
        assert not bad and char not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069", (
            f"{where} holds {char!r}: {text[:400]!r}"
        )


def _check_invariants(code: int, out: str, err: str, report: str) -> None:
    assert code in {0, 1, 2, 3, 4}, (code, err[:400])
    assert "internal error" not in err, err[:600]
    _assert_printable(err, "stderr")
    out.encode("utf-8")  # a lone surrogate would raise
    if report == "json" and out:
        document = json.loads(out, parse_constant=_refuse_constant)
        REPORT_VALIDATOR.validate(document)
    if report == "text":
        _assert_printable(out, "the text report")


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no config above, no cache written into the checkout


def _lint_text(text: str, report: str, capsys: pytest.CaptureFixture[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        snapshot = Path(folder) / "snapshot.json"
        snapshot.write_text(text, encoding="utf-8")
        args = ["check", "--isolated", "--no-cache", "--no-color", "--format", report, str(snapshot)]
        code, out, err = _run(args, capsys)
    _check_invariants(code, out, err, report)


@FUZZ
@given(text=mutated_snapshots(), report=st.sampled_from(["text", "json"]))
def test_mutated_real_snapshots(text: str, report: str, capsys: pytest.CaptureFixture[str]) -> None:
    _lint_text(text, report, capsys)


@FUZZ
@given(text=recursive_schemas(), report=st.sampled_from(["text", "json"]))
def test_recursive_schemas_end(text: str, report: str, capsys: pytest.CaptureFixture[str]) -> None:
    _lint_text(text, report, capsys)


@FUZZ
@given(text=hostile_pages(), report=st.sampled_from(["text", "json"]))
def test_hostile_tools_list_pages(text: str, report: str, capsys: pytest.CaptureFixture[str]) -> None:
    _lint_text(text, report, capsys)


server_entry = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(st.sampled_from(["stdio", "http", "sse", "streamable-http"]), hostile_value),
        # Never a real program: the fuzz loop starts no process.
        "command": st.one_of(
            hostile_text.map(lambda text: f"/nonexistent/mcp-lint-fuzz/{text}"), hostile_value
        ),
        "args": hostile_value,
        "env": hostile_value,
        "envFile": hostile_value,
        "url": st.one_of(st.just("http://127.0.0.1:9/mcp"), hostile_value),
        "headers": hostile_value,
        "cwd": hostile_value,
        "disabled": hostile_value,
    },
)


@FUZZ
@given(
    servers=st.dictionaries(hostile_text, st.one_of(server_entry, hostile_value), max_size=3),
    key=st.sampled_from(["mcpServers", "servers"]),
    report=st.sampled_from(["text", "json"]),
)
def test_hostile_client_configs(
    servers: dict[str, Any], key: str, report: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / ".mcp.json"
        config.write_text(serialize({key: servers}, 1), encoding="utf-8")
        args = [
            "check",
            "--isolated",
            "--no-cache",
            "--no-color",
            "--timeout",
            "2",
            "--format",
            report,
            str(config),
        ]
        code, out, err = _run(args, capsys)
    _check_invariants(code, out, err, report)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            return "nan"
        if isinstance(value, float) and math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return big_numbers(json.dumps(value))  # a TOML basic string takes JSON's escapes (\ud800 is refused)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(item) for item in value if item is not None) + "]"
    if isinstance(value, dict):
        pairs = ", ".join(
            f"{json.dumps(str(k))} = {_toml_value(v)}" for k, v in value.items() if v is not None
        )
        return "{" + pairs + "}"
    return '""'


TOML_KEYS = [
    "fail-on",
    "select",
    "ignore",
    "timeout",
    "jury",
    "rules",
    "per-tool-ignores",
    "servers",
    "unknown-key",
]


@FUZZ
@given(
    table=st.dictionaries(st.sampled_from(TOML_KEYS), hostile_value, max_size=3),
    where=st.sampled_from(["mcp-lint.toml", "pyproject.toml"]),
    levels=deep_levels,
)
def test_hostile_configs(
    table: dict[str, Any], where: str, levels: int, capsys: pytest.CaptureFixture[str]
) -> None:
    body = "\n".join(
        f"{json.dumps(key)} = {_toml_value(value)}" for key, value in table.items() if value is not None
    )
    if levels > 60:
        body += "\ndeep = " + "[" * levels + "]" * levels
    text = ("[tool.mcp-lint]\n" if where == "pyproject.toml" else "") + body + "\n"
    snapshot = SEEDS[0]
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / where
        config.write_text(text, encoding="utf-8", errors="surrogatepass")
        args = ["check", "--no-cache", "--no-color", "--config", str(config), str(snapshot)]
        code, out, err = _run(args, capsys)
    _check_invariants(code, out, err, "text")
