"""Each game's ``types`` module says what its moves and views hold, and mypy checks the views
against it; here seeded playouts check that every legal move is one of the move kinds
declared, and every view has the declared keys and no other, each of its declared type."""

from __future__ import annotations

import importlib
import random
import types

import pytest

from companion.games.declared import kinds, problem
from companion.web.games import GAMES

ENGINES = {spec.id: spec.engine for spec in GAMES}


def types_of(game_id: str) -> types.ModuleType:
    package = type(ENGINES[game_id]).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.types")


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
                    matching = [kind for kind in kinds(module.Move) if problem(move, kind) is None]
                    assert matching, (game_id, move)
                    seen_kinds.add(matching[0].__name__)
            for seat in (*offered, None):
                view = game.view(state, seat)
                assert problem(view, module.View) is None, (game_id, seat,
                                                            problem(view, module.View))
                views += 1
    assert views > 100 and len(seen_kinds) >= 2


def test_a_key_the_types_do_not_declare_is_caught():
    module = types_of("seventh-heaven")
    state = ENGINES["seventh-heaven"].setup(3, {}, 1)
    view = dict(ENGINES["seventh-heaven"].view(state, 0), secret=True)
    assert problem(view, module.View) is not None
    assert problem({"type": "move", "card": 3}, module.EventSwap) is not None
