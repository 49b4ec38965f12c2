"""A move is checked against the kinds its game declares in ``types.py``: for every
registered game, a legal move bent out of its declared shape is refused as malformed."""

import importlib
import random
import typing
from typing import Literal, NotRequired, TypedDict

import pytest

from companion.games.base import IllegalMove, clauses, is_int
from companion.games.declared import check_declared, fits, kinds
from companion.web.games import GAMES


class Pick(TypedDict):
    type: Literal["pick"]
    card: int
    cards: list[int]
    colour: str | None
    note: NotRequired[str]


class Stop(TypedDict):
    type: Literal["stop", "rest"]


Declared = Pick | Stop
PICK = {"type": "pick", "card": 3, "cards": [1, 2], "colour": None}


@pytest.mark.parametrize("move", [
    PICK, {**PICK, "note": "x"}, {**PICK, "colour": "red"}, {"type": "rest"},
])
def test_a_move_of_a_declared_kind_passes(move):
    check_declared(move, Declared, "x.malformed")


@pytest.mark.parametrize(("move", "said"), [
    ([1], "not an object"),
    ({"type": "jump"}, "unknown type"),
    ({"type": 3}, "unknown type"),
    ({"card": 3}, "unknown type"),
    ({**PICK, "extra": 1}, "expected keys"),
    ({"type": "pick", "card": 3, "cards": []}, "expected keys"),
    ({**PICK, 1: 2}, "expected keys"),
    ({**PICK, "card": True}, "card must be a whole number"),
    ({**PICK, "card": 3.0}, "card must be a whole number"),
    ({**PICK, "cards": [1, False]}, "cards must be a list of whole numbers"),
    ({**PICK, "cards": "12"}, "cards must be"),
    ({**PICK, "colour": 4}, "colour must be"),
    ({"type": "stop", "card": 1}, "expected keys"),
])
def test_a_move_out_of_shape_is_refused_with_what_is_wrong(move, said):
    with pytest.raises(IllegalMove) as refused:
        check_declared(move, Declared, "x.malformed")
    assert refused.value.rule == "x.malformed"
    assert said in refused.value.params["problem"]


def test_a_literal_is_matched_by_value_and_type():
    assert fits("pick", Literal["pick"]) and not fits(1, Literal[True])
    assert not fits(True, Literal[1])


def types_module(spec):
    return importlib.import_module(type(spec.engine).__module__.rsplit(".", 1)[0] + ".types")


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_every_declared_field_is_one_the_checker_reads(spec):
    """A type the checker cannot read raises TypeError here rather than at a player's move."""
    module = types_module(spec)
    for kind in (*kinds(module.Move), module.View):
        for hint in typing.get_type_hints(kind).values():
            fits(None, hint)


def bent(move):
    """The legal move bent out of shape: a key added, a required key left out, a whole
    number given as true."""
    yield {**move, "unknown": 1}
    for key in move:
        if key != "type":
            yield {k: v for k, v in move.items() if k != key}
            if is_int(move[key]):
                yield {**move, key: True}


@pytest.mark.parametrize("spec", GAMES, ids=lambda spec: spec.id)
def test_each_game_refuses_a_legal_move_bent_out_of_its_declared_shape(spec):
    game = spec.engine
    malformed = next(rule for rule in clauses(spec.id) if rule.endswith(".move.malformed"))
    state, kinds_tried, rng = game.setup(game.min_players, {}, 7), set(), random.Random(7)
    for _ in range(60):
        offered = [(seat, move) for seat in range(game.min_players)
                   for move in game.legal_moves(state, seat)]
        if not offered:
            break
        for seat, move in offered[:10]:
            for wrong in bent(move):
                with pytest.raises(IllegalMove) as refused:
                    game.apply(state, seat, wrong)
                assert refused.value.rule == malformed, (wrong, refused.value.rule)
            kinds_tried.add(move["type"])
        state = game.apply(state, *rng.choice(offered))
    assert len(kinds_tried) >= 2
