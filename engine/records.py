"""Deep copies of game states, records (dataclasses) and plain data (lists, dicts, tuples, scalars), and their JSON.

A copy walks the value by its actual type: scalars are shared, lists, dicts and tuples are copied item by item, a
dataclass field by field (its field names looked up once per class), and anything else by copy.deepcopy. What cannot
change is shared rather than copied: a tuple whose items all come back as themselves, and a frozen record whose
fields are all declared scalars (Keyper's keyples and plots), are the same objects in the copy.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from functools import cache
from typing import Any, TypeVar

import orjson

T = TypeVar("T")

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
    """to_text's JSON as data (orjson reads the records' fields itself; dataclasses.asdict would deep-copy every
    value it meets on the way)."""
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
        items = tuple(copy_data(item) for item in value)
        return value if all(new is old for new, old in zip(items, value, strict=True)) else items
    layout = _layout(kind)
    if layout is None:
        return copy.deepcopy(value)
    names, shared = layout
    return value if shared else _copy_record(value, names)


@cache
def _layout(cls: type) -> tuple[tuple[str, ...], bool] | None:
    """A dataclass's field names, and whether copies share its instances (frozen, every field declared a scalar:
    nothing in one can change); None for a class that is no dataclass."""
    if not dataclasses.is_dataclass(cls):
        return None
    names = tuple(f.name for f in dataclasses.fields(cls))
    hints = typing.get_type_hints(cls)
    frozen: bool = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    return names, frozen and all(_scalar(hints[name]) for name in names)


def _scalar(hint: Any) -> bool:
    """Whether a declared type admits scalars only (str, int, None, a union or Literal of such)."""
    if hint in _SCALARS:
        return True
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        return True
    return origin in (typing.Union, types.UnionType) and all(_scalar(arg) for arg in typing.get_args(hint))


def _copy_record(record: T, names: tuple[str, ...]) -> T:
    """A copy of a dataclass instance with each field copied, made without calling its __init__."""
    copied: T = object.__new__(type(record))
    for name in names:
        value = getattr(record, name)
        object.__setattr__(copied, name, value if type(value) in _SCALARS else copy_data(value))  # frozen too
    return copied
