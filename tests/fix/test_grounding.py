"""What a rival's own description says it does: the verb phrase a when-to-use sentence is made from."""

from __future__ import annotations

import pytest

from mcp_lint.fix.grounding import purpose, rivals, server_spellings, spellings
from mcp_lint.model import Tool


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("Gets a user by email address.", "get a user by email address"),
        ("Lists issues of a repo (paginated). Needs a token.", "list issues of a repo (paginated)"),
        ("This tool searches the web for pages.", "search the web for pages"),
        ("Use this to fetch a page.", "fetch a page"),
        ("Retrieves every open ticket", "retrieve every open ticket"),
        ("Weather report.", None),  # no verb: no phrase to build "To ..., use" from
        ("Gets items, e.g. books and films.", None),  # cut inside an abbreviation
        ("", None),
        ("Gets " + "very " * 20 + "many items.", None),  # a paragraph, not a reason
    ],
)
def test_purpose_is_the_first_sentence_verb_phrase_in_the_imperative(
    description: str, expected: str | None
) -> None:
    assert purpose(Tool("get_items", {"name": "get_items", "description": description})) == expected


def _tool(name: str, description: str, **extra: object) -> Tool:
    raw = {"name": name, "description": description, "inputSchema": {"type": "object"}, **extra}
    return Tool(name, raw)


def test_rivals_read_from_the_servers_index_match_those_read_per_tool() -> None:
    # "fs" starts three tools: a namespace, so fs_read_file and fs_read_file_v2 are one action on a file
    reader = _tool("fs_read_file", "Read a file.", annotations={"readOnlyHint": True})
    writer = _tool("fs_read_file_v2", "Read a file.", annotations={"readOnlyHint": False})
    other = _tool("fs_write_file", "Write a file.", annotations={"readOnlyHint": False})
    unnamed = Tool("", {"description": "Read a file."}, named=False)
    server = [reader, writer, other, unnamed]
    indexed = rivals(reader, server)  # the tool is one of its peers: the server's index is used
    assert [rival.name for rival in indexed] == ["fs_read_file_v2"]
    # read per tool (the tool is not among the peers, or its name is there twice): the same rivals
    assert rivals(reader, [writer, other, unnamed]) == indexed
    assert rivals(reader, [reader, *server]) == indexed
    assert rivals(writer, server)[0].name == "fs_read_file"
    assert rivals(other, server) == ()


def test_spellings_are_the_servers_own_mid_sentence_ones() -> None:
    tools = [
        Tool(
            "describe_table",
            {"name": "describe_table", "description": "Describe a table of the Exasol database."},
        ),
        Tool(
            "run_query",
            {
                "name": "run_query",
                "description": "Tables run an Exasol query; see `exasol_tools` and exasol.com.",
                "inputSchema": {"properties": {"sql": {"description": "SQL text for Exasol, as JSON."}}},
            },
        ),
    ]
    spelt = spellings(tools)
    # "Exasol" three times mid-sentence (identifiers and URLs left out), "exasol" never in prose.
    assert spelt["exasol"] == "Exasol"
    assert spelt["json"] == "JSON"
    # "Tables" and "SQL" only open a sentence: that is no spelling of either.
    assert "tables" not in spelt and "table" not in spelt and "sql" not in spelt
    # A word written in lower case as often as not stays as the name writes it.
    even = [Tool("a", {"name": "a", "description": "Use the Widget or the widget."})]
    assert "widget" not in spellings(even)


def test_server_spellings_are_the_spellings_made_at_the_first_read() -> None:
    tools = [
        _tool("describe_table", "Describe a table of the Exasol database, as JSON."),
        _tool("list_exasol_schemas", "List the User Defined Functions of a schema."),
        _tool("find_exasol_schemas", "Find schemas of the Exasol database by name."),
    ]
    shared = server_spellings(tools)
    assert shared._made is None  # type: ignore[attr-defined]  # nothing made until a tool reads it
    assert shared.get("exasol") == spellings(tools)["exasol"] == "Exasol"
    assert dict(shared) == spellings(tools) and len(shared) == len(spellings(tools))
    assert shared.get("nothing such", "x") == "x" and "json" in shared
    # made once, then read as it is
    made = shared._made  # type: ignore[attr-defined]
    assert made is not None and shared.get("json") == "JSON" and shared._made is made  # type: ignore[attr-defined]


def test_one_pass_over_a_parameters_variants_reads_each_keyword_as_the_first_variant_gives_it() -> None:
    # `_parameter` reads every keyword from `_firsts` (one pass) where it read each one by scanning
    # the variants for the first that has it: the same value, and the same "has it", for every
    # keyword of every calibration parameter and of random variant lists.
    import random
    from collections.abc import Mapping
    from typing import Any

    from lab.corpus import load_rows
    from mcp_lint.fix.grounding import _firsts
    from mcp_lint.schema_walk import property_variants, walk_schema

    def scanned(variants: list[Mapping[str, Any]], key: str) -> tuple[bool, Any]:
        for variant in variants:
            if key in variant:
                return True, variant[key]
        return False, None

    cases: list[list[Mapping[str, Any]]] = []
    for row in load_rows():
        root = row["input_schema"]
        cases += [property_variants(root, item.schema) for item in walk_schema(root, depth_first=True)]
    rnd = random.Random(7)
    keys = ["enum", "const", "default", "format", "pattern", "minLength", "maxLength", "type"]
    values: list[Any] = [None, 0, "", "date", ["a"], {"x": 1}, False]
    for _ in range(2000):
        picks = [rnd.sample(keys, rnd.randint(0, 4)) for _ in range(rnd.randint(0, 4))]
        cases.append([{key: rnd.choice(values) for key in chosen} for chosen in picks])
    assert len(cases) > 2000 + 400
    for variants in cases:
        first = _firsts(variants)
        for key in {*keys, *(key for variant in variants for key in variant)}:
            has, value = scanned(variants, key)
            assert (key in first) == has
            assert first.get(key) is value
