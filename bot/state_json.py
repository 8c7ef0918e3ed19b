"""A frozen dataclass state to plain JSON and back, by its fields' type hints.

:class:`bot.ruleset.BaseEngine` stores a state with these (its default ``to_json`` and
``from_json``). :func:`encode` writes a dataclass as the object of its fields, tuples and lists as
lists, sets as sorted lists, and a value with its own ``to_json`` (an
:class:`bot.ruleset.Outcome`) by it; :func:`decode_fields` reads such an object back into the
class, checking each value against its field's hint (``int``, ``str | None``,
``tuple[str, ...]``, ``Mapping[str, int]``, a nested dataclass, a class with ``from_json``…) and
building new objects, so that the state shares nothing with the JSON it came from. A hint it
does not know (``Any``) takes the value as stored.

Pure: the standard library only.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import types
import typing
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any


class Malformed(Exception):
    """A stored value that does not fit its field's type: ``args[0]`` says where."""


def encode(value: Any) -> Any:
    """A state's value as plain JSON, in new objects: a value with its own ``to_json`` by it, a
    dataclass as the object of its fields, tuples as lists, sets as sorted lists."""
    if hasattr(value, "to_json"):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return sorted(encode(v) for v in value)
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


_CONTAINERS = (tuple, list, Sequence, set, frozenset, AbstractSet, dict, Mapping)


def _at(where: str, name: object) -> str:
    return f"{where}.{name}" if where else str(name)


def _decode(hint: Any, value: Any, where: str) -> Any:
    """``value`` (read from JSON) as the type ``hint`` names: checked, and rebuilt as a new
    object (tuples, sets, nested dataclasses). A type this does not know is kept as stored."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is None and hint in _CONTAINERS:
        origin = hint  # a bare ``tuple`` or ``Mapping``: of anything
    if origin in (typing.Union, types.UnionType):
        for option in args:
            try:
                return _decode(option, value, where)
            except Malformed:
                pass
        raise Malformed(where)
    if origin is typing.Literal:
        if any(value == a and type(value) is type(a) for a in args):
            return value
        raise Malformed(where)
    if origin in (tuple, list, Sequence, set, frozenset, AbstractSet):
        if not isinstance(value, list):
            raise Malformed(where)
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            if len(args) != len(value):
                raise Malformed(where)
            return tuple(
                _decode(a, v, _at(where, i))
                for i, (a, v) in enumerate(zip(args, value, strict=True))
            )
        items = [_decode(args[0] if args else Any, v, _at(where, i)) for i, v in enumerate(value)]
        kind = {tuple: tuple, set: set, frozenset: frozenset, AbstractSet: frozenset}
        return kind.get(origin, list)(items)
    if origin in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise Malformed(where)
        key_hint, value_hint = args or (str, Any)
        return {
            _decode_key(key_hint, k, where): _decode(value_hint, v, _at(where, k))
            for k, v in value.items()
        }
    if hint is Any or not isinstance(hint, type):
        return copy.deepcopy(value)  # Any, or a type this does not know: kept as stored
    if hasattr(hint, "from_json"):  # before the dataclasses: an Outcome is stored by its own
        try:
            return hint.from_json(value)
        except (TypeError, ValueError, KeyError, AttributeError):
            raise Malformed(where) from None
    if dataclasses.is_dataclass(hint):
        return decode_fields(hint, value, where)
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, hint) or (isinstance(value, bool) and hint is not bool):
        raise Malformed(where)
    return value


def _decode_key(hint: Any, key: str, where: str) -> Any:
    if hint is int:
        try:
            return int(key)
        except ValueError:
            raise Malformed(_at(where, key)) from None
    return _decode(hint, key, _at(where, key))


@functools.cache
def _field_hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def decode_fields(cls: type, obj: Any, where: str = "") -> Any:
    """An instance of the dataclass ``cls`` from the object of its fields (every field there,
    no other), or :class:`Malformed` naming the first field that does not fit (``where`` is
    the path to ``obj`` itself, for the message)."""
    if not isinstance(obj, Mapping):
        raise Malformed(where or "not an object")
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    odd = sorted(str(name) for name in set(obj) ^ names)
    if odd:
        raise Malformed(_at(where, odd[0]))
    hints = _field_hints(cls)
    values = {name: _decode(hints[name], obj[name], _at(where, name)) for name in names}
    try:
        return cls(**values)
    except (TypeError, ValueError):  # the class's own check (a RuleError is a ValueError)
        raise Malformed(where or cls.__name__) from None
