"""The checks every game's rule tests make: a move refused for its clause, not offered, and
the state untouched."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.base import Game, IllegalMove

State = dict[str, Any]


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``True`` is not ``1`` and ``3.0`` is not ``3`` here."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


class RuleChecks:
    """``offered`` and ``refused`` for one game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def offered(self, state: State, seat: int, move: Any) -> bool:
        """Whether ``move`` is among the seat's legal moves."""
        return any(same(move, legal) for legal in self.game.legal_moves(state, seat))

    def refused(self, state: State, seat: int, move: Any, rule: str) -> IllegalMove:
        """``move`` is refused for ``rule``, is not offered, and leaves ``state`` untouched."""
        before = snapshot(state)
        with pytest.raises(IllegalMove) as err:
            self.game.apply(state, seat, move)
        assert err.value.rule == rule, (err.value.rule, err.value.params)
        assert not self.offered(state, seat, move)
        assert snapshot(state) == before
        return err.value
