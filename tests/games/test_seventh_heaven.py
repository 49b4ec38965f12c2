"""In 7th Heaven: one refused and one allowed case for every rule clause, plus the catalogue.

States are built by hand from a fresh set-up (they are plain JSON), so each test shows
exactly the position it is about.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.seventh_heaven import SeventhHeaven
from companion.games.seventh_heaven.data import CARDS, COLOURS
from tests.rule_checks import (
    TABLE_PARAMS,
    RuleChecks,
    move_refusal_clauses,
)

G = SeventhHeaven()


# --- helpers ------------------------------------------------------------------------------


def card(kind: str, colour: str | None = None, value: int | None = None, nth: int = 0) -> int:
    found = [
        c["id"]
        for c in CARDS
        if c["kind"] == kind
        and (colour is None or c["colour"] == colour)
        and (value is None or c["value"] == value)
    ]
    return found[nth]


def num(colour: str, value: int, nth: int = 0) -> int:
    return card("number", colour, value, nth)


def arrow(colour: str) -> int:
    return card("arrow", colour)


def special(name: str) -> int:
    return next(c["id"] for c in CARDS if c["special"] == name)


DEFAULT_PARTNERS = {
    2: {0: ["red", "blue"], 1: ["grey", "yellow"]},
    3: {0: ["red", "blue"], 1: ["grey", "yellow"], 2: ["green", "pink"]},
    4: {0: ["red"], 1: ["blue"], 2: ["grey"], 3: ["yellow"]},
    5: {0: ["red"], 1: ["blue"], 2: ["grey"], 3: ["yellow"], 4: ["green"]},
    6: {0: ["red"], 1: ["blue"], 2: ["grey"], 3: ["yellow"], 4: ["green"], 5: ["pink"]},
}


def build(
    players: int = 4,
    *,
    pieces: dict[str, int] | None = None,
    partners: dict[int, list[str]] | None = None,
    hands: dict[int, list[int]] | None = None,
    deck: list[int] | None = None,
    turn: int = 0,
    first_card: bool = False,
    heaven: int = 20,
    places: list[list[int]] | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A mid-game state: every piece at the start unless told, seat ``turn`` to play.

    Seats get two filler pink cards each unless ``hands`` says otherwise; every card not
    in a hand or the given ``deck`` lies in the discard pile.
    """
    state = G.setup(players, {"heaven": heaven, **options}, 7)
    state["first_card"] = first_card
    state["turn"] = turn
    partners = partners if partners is not None else DEFAULT_PARTNERS[players]
    state["partners"] = {str(seat): list(colours) for seat, colours in partners.items()}
    held = {colour for colours in partners.values() for colour in colours}
    state["spare"] = [colour for colour in COLOURS if colour not in held]
    filler = {seat: [60 + 2 * seat, 61 + 2 * seat] for seat in range(players)}
    filler.update(hands or {})
    state["hands"] = {str(seat): list(filler[seat]) for seat in range(players)}
    used = {c for cards in state["hands"].values() for c in cards}
    if deck is None:
        deck = [c for c in range(len(CARDS)) if c not in used]
    state["deck"] = list(deck)
    state["discard"] = [c for c in range(len(CARDS)) if c not in used and c not in deck]
    state["pieces"].update(pieces or {})
    for colour in COLOURS:
        if state["pieces"][colour] >= heaven:
            state["arrived"].append(colour)
            state["arrival_rank"][colour] = len(state["arrival_rank"])
    if state["arrived"]:
        state["refilling"] = False
    state["places"] = places or []
    return state


CHECKS = RuleChecks(G)
allowed, refused = CHECKS.allowed, CHECKS.refused


# --- protocol basics ----------------------------------------------------------------------


def test_protocol_attributes_and_options():
    assert G.id == "seventh-heaven"
    assert (G.min_players, G.max_players) == (2, 6)
    assert G.choice_keys[0] == "card"
    options = {option.key: option for option in G.options()}
    assert set(options) == {"heaven", "refill", "play_for_places"}
    assert options["heaven"].default == 20
    assert (options["heaven"].low, options["heaven"].high) == (15, 30)
    assert options["refill"].default is False
    assert options["play_for_places"].default is False
    for option in options.values():
        assert option.label["en"] and option.label["fr"]


def test_setup_is_json_and_seeded():
    state = G.setup(4, {}, 42)
    assert json.loads(json.dumps(state)) == state
    assert G.setup(4, {}, 42) == state
    assert G.setup(4, {}, 43) != state
    assert state["heaven"] == 20


def test_setup_refuses_bad_player_counts_and_options():
    for players in (1, 7):
        with pytest.raises(ValueError):
            G.setup(players, {}, 1)
    with pytest.raises(ValueError):
        G.setup(4, {"heaven": 40}, 1)
    with pytest.raises(ValueError):
        G.setup(4, {"first_seat": 4}, 1)


def test_apply_does_not_mutate_and_can_undo():
    state = build(hands={0: [num("red", 3)]})
    before = json.dumps(state, sort_keys=True)
    move = {"type": "move", "card": num("red", 3), "piece": "red"}
    after = G.apply(state, 0, move)
    assert json.dumps(state, sort_keys=True) == before
    assert G.can_undo(state, 0, move, after)
    mushroom = {"type": "play", "card": special("mushroom"), "count": 2}
    state = build(hands={0: [special("mushroom")]})
    after = G.apply(state, 0, mushroom)
    assert not G.can_undo(state, 0, mushroom, after)


def test_redact_move_is_a_copy():
    move = {"type": "move", "card": 3, "piece": "red"}
    copy = G.redact_move(build(), 0, move, None)
    assert copy == move and copy is not move


def test_a_discard_is_seen_only_by_its_owner():
    move = {"type": "discard", "cards": [3, 4, 5]}
    assert G.redact_move(build(), 1, move, 1) == move
    assert G.redact_move(build(), 1, move, 2) == {"type": "discard", "count": 3}
    assert G.redact_move(build(), 1, move, None) == {"type": "discard", "count": 3}


def test_view_hides_hands_deck_and_rng():
    state = G.setup(4, {}, 5)
    table = G.view(state, None)
    assert "hand" not in table
    text = json.dumps(table)
    for secret in ("rng", 'deck"', "hands"):
        assert secret not in text
    assert table["hand_counts"] == {str(seat): 12 for seat in range(4)}
    assert table["deck_count"] == 99 - 48
    assert table["turn"] == 0 and table["phase"] == "play" and table["first_card"] is True
    mine = G.view(state, 2)
    assert [c["id"] for c in mine["hand"]] != []
    assert {c["id"] for c in mine["hand"]} == set(state["hands"]["2"])
    mine.pop("hand")
    mine.pop("seat")
    assert mine == table


# --- set-up -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "each", "spare"), [(2, 2, 2), (3, 2, 0), (4, 1, 2), (6, 1, 0)])
def test_setup_partners(players, each, spare):
    """7h.setup.partners: one partner card each (two with 2-3 players), rest beside the board."""
    state = G.setup(players, {}, 3)
    assert all(len(colours) == each for colours in state["partners"].values())
    assert len(state["spare"]) == spare
    dealt = [c for colours in state["partners"].values() for c in colours] + state["spare"]
    assert sorted(dealt) == sorted(COLOURS)


def test_setup_hands_and_start():
    """7h.setup.hands: 12 cards each, the rest a deck; 7h.setup.start: all pieces at 0."""
    state = G.setup(5, {}, 9)
    assert all(len(cards) == 12 for cards in state["hands"].values())
    everything = [c for cards in state["hands"].values() for c in cards] + state["deck"]
    assert sorted(everything) == list(range(99))
    assert state["pieces"] == {colour: 0 for colour in COLOURS}


def test_setup_first_player():
    """7h.setup.first-player: the host's choice starts, else the next with a forward number."""
    for seat in range(4):
        state = G.setup(4, {"first_seat": seat}, 9)
        hand = state["hands"][str(seat)]
        assert any(CARDS[c]["kind"] == "number" and CARDS[c]["value"] > 0 for c in hand)
        assert state["turn"] == seat and state["first_card"] is True
    assert G.setup(4, {}, 9)["turn"] == 0
    lacking = build(hands={0: [num("red", -1), special("heart")], 1: [num("blue", 2)]})
    assert SeventhHeaven._first_player(lacking, 0) == 1
    assert SeventhHeaven._first_player(lacking, 1) == 1


# --- turns --------------------------------------------------------------------------------


def test_turn_wait():
    state = build(hands={0: [num("red", 3)], 1: [num("blue", 3)]})
    refused(state, 1, {"type": "move", "card": num("blue", 3), "piece": "blue"}, "7h.turn.wait")
    assert G.legal_moves(state, 1) == []
    allowed(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"})


def test_turn_order_clockwise_skipping_empty_hands():
    """7h.turn.order: one card, then the next seat clockwise that still has cards."""
    state = build(hands={0: [num("red", 3)], 1: [], 3: [num("yellow", 1)]})
    after = allowed(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"})
    assert after["turn"] == 2
    state = build(turn=3, hands={3: [num("yellow", 1), num("yellow", 2)]})
    after = allowed(state, 3, {"type": "move", "card": num("yellow", 1), "piece": "yellow"})
    assert after["turn"] == 0


def test_turn_phase():
    state = build(hands={0: [num("red", 3)]})
    refused(state, 0, {"type": "decline"}, "7h.turn.phase")
    refused(state, 0, {"type": "event-swap", "take": "blue", "give": "red"}, "7h.turn.phase")
    state = build(pieces={"red": 1}, hands={0: [num("red", 3)]})
    waiting = allowed(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"})
    assert waiting["phase"] == "event-swap"
    refused(waiting, 0, {"type": "move", "card": 60, "piece": "pink"}, "7h.event.first")
    allowed(waiting, 0, {"type": "event-swap", "take": "blue", "give": "red"})


def test_turn_pass_only_with_no_usable_card():
    dead = num("red", -1)
    state = build(hands={0: [dead]})  # red at the start and seat 0 holds red
    assert G.legal_moves(state, 0) == [{"type": "pass", "card": dead}]
    after = allowed(state, 0, {"type": "pass", "card": dead})
    assert after["pieces"] == state["pieces"] and dead in after["discard"]
    assert "7h.turn.pass" in after["last"]["rules"]
    state = build(hands={0: [dead, num("red", 2)]})
    refused(state, 0, {"type": "pass", "card": dead}, "7h.turn.pass")


def test_a_card_of_a_colour_in_heaven_may_be_played_for_nothing_at_any_time():
    """7h.card.dead: « Sympathy cards for partner pieces which are already in 7th Heaven have
    no significance »: such a card may be played for nothing even when another card could
    act (here a Red +2 that seat 0 would rather not play)."""
    heaven = build()["heaven"]
    dead, live = num("blue", 3), num("red", 2)
    state = build(pieces={"blue": heaven}, hands={0: [dead, live]})
    moves = G.legal_moves(state, 0)
    assert {"type": "pass", "card": dead} in moves
    assert {"type": "pass", "card": live} not in moves
    after = allowed(state, 0, {"type": "pass", "card": dead})
    assert after["pieces"] == state["pieces"] and dead in after["discard"]
    assert after["last"]["rules"] == ["7h.card.dead"]
    refused(state, 0, {"type": "pass", "card": live}, "7h.turn.pass")


@pytest.mark.parametrize("seat", [True, False, 1.0, "0", None, -1, 9])
def test_a_seat_that_is_no_plain_int_is_refused_with_a_clause(seat):
    state = build(hands={0: [num("red", 3)]})
    assert G.legal_moves(state, seat) == []
    refused(state, seat, {"type": "move", "card": num("red", 3), "piece": "red"}, "7h.turn.wait")


def test_game_over():
    state = build(hands={0: [num("red", 3)]})
    state["phase"], state["turn"], state["end_reason"] = "over", None, "cards-out"
    refused(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"}, "7h.game.over")
    assert G.outcome(state) is not None
    live = build(hands={0: [num("red", 3)]})
    assert G.outcome(live) is None
    allowed(live, 0, {"type": "move", "card": num("red", 3), "piece": "red"})


@pytest.mark.parametrize(
    "move",
    [
        None,
        [],
        "move",
        {},
        {"type": "fly"},
        {"type": "move", "card": "3", "piece": "red"},
        {"type": "move", "card": True, "piece": "red"},
        {"type": "move", "card": 3.0, "piece": "red"},
        {"type": "move", "card": 3},
        {"type": "move", "card": 3, "piece": "red", "extra": 1},
        {"type": "move", "card": 3, "piece": "purple"},
        {"type": "move", "card": 3, "piece": ["red"]},
        {"type": "swap", "card": 3},
        {"type": "play", "card": special("mushroom"), "count": "2"},
        {"type": "play", "card": special("mushroom")},
        {"type": "play", "card": special("foot"), "piece": "red", "steps": True},
        {"type": "discard", "cards": [3, 1]},
        {"type": "discard", "cards": [1, 1]},
        {"type": "discard", "cards": "1,2"},
        {"type": "decline", "why": "no"},
    ],
)
def test_move_malformed(move):
    state = build(hands={0: [3, special("mushroom"), special("foot")]})
    with pytest.raises(IllegalMove) as err:
        G.apply(state, 0, move)
    assert err.value.rule == "7h.move.malformed"
    allowed(state, 0, {"type": "move", "card": 3, "piece": "red"})


def test_card_not_in_hand():
    state = build(hands={0: [num("red", 3)]})
    refused(
        state, 0, {"type": "move", "card": num("red", 4), "piece": "red"}, "7h.card.not-in-hand"
    )
    refused(state, 0, {"type": "move", "card": 999, "piece": "red"}, "7h.card.not-in-hand")
    allowed(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"})


def test_card_wrong_kind():
    heart, three = special("heart"), num("red", 3)
    state = build(hands={0: [heart, three]})
    refused(state, 0, {"type": "move", "card": heart, "piece": "red"}, "7h.card.wrong-kind")
    refused(state, 0, {"type": "swap", "card": heart, "give": "red"}, "7h.card.wrong-kind")
    refused(state, 0, {"type": "play", "card": three}, "7h.card.wrong-kind")
    allowed(state, 0, {"type": "play", "card": heart, "take": "blue", "give": "red"})


def test_first_card_must_be_a_forward_number():
    hand = [num("red", -1), arrow("red"), special("pepper"), num("blue", 3), num("white", 2)]
    state = build(first_card=True, hands={0: hand})
    rule = "7h.first.forward-number"
    refused(state, 0, {"type": "move", "card": num("red", -1), "piece": "red"}, rule)
    refused(state, 0, {"type": "move", "card": arrow("red"), "piece": "red"}, rule)
    refused(state, 0, {"type": "play", "card": special("pepper")}, rule)
    refused(state, 0, {"type": "swap", "card": num("blue", 3), "give": "red"}, rule)
    moves = G.legal_moves(state, 0)
    assert {m["card"] for m in moves} == {num("blue", 3), num("white", 2)}
    after = allowed(state, 0, {"type": "move", "card": num("white", 2), "piece": "grey"})
    assert after["first_card"] is False


# --- moving -------------------------------------------------------------------------------


def test_move_colour():
    state = build(hands={0: [num("red", 3), num("white", 3)]})
    refused(state, 0, {"type": "move", "card": num("red", 3), "piece": "blue"}, "7h.move.colour")
    after = allowed(state, 0, {"type": "move", "card": num("white", 3), "piece": "blue"})
    assert after["pieces"]["blue"] == 3
    after = allowed(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"})
    assert after["pieces"]["red"] == 3


def test_move_backward_limit():
    state = build(pieces={"red": 1, "blue": 3}, hands={0: [num("red", -2), num("white", -2)]})
    rule = "7h.move.backward-limit"
    refused(state, 0, {"type": "move", "card": num("red", -2), "piece": "red"}, rule)
    refused(state, 0, {"type": "move", "card": num("white", -2), "piece": "grey"}, rule)
    after = allowed(state, 0, {"type": "move", "card": num("white", -2), "piece": "blue"})
    assert after["pieces"]["blue"] == 1


def test_move_in_heaven():
    state = build(
        pieces={"green": 20, "red": 5},
        hands={0: [num("white", 1), num("green", 1), arrow("green")]},
    )
    rule = "7h.move.in-heaven"
    refused(state, 0, {"type": "move", "card": num("white", 1), "piece": "green"}, rule)
    refused(state, 0, {"type": "move", "card": num("green", 1), "piece": "green"}, rule)
    refused(state, 0, {"type": "move", "card": arrow("green"), "piece": "green"}, rule)
    allowed(state, 0, {"type": "move", "card": num("white", 1), "piece": "red"})


def test_move_surplus_stops_in_heaven():
    state = build(pieces={"blue": 18}, hands={0: [num("blue", 5)]})
    after = allowed(state, 0, {"type": "move", "card": num("blue", 5), "piece": "blue"})
    assert after["pieces"]["blue"] == 20
    assert "7h.move.surplus" in after["last"]["rules"]
    state = build(pieces={"blue": 10}, hands={0: [num("blue", 5)]})
    after = allowed(state, 0, {"type": "move", "card": num("blue", 5), "piece": "blue"})
    assert after["pieces"]["blue"] == 15 and "7h.move.surplus" not in after["last"]["rules"]


def test_move_sharing_a_space():
    """7h.move.sharing: a piece may end on an occupied space."""
    state = build(pieces={"blue": 3}, hands={0: [num("red", 3)]})
    after = allowed(state, 0, {"type": "move", "card": num("red", 3), "piece": "red"})
    assert after["pieces"]["red"] == after["pieces"]["blue"] == 3


# --- arrows -------------------------------------------------------------------------------


def test_arrow_next_piece():
    state = build(
        pieces={"red": 3, "blue": 7, "grey": 10}, hands={0: [arrow("red"), arrow("white")]}
    )
    after = allowed(state, 0, {"type": "move", "card": arrow("red"), "piece": "red"})
    assert after["pieces"]["red"] == 7
    assert "7h.arrow.next-piece" in after["last"]["rules"]
    after = allowed(state, 0, {"type": "move", "card": arrow("white"), "piece": "blue"})
    assert after["pieces"]["blue"] == 10


def test_arrow_nothing_ahead():
    state = build(pieces={"red": 12}, hands={0: [arrow("red"), arrow("white")]})
    refused(
        state, 0, {"type": "move", "card": arrow("red"), "piece": "red"}, "7h.arrow.nothing-ahead"
    )
    allowed(state, 0, {"type": "move", "card": arrow("white"), "piece": "blue"})


def test_arrow_heaven_ignored():
    """7h.arrow.heaven-ignored: a piece in Heaven is no target for an arrow."""
    state = build(pieces={"red": 15, "green": 20}, hands={0: [arrow("red")]})
    refused(
        state, 0, {"type": "move", "card": arrow("red"), "piece": "red"}, "7h.arrow.nothing-ahead"
    )
    state = build(pieces={"red": 15, "green": 20, "blue": 17}, hands={0: [arrow("red")]})
    after = allowed(state, 0, {"type": "move", "card": arrow("red"), "piece": "red"})
    assert after["pieces"]["red"] == 17


# --- swapping -----------------------------------------------------------------------------


def test_swap_coloured_only():
    state = build(hands={0: [num("white", 3), arrow("white"), num("blue", 3)]})
    rule = "7h.swap.coloured-only"
    refused(state, 0, {"type": "swap", "card": num("white", 3), "give": "red"}, rule)
    refused(state, 0, {"type": "swap", "card": arrow("white"), "give": "red"}, rule)
    allowed(state, 0, {"type": "swap", "card": num("blue", 3), "give": "red"})


def test_swap_effect_from_a_player_and_from_beside_the_board():
    state = build(hands={0: [num("blue", 3), arrow("green")]})
    after = allowed(state, 0, {"type": "swap", "card": num("blue", 3), "give": "red"})
    assert after["partners"]["0"] == ["blue"] and after["partners"]["1"] == ["red"]
    assert after["pieces"] == state["pieces"]
    assert after["last"]["swaps"] == [
        {"seat": 0, "take": "blue", "give": "red", "from": 1, "rule": "7h.swap.effect"}
    ]
    after = allowed(state, 0, {"type": "swap", "card": arrow("green"), "give": "red"})
    assert after["partners"]["0"] == ["green"] and after["spare"] == ["red", "pink"]


def test_swap_already_held():
    state = build(hands={0: [num("red", 3), num("blue", 3)]})
    refused(
        state, 0, {"type": "swap", "card": num("red", 3), "give": "red"}, "7h.swap.already-held"
    )
    allowed(state, 0, {"type": "swap", "card": num("blue", 3), "give": "red"})


def test_swap_give_own_with_two_partner_cards():
    state = build(2, hands={0: [num("grey", 3)]})
    refused(
        state, 0, {"type": "swap", "card": num("grey", 3), "give": "yellow"}, "7h.swap.give-own"
    )
    after = allowed(state, 0, {"type": "swap", "card": num("grey", 3), "give": "blue"})
    assert after["partners"] == {"0": ["red", "grey"], "1": ["blue", "yellow"]}


def test_swap_heaven_fixed():
    state = build(2, pieces={"red": 20}, hands={0: [num("grey", 3), num("green", 2)]})
    rule = "7h.swap.heaven-fixed"
    refused(state, 0, {"type": "swap", "card": num("grey", 3), "give": "red"}, rule)
    allowed(state, 0, {"type": "swap", "card": num("grey", 3), "give": "blue"})
    state = build(4, pieces={"green": 20}, hands={0: [num("green", 2), num("blue", 2)]})
    refused(state, 0, {"type": "swap", "card": num("green", 2), "give": "red"}, rule)
    allowed(state, 0, {"type": "swap", "card": num("blue", 2), "give": "red"})


# --- events -------------------------------------------------------------------------------


def _moved(state, seat, card_id, piece):
    return allowed(state, seat, {"type": "move", "card": card_id, "piece": piece})


def test_event_kiss():
    after = _moved(build(hands={0: [num("red", 2), num("red", 1)]}), 0, num("red", 2), "red")
    assert after["pieces"]["red"] == 5
    assert after["last"]["events"][0]["rule"] == "7h.event.kiss"
    after = _moved(build(hands={0: [num("red", 1)]}), 0, num("red", 1), "red")
    assert after["pieces"]["red"] == 1 and after["last"]["events"] == []


def test_event_montmartre():
    after = _moved(build(pieces={"red": 3}, hands={0: [num("red", 3)]}), 0, num("red", 3), "red")
    assert after["pieces"]["red"] == 9
    assert after["last"]["events"][0]["rule"] == "7h.event.montmartre"
    after = _moved(build(pieces={"red": 3}, hands={0: [num("red", 4)]}), 0, num("red", 4), "red")
    assert after["pieces"]["red"] == 7


def test_event_quarrel():
    after = _moved(build(pieces={"red": 11}, hands={0: [num("red", 2)]}), 0, num("red", 2), "red")
    assert after["pieces"]["red"] == 10
    assert after["last"]["events"][0]["rule"] == "7h.event.quarrel"
    after = _moved(build(pieces={"red": 11}, hands={0: [num("red", 1)]}), 0, num("red", 1), "red")
    assert after["pieces"]["red"] == 12


def test_event_disco_must_swap():
    state = build(pieces={"red": 1}, hands={0: [num("red", 3)]})
    waiting = _moved(state, 0, num("red", 3), "red")
    assert waiting["phase"] == "event-swap" and waiting["turn"] == 0
    assert G.view(waiting, None)["pending"]["must"] is True
    refused(waiting, 0, {"type": "decline"}, "7h.event.disco")
    assert {"type": "decline"} not in G.legal_moves(waiting, 0)
    done = allowed(waiting, 0, {"type": "event-swap", "take": "pink", "give": "red"})
    assert done["partners"]["0"] == ["pink"] and done["phase"] == "play" and done["turn"] == 1
    assert "red" in done["spare"]


@pytest.mark.parametrize(
    ("start", "space", "rule"), [(5, 8, "7h.event.carnival"), (11, 14, "7h.event.unlikely-pair")]
)
def test_event_may_swap(start, space, rule):
    state = build(pieces={"red": start}, hands={0: [num("red", 3)]})
    waiting = _moved(state, 0, num("red", 3), "red")
    assert waiting["pieces"]["red"] == space
    assert waiting["pending"]["rule"] == rule and waiting["pending"]["must"] is False
    declined = allowed(waiting, 0, {"type": "decline"})
    assert declined["partners"] == state["partners"] and declined["turn"] == 1
    swapped = allowed(waiting, 0, {"type": "event-swap", "take": "blue", "give": "red"})
    assert swapped["partners"]["0"] == ["blue"] and swapped["partners"]["1"] == ["red"]
    refused(
        waiting, 0, {"type": "event-swap", "take": "red", "give": "red"}, "7h.swap.already-held"
    )


def test_event_mover_acts_whoever_owns_the_piece_and_backwards():
    """7h.event.mover: seat 0 moves blue (seat 1's partner) onto 4, so seat 0 swaps."""
    state = build(pieces={"blue": 2, "grey": 8}, hands={0: [num("white", 2), num("white", -2)]})
    waiting = _moved(state, 0, num("white", 2), "blue")
    assert waiting["pending"]["seat"] == 0
    refused(waiting, 1, {"type": "event-swap", "take": "grey", "give": "blue"}, "7h.turn.wait")
    backwards = _moved(state, 0, num("white", -2), "grey")
    assert backwards["pieces"]["grey"] == 9  # landed on 6 going back: Montmartre


def test_event_once_for_several_pieces():
    state = build(
        pieces={c: 1 for c in ("red", "blue")}
        | {c: 9 for c in ("grey", "yellow", "green", "pink")},
        hands={0: [special("pepper")]},
    )
    waiting = allowed(state, 0, {"type": "play", "card": special("pepper")})
    assert waiting["pieces"]["red"] == waiting["pieces"]["blue"] == 4
    assert "7h.event.once" in waiting["last"]["rules"]
    done = allowed(waiting, 0, {"type": "event-swap", "take": "grey", "give": "red"})
    assert done["phase"] == "play" and done["turn"] == 1


def test_event_no_swap_possible():
    """7h.event.no-swap: every other card is fixed in Heaven, so nobody is asked."""
    fixed = {c: 20 for c in ("blue", "grey", "yellow", "green", "pink")}
    state = build(
        pieces={"red": 1, **fixed},
        hands={0: [num("red", 3), num("red", 4)]},
        places=[[1], [2], [3]],
        play_for_places=True,
    )
    after = _moved(state, 0, num("red", 3), "red")
    assert after["phase"] != "event-swap"
    assert after["last"]["events"][0]["skipped"] == "7h.event.no-swap"
    normal = _moved(build(pieces={"red": 1}, hands={0: [num("red", 3)]}), 0, num("red", 3), "red")
    assert normal["phase"] == "event-swap"


# --- special cards ------------------------------------------------------------------------


def test_heart():
    heart = special("heart")
    state = build(hands={0: [heart]})
    after = allowed(state, 0, {"type": "play", "card": heart, "take": "green", "give": "red"})
    assert after["partners"]["0"] == ["green"] and "7h.heart" in after["last"]["rules"]
    refused(
        state,
        0,
        {"type": "play", "card": heart, "take": "red", "give": "red"},
        "7h.swap.already-held",
    )
    refused(
        state,
        0,
        {"type": "play", "card": heart, "take": "blue", "give": "grey"},
        "7h.swap.give-own",
    )


def test_mushroom_count():
    mushroom = special("mushroom")
    state = build(hands={0: [mushroom]})
    rule = "7h.mushroom.count"
    for count in (0, 5, -1):
        refused(state, 0, {"type": "play", "card": mushroom, "count": count}, rule)
    after = allowed(state, 0, {"type": "play", "card": mushroom, "count": 4})
    assert len(after["hands"]["0"]) == 4 and len(after["deck"]) == len(state["deck"]) - 4
    assert after["last"]["drew"] == {"0": 4}
    short = build(hands={0: [mushroom]}, deck=[1, 2])
    refused(short, 0, {"type": "play", "card": mushroom, "count": 3}, rule)
    allowed(short, 0, {"type": "play", "card": mushroom, "count": 2})
    empty = build(hands={0: [mushroom, 5]}, deck=[])
    refused(empty, 0, {"type": "play", "card": mushroom, "count": 1}, rule)
    after = allowed(empty, 0, {"type": "play", "card": mushroom, "count": 0})
    assert after["hands"]["0"] == [5]


def test_three_cards_discard():
    three = special("three_cards")
    state = build(hands={0: [three, 1, 2, 3, 4], 1: [20, 21], 2: [], 3: [30, 31, 32, 33]})
    waiting = allowed(state, 0, {"type": "play", "card": three})
    assert waiting["phase"] == "discard"
    assert sorted(G.view(waiting, None)["pending"]["seats"]) == [0, 1, 3]
    assert G.legal_moves(waiting, 2) == []
    rule = "7h.three-cards.discard"
    refused(waiting, 0, {"type": "discard", "cards": [1, 2]}, rule)
    refused(waiting, 1, {"type": "discard", "cards": [20]}, rule)
    refused(waiting, 0, {"type": "discard", "cards": [1, 2, 30]}, "7h.card.not-in-hand")
    assert len(G.legal_moves(waiting, 3)) == 4
    after = allowed(waiting, 1, {"type": "discard", "cards": [20, 21]})
    assert after["hands"]["1"] == [] and after["phase"] == "discard"
    refused(after, 1, {"type": "discard", "cards": []}, "7h.turn.wait")


def test_three_cards_draw_in_seat_order_from_the_player():
    three = special("three_cards")
    state = build(
        turn=2, hands={0: [10, 11], 1: [], 2: [three, 1, 2, 3], 3: [30]}, deck=[50, 51, 52, 53, 54]
    )
    state = allowed(state, 2, {"type": "play", "card": three})
    for seat, cards in ((3, [30]), (0, [10, 11]), (2, [1, 2, 3])):
        assert state["phase"] == "discard"
        state = allowed(state, seat, {"type": "discard", "cards": cards})
    assert "7h.three-cards.draw" in state["last"]["rules"]
    assert state["hands"]["2"] == [50, 51, 52]
    assert state["hands"]["3"] == [53, 54]
    assert state["hands"]["0"] == [] and state["hands"]["1"] == []
    assert state["last"]["drew"] == {"2": 3, "3": 2}
    assert state["phase"] == "play" and state["turn"] == 3


def test_pepper():
    pepper = special("pepper")
    state = build(pieces={"grey": 5, "yellow": 7, "green": 20, "pink": 5}, hands={0: [pepper]})
    after = allowed(state, 0, {"type": "play", "card": pepper})
    assert after["pieces"]["red"] == after["pieces"]["blue"] == 3
    assert after["pieces"]["grey"] == 5 and after["pieces"]["green"] == 20
    assert "7h.pepper" in after["last"]["rules"]


def test_snail():
    snail = special("snail")
    state = build(pieces={"red": 20, "blue": 11, "grey": 11, "yellow": 3}, hands={0: [snail]})
    after = allowed(state, 0, {"type": "play", "card": snail})
    assert after["pieces"]["blue"] == after["pieces"]["grey"] == 9
    assert after["pieces"]["red"] == 20 and after["pieces"]["yellow"] == 3
    assert "7h.snail" in after["last"]["rules"]


def test_cloud():
    cloud = special("cloud")
    state = build(pieces={"blue": 16, "grey": 12}, hands={0: [cloud]})
    after = allowed(state, 0, {"type": "play", "card": cloud})
    assert after["pieces"]["blue"] == 10  # 13 is the quarrel: back to 10
    assert after["pieces"]["grey"] == 12 and "7h.cloud" in after["last"]["rules"]


def test_special_stop_at_start():
    cloud = special("cloud")
    state = build(pieces={"blue": 1}, hands={0: [cloud]})
    after = allowed(state, 0, {"type": "play", "card": cloud})
    assert after["pieces"]["blue"] == 0
    assert "7h.special.stop-at-start" in after["last"]["rules"]
    state = build(pieces={"blue": 8}, hands={0: [cloud]})
    after = allowed(state, 0, {"type": "play", "card": cloud})
    assert after["pieces"]["blue"] == 5 and "7h.special.stop-at-start" not in after["last"]["rules"]


def test_foot_steps():
    foot = special("foot")
    state = build(pieces={"blue": 9}, hands={0: [foot]})
    for steps in (0, 4):
        refused(
            state,
            0,
            {"type": "play", "card": foot, "piece": "blue", "steps": steps},
            "7h.foot.steps",
        )
    after = allowed(state, 0, {"type": "play", "card": foot, "piece": "blue", "steps": 3})
    assert after["pieces"]["blue"] == 12


def test_foot_first_piece_tied_leaders():
    foot = special("foot")
    state = build(pieces={"blue": 9, "grey": 9, "red": 20, "green": 3}, hands={0: [foot]})
    rule = "7h.foot.first-piece"
    refused(state, 0, {"type": "play", "card": foot, "piece": "green", "steps": 1}, rule)
    refused(state, 0, {"type": "play", "card": foot, "piece": "red", "steps": 1}, rule)
    for piece in ("blue", "grey"):
        after = allowed(state, 0, {"type": "play", "card": foot, "piece": piece, "steps": 1})
        assert after["pieces"][piece] == 10


def test_finger_own_piece():
    finger = special("finger")
    state = build(2, pieces={"red": 3, "blue": 5, "grey": 9}, hands={0: [finger]})
    refused(state, 0, {"type": "play", "card": finger, "piece": "grey"}, "7h.finger.own-piece")
    after = allowed(state, 0, {"type": "play", "card": finger, "piece": "red"})
    assert after["pieces"]["red"] == 5
    after = allowed(state, 0, {"type": "play", "card": finger, "piece": "blue"})
    assert after["pieces"]["blue"] == 9


def test_finger_next_piece_or_stays():
    finger = special("finger")
    state = build(pieces={"red": 3, "blue": 11}, hands={0: [finger]})
    after = allowed(state, 0, {"type": "play", "card": finger, "piece": "red"})
    assert after["pieces"]["red"] == 11 and "7h.finger.next-piece" in after["last"]["rules"]
    state = build(pieces={"red": 3, "grey": 3, "blue": 11}, hands={0: [finger]})
    after = allowed(state, 0, {"type": "play", "card": finger, "piece": "red"})
    assert after["pieces"]["red"] == 3 and finger in after["discard"]
    state = build(pieces={"red": 12, "blue": 20}, hands={0: [finger]})
    after = allowed(state, 0, {"type": "play", "card": finger, "piece": "red"})
    assert after["pieces"]["red"] == 12


# --- refilling ----------------------------------------------------------------------------


def test_refill_small_game_until_first_arrival():
    """7h.refill.small-game: refill to 12 each turn; the arriving turn refills a last time."""
    hand = [num("red", 1), *range(24, 35)]
    state = build(2, hands={0: hand, 1: list(range(40, 52))})
    assert state["refilling"] is True
    after = allowed(state, 0, {"type": "move", "card": num("red", 1), "piece": "red"})
    assert len(after["hands"]["0"]) == 12 and after["last"]["drew"] == {"0": 1}
    state = build(2, pieces={"red": 18}, hands={0: hand, 1: list(range(40, 52))})
    state["refilling"] = True
    after = allowed(state, 0, {"type": "move", "card": num("red", 1), "piece": "red"})
    assert after["pieces"]["red"] == 19
    after["hands"]["0"].append(num("red", 2))  # hand-crafted: give seat 0 a second red
    after["deck"].remove(num("red", 2))
    after["turn"] = 0
    last = allowed(after, 0, {"type": "move", "card": num("red", 2), "piece": "red"})
    assert last["pieces"]["red"] == 20 and len(last["hands"]["0"]) == 12
    assert last["refilling"] is False
    nxt = G.legal_moves(last, 1)[0]
    later = G.apply(last, 1, nxt)
    assert len(later["hands"]["1"]) == 11


def test_refill_option_for_four_to_six():
    """7h.refill.option: no refill with 4-6 players unless the table turns it on."""
    hand = [num("red", 1), num("red", 2)]
    plain = allowed(
        build(hands={0: hand}), 0, {"type": "move", "card": num("red", 1), "piece": "red"}
    )
    assert plain["hands"]["0"] == [num("red", 2)] and plain["refilling"] is False
    state = build(hands={0: hand}, refill=True)
    assert state["refilling"] is True
    after = allowed(state, 0, {"type": "move", "card": num("red", 1), "piece": "red"})
    assert len(after["hands"]["0"]) == 12


# --- the end ------------------------------------------------------------------------------


def test_end_heaven_wins_for_the_card_holder():
    """7h.end.heaven: seat 1 moves red in, seat 0 holds red and wins."""
    state = build(turn=1, pieces={"red": 17}, hands={1: [num("white", 3)]})
    after = allowed(state, 1, {"type": "move", "card": num("white", 3), "piece": "red"})
    result = G.outcome(after)
    assert result is not None and result.winners == [0] and result.reason == "heaven"
    assert after["last"]["arrivals"] == [{"piece": "red", "seat": 0, "rule": "7h.end.heaven"}]
    assert G.legal_moves(after, 2) == [] and G.view(after, None)["turn"] is None
    short = allowed(state, 1, {"type": "move", "card": num("white", 3), "piece": "blue"})
    assert G.outcome(short) is None


def test_end_unowned_arrival_goes_on():
    """7h.end.unowned-arrival: green's card lies beside the board; nobody wins yet."""
    state = build(pieces={"green": 18}, hands={0: [num("green", 2)]})
    after = allowed(state, 0, {"type": "move", "card": num("green", 2), "piece": "green"})
    assert G.outcome(after) is None and after["arrived"] == ["green"]
    assert after["last"]["arrivals"][0]["rule"] == "7h.end.unowned-arrival"
    assert after["turn"] == 1


def test_end_places_play_on():
    state = build(pieces={"red": 18}, hands={0: [num("red", 2), 1]}, play_for_places=True)
    after = allowed(state, 0, {"type": "move", "card": num("red", 2), "piece": "red"})
    assert G.outcome(after) is None and after["places"] == [[0]]
    assert "7h.end.places" in after["last"]["rules"]
    after["turn"] = 3
    after["hands"]["3"] = [num("yellow", 1)]
    nxt = allowed(after, 3, {"type": "move", "card": num("yellow", 1), "piece": "yellow"})
    assert nxt["turn"] == 1  # seat 0 is placed and skipped
    plain = build(pieces={"red": 18}, hands={0: [num("red", 2), 1]})
    assert G.outcome(allowed(plain, 0, {"type": "move", "card": num("red", 2), "piece": "red"}))


def test_end_both_in_heaven_small_game():
    """7h.end.both-in: with 2-3 players both own pieces must be in."""
    state = build(2, pieces={"red": 20, "blue": 17}, hands={0: [num("blue", 3), num("grey", 3)]})
    after = allowed(state, 0, {"type": "move", "card": num("blue", 3), "piece": "blue"})
    result = G.outcome(after)
    assert result.winners == [0] and result.reason == "both-in-heaven"
    one = build(2, pieces={"blue": 17}, hands={0: [num("blue", 3)]})
    after = allowed(one, 0, {"type": "move", "card": num("blue", 3), "piece": "blue"})
    assert G.outcome(after) is None


def test_end_cards_out_nearest_wins_with_ties():
    """7h.end.cards-out: nobody has a card left, the nearest partner piece wins."""
    state = build(
        pieces={"red": 10, "blue": 12, "grey": 12}, hands={0: [num("red", 1)], 1: [], 2: [], 3: []}
    )
    after = allowed(state, 0, {"type": "move", "card": num("red", 1), "piece": "red"})
    result = G.outcome(after)
    assert result.reason == "cards-out"
    assert result.ranking == [[1, 2], [0], [3]]
    assert result.scores == {0: 11, 1: 12, 2: 12, 3: 0}


def test_end_cards_out_small_game_first_arrival_wins():
    """7h.end.cards-out with 2 players: a piece in Heaven beats two pieces nearer on average."""
    state = build(2, pieces={"grey": 20, "red": 19, "blue": 19}, hands={0: [num("red", -1)], 1: []})
    after = allowed(state, 0, {"type": "move", "card": num("red", -1), "piece": "red"})
    result = G.outcome(after)
    assert result.reason == "cards-out" and result.ranking == [[1], [0]]
    nobody = build(
        2, pieces={"red": 14, "yellow": 12, "grey": 3}, hands={0: [num("red", 1)], 1: []}, deck=[]
    )
    result = G.outcome(allowed(nobody, 0, {"type": "move", "card": num("red", 1), "piece": "red"}))
    assert result.ranking == [[0], [1]]


# --- arbitrary input ----------------------------------------------------------------------

JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 120)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(
        ["red", "blue", "move", "swap", "play", "pass", "discard", "decline", "event-swap"]
    ),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
KEYS = st.sampled_from(["type", "card", "piece", "give", "take", "steps", "count", "cards", "x"])
MOVES = st.dictionaries(KEYS, JSONISH, max_size=5) | st.builds(
    lambda t, rest: {"type": t, **rest},
    st.sampled_from(["move", "swap", "play", "pass", "discard", "decline", "event-swap"]),
    st.dictionaries(
        KEYS,
        st.integers(-3, 100) | st.sampled_from(COLOURS) | st.lists(st.integers(0, 98), max_size=4),
        max_size=4,
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    move=MOVES | JSONISH,
    seat=st.integers(-1, 4),
    phase=st.sampled_from(["play", "discard", "event-swap"]),
)
def test_apply_only_ever_raises_illegal_move(move, seat, phase):
    state = G.setup(4, {}, 11)
    if phase == "discard":
        state["phase"] = "discard"
        state["pending"] = {"player": 0, "seats": [0, 1], "counts": {"0": 3, "1": 3}}
    elif phase == "event-swap":
        state["phase"] = "event-swap"
        state["pending"] = {
            "seat": 0,
            "space": 4,
            "must": True,
            "rule": "7h.event.disco",
            "queue": [],
        }
    try:
        G.apply(state, seat, move)
    except IllegalMove as err:
        assert err.rule in clauses("seventh-heaven")


# --- the catalogue ------------------------------------------------------------------------


def test_every_event_space_names_a_clause():
    from companion.games.seventh_heaven.data import EVENTS

    assert {event["rule"] for event in EVENTS.values()} <= set(clauses("seventh-heaven"))


def test_messages_fill_from_params():
    state = build(hands={0: [num("red", 3)]})
    err = refused(
        state, 0, {"type": "move", "card": num("red", 3), "piece": "blue"}, "7h.move.colour"
    )
    clause = clauses("seventh-heaven")["7h.move.colour"]
    for lang in ("en", "fr"):
        assert "{" not in clause[lang].format(**TABLE_PARAMS, **err.params)


# --- every refusal names its own clause -----------------------------------------------------

# When a move breaks several rules, the one named is the first of (docs/games/
# seventh-heaven.md, "Which rule a refusal names"): the game is over; the move's shape; no
# seat, or not this seat's turn; the moment of the turn; the card (in the hand, the opening
# card, its kind); then what the card does.


def _over() -> dict[str, Any]:
    state = build(hands={0: [num("red", 3)]})
    state["phase"], state["turn"], state["end_reason"] = "over", None, "cards-out"
    return state


def _disco() -> dict[str, Any]:
    return G.apply(build(pieces={"red": 1}, hands={0: [num("red", 3)]}), 0,
                   {"type": "move", "card": num("red", 3), "piece": "red"})


def _discarding() -> dict[str, Any]:
    three = special("three_cards")
    return G.apply(build(hands={0: [three, 1, 2, 3, 4], 1: [20, 21]}), 0,
                   {"type": "play", "card": three})


REFUSALS: dict[str, Any] = {
    "7h.game.over": lambda: (_over(), 0, {"type": "move", "card": num("red", 3),
                                          "piece": "red"}),
    "7h.move.malformed": lambda: (build(), 0, {"type": "fly"}),
    "7h.turn.wait": lambda: (build(hands={1: [num("red", 3)]}), 1,
                             {"type": "move", "card": num("red", 3), "piece": "red"}),
    "7h.turn.phase": lambda: (build(hands={0: [num("red", 3)]}), 0, {"type": "decline"}),
    "7h.card.not-in-hand": lambda: (build(hands={0: [num("red", 3)]}), 0,
                                    {"type": "move", "card": num("blue", 3), "piece": "blue"}),
    "7h.first.forward-number": lambda: (build(first_card=True,
                                              hands={0: [num("red", -1), num("blue", 3)]}),
                                        0, {"type": "move", "card": num("red", -1),
                                            "piece": "red"}),
    "7h.card.wrong-kind": lambda: (build(hands={0: [special("heart")]}), 0,
                                   {"type": "move", "card": special("heart"), "piece": "red"}),
    "7h.turn.pass": lambda: (build(hands={0: [num("red", -1), num("red", 2)]}), 0,
                             {"type": "pass", "card": num("red", -1)}),
    "7h.move.colour": lambda: (build(hands={0: [num("red", 3)]}), 0,
                               {"type": "move", "card": num("red", 3), "piece": "blue"}),
    "7h.move.in-heaven": lambda: (build(pieces={"green": 20}, hands={0: [num("white", 1)]}), 0,
                                  {"type": "move", "card": num("white", 1), "piece": "green"}),
    "7h.move.backward-limit": lambda: (build(pieces={"red": 1},
                                             hands={0: [num("red", -2)]}), 0,
                                       {"type": "move", "card": num("red", -2), "piece": "red"}),
    "7h.arrow.nothing-ahead": lambda: (build(pieces={"red": 12}, hands={0: [arrow("red")]}), 0,
                                       {"type": "move", "card": arrow("red"), "piece": "red"}),
    "7h.swap.coloured-only": lambda: (build(hands={0: [num("white", 3)]}), 0,
                                      {"type": "swap", "card": num("white", 3), "give": "red"}),
    "7h.swap.give-own": lambda: (build(2, hands={0: [num("grey", 3)]}), 0,
                                 {"type": "swap", "card": num("grey", 3), "give": "yellow"}),
    "7h.swap.already-held": lambda: (build(hands={0: [num("red", 3)]}), 0,
                                     {"type": "swap", "card": num("red", 3), "give": "red"}),
    "7h.swap.heaven-fixed": lambda: (build(2, pieces={"red": 20}, hands={0: [num("grey", 3)]}),
                                     0, {"type": "swap", "card": num("grey", 3), "give": "red"}),
    "7h.event.disco": lambda: (_disco(), 0, {"type": "decline"}),
    "7h.event.first": lambda: (_disco(), 0, {"type": "move", "card": num("red", 3),
                                             "piece": "red"}),
    "7h.three-cards.first": lambda: (_discarding(), 0, {"type": "move", "card": 1,
                                                        "piece": CARDS[1]["colour"]}),
    "7h.mushroom.count": lambda: (build(hands={0: [special("mushroom")]}), 0,
                                  {"type": "play", "card": special("mushroom"), "count": 5}),
    "7h.three-cards.discard": lambda: (_discarding(), 0, {"type": "discard", "cards": [1, 2]}),
    "7h.foot.steps": lambda: (build(pieces={"blue": 9}, hands={0: [special("foot")]}), 0,
                              {"type": "play", "card": special("foot"), "piece": "blue",
                               "steps": 4}),
    "7h.foot.first-piece": lambda: (build(pieces={"blue": 9, "green": 3},
                                          hands={0: [special("foot")]}), 0,
                                    {"type": "play", "card": special("foot"), "piece": "green",
                                     "steps": 1}),
    "7h.finger.own-piece": lambda: (build(2, pieces={"red": 3, "grey": 9},
                                          hands={0: [special("finger")]}), 0,
                                    {"type": "play", "card": special("finger"),
                                     "piece": "grey"}),
}


@pytest.mark.parametrize("rule", sorted(REFUSALS))
def test_each_refusal_clause_is_the_one_named(rule):
    state, seat, move = REFUSALS[rule]()
    refused(state, seat, move, rule)


def test_every_refusal_clause_has_its_example():
    assert set(REFUSALS) == move_refusal_clauses(G.id)


def test_where_two_rules_collide_the_first_in_the_order_is_named():
    refused(_over(), 5, {"type": "fly"}, "7h.game.over")
    refused(build(hands={1: [num("red", 3)]}), 1, {"type": "fly"}, "7h.move.malformed")
    # Not in hand and the wrong colour: the card comes first.
    refused(build(hands={0: [num("red", 3)]}), 0,
            {"type": "move", "card": num("blue", 3), "piece": "red"}, "7h.card.not-in-hand")
    # The opening card before what the card would do.
    refused(build(first_card=True, hands={0: [num("red", -2), num("blue", 3)]}), 0,
            {"type": "move", "card": num("red", -2), "piece": "red"}, "7h.first.forward-number")


# --- effects: what the rules did, each with its clause -------------------------------------


def test_every_effect_of_a_move_names_its_clause():
    """The Montmartre event, a partner swap decided at a swap event, an arrival in 7th Heaven
    and a special card's own rule each come with the move that caused them."""
    montmartre = _moved(build(pieces={"red": 3}, hands={0: [num("red", 3)]}), 0,
                        num("red", 3), "red")
    assert montmartre["effects"] == [{"space": 6, "rule": "7h.event.montmartre",
                                      "pieces": ["red"], "to": 9}]
    waiting = _moved(build(pieces={"red": 1}, hands={0: [num("red", 3)]}), 0,
                     num("red", 3), "red")
    assert waiting["effects"] == [{"space": 4, "rule": waiting["pending"]["rule"]}]
    swapped = allowed(waiting, 0, {"type": "event-swap", "take": "pink", "give": "red"})
    assert swapped["effects"] == [{"seat": 0, "take": "pink", "give": "red", "from": None,
                                   "rule": waiting["pending"]["rule"]}]
    arrived = _moved(build(pieces={"red": 18}, hands={0: [num("red", 3)]}), 0,
                     num("red", 3), "red")
    assert {"piece": "red", "seat": 0, "rule": "7h.end.heaven"} in arrived["effects"]
    pepper = allowed(build(hands={0: [special("pepper")]}), 0,
                     {"type": "play", "card": special("pepper")})
    assert {"rule": "7h.pepper"} in pepper["effects"]
    plain = _moved(build(hands={0: [num("red", 1)]}), 0, num("red", 1), "red")
    assert plain["effects"] == []


# --- why a dimmed card can't be played ----------------------------------------------------


def why(state: dict[str, Any], seat: int, chosen: dict[str, Any]) -> str:
    assert not [move for move in G.legal_moves(state, seat)
                if all(move.get(key) == value for key, value in chosen.items())]
    return G.why_not(state, seat, chosen).rule


def test_a_dimmed_special_card_on_the_first_turn_needs_a_forward_number():
    for name in ("heart", "mushroom", "foot", "finger"):
        state = build(first_card=True, hands={0: [special(name), num("red", 3)]})
        assert why(state, 0, {"card": special(name)}) == "7h.first.forward-number"


def test_a_dimmed_card_names_the_rule_of_its_likeliest_use():
    state = build(pieces={"red": 1}, hands={0: [num("red", -2), num("blue", 3)]})
    assert why(state, 0, {"card": num("red", -2)}) == "7h.move.backward-limit"
    state = build(pieces={"red": 12}, hands={0: [arrow("red"), num("blue", 3)]})
    assert why(state, 0, {"card": arrow("red")}) == "7h.arrow.nothing-ahead"
    state = build(2, pieces={"red": 3, "blue": 20, "grey": 9},
                  hands={0: [special("finger"), num("grey", 3)]},
                  partners={0: ["blue"], 1: ["grey", "yellow"]})
    assert why(state, 0, {"card": special("finger")}) == "7h.finger.own-piece"


def test_a_card_tapped_out_of_turn_or_during_a_decision_names_what_comes_first():
    state = build(hands={1: [num("red", 3)]})
    assert why(state, 1, {"card": num("red", 3)}) == "7h.turn.wait"
    disco = G.apply(build(pieces={"red": 1}, hands={0: [num("red", 3), num("blue", 2)]}), 0,
                    {"type": "move", "card": num("red", 3), "piece": "red"})
    refusal = G.why_not(disco, 0, {"card": num("blue", 2)})
    assert (refusal.rule, refusal.params) == ("7h.event.first", {"space": 4})
    refusal = G.why_not(_discarding(), 0, {"card": 1})
    assert (refusal.rule, refusal.params) == ("7h.three-cards.first", {"count": 3})


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), steps=st.integers(0, 60))
def test_every_card_no_legal_move_uses_has_a_rule_level_reason(seed, players, steps):
    state = G.setup(players, {}, seed)
    flagged = move_refusal_clauses(G.id) - {"7h.move.malformed"}
    for _ in range(steps):
        if state["phase"] == "over":
            break
        for seat in range(players):
            moves = G.legal_moves(state, seat)
            used = {move.get("card") for move in moves}
            for held in set(state["hands"][str(seat)]) - used:
                assert G.why_not(state, seat, {"card": held}).rule in flagged
        seat = next(s for s in range(players) if G.legal_moves(state, s))
        state = G.apply(state, seat, G.legal_moves(state, seat)[seed % len(
            G.legal_moves(state, seat))])
