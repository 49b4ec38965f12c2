"""Choosing a move on a phone, one parameter at a time, from the legal moves.

The phone never offers an illegal move: it narrows the seat's legal moves by the values
chosen so far, then asks for the next parameter in which the moves left still differ,
until one move is left to confirm. Games set the order of the questions
(``Game.choice_keys``); a list-valued parameter (cards to discard) is one multi-choice.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import Move, has_values

MAX_PICK_LENGTH = 2000


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


def _distinct(values: list[Any]) -> list[Any]:
    seen: set[Any] = set()
    out = []
    for value in values:
        key = _key(value)
        if key not in seen:
            seen.add(key)
            out.append(value)
    return out


def narrow(moves: list[Move], keys: tuple[str, ...], chosen: dict[str, Any]) -> Pick:
    """What to ask next, given the legal ``moves`` and the values ``chosen`` so far."""
    left = [m for m in moves if has_values(m, chosen)]
    if len(left) == 1:
        return Pick(chosen, None, [], False, [], left[0], 1)
    order = list(keys) + sorted({k for m in left for k in m if k not in keys})
    opening = not chosen
    for key in order:
        if key in chosen:
            continue
        present = [m.get(key) for m in left]
        values = _distinct([v for v in present if v is not None])
        if not values:
            continue
        # The opening question is always asked, so the phone opens on the game's main
        # choice (the card to play); later ones only where the moves left differ.
        if len(_distinct(present)) < 2 and not opening:
            continue
        if any(isinstance(v, list) for v in values):
            items = _distinct([item for v in values for item in v])
            sizes = sorted({len(v) for v in values})
            return Pick(chosen, key, sorted(items, key=json.dumps), True, sizes, None, len(left))
        return Pick(chosen, key, values, False, [], None, len(left),
                    _settled(left, key, values))
    return Pick(chosen, None, [], False, [], left[0] if len(left) == 1 else None, len(left))


def _settled(left: list[Move], key: str, values: list[Any]) -> list[Move | None]:
    """For each of ``values``: the one move of ``left`` with it as ``key``, if only one has
    it (one pass over the moves, however many values)."""
    having: dict[Any, list[Move]] = {}
    for move in left:
        if key in move:
            having.setdefault(_key(move[key]), []).append(move)
    found = [having.get(_key(value), []) for value in values]
    return [moves[0] if len(moves) == 1 else None for moves in found]


def parse_chosen(raw: str | None) -> dict[str, Any]:
    """The ``pick`` query parameter: a JSON object of the values chosen so far."""
    if not raw:
        return {}
    if len(raw) > MAX_PICK_LENGTH:
        raise ValueError("too long")
    value = json.loads(raw)
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise ValueError("not an object")
    return value
