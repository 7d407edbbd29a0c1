"""MCP211 missing-required: the id of the object a tool acts on is not required."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence

from mcp_lint.check.functions import CheckContext, Hit, check_function
from mcp_lint.check.functions._util import name_words
from mcp_lint.check.functions.schema._common import prop_path
from mcp_lint.lazyre import lazy
from mcp_lint.words import singular

# Actions on one existing object: without its id the call has nothing to act on. Listing, searching
# and creating take filters or make the object, so an optional id is normal there.
_ACTS_ON_ONE = frozenset(
    {
        "get",
        "read",
        "fetch",
        "retrieve",
        "describe",
        "update",
        "edit",
        "patch",
        "modify",
        "delete",
        "remove",
        "cancel",
        "close",
        "archive",
        "rename",
        "move",
        "download",
    }
)
# What an identifying parameter adds to the object's name.
_ID_WORDS = frozenset({"id", "number", "key", "uuid", "iid", "gid", "uid"})
# Other ways to name an object: beside one of these an id is one choice among several.
_OTHER_NAMES = frozenset(
    {"id", "key", "url", "uri", "name", "slug", "path", "number", "iid", "uuid", "link", "email"}
)
# A description that says what happens without the parameter: it is optional on purpose.
_OPTIONAL = lazy(
    r"\b(?:optional|defaults?|if (?:not|omitted|absent|empty|unset|missing)|when (?:not|omitted|absent)"
    r"|otherwise|falls? back|unless)\b",
    re.IGNORECASE,
)
_ALTERNATIVES = ("anyOf", "oneOf", "allOf", "if", "dependentRequired", "dependencies")


# Listing the parts of one object: `list_pull_request_files` lists files of one pull request.
_LISTS = frozenset({"list", "count"})


def _object_words(tool_name: str) -> tuple[list[str], bool] | None:
    """The words of the object after the action verb (`get_pull_request_diff` -> pull, request, diff)
    and whether the verb lists (then only an owner before the last word is one object), or None when
    the name does not start with (or, after a prefix word, put second) such a verb."""
    words = name_words(tool_name)
    for index, word in enumerate(words[:3]):
        if word in _ACTS_ON_ONE or word in _LISTS:
            return [singular(rest) for rest in words[index + 1 :]], word in _LISTS
    return None


def _identified(parameter: str, objects: Sequence[str], lists: bool, only: bool) -> str | None:
    """The object `parameter` is the id of (`pullRequestNumber` -> "pull request"), when its stem is
    a run of the object words; None otherwise. A tool that lists names its owner before the listed
    thing (`list_pull_request_files`: the pull request, not the files). A bare `id` is the id of
    the tool's object when it is the tool's only way to name one (`update_annotation` with `id`)."""
    words = name_words(parameter)
    if not lists and only and len(words) == 1 and words[0] in _ID_WORDS and objects:
        return " ".join(objects)
    if len(words) < 2 or words[-1] not in _ID_WORDS:
        return None
    stem = [singular(word) for word in words[:-1]]
    size = len(stem)
    last = len(objects) - size - (1 if lists else 0)
    if any(list(objects[i : i + size]) == stem for i in range(last + 1)):
        return " ".join(stem)
    return None


def _named_otherwise(parameter: str, others: Sequence[str]) -> bool:
    """Whether another parameter names the object too: the same stem with another ending
    (`issue_key` beside `issue_id`), or a name, path, URL, email or key of its own. (Any other id
    counts: a tool that takes two ids often takes either, "doc_id or object_id".)"""
    stem = name_words(parameter)[:-1]
    for other in others:
        words = name_words(other)
        if words and ((stem and words[:-1] == stem) or words[-1] in _OTHER_NAMES):
            return True
    return False


@check_function("missing_required")
def missing_required(ctx: CheckContext) -> Iterator[Hit]:
    for tool in ctx.server.tools:
        schema = tool.input_schema
        if not isinstance(schema, Mapping) or any(key in schema for key in _ALTERNATIVES):
            continue
        found = _object_words(tool.name)
        if not found or not found[0]:
            continue
        objects, lists = found
        required = set(tool.required)
        props = tool.properties
        for name, prop in props.items():
            if name in required or not isinstance(prop, Mapping) or "default" in prop:
                continue
            naming = [other for other in props if set(name_words(str(other))[-1:]) & _OTHER_NAMES]
            thing = _identified(str(name), objects, lists, only=naming == [name])
            if thing is None:
                continue
            text = prop.get("description")
            if isinstance(text, str) and _OPTIONAL.search(text):
                continue  # "uses the default board if not provided": left out on purpose
            if _named_otherwise(str(name), [str(other) for other in props if other != name]):
                continue  # `issue_key` or a `name` beside `issue_id`: the object may be named either way
            yield Hit(
                tool=tool.name,
                subject=str(name),
                fields={"parameter": name, "thing": thing},
                evidence=f"{prop_path(str(name))}: not in required {sorted(required)}",
                path=prop_path(str(name)),
                suggestion=f'Add "{name}" to `required` of `{tool.name}`.',
            )
