import json
from pathlib import Path

import pytest

from mcp_lint.errors import UsageError
from mcp_lint.traces import (
    MAX_RESULT_CHARACTERS,
    REDACTED,
    TraceRecord,
    TraceWriter,
    capped_content,
    is_secret_name,
    read_traces,
    redact,
    redact_text,
    secret_values,
    traces_by_tool,
)


@pytest.mark.parametrize(
    "name", ["api_key", "apiKey", "GITHUB_TOKEN", "password", "Authorization", "client_secret"]
)
def test_secret_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize("name", ["author", "max_tokens", "path", "keyword", "session_id", "query"])
def test_ordinary_names(name: str) -> None:
    assert not is_secret_name(name)


def test_redact_by_name_value_and_environment() -> None:
    secrets = secret_values(
        {"MY_SERVICE_KEY": "s3cr3t-value-123", "HOME": "/home/me", "PASSWORD": "hunter22"}
    )
    assert secrets == frozenset({"hunter22"})
    arguments = {
        "query": "weather",
        "apiKey": "abc",
        "header": "Bearer abc.def",
        "nested": [{"token": "xyz", "text": "my password is hunter22"}],
        "max_tokens": 5,
    }
    redacted = redact(arguments, secrets)
    assert redacted == {
        "query": "weather",
        "apiKey": REDACTED,
        "header": REDACTED,
        "nested": [{"token": REDACTED, "text": f"my password is {REDACTED}"}],
        "max_tokens": 5,
    }


def test_content_is_capped_and_binaries_dropped() -> None:
    content, truncated = capped_content(
        [{"type": "text", "text": "x" * (MAX_RESULT_CHARACTERS + 10)}, {"type": "image", "data": "AAAA"}]
    )
    assert truncated
    assert len(content[0]["text"]) == MAX_RESULT_CHARACTERS
    assert content[1] == {"type": "image", "omitted": True}


def test_writer_round_trip_and_redaction(tmp_path: Path) -> None:
    path = tmp_path / "traces" / "calls.jsonl"
    with TraceWriter(path, secrets=frozenset({"topsecretvalue"})) as writer:
        writer.write(
            TraceRecord(
                "add", {"a": 2, "b": 3}, ({"type": "text", "text": "5"},), duration_ms=1.5, server="calc"
            )
        )
        writer.write(
            TraceRecord("login", {"password": "pw", "note": "topsecretvalue"}, is_error=True, server="calc")
        )
        writer.write(TraceRecord("odd", {"text": "\ud800"}, error="boom", server="calc"))
    lines = path.read_bytes().decode("utf-8").splitlines()
    assert len(lines) == 3
    assert json.loads(lines[1])["arguments"] == {"password": REDACTED, "note": REDACTED}
    records = read_traces(path)
    assert [record.tool for record in records] == ["add", "login", "odd"]
    assert records[0].succeeded and records[0].result_text() == "5"
    assert not records[1].succeeded and not records[2].succeeded
    assert traces_by_tool(records, "calc")["add"][0].arguments == {"a": 2, "b": 3}
    assert traces_by_tool(records, "other") == {}
    # a server goes by its config key and the name it reports: records under either are its own
    assert traces_by_tool(records, ("weather", "calc"))["add"][0].arguments == {"a": 2, "b": 3}
    assert traces_by_tool(records, ("weather", "other")) == {}


def test_bad_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text('{"tool": "a", "arguments": {}}\n\nnot json\n')
    with pytest.raises(UsageError, match=r"t\.jsonl:3: not a JSON trace line"):
        read_traces(path)
    path.write_text('{"tool": "", "arguments": {}}\n')
    with pytest.raises(UsageError, match=r"t\.jsonl:1: \"tool\" must be a non-empty string"):
        read_traces(path)


# --- issue 20: redaction covers the whole record -------------------------------------------------


@pytest.mark.parametrize(
    "name", ["tokens", "api_tokens", "passwords", "secrets", "apiKeys", "private_keys", "cookies"]
)
def test_plural_secret_names(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "name", ["token_count", "tokens_used", "total_tokens", "prompt_tokens", "max_tokens", "author"]
)
def test_counts_of_tokens_are_not_secrets(name: str) -> None:
    assert not is_secret_name(name)


def test_anything_under_a_secret_name_is_redacted() -> None:
    redacted = redact({"pin_password": 123456, "token": {"value": "x", "expires": 3}, "tokens": ["a", "b"]})
    assert redacted == {"pin_password": REDACTED, "token": REDACTED, "tokens": REDACTED}
    assert redact({"max_tokens": 5, "token_count": 7, "auth": None, "use_auth": True}) == {
        "max_tokens": 5,
        "token_count": 7,
        "auth": None,
        "use_auth": True,
    }


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("use sk-abcdefghijklmnop1234 here", f"use {REDACTED} here"),
        ("token=ghp_abcdefghijklmnopqrstuvwxyz0123 ok", f"token={REDACTED} ok"),
        ("header was Bearer abc.def.ghi, done", f"header was {REDACTED}, done"),
        ("postgres://ada:s3cret@db.example/app", f"postgres://ada:{REDACTED}@db.example/app"),
        (
            "see https://x.example/v1?q=1&api_key=K123456&page=2",
            f"see https://x.example/v1?q=1&api_key={REDACTED}&page=2",
        ),
        ("https://x.example/?access_token=abc123", f"https://x.example/?access_token={REDACTED}"),
    ],
)
def test_token_shapes_inside_text_are_redacted(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text", ["the bearer of bad news", "Bearer instruments pay the holder", "bearer token expired"]
)
def test_prose_about_bearers_is_kept(text: str) -> None:
    assert redact(text) == text


def test_a_secret_argument_echoed_in_the_result_and_error_is_redacted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as writer:
        writer.write(
            TraceRecord(
                "login",
                {"user": "ada", "api_key": "hunter2-horse", "pin_code_password": 987654321},
                ({"type": "text", "text": "signed in with hunter2-horse (pin 987654321)"},),
                error="key hunter2-horse refused",
                structured={"echo": {"key": "hunter2-horse"}},
            )
        )
    text = path.read_text(encoding="utf-8")
    assert "hunter2-horse" not in text and "987654321" not in text
    [record] = read_traces(path)
    assert record.result_text() == f"signed in with {REDACTED} (pin {REDACTED})"
    assert record.error == f"key {REDACTED} refused"


def test_redaction_survives_deep_nesting(tmp_path: Path) -> None:
    deep: object = "leaf"
    for _ in range(5000):
        deep = {"a": [deep]}
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as writer:
        writer.write(TraceRecord("deep", {"x": 1}, structured=deep))
    [record] = read_traces(path)
    assert record.tool == "deep" and record.arguments == {"x": 1}


# --- hardening audit (s28): a secret in text is redacted whole, whatever else matched first -----------


def test_an_echoed_secret_inside_a_token_does_not_leave_the_rest_of_the_token() -> None:
    """A value kept from a secret-named argument can be part of a longer token in the result; the
    token goes whole, not the token with only that part cut out (`ghp_0<redacted>9abc...`)."""
    token = "ghp_0123456789abcdefghijABCDEFGHIJ012345"
    assert redact_text(f"prefix {token} suffix", frozenset({"12345678"})) == f"prefix {REDACTED} suffix"
    assert redact_text("key sk-ABCDEFGH12345678IJKL done", frozenset({"EFGH1234"})) == f"key {REDACTED} done"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A result that is JSON written as text (what many servers return): its secret-named keys.
        ('{"user": "ada", "password": "hunter2hunter2"}', f'{{"user": "ada", "password": "{REDACTED}"}}'),
        ('{"apiKey":"k-31337-abc","n":1}', f'{{"apiKey":"{REDACTED}","n":1}}'),
        ('{"pin_password": 987654321}', f'{{"pin_password": "{REDACTED}"}}'),
        ('{"note": "say \\"token\\": x"}', '{"note": "say \\"token\\": x"}'),
        # NAME=value pairs outside a URL: environment dumps and error messages.
        ("API_KEY=abcd1234efgh5678\nHOME=/root", f"API_KEY={REDACTED}\nHOME=/root"),
        ("auth failed: token=abc123456789 rejected", f"auth failed: token={REDACTED} rejected"),
        ("max_tokens=100 total_tokens=5", "max_tokens=100 total_tokens=5"),
        # Header lines and Python's dict repr: what a server that calls an HTTP API echoes in errors.
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", f"Authorization: {REDACTED}"),
        (
            "X-Api-Key: abcdef123456\nAccept: application/json",
            f"X-Api-Key: {REDACTED}\nAccept: application/json",
        ),
        ("  Cookie: session=abcdef0123456789", f"  Cookie: {REDACTED}"),
        (
            "headers={'Authorization': 'Basic dXNlcjpw', 'n': 1}",
            f"headers={{'Authorization': '{REDACTED}', 'n': 1}}",
        ),
        ("Max-Tokens: 100\nNote: the key expires daily", "Max-Tokens: 100\nNote: the key expires daily"),
    ],
)
def test_a_secret_named_value_inside_text_is_redacted(text: str, expected: str) -> None:
    assert redact_text(text) == expected


def test_a_secret_in_json_written_inside_a_string_of_json_text_is_redacted(tmp_path: Path) -> None:
    """A result quoting a config as a string ('{"cfg": "{\\"api_key\\": \\"...\\"}"}'): the quotes
    around the key are escaped there, so only reading the JSON finds the name."""
    config = json.dumps({"api_key": "zz-plain-value-99", "region": "eu"})
    text = json.dumps({"cfg": config, "ok": True})
    path = tmp_path / "t.jsonl"
    with TraceWriter(path) as writer:
        writer.write(TraceRecord("show_config", {}, ({"type": "text", "text": text},)))
    assert "zz-plain-value-99" not in path.read_text(encoding="utf-8")
    [record] = read_traces(path)
    assert json.loads(json.loads(record.result_text())["cfg"]) == {"api_key": REDACTED, "region": "eu"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[default]\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nregion = eu-west-1",
            f"[default]\naws_secret_access_key = {REDACTED}\nregion = eu-west-1",
        ),
        ("password = hunter2\nmax_tokens = 100", f"password = {REDACTED}\nmax_tokens = 100"),
        (
            "key file:\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\nabc+/=\n"
            "-----END RSA PRIVATE KEY-----\nok",
            f"key file:\n{REDACTED}\nok",
        ),
        # Cut by the result cap before its end: the rest of the text is the key.
        ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", REDACTED),
        ("-----BEGIN CERTIFICATE-----\nMIIB", "-----BEGIN CERTIFICATE-----\nMIIB"),
    ],
)
def test_config_lines_and_private_key_blocks_in_text_are_redacted(text: str, expected: str) -> None:
    assert redact_text(text) == expected
