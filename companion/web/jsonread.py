"""Reading JSON the server was sent (a body, a query parameter, a form field) with a bound
on how deep it nests: a move, a pick or an option list is a few levels deep, and a
document nested a thousand deep would exhaust the stack of whatever walks it next. A text
holding half of a surrogate pair (``"\\ud800"``) is refused too: it is no character, and
no encoding writes it (SQLite's, a page's, a log's)."""

from __future__ import annotations

import json
from typing import Any

#: Deeper than any move, pick or option a game takes, far below Python's recursion limit.
MAX_DEPTH = 32


class Unreadable(ValueError):
    """JSON that parses but is refused, with the reason a refusal gives."""


class TooDeep(Unreadable):
    """JSON nested deeper than ``MAX_DEPTH``: read as unreadable, never as a fault."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested more than {MAX_DEPTH} deep")


class LoneSurrogate(Unreadable):
    """A text holding a surrogate without its pair."""

    def __init__(self) -> None:
        super().__init__("a JSON text holds a lone surrogate (\\ud800 to \\udfff)")


def depth(text: str) -> int:
    """How deep ``text``'s arrays and objects nest, counted without parsing (brackets
    inside strings do not count)."""
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def _encodable(value: Any) -> bool:
    """Whether every text in the parsed ``value`` (its keys too) is whole characters."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_encodable(key) and _encodable(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_encodable(item) for item in value)
    return True


def loads(text: str | bytes) -> Any:
    """``json.loads``, refusing (``Unreadable``, a ``ValueError``) what nests deeper than
    ``MAX_DEPTH`` before any of it is parsed, and a text holding a lone surrogate."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if depth(text) > MAX_DEPTH:
        raise TooDeep
    value = json.loads(text)
    if not _encodable(value):
        raise LoneSurrogate
    return value
