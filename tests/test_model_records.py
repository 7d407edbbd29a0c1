"""mcp_lint's frozen records (mcp_lint.model's public ones and the others `value_record` serves) compare,
hash and print exactly as `@dataclass(frozen=True)` makes them do: `value_record` gives them those
methods from shared code instead of text compiled per class."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from typing import Any

import pytest

from mcp_lint import model

RECORDS = [
    item
    for _, item in inspect.getmembers(model, inspect.isclass)
    if dataclasses.is_dataclass(item) and item.__module__ == model.__name__
]
# The other modules whose frozen records are value records.
USERS = (
    "mcp_lint.check.functions",
    "mcp_lint.check.functions.schema._prose",
    "mcp_lint.check.rules",
    "mcp_lint.config",
    "mcp_lint.fix.compose",
    "mcp_lint.fix.grounding",
    "mcp_lint.fix.mechanical",
    "mcp_lint.overrides",
    "mcp_lint.reach.client_config",
    "mcp_lint.reach.resolve",
    "mcp_lint.reach.targets",
    "mcp_lint.reflect",
    "mcp_lint.reflect.live",
    "mcp_lint.report",
    "mcp_lint.suppressions",
    "mcp_lint.traces",
)
OTHERS = [
    item
    for name in USERS
    for _, item in inspect.getmembers(importlib.import_module(name), inspect.isclass)
    if item.__module__ == name
    and "__eq__" in item.__dict__
    and item.__dict__["__eq__"].__code__.co_filename == model.__file__
]


def _reference(cls: type) -> type:
    """The same fields (defaults, compare, hash and repr flags) in a class `@dataclass(frozen=True)`
    makes, with the methods dataclasses generates."""
    specs: list[Any] = []
    for item in dataclasses.fields(cls):
        options: dict[str, Any] = {"compare": item.compare, "hash": item.hash, "repr": item.repr}
        if item.default is not dataclasses.MISSING:
            options["default"] = item.default
        if item.default_factory is not dataclasses.MISSING:
            options["default_factory"] = item.default_factory
        specs.append((item.name, Any, dataclasses.field(**options)))
    made = dataclasses.make_dataclass(cls.__name__, specs, frozen=True)
    made.__qualname__ = cls.__qualname__
    return made


def _values(cls: type, variant: int) -> dict[str, Any]:
    # Hashable values of every kind a record holds; `variant` changes some of them.
    kinds: list[Any] = ["text", 3, 2.5, None, ("a", 1), True, frozenset({"x"})]
    return {
        item.name: kinds[(position + variant * (position % 3 == 0)) % len(kinds)]
        for position, item in enumerate(dataclasses.fields(cls))
    }


def test_every_public_record_is_a_value_record() -> None:
    assert len(RECORDS) >= 20 and len(OTHERS) >= 26
    for cls in (*RECORDS, *OTHERS):
        assert cls.__eq__.__qualname__ == f"{cls.__qualname__}.__eq__", cls
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", [*RECORDS, *OTHERS], ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_equality_hash_and_repr_are_the_generated_ones(cls: type) -> None:
    reference = _reference(cls)
    made = [cls(**_values(cls, variant)) for variant in range(4)]
    expected = [reference(**_values(cls, variant)) for variant in range(4)]
    for one, ref_one in zip(made, expected, strict=True):
        assert repr(one) == repr(ref_one)
        assert hash(one) == hash(ref_one)
        for other, ref_other in zip(made, expected, strict=True):
            assert (one == other) == (ref_one == ref_other)
            assert (one != other) == (ref_one != ref_other)
        assert one.__eq__(ref_one) is NotImplemented  # another class is never equal
        assert one != object()
        with pytest.raises(dataclasses.FrozenInstanceError):
            one.__setattr__(dataclasses.fields(cls)[0].name, "changed")
        copy = dataclasses.replace(one)
        assert copy == one and copy is not one and hash(copy) == hash(one)


def test_a_field_left_out_of_compare_and_repr_stays_out() -> None:
    # RunResult.relint: compare=False, repr=False
    first = model.RunResult(servers=(), relint=lambda snapshot: ())
    second = model.RunResult(servers=())
    assert first == second and hash(first) == hash(second)
    assert "relint" not in repr(first)
    assert repr(first) == repr(_reference(model.RunResult)(servers=(), relint=None))


def test_a_record_inside_its_own_repr_is_shown_as_an_ellipsis() -> None:
    holder: dict[str, Any] = {}
    loop = model.Observation(**{item.name: holder for item in dataclasses.fields(model.Observation)})
    holder["self"] = loop
    reference = _reference(model.Observation)
    ref_holder: dict[str, Any] = {}
    ref_loop = reference(**{item.name: ref_holder for item in dataclasses.fields(reference)})
    ref_holder["self"] = ref_loop
    assert repr(loop) == repr(ref_loop)
    assert "..." in repr(loop)


def test_value_record_refuses_a_class_that_already_has_the_methods() -> None:
    @dataclasses.dataclass(frozen=True)
    class Full:
        name: str

    with pytest.raises(TypeError):
        model.value_record(Full)


def _changes(cls: type) -> dict[str, Any]:
    # A new value for every other field.
    fields = dataclasses.fields(cls)
    return {item.name: ("changed", position) for position, item in enumerate(fields) if position % 2}


@pytest.mark.parametrize("cls", [*RECORDS, *OTHERS], ids=lambda cls: f"{cls.__module__}.{cls.__name__}")
def test_replaced_makes_what_dataclasses_replace_makes(cls: type) -> None:
    one = cls(**_values(cls, 1))
    for changes in ({}, _changes(cls)):
        expected = dataclasses.replace(one, **changes)
        made = model.replaced(one, **changes)
        assert type(made) is cls and made is not one
        assert vars(made) == vars(expected) and list(vars(made)) == list(vars(expected))
        assert made == expected and hash(made) == hash(expected) and repr(made) == repr(expected)
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.__setattr__(dataclasses.fields(cls)[0].name, "changed")
    assert vars(one) == vars(cls(**_values(cls, 1)))  # the original is untouched


def test_replaced_is_replace_for_what_a_copy_cannot_make() -> None:
    tool = model.Tool("t", {"name": "t", "description": "Old text."})
    assert tool.description == "Old text."  # cached in the instance now
    fresh = model.replaced(tool, raw={"name": "t", "description": "New text."})
    assert fresh.description == "New text."  # the cache was not carried over
    finding = model.Finding("MCP101", "rule", model.Severity.LOW, "message", "server")
    with pytest.raises(TypeError):
        model.replaced(finding, colour="red")

    @model.value_record
    @dataclasses.dataclass(frozen=True, eq=False, repr=False)
    class Checked:
        value: int
        double: int = dataclasses.field(init=False, default=0)

        def __post_init__(self) -> None:
            object.__setattr__(self, "double", self.value * 2)

    assert model.replaced(Checked(2), value=5).double == 10
    with pytest.raises(ValueError):
        model.replaced(Checked(2), double=3)


def test_findings_written_init_is_the_generated_one() -> None:
    reference = _reference(model.Finding)
    ours = inspect.signature(model.Finding).parameters
    theirs = inspect.signature(reference).parameters
    assert [(p.name, p.kind, p.default) for p in ours.values()] == [
        (p.name, p.kind, p.default) for p in theirs.values()
    ]
    assert model.Finding in model._COPIED  # replaced() copies findings, not through replace()
    names = [item.name for item in dataclasses.fields(model.Finding)]
    for variant in range(4):
        values = _values(model.Finding, variant)
        positional = [values[name] for name in names]
        for count in (5, 9, len(names)):
            made = model.Finding(*positional[:count], **{name: values[name] for name in names[count:]})
            assert vars(made) == vars(reference(**values))
        assert vars(model.Finding(*positional[:5])) == vars(reference(*positional[:5]))
    with pytest.raises(TypeError):
        model.Finding("MCP101", "rule")  # type: ignore[call-arg]


def test_severity_label_is_its_name_in_lower_case() -> None:
    assert [level.label for level in model.Severity] == [level.name.lower() for level in model.Severity]
    assert model.Severity.parse(model.Severity.HIGH.label) is model.Severity.HIGH


def test_hits_written_init_is_the_generated_one() -> None:
    from mcp_lint.check.functions import Hit

    reference = _reference(Hit)
    ours = inspect.signature(Hit).parameters
    theirs = inspect.signature(reference).parameters
    assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()]
    names = [item.name for item in dataclasses.fields(Hit)]
    for variant in range(4):
        values = _values(Hit, variant)
        positional = [values[name] for name in names]
        for count in range(1, len(names) + 1):
            made = Hit(*positional[:count], **{name: values[name] for name in names[count:]})
            assert vars(made) == vars(reference(**values))
            assert vars(Hit(*positional[:count])) == vars(reference(*positional[:count]))
    # `fields` left out: a new dict each time, as default_factory=dict makes; given (None too), kept
    first, second = Hit("t"), Hit("t")
    assert vars(first) == vars(reference("t")) and first.fields == {}
    assert first.fields is not second.fields and type(first.fields) is dict
    given = {"a": 1}
    assert Hit("t", given).fields is given and Hit("t", None).fields is reference("t", None).fields  # type: ignore[arg-type]
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.tool = "u"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Hit()  # type: ignore[call-arg]
