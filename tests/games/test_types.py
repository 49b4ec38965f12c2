"""Each game's ``types`` module says what its moves and views hold, and mypy checks the views
against it; here seeded playouts check that every legal move is one of the move kinds
declared, and every view has the declared keys and no other."""

from __future__ import annotations

import importlib
import random
import types
import typing
from typing import Any, Literal, get_args, get_origin

import pytest

from companion.web.games import GAMES

ENGINES = {spec.id: spec.engine for spec in GAMES}


def types_of(game_id: str) -> types.ModuleType:
    package = type(ENGINES[game_id]).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.types")


def kinds(move_type: Any) -> list[Any]:
    return list(get_args(move_type)) if get_origin(move_type) is types.UnionType \
        or get_origin(move_type) is typing.Union else [move_type]


def fits(value: dict[str, Any], typed: Any) -> bool:
    """The keys of ``value`` are those ``typed`` requires, plus some it allows, and its
    Literal fields hold one of their values."""
    keys = set(value)
    if not typed.__required_keys__ <= keys <= typed.__required_keys__ | typed.__optional_keys__:
        return False
    hints = typing.get_type_hints(typed)
    for key, hint in hints.items():
        if key in value and get_origin(hint) is Literal and value[key] not in get_args(hint):
            return False
    return True


def playout(game_id: str, seed: int, steps: int = 120):
    """(state, seat or None) pairs along a seeded random game, and the moves offered."""
    game = ENGINES[game_id]
    players = min(max(3, game.min_players), game.max_players)
    state = game.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        offered = {seat: game.legal_moves(state, seat) for seat in range(players)}
        yield state, offered
        movers = [(seat, move) for seat, moves in offered.items() for move in moves
                  if move["type"] != "lift"]  # a set-up card taken back now and then only
        if not movers:
            return
        state = game.apply(state, *rng.choice(movers))


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_every_move_offered_is_a_declared_kind_and_every_view_has_the_declared_keys(game_id):
    module, game = types_of(game_id), ENGINES[game_id]
    seen_kinds, views = set(), 0
    for seed in range(3):
        for state, offered in playout(game_id, seed):
            for moves in offered.values():
                for move in moves:
                    matching = [kind for kind in kinds(module.Move) if fits(move, kind)]
                    assert matching, (game_id, move)
                    seen_kinds.add(matching[0].__name__)
            for seat in (*offered, None):
                view = game.view(state, seat)
                assert fits(view, module.View), (game_id, seat,
                                                  set(view) ^ set(module.View.__annotations__))
                views += 1
    assert views > 100 and len(seen_kinds) >= 2


def test_a_key_the_types_do_not_declare_is_caught():
    module = types_of("seventh-heaven")
    state = ENGINES["seventh-heaven"].setup(3, {}, 1)
    view = dict(ENGINES["seventh-heaven"].view(state, 0), secret=True)
    assert not fits(view, module.View)
    assert not fits({"type": "move", "card": 3}, module.EventSwap)
