"""A phone's picker asks of The Climbers' moves worked out as far as its question
needs (``Climbers.moves``, ``rules.Offered.narrow``): a block's places once the block is
tapped, each block's first two before. Over seeded games (the generated tower and one the
players build), the question, its values, what each value settles and the move settled
are exactly what every legal move gives."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.climbers import Climbers
from companion.web.picker import Pick, narrow
from support.strategies.climbers import random_positions

G = Climbers()


def picks(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What phones ask: the opening, each kind of move, a block and its place step by step;
    and values no move has, or a place named without its block (a forged link)."""
    found: list[dict[str, Any]] = [{}, {"type": "walk"}, {"type": "stone"}, {"type": "pass"},
                                   {"block": "C1"}, {"type": "block", "block": "nowhere"},
                                   {"x": 0}, {"type": "block", "long": "x"}]
    for kind in ("block", "build"):
        found.append({"type": kind})
        placing = [m for m in moves if m["type"] == kind]
        for block in list(dict.fromkeys(m["block"] for m in placing))[:3]:
            first = next(m for m in placing if m["block"] == block)
            chosen: dict[str, Any] = {"type": kind}
            for key in ("block", "x", "y", "top", "long"):
                chosen = {**chosen, key: first[key]}
                found.append(chosen)
    return found


def asked(pick: Pick) -> tuple[Any, ...]:
    return pick.key, pick.values, pick.multi, pick.sizes, pick.move, pick.settles


@pytest.mark.parametrize("options", [{}, {"tower": "own"}], ids=["generated", "own-tower"])
@pytest.mark.parametrize("seed", [1, 2])
def test_the_picker_asks_of_the_moves_it_needs_what_it_asks_of_every_move(options, seed):
    checked = 0
    for state in random_positions(G, options, seed, 30):
        seat = state["turn"]
        every = G.legal_moves(state, seat)
        legal = {tuple(sorted(move.items())) for move in every}
        for chosen in picks(every):
            needed = G.moves(state, seat).narrow(chosen)
            assert bool(needed) == bool(every)
            assert legal.issuperset(tuple(sorted(move.items())) for move in needed)
            assert asked(narrow(needed, G.choice_keys, chosen)) == \
                asked(narrow(every, G.choice_keys, chosen)), chosen
            checked += 1
    assert checked > 200


def test_before_a_block_is_tapped_its_places_are_not_worked_out():
    """The opening question asks for two places of each block at most."""
    for state in random_positions(G, {}, 3, 40):
        seat = state["turn"]
        if state["phase"] != "play" or state["step"] != "before":
            continue
        opening = [m for m in G.moves(state, seat).narrow({}) if m["type"] == "block"]
        every = [m for m in G.legal_moves(state, seat) if m["type"] == "block"]
        blocks = {m["block"] for m in every}
        if len(blocks) > 1:
            assert len(opening) <= 2 * len(blocks) < len(every)
            return
    pytest.fail("no position with several blocks to move")
