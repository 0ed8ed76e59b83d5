"""palace.record: the small dataclasses every palace module uses, and what it saves a short process."""

from __future__ import annotations

import subprocess
import sys
from typing import Generic, TypeVar

import pytest

from palace.record import FrozenError, asdict, field, fields, record, replace

T = TypeVar("T")


@record(frozen=True)
class Point:
    """A frozen record with a plain default and a default factory."""

    x: int
    label: str = "origin"
    tags: tuple[str, ...] = field(default_factory=tuple)


@record(slots=True)
class Line:
    """A record with slots."""

    start: int
    end: int | None = None

    def length(self) -> int:
        return (self.end or self.start) - self.start


@record(eq=False)
class Buffer:
    """Compared by identity; a hidden field; __post_init__ runs after the fields are set."""

    lines: list[str]
    cache: dict[str, int] = field(default_factory=dict, repr=False)
    limit: int = field(default=10, repr=False)

    def __post_init__(self) -> None:
        self.size = len(self.lines)


@record
class Box(Generic[T]):
    """A generic record."""

    item: T
    extra: list[Point] = field(default_factory=list)


def test_fields_take_their_defaults_and_each_instance_gets_its_own_factory_value() -> None:
    first, second = Box(1), Box(2)
    first.extra.append(Point(3))
    assert second.extra == [] and Point(1).label == "origin" and Point(1, "a", ("t",)).tags == ("t",)
    assert Point(x=4, label="b") == Point(4, "b")
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        Point()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
        Point(1, y=2)  # type: ignore[call-arg]


def test_repr_shows_the_fields_but_hidden_ones() -> None:
    assert repr(Point(1)) == "Point(x=1, label='origin', tags=())"
    assert repr(Buffer(["a"])) == "Buffer(lines=['a'])"
    assert repr(Box(Line(1, 2))) == "Box(item=Line(start=1, end=2), extra=[])"


def test_equality_and_hashing_follow_the_fields() -> None:
    assert Point(1) == Point(1) and Point(1) != Point(2) and Point(1) != (1, "origin", ())
    assert hash(Point(1, "a")) == hash(Point(1, "a")) and len({Point(1), Point(1), Point(2)}) == 2
    assert Line(1, 2) == Line(1, 2)
    with pytest.raises(TypeError, match="unhashable"):
        hash(Line(1, 2))  # equal by value and mutable: not hashable
    same = Buffer(["a"])
    assert same == same and Buffer(["a"]) != Buffer(["a"]) and len({same, Buffer(["a"])}) == 2


def test_a_frozen_record_refuses_changes() -> None:
    point = Point(1)
    with pytest.raises(FrozenError, match="'x'"):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(AttributeError):  # FrozenError is an AttributeError, as dataclasses' is
        del point.label  # type: ignore[misc]
    assert point.x == 1


def test_slots_leave_no_instance_dict_and_keep_the_methods() -> None:
    line = Line(2, 5)
    assert Line.__slots__ == ("start", "end") and not hasattr(line, "__dict__") and line.length() == 3
    with pytest.raises(AttributeError):
        line.other = 1  # type: ignore[attr-defined]
    line.end = 9
    assert line.length() == 7


def test_post_init_runs_and_class_defaults_stay_readable() -> None:
    assert Buffer(["a", "b"]).size == 2 and Buffer.limit == 10 and Buffer(["a"], limit=3).limit == 3


def test_replace_fields_and_asdict() -> None:
    point = Point(1, "a")
    moved = replace(point, x=5)
    assert moved == Point(5, "a") and point.x == 1
    with pytest.raises(TypeError, match="no field 'z'"):
        replace(point, z=1)
    assert [f.name for f in fields(Point)] == ["x", "label", "tags"] and fields(point) == fields(Point)
    assert asdict(Box(1, [Point(2)])) == {"item": 1, "extra": [{"x": 2, "label": "origin", "tags": ()}]}
    with pytest.raises(TypeError, match="not a record"):
        fields(object())


def test_match_statements_see_the_fields_in_order() -> None:
    match Line(1, 4):
        case Line(start, end):
            assert (start, end) == (1, 4)
        case _:
            pytest.fail("Line did not match its own fields")


def test_a_field_without_a_default_after_one_with_a_default_is_an_error_at_class_creation() -> None:
    with pytest.raises(TypeError, match="'b' without a default follows one with a default"):

        @record
        class Bad:
            """Out of order."""

            a: int = 1
            b: int  # type: ignore[misc]


def test_a_mutable_default_is_refused() -> None:
    with pytest.raises(ValueError, match="mutable default"):

        @record
        class Shared:
            """A list shared by every instance."""

            items: list[int] = []  # noqa: RUF012


def test_short_commands_import_neither_dataclasses_nor_inspect() -> None:
    """What a save, a search, a hook and the CLI import: `dataclasses` would bring `inspect`, ast, dis and tokenize."""
    code = (
        "import sys\n"
        "import palace.ui.cli, palace.app, palace.memory.store, palace.memory.ops, palace.history.autocommit\n"
        "import palace.history.undo, palace.memory.render, palace.config, palace.ui.cli_sessions\n"
        "import palace.recall.rank, palace.recall.format, palace.recall.query, palace.recall.index\n"
        "print(sorted(m for m in ('dataclasses', 'inspect', 'ast', 'dis', 'tokenize') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_records_survive_pickle_and_copy() -> None:
    """Worker processes and caches copy records: frozen ones, slotted ones and plain ones come back equal."""
    import copy
    import pickle

    for value in (Point(1, "a", ("t",)), Line(1, 3), Box(2, [Point(5)])):
        assert pickle.loads(pickle.dumps(value)) == value and copy.deepcopy(value) == value
