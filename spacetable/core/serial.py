"""JSON (de)serialisation of states and actions.

Actions are plain JSON objects (``dict``) everywhere, exactly as the rules docs write
them, so they need no codec. States are dataclasses; :func:`to_jsonable` and
:func:`from_jsonable` convert them using their type hints: nested dataclasses,
``list``/``tuple``/``set``/``frozenset``/``dict`` (non-string keys become strings and
are parsed back), ``Optional``/unions with ``None``, enums and primitives.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin

T = TypeVar("T")


def dumps(obj: Any) -> str:
    """Canonical JSON text: sorted keys, no spaces. Used for keys, hashing, files."""
    return json.dumps(to_jsonable(obj), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def action_key(action: Any) -> str:
    """A canonical string for an action; equal actions give equal keys."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def to_jsonable(obj: Any) -> Any:
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    if isinstance(obj, enum.Enum):
        return obj.value
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, dict):
        return {(k if isinstance(k, str) else json.dumps(to_jsonable(k))): to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (set, frozenset)):
        return sorted((to_jsonable(x) for x in obj), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(x) for x in obj]
    raise TypeError(f"cannot serialise {type(obj).__name__}")


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def from_jsonable(tp: Any, data: Any) -> Any:
    """Rebuild a value of type ``tp`` from JSON data produced by :func:`to_jsonable`."""
    if tp is Any or tp is object:
        return data
    origin = get_origin(tp)
    if origin is Union or origin is types.UnionType:
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1:
            return from_jsonable(non_none[0], data)
        for arg in non_none:  # first member that accepts the data
            try:
                return from_jsonable(arg, data)
            except (TypeError, ValueError, KeyError):
                continue
        raise TypeError(f"no member of {tp} accepts {data!r}")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if origin in (list, typing.List):  # noqa: UP006
        (arg,) = get_args(tp) or (Any,)
        return [from_jsonable(arg, x) for x in data]
    if origin in (set, frozenset):
        (arg,) = get_args(tp) or (Any,)
        return origin(from_jsonable(arg, x) for x in data)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], x) for x in data)
        if not args:
            return tuple(data)
        return tuple(from_jsonable(a, x) for a, x in zip(args, data, strict=True))
    if origin is dict:
        kt, vt = get_args(tp) or (str, Any)
        out = {}
        for k, v in data.items():
            key = k if kt in (str, Any) else from_jsonable(kt, json.loads(k))
            out[key] = from_jsonable(vt, v)
        return out
    if isinstance(tp, type):
        if dataclasses.is_dataclass(tp):
            hints = _hints(tp)
            kwargs = {}
            for f in dataclasses.fields(tp):
                if not f.init:
                    continue
                if f.name in data:
                    kwargs[f.name] = from_jsonable(hints[f.name], data[f.name])
            return tp(**kwargs)
        if issubclass(tp, enum.Enum):
            return tp(data)
        if tp is float and isinstance(data, int):
            return float(data)
        if tp in (int, str, bool, float):
            if not isinstance(data, tp) or (tp is int and isinstance(data, bool)):
                raise TypeError(f"expected {tp.__name__}, got {data!r}")
            return data
        if tp in (list, dict, tuple):
            return tp(data)
    if tp is None or tp is type(None):
        if data is not None:
            raise TypeError(f"expected null, got {data!r}")
        return None
    raise TypeError(f"cannot deserialise into {tp}")


def loads(tp: type[T], text: str) -> T:
    result: T = from_jsonable(tp, json.loads(text))
    return result
