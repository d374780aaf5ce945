"""Deep copies of game states: records (dataclasses) and plain data (lists, dicts, tuples, scalars).

A state is copied for every move a table applies and every line a play-out tries, so the copy is worked out once
per record class from its field types: a scalar field is shared, a list of scalars copied with one C call, a list of
records copied record by record. Values of other shapes (sets, fields typed `Any` holding whatever) are copied by
walking them, and what is neither plain data nor a record by copy.deepcopy.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
Copier = Callable[[Any], Any]

_SCALARS = frozenset({str, int, float, bool, type(None), bytes})


def clone(value: T) -> T:
    """An independent deep copy of a state (a record or plain data); shared references inside become separate."""
    copied: T = copy_data(value)
    return copied


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


@functools.cache
def _record_copier(cls: type) -> Copier | None:
    """The copy function of a dataclass whose instances keep their fields in __dict__; None for any other class."""
    if not (dataclasses.is_dataclass(cls) and isinstance(cls, type)) or not hasattr(cls, "__dict__") \
            or "__slots__" in cls.__dict__:
        return None
    hints = typing.get_type_hints(cls)
    deep = tuple((f.name, copier) for f in dataclasses.fields(cls)
                 if (copier := _typed_copier(hints.get(f.name, Any))) is not None)
    new = object.__new__
    if not deep:
        def copy_flat(record: Any) -> Any:
            made = new(cls)
            made.__dict__ = record.__dict__.copy()
            return made

        return copy_flat

    def copy_record(record: Any) -> Any:
        made = new(cls)
        values = record.__dict__.copy()  # every field, scalars shared; the others replaced below
        for name, field_copier in deep:
            value = values[name]
            if value is not None:
                values[name] = field_copier(value)
        made.__dict__ = values
        return made

    return copy_record


def _typed_copier(hint: Any) -> Copier | None:
    """How to copy a value declared with this type (None: it is immutable, share it); falls back to copy_data
    whenever the value is not of the declared shape."""
    if hint in _SCALARS:
        return None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        copiers = [_typed_copier(a) for a in args if a is not type(None)]
        return copiers[0] if len(copiers) == 1 else (None if all(c is None for c in copiers) else copy_data)
    if origin is typing.Literal:
        return None
    if origin is list and len(args) == 1:
        return _list_copier(_typed_copier(args[0]))
    if origin is dict and len(args) == 2:
        return _dict_copier(_typed_copier(args[1]))
    if origin is tuple and args and all(_typed_copier(a) is None for a in args if a is not Ellipsis):
        return _exactly(tuple, lambda value: value)
    if isinstance(hint, type) and (record := _record_copier(hint)) is not None:
        return _exactly(hint, record)
    return copy_data


def _exactly(kind: type, copier: Copier) -> Copier:
    """copier for values of exactly this type, copy_data for any other (a subclass, or a value of another shape)."""
    return lambda value: copier(value) if type(value) is kind else copy_data(value)


def _list_copier(item: Copier | None) -> Copier:
    """Copy a list whose items are copied by item (None: shared)."""
    if item is None:
        return _exactly(list, list.copy)
    return _exactly(list, lambda value: [None if x is None else item(x) for x in value])


def _dict_copier(item: Copier | None) -> Copier:
    """Copy a dict whose values are copied by item (None: shared); keys are hashable, so shared."""
    if item is None:
        return _exactly(dict, dict.copy)
    return _exactly(dict, lambda value: {k: None if v is None else item(v) for k, v in value.items()})
