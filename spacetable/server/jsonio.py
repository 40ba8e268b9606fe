"""Strict JSON reading for request bodies and WebSocket messages (SRV-E2), and the compact writing of what the
server sends (:func:`dumps`).

The standard library accepts what no client should send and what breaks later code: ``NaN`` and
``Infinity``, numbers that overflow to infinity (``1e999``), lone surrogates (``"\\ud800"``),
and nesting deep enough to exhaust the interpreter's recursion. :func:`loads` refuses all of them
with a :class:`BadJson` whose message says what is wrong without echoing the input.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

#: The deepest nesting of objects and arrays accepted in a body or message.
MAX_DEPTH = 32


_fallback = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dumps(value: Any) -> str:
    """Compact JSON text of a message the server sends: orjson (about six times the standard encoder on a match
    event; the same text for the server's values), the standard encoder for what orjson refuses (an integer
    beyond 64 bits). orjson's plain mode first: its mode for non-string keys (a view's dict keyed by seat numbers)
    takes nearly twice as long on a match event, and the games' views and legal lists have none."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        pass
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return _fallback.encode(value)


class BadJson(ValueError):
    """The text is not acceptable JSON; the message is safe to show to the client."""


def _no_constant(name: str) -> Any:
    raise BadJson(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise BadJson("numbers must be finite")
    return value


_decoder = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)

#: nineteen digits in a row: the text may hold an integer beyond 64 bits, which orjson reads as a float (losing its
#: exact value) where the standard decoder keeps it an ``int``
_LONG_DIGITS = re.compile(r"[0-9]{19}")
_LONG_DIGITS_BYTES = re.compile(rb"[0-9]{19}")


def _shape(value: Any, max_depth: int) -> tuple[bool, bool]:
    """Of a value orjson read: whether its nesting is within ``max_depth`` (as :func:`check` counts it), and whether
    it holds a float. Only containers are walked: orjson's strings are valid Unicode."""
    if type(value) is not dict and type(value) is not list:
        return True, type(value) is float
    stack: list[tuple[Any, int]] = [(value, 0)]
    floats = False
    while stack:
        item, depth = stack.pop()
        if depth >= max_depth:
            return False, floats
        for x in item.values() if type(item) is dict else item:
            kind = type(x)
            if kind is dict or kind is list:
                stack.append((x, depth + 1))
            elif kind is float:
                floats = True
    return True, floats


def loads(data: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """Parse ``data`` (UTF-8 bytes or text) strictly; raise :class:`BadJson` on anything unacceptable.

    orjson reads first (a move's message, checked, in about a third of the standard decoder's time): it refuses
    everything this function refuses (``NaN``, infinities and numbers that overflow to them, lone surrogates, invalid
    UTF-8) and reads everything else as the standard decoder does, except integers beyond 64 bits, which it reads
    as floats. So a text orjson refuses, or whose value holds a float and whose text has nineteen digits in a row, is
    read again by the standard decoder, whose value or error message is the answer: values and messages are the
    standard decoder's in every case."""
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        pass  # the standard decoder says what is wrong
    else:
        within, floats = _shape(value, max_depth)
        if not within:
            raise BadJson(f"JSON nested more than {max_depth} levels deep")
        if not floats or not (_LONG_DIGITS.search(data) if isinstance(data, str) else
                              _LONG_DIGITS_BYTES.search(bytes(data))):
            return value
    return standard_loads(data, max_depth)


def standard_loads(data: bytes | str, max_depth: int = MAX_DEPTH) -> Any:
    """:func:`loads` with the standard decoder alone: the reference that :func:`loads` answers as."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise BadJson("the body is not UTF-8 text") from None
    else:
        text = data
    try:
        value = _decoder.decode(text)
    except BadJson:
        raise
    except RecursionError:
        raise BadJson(f"JSON nested more than {max_depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise BadJson(f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except ValueError:  # e.g. an integer longer than the interpreter converts
        raise BadJson("a number is out of range") from None
    check(value, max_depth)
    return value


def check(value: Any, max_depth: int = MAX_DEPTH) -> None:
    """Walk ``value`` without recursion: bounded depth, text that encodes as UTF-8 (no lone surrogates)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            _text(item)
        elif isinstance(item, dict):
            if depth >= max_depth:
                raise BadJson(f"JSON nested more than {max_depth} levels deep")
            for k, v in item.items():
                _text(k)
                stack.append((v, depth + 1))
        elif isinstance(item, list):
            if depth >= max_depth:
                raise BadJson(f"JSON nested more than {max_depth} levels deep")
            stack.extend((v, depth + 1) for v in item)


def _text(s: str) -> None:
    if not s.isascii():
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            raise BadJson("text must be valid Unicode (no lone surrogates)") from None
