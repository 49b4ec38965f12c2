"""Reading JSON the server was sent (a body, a query parameter, a form field) with a bound
on how deep it nests: a move, a pick or an option list is a few levels deep, and a
document nested a thousand deep would exhaust the stack of whatever walks it next."""

from __future__ import annotations

import json
from typing import Any

#: Deeper than any move, pick or option a game takes, far below Python's recursion limit.
MAX_DEPTH = 32


class TooDeep(ValueError):
    """JSON nested deeper than ``MAX_DEPTH``: read as unreadable, never as a fault."""

    def __init__(self) -> None:
        super().__init__(f"JSON nested more than {MAX_DEPTH} deep")


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


def loads(text: str | bytes) -> Any:
    """``json.loads``, refusing (``TooDeep``, a ``ValueError``) what nests deeper than
    ``MAX_DEPTH`` before any of it is parsed."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    if depth(text) > MAX_DEPTH:
        raise TooDeep
    return json.loads(text)
