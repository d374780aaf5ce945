"""Deep copies of game states: records (dataclasses) and plain data (lists, dicts, tuples, scalars).

A state is copied for every move a table applies and every line a play-out tries, so the copy is written once per
record class, from its field types, as Python source and compiled: a scalar field is shared, a list of scalars
copied with one C call, a list of records copied record by record; a frozen record holding only such shared values
is shared itself. A record's fields of nested plain data (lists of lists, dicts of dicts, fields typed `Any`) are
copied together in one marshal round trip, which walks them in C; a state is JSON data, so marshal's one change of
type (a bytearray comes back as bytes) never arises, and values marshal refuses (records, enums) are walked in Python
instead. Values of other shapes are copied by walking them, and what is neither plain data nor a record by
copy.deepcopy.
"""

from __future__ import annotations

import copy
import dataclasses
import marshal
import threading
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

import orjson

T = TypeVar("T")
Copier = Callable[[Any], Any]

_SCALARS = frozenset({str, int, float, bool, type(None), bytes})


def clone(value: T) -> T:
    """An independent deep copy of a state (a record or plain data); shared references inside become separate."""
    copied: T = copy_data(value)
    return copied


def to_text(value: Any) -> str:
    """Records, lists and dicts as JSON text (a record's fields in their order, keys as text, tuples as lists),
    written by orjson straight from the records; raises TypeError on any other kind of value."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def to_data(value: Any) -> Any:
    """to_text's JSON as data. orjson walks the records in C, many times as fast as walking them in Python
    (dataclasses.asdict also deep-copies every value it meets)."""
    return orjson.loads(to_text(value))


def copy_data(value: Any) -> Any:
    """An independent deep copy of any value, by its actual type."""
    kind: type = type(value)
    if kind in _SCALARS:
        return value
    if kind is list:
        return [item if type(item) in _SCALARS else copy_data(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _SCALARS else copy_data(item) for key, item in value.items()}
    if kind is tuple:
        return tuple(copy_data(item) for item in value)
    record = _record_copier(kind)
    return record(value) if record is not None else copy.deepcopy(value)


_COPIERS: dict[type, Copier | None] = {}  # record class -> its copy function (None: not a record copied here)
_COMPILING = threading.Lock()


def _record_copier(cls: type) -> Copier | None:
    """The copy function of a dataclass whose instances keep their fields in __dict__; None for any other class."""
    found = _COPIERS.get(cls, _COPIERS)
    if found is not _COPIERS:
        return found  # type: ignore[return-value]
    with _COMPILING:
        if cls not in _COPIERS:
            if _is_record(cls):
                _compile(cls, set())
            else:
                _COPIERS[cls] = None
    return _COPIERS[cls]


def _is_record(cls: Any) -> bool:
    """Whether a class is a dataclass whose instances keep their fields in __dict__."""
    return (isinstance(cls, type) and dataclasses.is_dataclass(cls) and "__slots__" not in cls.__dict__
            and hasattr(cls, "__dict__"))


def _compile(cls: type, compiling: set[type]) -> None:
    """Write the copy function of a record class as Python source and compile it (and those of the record classes
    its fields hold, which it calls through _COPIERS, so that classes may refer to each other): one statement per
    field that needs copying, each a comprehension of the field's declared shape that falls back to copy_data
    wherever the value has another shape; the fields of nested plain data all in one marshal round trip instead, with
    their statements run when marshal refuses one of their values."""
    compiling.add(cls)
    names: dict[str, Any] = {"copy_data": copy_data, "C": _COPIERS, "new": object.__new__, "cls": cls,
                             "loads": marshal.loads, "dumps": marshal.dumps}
    hints = typing.get_type_hints(cls)
    lines = ["def copy_record(record):", "    values = record.__dict__.copy()"]
    nested: list[str] = []
    each: list[str] = []
    for f in dataclasses.fields(cls):
        hint = hints.get(f.name, Any)
        expression = _copy_expression(hint, "value", 0, names, compiling)
        if expression is None:
            continue
        statement = [f"    value = values[{f.name!r}]", "    if value is not None:",
                     f"        values[{f.name!r}] = {expression}"]
        if _marshalled(hint):
            nested.append(f.name)
            each += ["    " + line for line in statement]
        else:
            lines += statement
    if nested:
        fields = ", ".join(f"values[{name!r}]" for name in nested)
        lines += ["    try:", f"        ({fields},) = loads(dumps(({fields},)))", "    except ValueError:", *each]
    frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    if len(lines) == 2 and frozen:
        _COPIERS[cls] = _shared  # frozen, holding only what is shared: the copy may be the record itself
        return
    names["set"] = object.__setattr__  # a frozen record refuses made.__dict__ = ...
    lines += ["    made = new(cls)", "    set(made, '__dict__', values)" if frozen else "    made.__dict__ = values",
              "    return made"]
    exec(compile("\n".join(lines), f"<copy {cls.__qualname__}>", "exec"), names)  # noqa: S102 - our own source
    _COPIERS[cls] = names["copy_record"]


def _copy_expression(hint: Any, var: str, depth: int, names: dict[str, Any], compiling: set[type]) -> str | None:
    """A Python expression copying the value named var, declared with this type; None when the value is immutable
    and is shared."""
    if hint in _SCALARS:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        options = [_copy_expression(a, var, depth, names, compiling) for a in args if a is not type(None)]
        if all(o is None for o in options):
            return None
        return f"(None if {var} is None else {options[0]})" if len(options) == 1 else f"copy_data({var})"
    if origin is typing.Literal:
        return None
    if origin is tuple and args and all(_copy_expression(a, var, depth, names, compiling) is None
                                        for a in args if a is not Ellipsis):
        return f"({var} if type({var}) is tuple else copy_data({var}))"
    item = f"x{depth}"
    if origin is list and len(args) == 1:
        inner = _copy_expression(args[0], item, depth + 1, names, compiling)
        copied = f"{var}.copy()" if inner is None else f"[{inner} for {item} in {var}]"
        return f"({copied} if type({var}) is list else copy_data({var}))"
    if origin is dict and len(args) == 2:
        inner = _copy_expression(args[1], item, depth + 1, names, compiling)
        copied = f"{var}.copy()" if inner is None else f"{{k{depth}: {inner} for k{depth}, {item} in {var}.items()}}"
        return f"({copied} if type({var}) is dict else copy_data({var}))"
    if _is_record(hint):
        if hint not in _COPIERS and hint not in compiling:
            _compile(hint, compiling)
        if _COPIERS.get(hint) is _shared:
            return f"({var} if type({var}) is {_name(hint, names)} else copy_data({var}))"
        name = _name(hint, names)
        return f"(C[{name}]({var}) if type({var}) is {name} else copy_data({var}))"
    return f"copy_data({var})"


def _marshalled(hint: Any) -> bool:
    """Whether a field of this declared type is copied in the record's one marshal round trip: it holds plain data
    only, nested or of any type (a single list or dict of scalars is copied faster on its own)."""
    return _plain(hint) and not _flat(hint)


def _plain(hint: Any) -> bool:
    """Whether a declared type holds plain data only (scalars, lists, dicts, tuples, Any), no records."""
    if hint in _SCALARS or hint is Any or hint is Ellipsis:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    plain = (list, dict, tuple, typing.Union, types.UnionType)
    return origin in plain and all(_plain(a) for a in typing.get_args(hint))


def _flat(hint: Any) -> bool:
    """Whether a declared type is one list or dict of scalars (or such a value or None)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return all(a in _SCALARS or _flat(a) for a in args)
    return origin in (list, dict) and all(a in _SCALARS for a in args)


def _name(cls: type, names: dict[str, Any]) -> str:
    """A name for a class in the namespace of a copy function's source."""
    name = f"T{len(names)}"
    names[name] = cls
    return name


def _shared(record: T) -> T:
    """The copy of a frozen record that holds only what is shared: the record itself."""
    return record
