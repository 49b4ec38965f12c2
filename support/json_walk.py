"""Walking a JSON value (a game's view, a move, an API answer) the way the hidden-information
tests read it: every object in it, and every key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def objects_in(value: Any) -> Iterator[dict[str, Any]]:
    """Every dict anywhere in ``value``, ``value`` itself first when it is one."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from objects_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from objects_in(item)


def keys_in(value: Any) -> set[str]:
    """Every dict key anywhere in ``value``."""
    return {key for found in objects_in(value) for key in found}
