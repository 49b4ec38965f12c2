"""In 7th Heaven: random legal games to the end, checking the invariants after every move."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.seventh_heaven import SeventhHeaven

G = SeventhHeaven()
ALL_CARDS = list(range(99))
MAX_MOVES = 2000


def check_cards(state: dict[str, Any]) -> None:
    """Every card is in exactly one hand, the deck or the discard pile."""
    places = [c for cards in state["hands"].values() for c in cards]
    places += state["deck"] + state["discard"]
    assert sorted(places) == ALL_CARDS


def check_views(state: dict[str, Any]) -> None:
    table = G.view(state, None)
    assert "hand" not in table
    text = json.dumps(table)
    assert '"rng"' not in text and '"deck"' not in text and '"hands"' not in text
    for seat in range(state["players"]):
        view = G.view(state, seat)
        assert '"rng"' not in json.dumps(view) and '"deck"' not in json.dumps(view)
        own = {card["id"] for card in view["hand"]}
        assert own == set(state["hands"][str(seat)])
        others = {
            card for other, cards in state["hands"].items() if other != str(seat) for card in cards
        }
        assert not own & others
        hidden = set(state["deck"]) | others
        shown = {card["id"] for card in view["hand"]}
        if view["last"] is not None:
            shown.add(view["last"]["card"]["id"])
        assert not shown & hidden


def check_all_legal_apply(state: dict[str, Any], seat: int, moves: list[dict[str, Any]]) -> None:
    for move in moves[:: max(1, len(moves) // 40)]:  # all of them, or 40 spread out
        try:
            G.apply(state, seat, move)
        except IllegalMove as err:  # pragma: no cover - the failure message is the point
            pytest.fail(f"legal move {move} refused: {err.rule}")


def play_out(data: st.DataObject, players: int) -> None:
    options = {
        "heaven": data.draw(st.integers(15, 30), label="heaven"),
        "refill": data.draw(st.booleans(), label="refill"),
        "play_for_places": data.draw(st.booleans(), label="play_for_places"),
        "first_seat": data.draw(st.integers(0, players - 1), label="first_seat"),
    }
    seed = data.draw(st.integers(0, 2**32), label="seed")
    state = G.setup(players, options, seed)
    check_cards(state)
    for _ in range(MAX_MOVES):
        if G.outcome(state) is not None:
            break
        movers = {seat: G.legal_moves(state, seat) for seat in range(players)}
        movers = {seat: moves for seat, moves in movers.items() if moves}
        assert movers, "the game is stuck"
        seat = data.draw(st.sampled_from(sorted(movers)), label="seat")
        check_all_legal_apply(state, seat, movers[seat])
        move = data.draw(st.sampled_from(movers[seat]), label="move")
        before = json.dumps(state, sort_keys=True)
        after = G.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == before, "apply mutated its input"
        assert json.loads(json.dumps(after)) == after
        check_cards(after)
        check_views(after)
        catalogue = clauses(G.id)
        for effect in after["effects"]:  # each names its clause, and holds no card id
            assert effect["rule"] in catalogue, effect
            assert not {"card", "cards"} & set(effect), effect
        assert G.redact_move(state, seat, move, seat) == move
        if move["type"] == "discard":
            hidden = G.redact_move(state, seat, move, None)
            assert hidden == {"type": "discard", "count": len(move["cards"])}
        else:
            assert G.redact_move(state, seat, move, None) == move
        G.can_undo(state, seat, move, after)
        state = after
    result = G.outcome(state)
    assert result is not None, "the game did not end"
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert result.reason in {"heaven", "both-in-heaven", "places", "cards-out"}
    assert all(G.legal_moves(state, seat) == [] for seat in range(players))


SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@SETTINGS
@given(data=st.data())
def test_random_games_end_cleanly(players, data):
    play_out(data, players)
