"""Classes of named fields: palace's own small `dataclasses`, for every module of the package.

`dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`): about a fifth of what a short palace
process (a save, a hook, a search) costs over a bare `python -c pass`. `record` builds the same methods
without it, for what palace uses: fields with a default or a default factory (`field`), `repr=False`,
`eq=False`, `frozen=True`, `slots=True`, `__post_init__`; `replace`, `fields` and `asdict` work on the
classes it makes. Type checkers read it as a dataclass (`typing.dataclass_transform`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")
C = TypeVar("C", bound=type)


class FrozenError(AttributeError):
    """A field of a frozen record was assigned or deleted."""


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class Field:
    """One field of a record: its name, its default (or default factory), and whether repr shows it."""

    __slots__ = ("default", "default_factory", "name", "repr")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("a field takes a default or a default factory, not both")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr

    def __repr__(self) -> str:
        return f"Field({self.name!r})"


@overload
def field(*, default: T, repr: bool = True) -> T: ...
@overload
def field(*, default_factory: Callable[[], T], repr: bool = True) -> T: ...
@overload
def field(*, repr: bool = True) -> Any: ...
def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True) -> Any:
    """A field's options, as the class body's value of the field."""
    return Field(default, default_factory, repr)


@overload
def record(cls: C, /) -> C: ...
@overload
def record(*, eq: bool = True, frozen: bool = False, slots: bool = False) -> Callable[[C], C]: ...
@dataclass_transform(field_specifiers=(field, Field))
def record(cls: Any = None, /, *, eq: bool = True, frozen: bool = False, slots: bool = False) -> Any:
    """Give the class an __init__ of its annotated fields, a __repr__, and __eq__ (and __hash__ when frozen)."""

    def wrap(cls: type) -> type:
        return _build(cls, eq=eq, frozen=frozen, slots=slots)

    return wrap if cls is None else wrap(cls)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order."""
    try:
        found: tuple[Field, ...] = obj.__record_fields__
    except AttributeError:
        raise TypeError(f"{obj!r} is not a record") from None
    return found


def replace(obj: T, /, **changes: Any) -> T:
    """A copy of the record with these fields changed."""
    values = {f.name: getattr(obj, f.name) for f in fields(obj)}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(obj)(**values)


def asdict(obj: Any) -> dict[str, Any]:
    """The record as a dict, records inside it (and in its lists, tuples and dicts) as dicts too."""
    return {f.name: _plain(getattr(obj, f.name)) for f in fields(obj)}


def _plain(value: Any) -> Any:
    if hasattr(type(value), "__record_fields__"):
        return asdict(value)
    if isinstance(value, list | tuple):
        return type(value)(_plain(v) for v in value)
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


# --------------------------------------------------------------------------- building the class


def _collect(cls: type) -> list[Field]:
    """The fields of the bases' records, then the class's own annotated names (ClassVar ones are not fields)."""
    found: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        for inherited in base.__dict__.get("__record_fields__", ()):
            found[inherited.name] = inherited
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():  # noqa: RUF063 (inspect: the cost this module saves)
        if str(annotation).startswith(("ClassVar", "typing.ClassVar")):
            continue
        value = cls.__dict__.get(name, MISSING)
        spec = value if isinstance(value, Field) else Field(default=value)
        if isinstance(spec.default, list | dict | set):
            raise ValueError(f"{cls.__name__}.{name}: a mutable default is shared; use default_factory")
        spec.name = name
        found[name] = spec
    return list(found.values())


def _init_source(cls: type, specs: list[Field], frozen: bool) -> tuple[str, dict[str, Any]]:
    """The __init__'s source and the names it refers to."""
    scope: dict[str, Any] = {"MISSING": MISSING, "_set": object.__setattr__}
    params, body, seen_default = ["self"], [], False
    for spec in specs:
        name = spec.name
        if spec.default is not MISSING:
            scope[f"_d_{name}"] = spec.default
            params.append(f"{name}=_d_{name}")
            value = name
        elif spec.default_factory is not MISSING:
            scope[f"_f_{name}"] = spec.default_factory
            params.append(f"{name}=MISSING")
            value = f"_f_{name}() if {name} is MISSING else {name}"
        else:
            if seen_default:
                raise TypeError(f"{cls.__name__}: field {name!r} without a default follows one with a default")
            params.append(name)
            value = name
        seen_default = seen_default or spec.default is not MISSING or spec.default_factory is not MISSING
        body.append(f"    _set(self, {name!r}, {value})" if frozen else f"    self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__({', '.join(params)}) -> None:\n" + ("\n".join(body) or "    pass") + "\n"
    return source, scope


def _make_init(cls: type, specs: list[Field], frozen: bool) -> Callable[..., None]:
    """An __init__ that compiles the real one when the class is first instantiated (then is replaced by it):
    compiling costs a tenth of a millisecond a class, and a short process uses few of the classes it imports."""
    source, scope = _init_source(cls, specs, frozen)  # now: a field out of order is an error at import

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        exec(source, scope)  # one function per class, as `dataclasses` does: plain attribute stores, no loop
        init: Callable[..., None] = scope["__init__"]
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        if cls.__dict__.get("__init__") is __init__:
            setattr(cls, "__init__", init)  # noqa: B010 (mypy: assigning to a method)
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _values_of(names: tuple[str, ...]) -> Callable[[Any], Any]:
    if not names:
        return lambda _obj: ()
    getter = operator.attrgetter(*names)
    return getter if len(names) > 1 else lambda obj: (getter(obj),)


def _methods(cls: type, specs: list[Field], *, eq: bool, frozen: bool) -> dict[str, Any]:
    """The methods the record gets (one the class body defines itself is kept)."""
    names = tuple(spec.name for spec in specs)
    shown = tuple(spec.name for spec in specs if spec.repr)
    values = _values_of(names)

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{type(self).__qualname__}({inner})"

    methods: dict[str, Any] = {"__init__": _make_init(cls, specs, frozen), "__repr__": __repr__}
    if eq:

        def __eq__(self: Any, other: Any) -> Any:
            if other.__class__ is not self.__class__:
                return NotImplemented
            return values(self) == values(other)

        methods["__eq__"] = __eq__
    if frozen:
        fixed = frozenset(names)

        def __setattr__(self: Any, name: str, value: Any) -> None:
            if type(self) is cls or name in fixed:
                raise FrozenError(f"cannot assign to field {name!r}")
            object.__setattr__(self, name, value)

        def __delattr__(self: Any, name: str) -> None:
            if type(self) is cls or name in fixed:
                raise FrozenError(f"cannot delete field {name!r}")
            object.__delattr__(self, name)

        methods["__setattr__"], methods["__delattr__"] = __setattr__, __delattr__
    own = cls.__dict__
    methods = {key: value for key, value in methods.items() if key not in own}
    # A body that defines __eq__ gets __hash__ = None from Python itself: that is no hash of its own.
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if eq and not explicit_hash:  # equal by value: hashed by value when frozen, else not hashable
        methods["__hash__"] = (lambda self: hash(values(self))) if frozen else None
    return methods


def _build(cls: type, *, eq: bool, frozen: bool, slots: bool) -> type:
    specs = _collect(cls)
    for spec in specs:  # defaults live in __init__; a class attribute stays only for a plain default
        if spec.name in cls.__dict__:
            if slots or spec.default is MISSING:
                delattr(cls, spec.name)  # a slot cannot have a class attribute of its name
            else:
                setattr(cls, spec.name, spec.default)
    if slots:
        inherited = {name for base in cls.__mro__[1:] for name in base.__dict__.get("__slots__", ())}
        namespace = {k: v for k, v in cls.__dict__.items() if k not in ("__dict__", "__weakref__")}
        namespace["__slots__"] = tuple(spec.name for spec in specs if spec.name not in inherited)
        cls = type(cls)(cls.__name__, cls.__bases__, namespace)
    for key, value in _methods(cls, specs, eq=eq, frozen=frozen).items():
        setattr(cls, key, value)
    cls.__record_fields__ = tuple(specs)  # type: ignore[attr-defined]
    cls.__match_args__ = tuple(spec.name for spec in specs)  # type: ignore[attr-defined,misc]
    return cls
