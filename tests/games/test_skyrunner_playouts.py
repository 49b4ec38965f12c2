"""SkyRunner: random legal games to the end, checking the invariants after every move.

Hypothesis draws the table (players, options, first seat, seed); a generator seeded from it
picks the moves, favouring climbing cards and the highest climbs so that every game ends.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.skyrunner import SkyRunner, building
from companion.games.skyrunner.data import CARD_COUNT, CARDS
from support.json_walk import keys_in

G = SkyRunner()
ALL_CARDS = list(range(CARD_COUNT))
MAX_MOVES = 20000
SECRET_KEYS = {"hand", "used", "choice", "climbs", "hands", "choices", "rng"}

State = dict[str, Any]
Move = dict[str, Any]


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def check_cards(state: State) -> None:
    """Every card is in exactly one place: a hand, a used stack, waiting before a player,
    the deck, the discard pile, out of the game, on offer or played this round."""
    places = [c for part in ("hands", "used", "waiting") for cards in state[part].values()
              for c in cards]
    places += state["deck"] + state["discard"] + state["out"] + list(state["played"].values())
    places += [] if state["offer"] is None else [state["offer"]]
    assert sorted(places) == ALL_CARDS
    if not state["deck"] and not state["discard"] and state["offer"] is None:
        # A round with no card to offer (sr.round.no-offer): every climbing card is in a
        # hand or played this round, so a player can always refill the deck.
        held = [c for cards in [*state["hands"].values(), state["played"].values()]
                for c in cards]
        assert sorted(c for c in held if CARDS[c]["kind"] == "climb") == \
            sorted(card["id"] for card in CARDS if card["kind"] == "climb")
    assert state["phase"] != "over" or state["winner"] is not None  # only the roof ends it


def section(state: State, level: int) -> int | None:
    """0, 1, 2 for the lower, middle, upper section; None on the ground or the roof."""
    per = state["building"]["levels"] - 1
    return None if level == 0 or level == 3 * per + 1 else (level - 1) // per


def check_positions(state: State) -> None:
    """Every climber stands on a real place, and no two overlap (the ground excepted)."""
    per = state["building"]["levels"] - 1
    roof = 3 * per + 1
    spots = [(p["level"], p["lane"]) for p in state["positions"].values()]
    for level, lane in spots:
        assert 0 <= level <= roof
        if level in (0, roof):
            assert lane == 0
        else:
            assert 1 <= lane <= state["building"]["lanes"][section(state, level)]
    for i, (level, lane) in enumerate(spots):
        for other_level, other_lane in spots[i + 1:]:
            here = section(state, level)
            assert not (here is not None and lane == other_lane
                        and here == section(state, other_level)
                        and abs(level - other_level) < 2), spots


def secrets_changed(state: State, viewer: int | None) -> State:
    """``state`` with everything ``viewer`` may not know changed: every other seat gets
    another hand and another used stack of the same sizes and another current choice, and
    the deck another order."""
    other = dict(state)
    others = [str(seat) for seat in range(state["players"]) if seat != viewer]
    other["hands"] = {**state["hands"], **{
        seat: [(c + 7) % CARD_COUNT for c in state["hands"][seat]] for seat in others}}
    other["used"] = {**state["used"], **{
        seat: [(c + 11) % CARD_COUNT for c in state["used"][seat]] for seat in others}}
    other["choices"] = {**state["choices"], **{
        seat: (state["choices"][seat] + 1) % CARD_COUNT for seat in others
        if state["choices"][seat] is not None}}
    other["deck"] = list(reversed(state["deck"]))
    return other


def check_views(state: State) -> None:
    """Each seat sees its own hand, used stack and choice; no view depends on another
    seat's hand, used stack or choice, nor on the order of the deck."""
    players = state["players"]
    table = G.view(state, None)
    assert not keys_in(table) & SECRET_KEYS
    assert table["chosen"] == [s for s in range(players) if state["choices"][str(s)] is not None]
    assert G.view(secrets_changed(state, None), None) == table
    for seat in range(players):
        view = G.view(state, seat)
        assert [c["id"] for c in view["hand"]] == sorted(state["hands"][str(seat)])
        assert [c["id"] for c in view["used"]] == sorted(state["used"][str(seat)])
        choice = state["choices"][str(seat)]
        assert view["choice"] == (None if choice is None else CARDS[choice])
        assert not set(view) & {"hands", "choices", "rng"}
        assert G.view(secrets_changed(state, seat), seat) == view, seat


def check_legal_apply(state: State, seat: int, moves: list[Move]) -> None:
    """Every legal move applies: all of them, or some 8 to 15 spread out (to keep it quick)."""
    for move in moves[:: max(1, len(moves) // 8)]:
        try:
            G.apply(state, seat, move)
        except IllegalMove as err:  # pragma: no cover - the failure message is the point
            pytest.fail(f"legal move {move} refused: {err.rule} {err.params}")


def pick(state: State, movers: dict[int, list[Move]], rng: random.Random) -> tuple[int, Move]:
    """A random mover and move, favouring climbing cards and the highest places."""
    if state["phase"] == "choose":
        waiting = [s for s in movers if state["choices"][str(s)] is None]
        seat = rng.choice(waiting if waiting and rng.random() < 0.9 else sorted(movers))
        moves = movers[seat]
        climbing = [m for m in moves if CARDS[m["card"]]["kind"] == "climb"]
        if climbing and rng.random() < 0.7:
            return seat, rng.choice(climbing)
        return seat, rng.choice(moves)
    seat = rng.choice(sorted(movers))
    moves = movers[seat]
    if moves[0]["type"] == "climb" and rng.random() < 0.85:
        top = max(m["level"] for m in moves)
        return seat, rng.choice([m for m in moves if m["level"] == top])
    return seat, rng.choice(moves)


def play_out(data: st.DataObject, players: int, deck: str) -> None:
    options = {
        "deck": deck,
        "levels": data.draw(st.integers(6, 16), label="levels"),
        "lower_lanes": data.draw(st.sampled_from(["auto", "3", "4", "5"]), label="lower"),
        "middle_lanes": data.draw(st.sampled_from(["2", "3", "4"]), label="middle"),
        "upper_lanes": data.draw(st.sampled_from(["1", "2", "3"]), label="upper"),
        "first_seat": data.draw(st.integers(0, players - 1), label="first_seat"),
    }
    seed = data.draw(st.integers(0, 2**32), label="seed")
    rng = random.Random(seed)
    state = G.setup(players, options, seed)
    check_cards(state)
    check_positions(state)
    check_views(state)
    for _ in range(MAX_MOVES):
        if G.outcome(state) is not None:
            break
        movers = {seat: G.legal_moves(state, seat) for seat in range(players)}
        movers = {seat: moves for seat, moves in movers.items() if moves}
        assert movers, "the game is stuck"
        seat, move = pick(state, movers, rng)
        check_legal_apply(state, seat, movers[seat])
        before = snapshot(state)
        after = G.apply(state, seat, move)
        assert snapshot(state) == before, "apply mutated its input"
        assert json.loads(json.dumps(after)) == after
        check_cards(after)
        check_positions(after)
        for effect in after["effects"]:  # each names its clause
            assert effect["rule"] in clauses(G.id), effect
        check_views(after)
        assert G.redact_move(state, seat, move, seat) == move
        again = move["type"] == "choose" and state["choices"][str(seat)] is not None
        for viewer in [None, *range(players)]:
            if viewer != seat:  # a changed choice is not seen at all; a first one, hidden
                shown = G.redact_move(state, seat, move, viewer)
                assert shown == (None if again else {"type": "choose"}
                                 if move["type"] == "choose" else move)
        if move["type"] == "choose":  # changed by choosing again, never taken back
            assert not G.can_undo(state, seat, move, after)
        state = after
    result = G.outcome(state)
    assert result is not None, "the game did not end"
    roof = building.roof(state)
    winner = state["winner"]
    assert result.ranking[0] == [winner] and result.reason == "roof"
    assert state["positions"][str(winner)] == {"level": roof, "lane": 0}
    assert sorted(s for group in result.ranking for s in group) == list(range(players))
    assert all(state["positions"][str(s)]["level"] < roof for s in range(players) if s != winner)
    assert all(G.legal_moves(state, seat) == [] for seat in range(players))
    assert G.view(state, None)["outcome"] == result.as_json()


SETTINGS = settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("deck", ["app", "real"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@SETTINGS
@given(data=st.data())
def test_random_games_end_cleanly(players, deck, data):
    play_out(data, players, deck)
