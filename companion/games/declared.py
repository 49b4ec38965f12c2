"""Moves checked against the kinds a game declares in its ``types`` module.

Each game's ``types.Move`` is a union of TypedDicts, one per kind of move, told apart by a
``type`` field typed as a ``Literal``. A move is well formed when it is an object of one of
those kinds: exactly the kind's required keys plus any of its optional ones, each value of
its declared type. Whether the values make sense in the game (a card that exists, a colour
in play) is the game's own check, made after this one.

A whole number is never a bool here, though Python counts ``True`` as ``1``.
"""

from __future__ import annotations

import types
import typing
from functools import cache
from typing import Any, Literal, get_args, get_origin, is_typeddict

from companion.games.base import IllegalMove, is_int


def kinds(declared: Any) -> tuple[Any, ...]:
    """The TypedDicts of a ``Move`` union (or the one TypedDict itself)."""
    if get_origin(declared) in (types.UnionType, typing.Union):
        return get_args(declared)
    return (declared,)


@cache
def kinds_by_type(declared: Any) -> dict[str, Any]:
    """Each value of the ``type`` field, and the kind of move that carries it."""
    found: dict[str, Any] = {}
    for kind in kinds(declared):
        for value in get_args(hints(kind)["type"]):
            found[value] = kind
    return found


@cache
def hints(kind: Any) -> dict[str, Any]:
    """A TypedDict's fields and their types (read once: ``get_type_hints`` is slow)."""
    return typing.get_type_hints(kind)


def fits(value: Any, hint: Any) -> bool:
    """Whether ``value`` (read from JSON) is of the type ``hint`` declares."""
    if hint is Any:
        return True
    if hint is None or hint is type(None):
        return value is None
    if hint is int:
        return is_int(value)
    if hint in (str, bool):
        return isinstance(value, hint)
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return any(value == arg and type(value) is type(arg) for arg in args)
    if origin in (types.UnionType, typing.Union):
        return any(fits(value, arg) for arg in args)
    if origin is list:
        return isinstance(value, list) and all(fits(item, args[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            fits(key, args[0]) and fits(item, args[1]) for key, item in value.items())
    if is_typeddict(hint):
        return problem(value, hint) is None
    raise TypeError(f"no check for a declared {hint!r}")


def _named(hint: Any) -> str:
    if hint is int:
        return "a whole number"
    if hint is str:
        return "a string"
    if get_origin(hint) is list:
        return "a list of " + _named(get_args(hint)[0]).removeprefix("a ") + "s"
    if get_origin(hint) is Literal:
        return "one of " + ", ".join(map(str, get_args(hint)))
    return "of the right kind"


def problem(value: Any, kind: Any) -> str | None:
    """What keeps ``value`` from being a ``kind`` (a TypedDict), in a few words, or None."""
    if not isinstance(value, dict):
        return "not an object"
    required, optional = kind.__required_keys__, kind.__optional_keys__
    keys = set(value)
    if not all(isinstance(key, str) for key in keys) or not required <= keys <= required | optional:
        allowed = sorted(required) + [f"({key})" for key in sorted(optional)]
        return "expected keys " + ", ".join(allowed)
    for key, hint in hints(kind).items():
        if key in value and not fits(value[key], hint):
            return f"{key} must be {_named(hint)}"
    return None


#: The platform's clause for a host's correction that is none of the kinds its game
#: declares (``types.Correction``), or names what is not there: read as a bad request.
BAD_CORRECTION = "table.bad-correction"


def check_declared(move: Any, declared: Any, malformed: str) -> None:
    """Raise ``IllegalMove(malformed, problem=…)`` unless ``move`` is one of the kinds of
    move ``declared`` (a game's ``types.Move``)."""
    if not isinstance(move, dict):
        raise IllegalMove(malformed, problem="not an object")
    named = move.get("type")
    kind = kinds_by_type(declared).get(named) if isinstance(named, str) else None
    if kind is None:
        raise IllegalMove(malformed, problem="unknown type")
    found = problem(move, kind)
    if found is not None:
        raise IllegalMove(malformed, problem=found)
