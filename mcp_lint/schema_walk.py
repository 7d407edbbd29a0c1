"""Walking a tool's input schema: one guarded walk for every rule and for the fixer.

A property's schema may wrap what it says in a local `$ref`, in `anyOf`/`oneOf`/`allOf` branches and,
for an array, in its `items`; `property_variants` and `value_schemas` unwrap those. `walk_schema`
visits every parameter at any depth. Each schema object is entered at most once on the way down,
whatever keyword (`items`, a branch, a `$ref`) leads back to it, so a recursive model cannot loop,
and a walk stops after `MAX_WALKED` parameters, so definitions shared many ways cannot blow up.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# parameters walked at most in one schema (nested ones included): real tools have a few dozen
MAX_WALKED = 2_000
# The keywords through which a property's value may hold more schemas; a property with none of them
# (most are a plain `{"type": "string", ...}`) is answered without a walk.
_WRAPPERS = frozenset({"$ref", "anyOf", "oneOf", "allOf", "items"})
_NESTING = _WRAPPERS | {"properties"}


def _is_mapping(value: Any) -> bool:
    # A dict is answered before the slower ABC check.
    return type(value) is dict or isinstance(value, Mapping)


def resolve_local_ref(root: Any, node: Any) -> Any:
    """Follow one local `$ref` (`#/$defs/X`) so a property's documentation can live in its definition."""
    if not isinstance(node, Mapping):
        return node
    ref = node.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    target: Any = root
    for part in ref[2:].split("/"):
        if not isinstance(target, Mapping):
            return node
        target = target.get(part.replace("~1", "/").replace("~0", "~"))
    return target if isinstance(target, Mapping) else node


def property_variants(root: Any, prop: Any) -> list[Mapping[str, Any]]:
    """The property schema plus what it wraps: a `$ref`, or `anyOf`/`oneOf`/`allOf` branches.

    Pydantic emits `Optional[X]` as `anyOf: [X, null]` and models as `$ref`s, so keywords such
    as `format` or `description` are often one level down.
    """
    if type(prop) is not dict and not isinstance(prop, Mapping):
        return []
    found: list[Mapping[str, Any]] = [prop]
    if "$ref" in prop:
        resolved = resolve_local_ref(root, prop)
        if resolved is not prop:
            found.append(resolved)
    if "anyOf" not in prop and "oneOf" not in prop and "allOf" not in prop:
        return found  # the usual case: a plain property
    for key in ("anyOf", "oneOf", "allOf"):
        branches = prop.get(key)
        if isinstance(branches, list):
            for branch in branches:
                if isinstance(branch, Mapping):
                    found.append(branch)
                    target = resolve_local_ref(root, branch)
                    if target is not branch:
                        found.append(target)
    return found


Through = tuple[Mapping[str, Any], ...]


def value_schemas(root: Any, prop: Any) -> list[tuple[Mapping[str, Any], Through]]:
    """The schemas a value of `prop` may be, each with the `items` schemas passed to reach it.

    Each variant of `prop` comes with, right after it, the variants of its `items` (an array of
    arrays: of theirs too), so an array of objects yields the object's schema after the array's. An
    `items` schema already passed on the way down is not entered again (`{"items": {"$ref": "#"}}`).
    """
    if type(prop) is dict and _WRAPPERS.isdisjoint(prop):
        return [(prop, ())]  # the usual case: a plain property
    found: list[tuple[Mapping[str, Any], Through]] = []
    stack: list[Iterator[tuple[Mapping[str, Any], Through]]] = [
        iter([(variant, ()) for variant in property_variants(root, prop)])
    ]
    while stack and len(found) < MAX_WALKED:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        found.append(entry)
        variant, through = entry
        items = variant.get("items")
        if items is not None and _is_mapping(items) and all(items is not passed for passed in through):
            deeper = (*through, items)
            stack.append(iter([(inner, deeper) for inner in property_variants(root, items)]))
    return found


def nested_objects(root: Any, prop: Any) -> list[tuple[Mapping[str, Any], Through]]:
    """The object schemas (with `properties`) a value of `prop` may be, in `value_schemas` order."""
    if type(prop) is dict and _NESTING.isdisjoint(prop):
        return []  # a plain property: no object anywhere in it
    return [(schema, through) for schema, through in value_schemas(root, prop) if _declares(schema)]


def _declares(schema: Mapping[str, Any]) -> bool:
    props = schema.get("properties")
    return props is not None and _is_mapping(props)


@dataclass(frozen=True, eq=False, repr=False)
class Walked:
    """One parameter met by `walk_schema`, top-level or nested."""

    name: str
    path: str  # JSON path from the tool: inputSchema.properties.a.items.properties.b
    schema: Mapping[str, Any]  # the property's schema as written
    owner: Mapping[str, Any]  # the object schema whose `properties` declares it (and whose `required`)
    through: Through  # the `items` schemas between the parent's value and `owner`, one per array level
    parent: Walked | None
    depth: int  # properties above it: 0 for a top-level parameter
    level: int  # `depth` plus the array levels above it
    # ids of the object schemas entered on the way down to it, `owner` included
    entered: frozenset[int] = field(repr=False, compare=False)


def walk_schema(
    root: Any,
    *,
    depth_first: bool = False,
    descend: Callable[[Walked], bool] | None = None,
    distinct: bool = False,
    first_object: bool = False,
) -> Iterator[Walked]:
    """Every parameter of the input schema `root`, nested ones included, at most `MAX_WALKED`.

    The nested parameters of a parameter are the properties of the objects its value may be
    (`nested_objects`: through `$ref`, branches and `items`), except objects entered on the way down.
    Breadth first by default (every top-level parameter first); `depth_first` puts each parameter's
    nested ones right after it. `descend` says whether to walk a parameter's nested ones at all;
    `distinct` walks a name once among the nested parameters of one parameter at one array level
    (the first branch that declares it wins, its subtree with it); `first_object` walks only the
    first object with properties a value may be, not every branch.
    """
    if not isinstance(root, Mapping):
        return
    walked = 0
    start = _fields([(root, ())], "inputSchema", None, frozenset(), distinct)
    pending: deque[Iterator[Walked]] = deque([start])
    while pending:
        fields = pending[-1] if depth_first else pending[0]
        item = next(fields, None)
        if item is None:
            if depth_first:
                pending.pop()
            else:
                pending.popleft()
            continue
        walked += 1
        if walked > MAX_WALKED:
            return
        yield item
        if _NESTING.isdisjoint(item.schema) or (descend is not None and not descend(item)):
            continue  # a plain property has nothing inside
        objects = nested_objects(root, item.schema)
        if first_object:
            objects = [entry for entry in objects if entry[0]["properties"]][:1]
        objects = [entry for entry in objects if id(entry[0]) not in item.entered]
        if objects:
            pending.append(_fields(objects, item.path, item, item.entered, distinct))


def _fields(
    objects: list[tuple[Mapping[str, Any], Through]],
    path: str,
    parent: Walked | None,
    entered: frozenset[int],
    distinct: bool,
) -> Iterator[Walked]:
    """The properties of `objects`, the objects a value of `parent` may be."""
    seen: set[tuple[int, str]] = set()
    depth = 0 if parent is None else parent.depth + 1
    for schema, through in objects:
        props = schema.get("properties")
        if not isinstance(props, Mapping):
            continue
        inside = entered | {id(schema)}
        where = f"{path}{'.items' * len(through)}.properties."
        level = 0 if parent is None else parent.level + 1 + len(through)
        for name, prop in props.items():
            if not _is_mapping(prop):
                continue
            if distinct:
                if (len(through), name) in seen:
                    continue
                seen.add((len(through), name))
            key = str(name)
            yield Walked(key, where + key, prop, schema, through, parent, depth, level, inside)


def walk_parameters(root: Any) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """(name, JSON path, schema) of every parameter of the input schema, breadth first."""
    for item in walk_schema(root):
        yield item.name, item.path, item.schema
