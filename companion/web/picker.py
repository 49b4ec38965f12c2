"""Choosing a move on a phone, one parameter at a time, from the legal moves.

The phone never offers an illegal move: it narrows the seat's legal moves by the values
chosen so far, then asks for the next parameter in which the moves left still differ,
until one move is left to confirm. Games set the order of the questions
(``Game.choice_keys``); a list-valued parameter (cards to discard) is one multi-choice.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Move, has_values
from companion.web import jsonread

MAX_PICK_LENGTH = 2000
#: A key no move has (None is a value a move may hold).
_ABSENT = object()
#: The kinds of number Python takes as equal (1 == 1.0 == True) and a move does not.
_NUMBERS = frozenset((bool, int, float))


@dataclass
class Pick:
    chosen: dict[str, Any]
    #: The parameter being asked now, or None when ``move`` is settled.
    key: str | None
    #: The values on offer for ``key``; for a list-valued key, the items to choose among.
    values: list[Any]
    multi: bool
    #: For a list-valued key: the sizes of the sets the rules allow.
    sizes: list[int]
    move: Move | None
    remaining: int
    #: For each of ``values``: the one move it settles, or None when questions remain
    #: (then the value's button asks on; else it makes that move: the answer confirms).
    settles: list[Move | None] = field(default_factory=list)


def _key(value: Any) -> Any:
    """``value`` as a key for a set: equal values, equal keys (1 and True stay apart)."""
    if isinstance(value, list | dict):
        return json.dumps(value, sort_keys=True)
    return type(value), value


def _plainly_keyed(values: list[Any]) -> bool:
    """Whether ``values`` can key a dictionary as they are: 1, 1.0 and True are one key
    there, so not when two kinds of number are among them."""
    return len(_NUMBERS.intersection(map(type, values))) < 2


def _typed(values: list[Any]) -> list[tuple[type, Any]]:
    """``values`` as keys that keep 1, 1.0 and True apart."""
    return list(zip(map(type, values), values, strict=True))


def _distinct(values: list[Any]) -> list[Any]:
    """``values`` without repeats, in order. Numbers and words, as most values are, go
    through a dictionary in one go: a block of The Climbers may go to thousands of places,
    and its mover's phone asks on every push."""
    try:
        if _plainly_keyed(values):
            return list(dict.fromkeys(values))
        return [value for _, value in dict.fromkeys(_typed(values))]
    except TypeError:  # a list or a dict among them
        pass
    seen: set[Any] = set()
    out = []
    for value in values:
        key = _key(value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def _matching(moves: list[Move], chosen: dict[str, Any]) -> list[Move]:
    """The moves that have every value ``chosen`` names (``has_values``), a key at a time."""
    left = moves
    for key, value in chosen.items():
        if isinstance(value, list | dict):
            left = [move for move in left if has_values(move, {key: value})]
        else:
            kind = type(value)
            left = [move for move in left
                    if type(move.get(key, _ABSENT)) is kind and move[key] == value]
    return left


def narrow(moves: list[Move], keys: tuple[str, ...], chosen: dict[str, Any]) -> Pick:
    """What to ask next, given the legal ``moves`` and the values ``chosen`` so far."""
    left = _matching(moves, chosen)
    if len(left) == 1:
        return Pick(chosen, None, [], False, [], left[0], 1)
    opening = not chosen
    for key in _questions(left, keys):
        if key in chosen:
            continue
        present = [m.get(key) for m in left]
        values = _distinct([v for v in present if v is not None])
        if not values:
            continue
        # The opening question is always asked, so the phone opens on the game's main
        # choice (the card to play); later ones only where the moves left differ.
        if len(values) + (None in present) < 2 and not opening:
            continue
        if any(isinstance(v, list) for v in values):
            items = _distinct([item for v in values for item in v])
            sizes = sorted({len(v) for v in values})
            return Pick(chosen, key, sorted(items, key=json.dumps), True, sizes, None, len(left))
        return Pick(chosen, key, values, False, [], None, len(left),
                    _settled(left, present, values))
    return Pick(chosen, None, [], False, [], left[0] if len(left) == 1 else None, len(left))


def _questions(left: list[Move], keys: tuple[str, ...]) -> Iterator[str]:
    """The parameters to ask about, in order: the game's ``keys``, then the others the moves
    have, by name (worked out only if the game's own leave nothing to ask)."""
    yield from keys
    yield from sorted(set().union(*left).difference(keys))


def _settled(left: list[Move], present: list[Any], values: list[Any]) -> list[Move | None]:
    """For each of ``values``: the one move of ``left`` with it (``present`` holds each
    move's value, or None), if only one has it."""
    plain = _plainly_keyed(present)
    keys = present if plain else _typed(present)
    try:
        counts = Counter(keys)
    except TypeError:  # a list or a dict among them
        having: dict[Any, list[Move]] = {}
        for move, value in zip(left, present, strict=True):
            if value is not None:
                having.setdefault(_key(value), []).append(move)
        found = [having.get(_key(value), []) for value in values]
        return [moves[0] if len(moves) == 1 else None for moves in found]
    move_of = dict(zip(keys, left, strict=True))
    return [move_of[key] if counts[key] == 1 else None
            for key in (values if plain else _typed(values))]


def back(chosen: dict[str, Any], riders: tuple[str, ...] = ()) -> dict[str, Any]:
    """The pick one choice back: without the last value chosen, and without the ``riders``
    answered together with it (a game's tap may answer several questions at once)."""
    keys = list(chosen)
    while keys and keys[-1] in riders:
        keys.pop()
    return {key: chosen[key] for key in keys[:-1]}


def anew(chosen: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """The pick with ``values`` answered. A question answered again drops the answers
    given after it: they answered the questions of the choice it replaces (1 card of a
    stack, then another stack: that stack is asked anew how many cards move)."""
    keys = list(chosen)
    cut = min((keys.index(key) for key in values if key in chosen), default=len(keys))
    return {**{key: chosen[key] for key in keys[:cut]}, **values}


def parse_chosen(raw: str | None) -> dict[str, Any]:
    """The ``pick`` query parameter: a JSON object of the values chosen so far."""
    if not raw:
        return {}
    if len(raw) > MAX_PICK_LENGTH:
        raise ValueError("too long")
    value = jsonread.loads(raw)  # too deep: a ValueError like any unreadable pick
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ValueError("not an object")
    return value
