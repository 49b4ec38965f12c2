"""SkyRunner: a refused and an allowed case for every rule clause, the rulebook's own
examples, and the catalogue.

States are built by hand from a fresh set-up (they are plain JSON), so each test shows
exactly the position it is about. With the default 12 rows of holes a section holds 11
positions: the lower section is levels 1-11, the middle 12-22, the upper 23-33 and the
roof is level 34; the ground is level 0, lane 0. Seat s plays colour ``COLOURS[s]``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.skyrunner import SkyRunner, building
from companion.games.skyrunner.data import (
    CARD_COUNT,
    CARDS,
    COLOURS,
    bid_of,
    cards_of,
    surprise_of,
)
from support.json_walk import keys_in, objects_in
from tests.rule_checks import (
    TABLE_PARAMS,
    RuleChecks,
    move_refusal_clauses,
    snapshot,
)

G = SkyRunner()
GAME = "skyrunner"
ROOF = 34

State = dict[str, Any]
Move = dict[str, Any]
UNSET: Any = object()


# --- cards --------------------------------------------------------------------------------


def bid(seat: int, value: int) -> int:
    """Seat ``seat``'s bid card of ``value``."""
    return bid_of(COLOURS[seat], value)


def bids(seat: int, *values: int) -> list[int]:
    """Seat ``seat``'s bid cards of ``values`` (all eight when none are named)."""
    return [bid(seat, value) for value in (values or range(1, 9))]


def surprise(seat: int) -> int:
    return surprise_of(COLOURS[seat])


def climb(value: int, nth: int = 0) -> int:
    """The ``nth`` climbing card of ``value`` (2-5)."""
    return cards_of("climb", value)[nth]


def equipment(nth: int = 0) -> int:
    return cards_of("equipment")[nth]


def lost(nth: int = 0) -> int:
    return cards_of("lost")[nth]


def sabotage(nth: int = 0) -> int:
    return cards_of("sabotage")[nth]


def fall(value: int) -> int:
    return cards_of("fall", value)[0]


def kit(seat: int, *extra: int) -> list[int]:
    """A hand: the seat's eight bids and its Surprise, plus ``extra``."""
    return [*bids(seat), surprise(seat), *extra]


# --- states -------------------------------------------------------------------------------


def build(
    players: int = 4,
    *,
    hands: dict[int, list[int]] | None = None,
    positions: dict[int, tuple[int, int]] | None = None,
    offer: Any = UNSET,
    holder: int = 0,
    used: dict[int, list[int]] | None = None,
    waiting: dict[int, list[int]] | None = None,
    deck: list[int] | None = None,
    discard: list[int] | None = None,
    **options: Any,
) -> State:
    """A round about to be chosen: seat s holds ``kit(s)`` (less its ``used`` cards) unless
    ``hands`` says otherwise and stands on the ground unless ``positions`` says otherwise;
    the offer is the last climbing 2 unless told. Every card not placed lies in the deck
    (sorted), or, when ``deck`` is given, in the discard pile."""
    state = G.setup(players, options, 7)
    seats = range(players)
    offer = climb(2, 5) if offer is UNSET else offer
    used = used or {}
    full = {seat: [c for c in kit(seat) if c not in used.get(seat, [])] for seat in seats}
    full.update(hands or {})
    state["hands"] = {str(seat): sorted(full[seat]) for seat in seats}
    state["used"] = {str(seat): sorted(used.get(seat, [])) for seat in seats}
    state["waiting"] = {str(seat): list((waiting or {}).get(seat, [])) for seat in seats}
    for seat, (level, lane) in (positions or {}).items():
        state["positions"][str(seat)] = {"level": level, "lane": lane}
    placed = [c for part in ("hands", "used", "waiting") for cards in state[part].values()
              for c in cards]
    placed += state["out"] + ([] if offer is None else [offer])
    rest = [c for c in range(CARD_COUNT) if c not in placed]
    if deck is None:
        discard = list(discard or [])
        deck = [c for c in rest if c not in discard]
    else:
        discard = [c for c in rest if c not in deck] if discard is None else list(discard)
    state.update(deck=list(deck), discard=discard, offer=offer, holder=holder,
                 phase="choose", revealed=False)
    assert_cards(state)
    return state


def assert_cards(state: State) -> None:
    """Every one of the 90 cards is in exactly one place."""
    places = [c for part in ("hands", "used", "waiting") for cards in state[part].values()
              for c in cards]
    places += state["deck"] + state["discard"] + state["out"] + list(state["played"].values())
    places += [] if state["offer"] is None else [state["offer"]]
    assert sorted(places) == list(range(CARD_COUNT))


CHECKS = RuleChecks(G)
offered, refused = CHECKS.offered, CHECKS.refused


def allowed(state: State, seat: int, move: Move) -> State:
    """``move`` is offered and applies, without touching ``state``; no card goes astray."""
    after = CHECKS.allowed(state, seat, move)
    assert_cards(after)
    return after


def choose(card: int) -> Move:
    return {"type": "choose", "card": card}


def play(state: State, picks: dict[int, int]) -> State:
    """Every seat in ``picks`` chooses its card, in seat order (the last one reveals)."""
    for seat, card in sorted(picks.items()):
        state = allowed(state, seat, choose(card))
    return state


def up(level: int, lane: int) -> Move:
    return {"type": "climb", "level": level, "lane": lane}


def spot(state: State, seat: int) -> tuple[int, int]:
    return building.position(state, seat)


def spots(state: State) -> dict[int, tuple[int, int]]:
    return {seat: spot(state, seat) for seat in range(state["players"])}


def hand(state: State, seat: int) -> list[int]:
    return state["hands"][str(seat)]


def climb_places(state: State, seat: int) -> dict[tuple[int, int], int]:
    """The climb decisions offered to ``seat`` now: {(level, lane): equipment needed}."""
    view = G.view(state, seat)
    offered = {(m["level"], m["lane"]) for m in G.legal_moves(state, seat)}
    places = {(c["level"], c["lane"]): c["equipment"] for c in view["climbs"]}
    assert set(places) == offered
    return places


def pending(state: State) -> tuple[int, str] | None:
    """(seat, kind) of the decision the round waits for."""
    waiting_for = state["pending"]
    return None if waiting_for is None else (waiting_for["seat"], waiting_for["kind"])


def at_climb(state: State, seat: int, card: int) -> State:
    """As if ``seat`` had just revealed the climbing card ``card`` (and everyone else a bid
    that won nothing): the round waits for its climb, whatever the options."""
    state = json.loads(json.dumps(state))
    hand(state, seat).remove(card)
    played = {str(other): bid(other, 1 + other) for other in range(state["players"])}
    for other in range(state["players"]):
        if other != seat:
            hand(state, other).remove(played[str(other)])
    played[str(seat)] = card
    state.update(phase="resolve", played=played, reveal=dict(played), order=[seat], step=0,
                 auction={"winner": None, "fall": False, "cancelled": []},
                 surprise={"taker": None, "cancelled": False, "players": []},
                 pending={"seat": seat, "kind": "climb", "card": card})
    assert_cards(state)
    return state


def discarded(before: State, after: State) -> list[int]:
    """The cards laid on the discard pile between ``before`` and ``after``, in order."""
    assert after["discard"][:len(before["discard"])] == before["discard"]
    return after["discard"][len(before["discard"]):]


def shown(view: Any) -> set[int]:
    """Every card id a view shows as a card (a dict with a ``kind``)."""
    kinds = {card["kind"] for card in CARDS}
    return {card["id"] for card in objects_in(view) if "id" in card and card.get("kind") in kinds}


# --- protocol basics ----------------------------------------------------------------------


def test_protocol_attributes_and_options():
    assert G.id == GAME
    assert (G.min_players, G.max_players) == (2, 5)
    assert G.choice_keys == ("card", "level", "type", "target", "lane")
    options = {option.key: option for option in G.options()}
    assert list(options) == ["lower_lanes", "middle_lanes", "upper_lanes", "levels", "deck"]
    assert (options["lower_lanes"].default, options["lower_lanes"].choices) == (
        "auto", ("auto", "1", "2", "3", "4", "5"))  # walls of 1 to 5 lanes (Contenu)
    assert (options["middle_lanes"].default, options["middle_lanes"].choices) == (
        "3", ("1", "2", "3", "4", "5"))
    assert (options["upper_lanes"].default, options["upper_lanes"].choices) == (
        "2", ("1", "2", "3", "4", "5"))
    assert (options["levels"].default, options["levels"].low, options["levels"].high) == (
        12, 6, 16)
    assert (options["deck"].default, options["deck"].choices) == ("app", ("app", "real"))
    for option in options.values():
        assert option.label["en"] and option.label["fr"]
        assert option.help["en"] and option.help["fr"]


def test_setup_is_json_and_seeded():
    state = G.setup(4, {}, 42)
    assert json.loads(json.dumps(state)) == state
    assert G.setup(4, {}, 42) == state
    assert G.setup(4, {}, 43)["deck"] != state["deck"]
    assert state["options"] == {"lower_lanes": "auto", "middle_lanes": "3", "upper_lanes": "2",
                                "levels": 12, "deck": "app"}
    assert state["round"] == 1 and state["winner"] is None and state["previous"] is None
    assert state["revealed"] is False and state["events"] == []
    assert state["choices"] == {"0": None, "1": None, "2": None, "3": None}
    assert_cards(state)


def test_setup_refuses_bad_player_counts_and_options():
    for players in (1, 6, 0, "3", True):
        with pytest.raises(ValueError):
            G.setup(players, {}, 1)
    for options in ({"deck": "pile"}, {"levels": 5}, {"levels": 17}, {"levels": True},
                    {"lower_lanes": "6"}, {"middle_lanes": "0"}, {"upper_lanes": "9"},
                    {"first_seat": 4}, {"first_seat": -1}, {"first_seat": True},
                    {"first_seat": "1"}):
        with pytest.raises(ValueError):
            G.setup(4, options, 1)


def test_apply_never_mutates_its_input():
    state = build(hands={0: kit(0, climb(3))})
    before = snapshot(state)
    chosen = G.apply(state, 0, choose(climb(3)))
    assert snapshot(state) == before and chosen is not state
    assert chosen["choices"]["0"] == climb(3) and state["choices"]["0"] is None
    revealed = play(chosen, {1: bid(1, 2), 2: bid(2, 3), 3: bid(3, 4)})
    assert pending(revealed) == (0, "climb")
    before = snapshot(revealed)
    after = G.apply(revealed, 0, up(3, 2))
    assert snapshot(revealed) == before and spot(after, 0) == (3, 2)
    assert spot(revealed, 0) == (0, 0)


def test_can_undo():
    """A choice is not taken back but changed, by choosing again (an undo would tell the
    others); not the move that reveals, nor one that turns the next card of the app's deck;
    a real deck's card entered may be taken back."""
    state = build(hands={0: kit(0, climb(3))})
    first = G.apply(state, 0, choose(bid(0, 5)))
    assert not G.can_undo(state, 0, choose(bid(0, 5)), first)
    changed = G.apply(first, 0, choose(climb(3)))
    assert changed["choices"]["0"] == climb(3)
    assert not G.can_undo(first, 0, choose(climb(3)), changed)
    almost = play(changed, {1: bid(1, 2), 2: bid(2, 3)})
    last = G.apply(almost, 3, choose(bid(3, 4)))
    assert last["phase"] == "resolve" and last["revealed"] is True
    assert not G.can_undo(almost, 3, choose(bid(3, 4)), last)
    climbed = G.apply(last, 0, up(3, 1))  # the round ends: the app turns the next card
    assert climbed["round"] == 2 and climbed["offer"] == state["deck"][0]
    assert not G.can_undo(last, 0, up(3, 1), climbed)
    real = G.setup(3, {"deck": "real"}, 1)
    turned = G.apply(real, 0, {"type": "turn", "card": climb(5)})
    assert G.can_undo(real, 0, {"type": "turn", "card": climb(5)}, turned)


def test_redact_move_hides_the_choice():
    """sr.round.hidden: the log shows that a seat chose, never which card, until the reveal."""
    state = build()
    move = choose(bid(1, 7))
    own = G.redact_move(state, 1, move, 1)
    assert own == move and own is not move
    for viewer in (0, 2, 3, None):
        assert G.redact_move(state, 1, move, viewer) == {"type": "choose"}
    # A changed choice: the others do not learn that it was made at all.
    chosen = G.apply(state, 1, move)
    again = choose(bid(1, 3))
    assert G.redact_move(chosen, 1, again, 1) == again
    for viewer in (0, 2, 3, None):
        assert G.redact_move(chosen, 1, again, viewer) is None
    for other in (up(3, 1), {"type": "sabotage", "target": 2, "lane": 1}, {"type": "keep"},
                  {"type": "turn", "card": 50}, {"type": "fall", "lane": 2}):
        for viewer in (0, 1, None):
            copy = G.redact_move(state, 1, other, viewer)
            assert copy == other and copy is not other


def test_views_hide_hands_used_stacks_and_choices():
    """sr.round.hidden: before the reveal the others see who has chosen, nothing more."""
    state = build(hands={0: kit(0, climb(3)), 2: kit(2, sabotage())},
                  used={1: [bid(1, 8)]}, waiting={3: [lost()]})
    state = play(state, {0: climb(3), 2: sabotage()})
    offer = climb(2, 5)
    table = G.view(state, None)
    assert table["chosen"] == [0, 2] and table["phase"] == "choose" and table["turn"] is None
    assert not keys_in(table) & {"hand", "used", "choice", "hands", "choices", "rng", "climbs"}
    assert shown(table) == {offer, lost()}
    assert table["hand_counts"] == {"0": 10, "1": 8, "2": 10, "3": 9}
    assert table["used_counts"] == {"0": 0, "1": 1, "2": 0, "3": 0}
    assert table["waiting"]["3"] == [CARDS[lost()]]
    assert table["deck_count"] == len(state["deck"]) and table["discard_count"] == 0
    for seat in range(4):
        view = G.view(state, seat)
        mine = set(hand(state, seat)) | set(state["used"][str(seat)])
        assert shown(view) == {offer, lost()} | mine
        assert [c["id"] for c in view["hand"]] == hand(state, seat)
        assert [c["id"] for c in view["used"]] == state["used"][str(seat)]
        choice = state["choices"][str(seat)]
        assert view["choice"] == (None if choice is None else CARDS[choice])
        for key in ("hand", "used", "choice", "seat"):
            view.pop(key)
        assert view == table
    swapped = json.loads(json.dumps(state))
    swapped["choices"]["0"] = bid(0, 8)
    swapped["hands"]["1"] = [c + 1 for c in hand(state, 1)]
    swapped["used"]["1"] = [bid(1, 1)]
    swapped["deck"].reverse()
    assert G.view(swapped, None) == table
    for seat in (2, 3):
        assert G.view(swapped, seat) == G.view(state, seat)
    revealed = play(state, {1: bid(1, 5), 3: bid(3, 2)})
    table = G.view(revealed, None)
    assert {seat: card["id"] for seat, card in table["played"].items()} == {
        "0": climb(3), "1": bid(1, 5), "2": sabotage(), "3": bid(3, 2)}
    assert table["chosen"] == [] and table["pending"] == {
        "seat": 0, "kind": "climb", "card": CARDS[climb(3)]}
    assert "climbs" not in G.view(revealed, 1) and len(G.view(revealed, 0)["climbs"]) == 13


# --- set-up -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_hands(players):
    """sr.setup.hands: bids 1-8, the Surprise, a climbing 3 and 4 and one equipment each;
    the unused colours' cards leave the game."""
    state = G.setup(players, {}, 5)
    for seat in range(players):
        assert hand(state, seat) == sorted(
            [*bids(seat), surprise(seat), climb(3, seat), climb(4, seat), equipment(seat)])
        assert state["used"][str(seat)] == [] and state["waiting"][str(seat)] == []
        assert state["colours"][seat] == COLOURS[seat]
    assert state["out"] == sorted([c for seat in range(players, 5) for c in bids(seat)]
                                  + [surprise(seat) for seat in range(players, 5)])
    assert len(state["out"]) == 9 * (5 - players)
    assert state["colours"] == list(COLOURS[:players])
    refused(state, 0, choose(bid(1, 3)), "sr.choose.not-in-hand")
    if players < 5:
        refused(state, 0, choose(surprise(4)), "sr.choose.not-in-hand")
    allowed(state, 0, choose(climb(3, 0)))


@pytest.mark.parametrize("deck", ["app", "real"])
def test_setup_deck(deck):
    """sr.setup.deck: 90 cards; everything but the hands and the unused colours is the deck."""
    assert CARD_COUNT == 90
    kinds: dict[str, int] = {}
    for c in CARDS:
        kinds[c["kind"]] = kinds.get(c["kind"], 0) + 1
    assert kinds == {"bid": 40, "surprise": 5, "climb": 25, "equipment": 12, "lost": 2,
                     "sabotage": 4, "fall": 2}
    climbs = [c["value"] for c in CARDS if c["kind"] == "climb"]
    assert {v: climbs.count(v) for v in range(2, 6)} == {2: 6, 3: 7, 4: 7, 5: 5}
    assert [c["value"] for c in CARDS if c["kind"] == "fall"] == [2, 3]
    assert all(c["id"] == i for i, c in enumerate(CARDS))
    state = G.setup(3, {"deck": deck}, 5)
    dealt = {c for cards in state["hands"].values() for c in cards} | set(state["out"])
    rest = [c for c in range(90) if c not in dealt]
    assert len(rest) == 90 - 3 * 12 - 18 == 36
    if deck == "app":
        assert state["phase"] == "choose" and state["offer"] is not None
        pile = [state["offer"], *state["deck"]]
        assert sorted(pile) == rest and pile != rest
        assert G.setup(3, {"deck": deck}, 6)["deck"] != state["deck"]
    else:
        assert state["phase"] == "turn" and state["offer"] is None
        assert state["deck"] == rest  # the table shuffles the real cards
    assert_cards(state)


@pytest.mark.parametrize(("players", "options", "lanes"), [
    (2, {}, [3, 3, 2]), (3, {}, [3, 3, 2]), (4, {}, [4, 3, 2]), (5, {}, [5, 3, 2]),
    (2, {"lower_lanes": "5", "middle_lanes": "4", "upper_lanes": "1"}, [5, 4, 1]),
    (5, {"lower_lanes": "3", "middle_lanes": "2", "upper_lanes": "3", "levels": 8}, [3, 2, 3]),
])
def test_setup_building(players, options, lanes):
    """sr.setup.building: the lower wall by the number of players unless the host chooses;
    the middle and upper faces are table options; everyone climbs the same face."""
    state = G.setup(players, options, 1)
    assert state["building"] == {"levels": options.get("levels", 12), "lanes": lanes}
    table = G.view(state, None)
    assert table["building"] == state["building"]
    assert table["per_section"] == options.get("levels", 12) - 1
    assert table["roof"] == 3 * (options.get("levels", 12) - 1) + 1


def test_setup_building_lanes_bound_the_climb():
    """sr.setup.building: with 3 lanes on the lower wall there is no lane 4 to climb."""
    state = at_climb(build(3, hands={0: kit(0, climb(3))}), 0, climb(3))
    err = refused(state, 0, up(1, 4), "sr.climb.blocked")
    assert err.params == {}
    assert max(lane for _, lane in climb_places(state, 0)) == 3
    after = allowed(state, 0, up(1, 3))
    assert spot(after, 0) == (1, 3)
    wide = at_climb(build(3, hands={0: kit(0, climb(3))}, lower_lanes="4"), 0, climb(3))
    assert spot(allowed(wide, 0, up(1, 4)), 0) == (1, 4)


def test_setup_start():
    """sr.setup.start: everyone on the ground; the host's first seat holds the deck."""
    for first in range(3):
        state = G.setup(3, {"first_seat": first}, 2)
        assert state["holder"] == first
        assert spots(state) == {0: (0, 0), 1: (0, 0), 2: (0, 0)}
        assert G.view(state, None)["holder"] == first
    assert G.setup(3, {}, 2)["holder"] == 0
    real = G.setup(3, {"deck": "real", "first_seat": 2}, 2)
    assert G.view(real, None)["turn"] == 2
    refused(real, 0, {"type": "turn", "card": climb(5)}, "sr.turn.wait")
    allowed(real, 2, {"type": "turn", "card": climb(5)})
    state = build(3, hands={1: kit(1, climb(4))})
    assert climb_places(at_climb(state, 1, climb(4)), 1)[(4, 3)] == 0  # all from the ground


# --- a round ------------------------------------------------------------------------------


def test_round_offer_app_deck():
    """sr.round.offer: the app turns the top card of the deck each round."""
    state = build(3, deck=[climb(5), equipment(5), sabotage()], offer=climb(4))
    assert G.view(state, None)["offer"] == CARDS[climb(4)]
    after = play(state, {0: bid(0, 8), 1: bid(1, 2), 2: bid(2, 3)})
    assert after["round"] == 2 and after["phase"] == "choose" and after["holder"] == 1
    assert after["offer"] == climb(5) and after["deck"] == [equipment(5), sabotage()]
    assert climb(4) in hand(after, 0)
    assert G.legal_moves(after, 1)[0]["type"] == "choose"
    refused(after, 1, {"type": "turn", "card": equipment(5)}, "sr.turn.phase")


def test_round_offer_real_deck():
    """sr.round.offer: with a real deck, the holder enters the card they turned."""
    state = G.setup(2, {"deck": "real", "first_seat": 1}, 3)
    assert state["phase"] == "turn" and state["offer"] is None
    assert G.legal_moves(state, 1) == [{"type": "turn", "card": c} for c in sorted(state["deck"])]
    assert G.legal_moves(state, 0) == []
    refused(state, 0, {"type": "turn", "card": climb(5)}, "sr.turn.wait")
    refused(state, 1, choose(bid(1, 3)), "sr.deck.first")
    after = allowed(state, 1, {"type": "turn", "card": fall(3)})
    assert after["offer"] == fall(3) and after["phase"] == "choose"
    assert fall(3) not in after["deck"] and len(after["deck"]) == len(state["deck"]) - 1
    assert G.view(after, 0)["offer"] == CARDS[fall(3)]
    # Alike cards are one and the same at the table: any Climb 2 still in the deck will do.
    twos = [c for c in state["deck"] if CARDS[c]["kind"] == "climb" and CARDS[c]["value"] == 2]
    assert len(twos) > 1
    for two in twos:
        assert allowed(state, 1, {"type": "turn", "card": two})["offer"] == two


def test_deck_not_in_deck():
    state = G.setup(2, {"deck": "real"}, 3)
    state["deck"].remove(lost(0))
    state["deck"].remove(lost(1))
    state["discard"] += [lost(0), lost(1)]
    err = refused(state, 0, {"type": "turn", "card": lost(0)}, "sr.deck.not-in-deck")
    assert err.params == {}
    refused(state, 0, {"type": "turn", "card": bid(0, 4)}, "sr.deck.not-in-deck")
    refused(state, 0, {"type": "turn", "card": climb(3, 0)}, "sr.deck.not-in-deck")
    assert {"type": "turn", "card": lost(0)} not in G.legal_moves(state, 0)
    after = allowed(state, 0, {"type": "turn", "card": sabotage()})
    assert after["offer"] == sabotage()


def test_round_choose():
    """sr.round.choose: a bid, the Surprise, a climbing card or a card won earlier, chosen
    secretly at the same time; a choice may change until the last player has chosen."""
    state = build(3, hands={0: kit(0, climb(3), sabotage(), lost()), 1: kit(1, equipment())})
    assert G.legal_moves(state, 0) == [choose(c) for c in
                                       [*bids(0), surprise(0), climb(3), lost(), sabotage()]]
    assert G.legal_moves(state, 1) == [choose(c) for c in [*bids(1), surprise(1)]]
    state = allowed(state, 2, choose(bid(2, 4)))
    state = allowed(state, 0, choose(sabotage()))
    state = allowed(state, 0, choose(lost()))
    assert state["choices"] == {"0": lost(), "1": None, "2": bid(2, 4)}
    assert choose(lost()) not in G.legal_moves(state, 0)
    assert state["phase"] == "choose" and sabotage() in hand(state, 0)
    state = allowed(state, 2, choose(surprise(2)))
    state = allowed(state, 1, choose(bid(1, 6)))
    assert state["phase"] == "resolve"
    assert state["played"] == {"0": lost(), "1": bid(1, 6), "2": surprise(2)}
    assert lost() not in hand(state, 0) and sabotage() in hand(state, 0)
    assert G.legal_moves(state, 1) == [] and pending(state) == (0, "target")
    refused(state, 0, choose(sabotage()), "sr.target.first")
    refused(state, 1, choose(bid(1, 5)), "sr.turn.wait")


def test_choose_not_in_hand():
    state = build(3, hands={0: kit(0, fall(2))}, used={1: [bid(1, 3)]})
    for card in (bid(1, 4), climb(3), bid(1, 3), equipment(9)):
        err = refused(state, 0, choose(card), "sr.choose.not-in-hand")
        assert err.params == {}
    refused(state, 1, choose(bid(1, 3)), "sr.choose.not-in-hand")  # on the used stack
    refused(state, 0, choose(fall(2)), "sr.choose.not-in-hand")  # never played alone
    allowed(state, 0, choose(bid(0, 4)))
    allowed(state, 1, choose(bid(1, 4)))


def test_choose_same():
    state = allowed(build(3), 0, choose(bid(0, 4)))
    refused(state, 0, choose(bid(0, 4)), "sr.choose.same")
    again = allowed(state, 0, choose(bid(0, 5)))
    assert again["choices"]["0"] == bid(0, 5)
    assert allowed(again, 0, choose(bid(0, 4)))["choices"]["0"] == bid(0, 4)


def test_round_reveal_in_seat_order_from_the_holder():
    """sr.round.reveal: the last choice reveals every card; they act in seat order from the
    deck holder; then the deck passes to the left."""
    state = build(3, holder=1, hands={s: kit(s, climb(3, s)) for s in range(3)},
                  deck=[climb(5), climb(4)])
    state = play(state, {0: climb(3, 0), 1: climb(3, 1)})
    assert state["phase"] == "choose" and state["played"] == {}
    state = allowed(state, 2, choose(climb(3, 2)))
    assert state["phase"] == "resolve" and state["order"] == [1, 2, 0]
    assert state["reveal"] == {"0": climb(3, 0), "1": climb(3, 1), "2": climb(3, 2)}
    assert pending(state) == (1, "climb")
    refused(state, 0, up(3, 1), "sr.turn.wait")
    refused(state, 2, up(3, 2), "sr.turn.wait")
    state = allowed(state, 1, up(3, 1))
    assert pending(state) == (2, "climb")
    state = allowed(state, 2, up(3, 2))
    assert pending(state) == (0, "climb")
    assert set(climb_places(state, 0)) == {(0, 0), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3)}
    state = allowed(state, 0, up(3, 3))
    assert state["holder"] == 2 and state["round"] == 2
    assert state["offer"] == climb(2, 5) and state["deck"] == [climb(5), climb(4)]  # no bid
    assert spots(state) == {0: (3, 3), 1: (3, 1), 2: (3, 2)}
    assert state["previous"]["played"] == {"0": climb(3, 0), "1": climb(3, 1),
                                           "2": climb(3, 2)}
    assert [e["seat"] for e in state["previous"]["events"]] == [1, 2, 0]
    later = build(3, holder=2)
    later = play(later, {0: bid(0, 1), 1: bid(1, 2), 2: bid(2, 3)})
    assert later["holder"] == 0


def test_round_hidden_until_the_reveal():
    """sr.round.hidden: the views before the reveal do not depend on what was chosen."""
    state = build(3, hands={1: kit(1, climb(4))})
    one = play(state, {0: bid(0, 2), 1: climb(4)})
    other = play(state, {0: surprise(0), 1: bid(1, 7)})
    for seat in (None, 2):
        assert G.view(one, seat) == G.view(other, seat)
    assert G.view(one, None)["chosen"] == [0, 1]
    assert G.view(one, 0)["choice"] == CARDS[bid(0, 2)]
    assert G.view(one, 0) != G.view(other, 0)
    assert G.view(one, 1)["choice"] == CARDS[climb(4)]
    revealed = allowed(one, 2, choose(bid(2, 2)))
    assert G.view(revealed, None)["played"]["1"] == CARDS[climb(4)]


def test_turn_wait():
    state = play(build(3, hands={1: kit(1, sabotage())}), {0: bid(0, 1), 1: sabotage(),
                                                             2: bid(2, 2)})
    assert pending(state) == (1, "target")
    move = {"type": "sabotage", "target": 0, "lane": 0}
    for seat in (0, 2):
        err = refused(state, seat, move, "sr.turn.wait")
        assert err.params == {}
        assert G.legal_moves(state, seat) == []
    allowed(state, 1, move)


def test_turn_phase():
    state = build(3, hands={0: kit(0, climb(3)), 1: kit(1, sabotage())})
    for move in (up(1, 1), {"type": "keep"}, {"type": "fall", "lane": 1},
                 {"type": "sabotage", "target": 1, "lane": 0}, {"type": "lost", "target": 1},
                 {"type": "turn", "card": climb(5)}):
        refused(state, 0, move, "sr.turn.phase")
    state = play(state, {0: climb(3), 1: sabotage(), 2: bid(2, 2)})
    assert pending(state) == (0, "climb")
    for move in ({"type": "keep"}, {"type": "fall", "lane": 1}, {"type": "lost", "target": 1}):
        refused(state, 0, move, "sr.turn.phase")
    for move in (choose(bid(0, 1)), {"type": "turn", "card": climb(5)}):
        refused(state, 0, move, "sr.climb.first")
    state = allowed(state, 0, up(2, 1))
    assert pending(state) == (1, "target")
    refused(state, 1, {"type": "keep"}, "sr.turn.phase")  # played from hand: no keeping
    refused(state, 1, {"type": "lost", "target": 0}, "sr.turn.phase")
    refused(state, 1, up(1, 1), "sr.turn.phase")
    allowed(state, 1, {"type": "sabotage", "target": 0, "lane": 0})


@pytest.mark.parametrize("move", [
    None, [], "choose", 3, {}, {"type": "fly"}, {"type": 3}, {"type": None},
    {"card": 3}, {"type": "choose"}, {"type": "choose", "card": 90},
    {"type": "choose", "card": -1}, {"type": "choose", "card": True},
    {"type": "choose", "card": "3"}, {"type": "choose", "card": 3.0},
    {"type": "choose", "card": 3, "x": 1}, {"type": "choose", 1: 3},
    {"type": "climb", "level": 1}, {"type": "climb", "level": 1, "lane": None},
    {"type": "climb", "level": False, "lane": 1}, {"type": "keep", "now": True},
    {"type": "sabotage", "target": 1}, {"type": "lost", "target": "1"},
    {"type": "fall"}, {"type": "turn", "card": 95}, {"type": "turn"},
])
def test_move_malformed(move):
    err = refused(build(3), 0, move, "sr.move.malformed")
    assert err.params["problem"]
    allowed(build(3), 0, choose(bid(0, 1)))


def test_game_over():
    state = build(2, hands={0: kit(0, climb(5), equipment())}, positions={0: (31, 1),
                                                                           1: (20, 2)})
    over = allowed(play(state, {0: climb(5), 1: bid(1, 3)}), 0, up(ROOF, 0))
    assert over["phase"] == "over" and G.outcome(over) is not None
    for seat in range(2):
        assert G.legal_moves(over, seat) == []
        for move in (choose(bid(seat, 1)), up(ROOF, 0), {"type": "keep"}, None):
            refused(over, seat, move, "sr.game.over")
    view = G.view(over, None)
    assert view["turn"] is None and view["winner"] == 0


# --- bidding ------------------------------------------------------------------------------


def test_rulebook_the_1_wins_when_6_6_and_4_4_cancel():
    """Rulebook example: A and B bid 6, C and D bid 4, E wins the climbing 3 with a 1."""
    offer = climb(3, 6)
    state = build(5, offer=offer, deck=[climb(5), equipment(9)])
    after = play(state, {0: bid(0, 6), 1: bid(1, 6), 2: bid(2, 4), 3: bid(3, 4), 4: bid(4, 1)})
    assert after["previous"]["auction"] == {"winner": 4, "fall": False,
        "offered": True, "cancelled": [4, 6]}
    assert hand(after, 4) == sorted([*bids(4, 2, 3, 4, 5, 6, 7, 8), surprise(4), offer])
    assert all(offer not in hand(after, seat) for seat in range(4))
    assert after["offer"] == climb(5) and after["round"] == 2
    assert after["previous"]["events"] == [{"kind": "won", "seat": 4, "card": offer}]
    assert after["used"] == {"0": [bid(0, 6)], "1": [bid(1, 6)], "2": [bid(2, 4)],
                             "3": [bid(3, 4)], "4": [bid(4, 1)]}


def test_bid_cancel():
    """sr.bid.cancel: the highest bid left wins; equal bids never do."""
    state = build(3, offer=equipment(9), deck=[climb(5)])
    after = play(state, {0: bid(0, 5), 1: bid(1, 8), 2: bid(2, 2)})
    assert after["previous"]["auction"] == {"winner": 1, "fall": False,
        "offered": True, "cancelled": []}
    assert equipment(9) in hand(after, 1)
    after = play(state, {0: bid(0, 8), 1: bid(1, 8), 2: bid(2, 2)})
    assert after["previous"]["auction"] == {"winner": 2, "fall": False,
        "offered": True, "cancelled": [8]}
    assert equipment(9) in hand(after, 2)
    assert equipment(9) not in hand(after, 0) + hand(after, 1)


def test_bid_all_cancel():
    """sr.bid.all-cancel: all bids cancelled, or no bid at all: the same card again."""
    state = build(2, offer=climb(5), deck=[climb(4), climb(3, 1)],
                  hands={1: kit(1, climb(3))})
    after = play(state, {0: bid(0, 5), 1: bid(1, 5)})
    assert after["previous"]["auction"] == {"winner": None, "fall": False,
        "offered": True, "cancelled": [5]}
    assert after["offer"] == climb(5) and after["deck"] == [climb(4), climb(3, 1)]
    assert climb(5) not in hand(after, 0) + hand(after, 1)
    assert after["used"] == {"0": [bid(0, 5)], "1": [bid(1, 5)]}
    nobody = play(state, {0: surprise(0), 1: climb(3)})
    nobody = allowed(nobody, 1, up(2, 1))
    assert nobody["previous"]["auction"]["winner"] is None
    assert nobody["offer"] == climb(5) and nobody["deck"] == [climb(4), climb(3, 1)]
    won = play(state, {0: bid(0, 5), 1: bid(1, 4)})
    assert won["offer"] == climb(4) and climb(5) in hand(won, 0)


def test_bid_used_come_back_only_with_no_bid_left():
    """sr.bid.used: used bids and the used Surprise lie before their owner and return, all
    of them, at the start of the round in which the player has no bid left."""
    state = build(2, hands={0: [bid(0, 8), surprise(0), climb(3)]},
                  used={0: bids(0, 1, 2, 3, 4, 5, 6, 7)})
    after = play(state, {0: surprise(0), 1: bid(1, 1)})
    assert hand(after, 0) == sorted([bid(0, 8), climb(3)])
    assert after["used"]["0"] == [*bids(0, 1, 2, 3, 4, 5, 6, 7), surprise(0)]
    assert G.legal_moves(after, 0) == [choose(bid(0, 8)), choose(climb(3))]
    assert not any(e["kind"] == "returned" for e in after["events"])
    assert climb(2, 5) in hand(after, 1) and after["offer"] == climb(2)
    after = play(after, {0: bid(0, 8), 1: bid(1, 2)})  # seat 0 wins the next climbing 2
    assert hand(after, 0) == sorted([*bids(0), surprise(0), climb(3), climb(2)])
    assert after["used"]["0"] == [] and after["used"]["1"] == [bid(1, 1), bid(1, 2)]
    assert after["events"][0] == {"kind": "returned", "seat": 0}
    table = G.view(after, None)
    assert table["used_counts"] == {"0": 0, "1": 2} and table["hand_counts"]["0"] == 11
    assert table["events"][0] == {"kind": "returned", "seat": 0}


# --- Surprise -----------------------------------------------------------------------------


def test_surprise_takes_the_climbing_cards_and_the_climbers_still_climb():
    """sr.surprise.takes: every climbing card played goes to the one Surprise's hand, after
    its players climbed with it; the Surprise goes on its owner's used stack."""
    state = build(3, hands={1: kit(1, climb(3)), 2: kit(2, climb(5))})
    state = play(state, {0: surprise(0), 1: climb(3), 2: climb(5)})
    assert state["surprise"] == {"taker": 0, "cancelled": False, "players": [0]}
    assert pending(state) == (1, "climb")
    state = allowed(state, 1, up(3, 1))
    state = allowed(state, 2, up(5, 2))
    assert spots(state) == {0: (0, 0), 1: (3, 1), 2: (5, 2)}
    assert hand(state, 0) == sorted([*bids(0), climb(3), climb(5)])
    assert state["used"]["0"] == [surprise(0)]
    assert climb(3) not in hand(state, 1) and climb(5) not in hand(state, 2)
    assert state["discard"] == []
    assert state["previous"]["events"][-1] == {"kind": "surprise", "seat": 0,
                                               "cards": [climb(3), climb(5)]}
    assert G.legal_moves(state, 0)[-2:] == [choose(climb(3)), choose(climb(5))]
    assert G.view(state, 2)["previous"]["events"][-1] == {
        "kind": "surprise", "seat": 0, "cards": [CARDS[climb(3)], CARDS[climb(5)]]}
    alone = play(build(3, hands={1: kit(1, climb(3))}),
                 {0: bid(0, 2), 1: climb(3), 2: bid(2, 5)})
    alone = allowed(alone, 1, up(3, 1))
    assert alone["discard"] == [climb(3)] and climb(3) not in hand(alone, 0)


def test_surprise_takes_no_equipment():
    """sr.surprise.takes (decision): equipment added to a climbing card is used up."""
    state = build(2, hands={1: kit(1, climb(4), equipment(3))}, positions={1: (10, 2)})
    state = play(state, {0: surprise(0), 1: climb(4)})
    assert climb_places(state, 1)[(14, 2)] == 1
    state = allowed(state, 1, up(14, 2))
    assert spot(state, 1) == (14, 2) and equipment(3) not in hand(state, 1)
    assert state["discard"] == [equipment(3)]
    assert hand(state, 0) == sorted([*bids(0), climb(4)])


def test_surprise_two_cancel():
    """sr.surprise.cancel: two Surprises take nothing; each goes on its owner's stack."""
    state = build(3, hands={2: kit(2, climb(4))})
    state = play(state, {0: surprise(0), 1: surprise(1), 2: climb(4)})
    assert state["surprise"] == {"taker": None, "cancelled": True, "players": [0, 1]}
    state = allowed(state, 2, up(4, 3))
    assert spot(state, 2) == (4, 3)
    assert state["discard"] == [climb(4)]
    assert hand(state, 0) == bids(0) and hand(state, 1) == bids(1)
    assert state["used"] == {"0": [surprise(0)], "1": [surprise(1)], "2": []}
    assert not any(e["kind"] == "surprise" for e in state["previous"]["events"])


# --- climbing -----------------------------------------------------------------------------


def bidding(players: int, *but: int) -> dict[int, int]:
    """Every seat but ``but`` bids its own seat number + 1 (no two bids alike)."""
    return {seat: bid(seat, seat + 1) for seat in range(players) if seat not in but}


def test_climb_move():
    """sr.climb.move: up to the card's value, one point a step up or sideways; the climber
    may stop anywhere on the way, never goes down, never overlaps another."""
    state = build(hands={0: kit(0, climb(2))}, positions={0: (5, 2)})
    state = play(state, {0: climb(2), **bidding(4, 0)})
    assert climb_places(state, 0) == {(5, 1): 0, (5, 2): 0, (5, 3): 0, (5, 4): 0, (6, 1): 0,
                                      (6, 2): 0, (6, 3): 0, (7, 2): 0}
    after = allowed(state, 0, up(6, 2))  # the second point is lost
    assert spot(after, 0) == (6, 2) and after["round"] == 2
    assert after["previous"]["events"][0] == {
        "kind": "climb", "seat": 0, "card": climb(2), "start": {"level": 5, "lane": 2},
        "end": {"level": 6, "lane": 2}, "equipment": 0}
    stay = allowed(state, 0, up(5, 2))
    assert spot(stay, 0) == (5, 2)
    crowded = build(hands={0: kit(0, climb(2))}, positions={0: (5, 2), 1: (7, 1)})
    crowded = play(crowded, {0: climb(2), **bidding(4, 0)})
    assert set(climb_places(crowded, 0)) == {(5, 1), (5, 2), (5, 3), (5, 4), (6, 2), (6, 3),
                                             (7, 2)}
    refused(crowded, 0, up(6, 1), "sr.climb.blocked")
    refused(crowded, 0, up(4, 2), "sr.climb.blocked")
    ground = at_climb(build(hands={1: kit(1, climb(3))}), 1, climb(3))
    assert climb_places(ground, 1) == {(0, 0): 0, **{(level, lane): 0 for level in (1, 2, 3)
                                                      for lane in (1, 2, 3, 4)}}


def test_climb_points():
    state = play(build(hands={0: kit(0, climb(2))}, positions={0: (5, 2)}),
                 {0: climb(2), **bidding(4, 0)})
    err = refused(state, 0, up(8, 2), "sr.climb.points")
    assert err.params == {"points": 2}
    refused(state, 0, up(6, 4), "sr.climb.points")
    allowed(state, 0, up(7, 2))


def test_climb_blocked():
    state = build(3, hands={0: kit(0, climb(4))}, positions={0: (5, 1), 1: (5, 2), 2: (7, 2)})
    state = play(state, {0: climb(4), 1: bid(1, 2), 2: bid(2, 3)})
    for place in ((7, 2), (6, 2), (8, 2), (5, 3), (6, 4), (4, 1), (0, 0)):
        err = refused(state, 0, up(*place), "sr.climb.blocked")
        assert err.params == {}
    # (5, 3): sideways steps never go through a climber, and nobody climbs down
    assert climb_places(state, 0) == {(5, 1): 0, (6, 1): 0, (7, 1): 0, (8, 1): 0, (9, 1): 0}
    assert spot(allowed(state, 0, up(9, 1)), 0) == (9, 1)


def test_climb_equipment():
    state = build(3, hands={0: kit(0, climb(3))}, positions={0: (10, 1)})
    state = play(state, {0: climb(3), 1: bid(1, 2), 2: bid(2, 3)})
    assert max(level for level, _ in climb_places(state, 0)) == 11
    for place in ((12, 1), (13, 2), (12, 3)):
        err = refused(state, 0, up(*place), "sr.climb.equipment")
        assert err.params == {"needs": 1}
    after = allowed(state, 0, up(11, 1))  # just under the ledge
    assert spot(after, 0) == (11, 1)
    geared = build(3, hands={0: kit(0, climb(3), equipment())}, positions={0: (10, 1)})
    geared = play(geared, {0: climb(3), 1: bid(1, 2), 2: bid(2, 3)})
    after = allowed(geared, 0, up(13, 2))
    assert spot(after, 0) == (13, 2) and equipment() in after["discard"]


def test_climb_ledge_then_any_lane():
    """sr.climb.ledge: one equipment card crosses the ledge; then any lane."""
    state = build(2, hands={0: kit(0, climb(2), equipment(0), equipment(1))},
                  positions={0: (11, 1)})
    state = play(state, {0: climb(2), 1: bid(1, 3)})
    assert climb_places(state, 0) == {(11, 1): 0, (11, 2): 0, (11, 3): 0, (12, 1): 1,
                                      (12, 2): 1, (12, 3): 1, (13, 1): 1, (13, 2): 1,
                                      (13, 3): 1}
    after = allowed(state, 0, up(12, 3))
    assert spot(after, 0) == (12, 3)
    assert hand(after, 0) == sorted([*bids(0), surprise(0), equipment(1)])
    assert after["discard"] == [equipment(0), climb(2)]
    assert after["previous"]["events"][0]["equipment"] == 1
    bare = play(build(2, hands={0: kit(0, climb(2))}, positions={0: (11, 1)}),
                {0: climb(2), 1: bid(1, 3)})
    assert climb_places(bare, 0) == {(11, 1): 0, (11, 2): 0, (11, 3): 0}
    refused(bare, 0, up(12, 3), "sr.climb.equipment")


def test_climb_pass_needs_equipment():
    """sr.climb.pass: straight up through a climber in your lane costs an equipment card."""
    where = {0: (23, 1), 1: (25, 1)}
    state = build(2, hands={0: kit(0, climb(4), equipment())}, positions=where,
                  upper_lanes="1")
    state = play(state, {0: climb(4), 1: bid(1, 3)})
    assert climb_places(state, 0) == {(23, 1): 0, (27, 1): 1}
    after = allowed(state, 0, up(27, 1))
    assert spots(after) == {0: (27, 1), 1: (25, 1)} and equipment() in after["discard"]
    bare = build(2, hands={0: kit(0, climb(4))}, positions=where, upper_lanes="1")
    stuck = play(bare, {0: climb(4), 1: bid(1, 3)})
    assert stuck["round"] == 2 and spot(stuck, 0) == (23, 1)
    assert stuck["previous"]["events"] == [{"kind": "stuck", "seat": 0, "card": climb(4)},
                                           {"kind": "won", "seat": 1, "card": climb(2, 5)}]
    err = refused(at_climb(bare, 0, climb(4)), 0, up(27, 1), "sr.climb.equipment")
    assert err.params == {"needs": 1}


def test_climb_pass_needs_a_card_of_4():
    """sr.climb.pass: passing needs a climbing card of at least 4, even when 3 steps would
    carry the climber past (here onto the roof, through a climber at the top)."""
    where = {0: (31, 1), 1: (33, 1)}
    three = build(2, hands={0: kit(0, climb(3), equipment(0), equipment(1))}, positions=where,
                  upper_lanes="1")
    stuck = play(three, {0: climb(3), 1: bid(1, 3)})
    assert stuck["phase"] == "choose" and spot(stuck, 0) == (31, 1)
    err = refused(at_climb(three, 0, climb(3)), 0, up(ROOF, 0), "sr.climb.pass")
    assert err.params == {}
    four = build(2, hands={0: kit(0, climb(4), equipment(0), equipment(1))}, positions=where,
                 upper_lanes="1")
    four = play(four, {0: climb(4), 1: bid(1, 3)})
    assert climb_places(four, 0) == {(31, 1): 0, (ROOF, 0): 2}
    over = allowed(four, 0, up(ROOF, 0))
    assert over["winner"] == 0 and over["discard"] == [equipment(0), equipment(1)]


def test_climb_pass_over_a_ledge_needs_two_equipment():
    """sr.climb.pass: crossing a ledge and passing in the same turn takes two cards."""
    where = {0: (10, 1), 1: (12, 1), 2: (13, 2)}
    lower = {(10, 1): 0, (10, 2): 0, (10, 3): 0, (11, 1): 0, (11, 2): 0, (11, 3): 0}
    one = build(3, hands={0: kit(0, climb(4), equipment(0))}, positions=where,
                middle_lanes="2")
    one = play(one, {0: climb(4), 1: bid(1, 2), 2: bid(2, 3)})
    assert climb_places(one, 0) == lower
    err = refused(one, 0, up(14, 1), "sr.climb.equipment")
    assert err.params == {"needs": 2}
    two = build(3, hands={0: kit(0, climb(4), equipment(0), equipment(1))}, positions=where,
                middle_lanes="2")
    two = play(two, {0: climb(4), 1: bid(1, 2), 2: bid(2, 3)})
    assert climb_places(two, 0) == {**lower, (14, 1): 2}
    after = allowed(two, 0, up(14, 1))
    assert spot(after, 0) == (14, 1) and hand(after, 0) == sorted([*bids(0), surprise(0)])
    assert after["discard"][:2] == [equipment(0), equipment(1)]


def test_climb_round_a_free_lane_needs_no_equipment():
    """sr.climb.pass: going round through a free lane is free; passing straight is not."""
    state = build(2, hands={0: kit(0, climb(4))}, positions={0: (1, 1), 1: (3, 1)})
    state = play(state, {0: climb(4), 1: bid(1, 3)})
    places = climb_places(state, 0)
    assert places[(4, 2)] == 0 and (4, 1) not in places and (5, 1) not in places
    assert set(places.values()) == {0}
    after = allowed(state, 0, up(4, 2))
    assert spots(after) == {0: (4, 2), 1: (3, 1)}
    err = refused(state, 0, up(5, 1), "sr.climb.equipment")
    assert err.params == {"needs": 1}
    geared = build(2, hands={0: kit(0, climb(4), equipment())}, positions={0: (1, 1),
                                                                          1: (3, 1)})
    geared = play(geared, {0: climb(4), 1: bid(1, 3)})
    assert climb_places(geared, 0)[(5, 1)] == 1 and climb_places(geared, 0)[(4, 2)] == 0
    assert spot(allowed(geared, 0, up(5, 1)), 0) == (5, 1)


LEDGE_LANE_BUG = ("engine: building.climbs treats the lane chosen over a ledge as a sideways "
                  "step, so it cannot be taken while passing")


def test_climb_pass_at_the_top_then_any_lane_after_the_ledge():
    """sr.climb.ledge + sr.climb.pass: straight up through a climber at the top of a section,
    over the ledge, then on in any lane: 4 steps and two equipment cards to (13, 2)."""
    state = build(2, hands={0: kit(0, climb(4), equipment(0), equipment(1))},
                  positions={0: (9, 1), 1: (11, 1)})
    state = play(state, {0: climb(4), 1: bid(1, 3)})
    places = climb_places(state, 0)
    assert places[(13, 1)] == 2
    assert places[(13, 2)] == 2 and places[(13, 3)] == 2


def test_climb_ledge_into_any_lane_then_pass():
    """sr.climb.ledge + sr.climb.pass: over the ledge into lane 2, then straight up through
    the climber standing there: 4 steps and two equipment cards, as in lane 1."""
    state = build(3, hands={0: kit(0, climb(4), equipment(0), equipment(1))},
                  positions={0: (10, 1), 1: (12, 1), 2: (12, 2)}, middle_lanes="2")
    state = play(state, {0: climb(4), 1: bid(1, 2), 2: bid(2, 3)})
    places = climb_places(state, 0)
    assert places[(14, 1)] == 2
    assert places[(14, 2)] == 2


def test_equipment_with_climb():
    """sr.equipment.with-climb: equipment is never chosen; it joins a climbing card."""
    state = build(2, hands={0: kit(0, climb(2), equipment())}, positions={0: (11, 2)})
    err = refused(state, 0, choose(equipment()), "sr.equipment.with-climb")
    assert err.params == {}
    assert choose(equipment()) not in G.legal_moves(state, 0)
    state = play(state, {0: climb(2), 1: bid(1, 3)})
    assert climb_places(state, 0)[(13, 2)] == 1
    after = allowed(state, 0, up(13, 2))
    assert after["discard"] == [equipment(), climb(2)]


@pytest.mark.parametrize("gear", [False, True])
def test_climb_below_ledge(gear):
    """sr.climb.below-ledge: sabotaged back under the ledge, without equipment the climber
    stops just under it."""
    extra = [equipment()] if gear else []
    state = build(2, hands={0: kit(0, sabotage()), 1: kit(1, climb(5), *extra)},
                  positions={1: (13, 2)})
    state = play(state, {0: sabotage(), 1: climb(5)})
    assert G.legal_moves(state, 0) == [{"type": "sabotage", "target": 1, "lane": lane}
                                       for lane in (1, 2, 3)]
    state = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 2})
    assert spot(state, 1) == (10, 2) and pending(state) == (1, "climb")
    places = climb_places(state, 1)
    lower = {(level, lane): 0 for level in (10, 11) for lane in (1, 2, 3)}
    if not gear:
        assert places == lower
        err = refused(state, 1, up(12, 2), "sr.climb.equipment")
        assert err.params == {"needs": 1}
        after = allowed(state, 1, up(11, 2))
        assert spot(after, 1) == (11, 2)
    else:
        assert places == {**lower, **{(level, lane): 1 for level in (12, 13, 14, 15)
                                      for lane in (1, 2, 3)}}
        after = allowed(state, 1, up(15, 2))
        assert spot(after, 1) == (15, 2)


# --- cards against a player ---------------------------------------------------------------


def test_target_opponent():
    state = build(3, hands={1: kit(1, sabotage()), 2: kit(2, lost())},
                  positions={0: (8, 2)})
    state = play(state, {0: bid(0, 1), 1: sabotage(), 2: lost()})
    assert pending(state) == (1, "target")
    assert G.legal_moves(state, 1) == [{"type": "sabotage", "target": 0, "lane": 2},
                                       {"type": "sabotage", "target": 2, "lane": 0}]
    for target in (1, 3, -1):
        err = refused(state, 1, {"type": "sabotage", "target": target, "lane": 0},
                      "sr.target.opponent")
        assert err.params == {}
    state = allowed(state, 1, {"type": "sabotage", "target": 0, "lane": 2})
    assert spot(state, 0) == (5, 2) and pending(state) == (2, "target")
    assert G.legal_moves(state, 2) == [{"type": "lost", "target": 0},
                                       {"type": "lost", "target": 1}]
    refused(state, 2, {"type": "lost", "target": 2}, "sr.target.opponent")
    after = allowed(state, 2, {"type": "lost", "target": 1})
    assert after["waiting"]["1"] == [lost()]


@pytest.mark.parametrize("use", [False, True])
def test_won_use_or_keep(use):
    """sr.won.use-or-keep: a sabotage won at auction acts now or waits in hand."""
    state = build(3, offer=sabotage(), positions={0: (8, 2)}, deck=[climb(5)])
    state = play(state, {0: bid(0, 1), 1: bid(1, 2), 2: bid(2, 8)})
    assert pending(state) == (2, "won")
    assert G.legal_moves(state, 2) == [{"type": "sabotage", "target": 0, "lane": 2},
                                       {"type": "sabotage", "target": 1, "lane": 0},
                                       {"type": "keep"}]
    refused(state, 2, {"type": "lost", "target": 0}, "sr.turn.phase")
    if use:
        after = allowed(state, 2, {"type": "sabotage", "target": 0, "lane": 2})
        assert spot(after, 0) == (5, 2) and sabotage() not in hand(after, 2)
        assert discarded(state, after) == [sabotage()]
        return
    after = allowed(state, 2, {"type": "keep"})
    assert spot(after, 0) == (8, 2) and sabotage() in hand(after, 2)
    assert after["offer"] == climb(5) and discarded(state, after) == []
    assert after["previous"]["events"] == [{"kind": "won", "seat": 2, "card": sabotage()},
                                           {"kind": "kept", "seat": 2}]
    assert choose(sabotage()) in G.legal_moves(after, 2)
    later = play(after, {0: bid(0, 2), 1: bid(1, 3), 2: sabotage()})
    assert pending(later) == (2, "target")
    later = allowed(later, 2, {"type": "sabotage", "target": 0, "lane": 2})
    assert spot(later, 0) == (5, 2)


def test_won_lost_equipment_use_or_keep():
    """sr.won.use-or-keep: the same for lost equipment."""
    state = build(2, offer=lost(), hands={0: kit(0, equipment(4))})
    state = play(state, {0: bid(0, 1), 1: bid(1, 2)})
    assert G.legal_moves(state, 1) == [{"type": "lost", "target": 0}, {"type": "keep"}]
    refused(state, 1, {"type": "sabotage", "target": 0, "lane": 0}, "sr.turn.phase")
    used = allowed(state, 1, {"type": "lost", "target": 0})
    assert equipment(4) not in hand(used, 0) and used["discard"] == [equipment(4), lost()]
    kept = allowed(state, 1, {"type": "keep"})
    assert lost() in hand(kept, 1) and equipment(4) in hand(kept, 0)


def test_lost_equipment():
    """sr.lost: the opponent discards an equipment card; with none, the card waits and takes
    the next equipment card they gain (not any other card)."""
    start = build(3, hands={0: kit(0, lost(0), lost(1)), 1: kit(1, equipment(1))},
                  offer=climb(5), deck=[climb(4), climb(3, 6), equipment(7), climb(5, 4)])
    state = play(start, {0: lost(0), 1: bid(1, 2), 2: bid(2, 1)})
    state = allowed(state, 0, {"type": "lost", "target": 1})
    assert equipment(1) not in hand(state, 1)
    assert discarded(start, state) == [equipment(1), lost(0)]
    assert state["previous"]["events"][0] == {"kind": "lost", "seat": 0, "target": 1,
                                              "waits": False}
    before = state
    state = play(state, {0: lost(1), 1: bid(1, 3), 2: bid(2, 2)})
    state = allowed(state, 0, {"type": "lost", "target": 2})
    assert state["waiting"]["2"] == [lost(1)] and discarded(before, state) == []
    assert state["previous"]["events"][-1] == {"kind": "lost", "seat": 0, "target": 2,
                                               "waits": True}
    assert G.view(state, 1)["waiting"]["2"] == [CARDS[lost(1)]]
    state = play(state, {0: bid(0, 1), 1: bid(1, 4), 2: bid(2, 8)})  # a climbing 3: kept
    assert climb(3, 6) in hand(state, 2) and state["waiting"]["2"] == [lost(1)]
    before = state
    state = play(state, {0: bid(0, 2), 1: bid(1, 5), 2: bid(2, 7)})  # equipment: taken
    assert state["waiting"]["2"] == [] and equipment(7) not in hand(state, 2)
    assert discarded(before, state) == [equipment(7), lost(1)]
    assert state["previous"]["events"][-1] == {"kind": "taken", "seat": 2,
                                               "card": equipment(7), "by": lost(1)}


def test_sabotage():
    """sr.sabotage: 3 levels straight down, no further than the ground; past a ledge the
    saboteur picks straight on or the lane beside."""
    state = build(hands={0: kit(0, sabotage())}, positions={1: (8, 2), 2: (2, 1),
                                                             3: (13, 3)})
    state = play(state, {0: sabotage(), **bidding(4, 0)})
    assert G.legal_moves(state, 0) == [
        {"type": "sabotage", "target": 1, "lane": 2}, {"type": "sabotage", "target": 2,
                                                       "lane": 0},
        {"type": "sabotage", "target": 3, "lane": 2}, {"type": "sabotage", "target": 3,
                                                       "lane": 3},
        {"type": "sabotage", "target": 3, "lane": 4}]
    one = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 2})
    assert spots(one) == {0: (0, 0), 1: (5, 2), 2: (2, 1), 3: (13, 3)}
    assert one["previous"]["events"][0] == {
        "kind": "sabotage", "seat": 0, "target": 1,
        "falls": [{"seat": 1, "from": {"level": 8, "lane": 2}, "to": {"level": 5, "lane": 2}}]}
    assert one["discard"] == [sabotage()]
    two = allowed(state, 0, {"type": "sabotage", "target": 2, "lane": 0})
    assert spot(two, 2) == (0, 0)
    three = allowed(state, 0, {"type": "sabotage", "target": 3, "lane": 4})
    assert spot(three, 3) == (10, 4)


def test_drop_lanes_past_a_ledge():
    """sr.sabotage: past a ledge, straight on or beside; where straight down does not exist,
    the nearest lane stands for it."""
    state = build(5, middle_lanes="4", lower_lanes="3",
                  positions={0: (13, 4), 1: (13, 1), 2: (24, 2), 3: (24, 1), 4: (15, 4)})
    assert building.drop_lanes(state, 0, 3) == [2, 3]
    assert building.drop_lanes(state, 1, 3) == [1, 2]
    assert building.drop_lanes(state, 2, 3) == [1, 2, 3]
    assert building.drop_lanes(state, 3, 3) == [1, 2]
    assert building.drop_lanes(state, 4, 3) == [4]
    assert building.drop_lanes(state, 1, 2) == [1, 2]
    assert building.drop_lanes(state, 4, 15) == [0]


def test_drop_lane():
    state = build(hands={0: kit(0, sabotage())}, positions={1: (8, 2), 3: (13, 3)})
    state = play(state, {0: sabotage(), **bidding(4, 0)})
    for target, lane in ((1, 1), (1, 3), (1, 0), (3, 1), (3, 5), (3, 0)):
        err = refused(state, 0, {"type": "sabotage", "target": target, "lane": lane},
                      "sr.drop.lane")
        assert err.params == {}
    allowed(state, 0, {"type": "sabotage", "target": 3, "lane": 2})


def test_ground_sabotage_discards_the_lowest_climbing_card_of_3():
    """sr.ground: already on the ground, the victim gives up a climbing card of at least 3:
    the lowest such."""
    state = build(2, hands={0: kit(0, sabotage()), 1: kit(1, climb(2), climb(5), climb(3))})
    state = play(state, {0: sabotage(), 1: bid(1, 1)})
    assert G.legal_moves(state, 0) == [{"type": "sabotage", "target": 1, "lane": 0}]
    after = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 0})
    assert hand(after, 1) == sorted([*bids(1, 2, 3, 4, 5, 6, 7, 8), surprise(1), climb(2),
                                     climb(5), climb(2, 5)])
    assert after["discard"] == [climb(3), sabotage()] and after["waiting"]["1"] == []
    assert after["previous"]["events"][1] == {"kind": "ground", "seat": 1, "card": sabotage(),
                                              "discarded": climb(3)}


def test_ground_sabotage_waits_for_a_climbing_card_of_3():
    """sr.ground: with none, the sabotage waits and takes the next such card gained."""
    state = build(2, hands={0: kit(0, sabotage(), climb(4)), 1: kit(1, climb(2))},
                  offer=climb(2, 4), deck=[climb(3, 3), climb(5)])
    state = play(state, {0: sabotage(), 1: bid(1, 1)})
    state = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 0})
    assert state["waiting"]["1"] == [sabotage()] and climb(2) in hand(state, 1)
    assert climb(2, 4) in hand(state, 1)  # won: a 2 is not enough
    before = state
    state = play(state, {0: bid(0, 1), 1: bid(1, 2)})  # seat 1 wins the 3: taken
    assert state["waiting"]["1"] == [] and climb(3, 3) not in hand(state, 1)
    assert discarded(before, state) == [climb(3, 3), sabotage()]
    state = play(state, {0: bid(0, 2), 1: bid(1, 3)})
    assert climb(5) in hand(state, 1)


@pytest.mark.parametrize(("cards", "gone", "waits"), [
    ([climb(2), climb(3), climb(4)], climb(3), False),
    ([climb(2), climb(5)], climb(5), False),
    ([climb(2)], None, True),
])
def test_ground_fall(cards, gone, waits):
    """sr.ground: a Fall on a climber on the ground takes a climbing card of at least its
    value (3 here), or waits for one."""
    start = build(2, hands={1: kit(1, *cards)}, offer=fall(3), deck=[climb(3, 5), climb(5, 4)])
    state = play(start, {0: bid(0, 5), 1: bid(1, 2)})
    left = [c for c in cards if c != gone]
    assert [c for c in hand(state, 1) if CARDS[c]["kind"] == "climb"] == sorted(left)
    if waits:
        assert state["waiting"]["1"] == [fall(3)] and discarded(start, state) == []
        later = play(state, {0: bid(0, 1), 1: bid(1, 3)})  # the 3 on offer is taken
        assert later["waiting"]["1"] == [] and climb(3, 5) not in hand(later, 1)
        assert discarded(state, later) == [climb(3, 5), fall(3)]
    else:
        assert discarded(start, state) == [gone, fall(3)] and state["waiting"]["1"] == []


# --- falls --------------------------------------------------------------------------------


def test_fall_bid_only():
    state = build(3, offer=fall(2), hands={0: kit(0, climb(3), sabotage(), equipment())})
    assert G.legal_moves(state, 0) == [choose(c) for c in bids(0)]
    for card in (climb(3), sabotage(), surprise(0), equipment()):
        err = refused(state, 0, choose(card), "sr.fall.bid-only")
        assert err.params == {}
    allowed(state, 0, choose(bid(0, 3)))
    calm = build(3, offer=climb(5), hands={0: kit(0, climb(3))})
    allowed(calm, 0, choose(climb(3)))


def test_rulebook_the_8_falls_when_6_6_and_7_7_cancel():
    """Rulebook example: a Fall of 2; A and B bid 6, C and D bid 7: E's 8 falls."""
    state = build(5, offer=fall(2), positions={4: (9, 5), 0: (9, 4)}, deck=[climb(5)])
    after = play(state, {0: bid(0, 6), 1: bid(1, 6), 2: bid(2, 7), 3: bid(3, 7), 4: bid(4, 8)})
    assert after["previous"]["auction"] == {"winner": 4, "fall": True,
        "offered": True, "cancelled": [6, 7]}
    assert discarded(state, after) == [fall(2)]
    assert spots(after) == {0: (9, 4), 1: (0, 0), 2: (0, 0), 3: (0, 0), 4: (7, 5)}
    assert after["previous"]["events"] == [{"kind": "fall", "seat": 4, "card": fall(2),
                                            "falls": [{"seat": 4,
                                                       "from": {"level": 9, "lane": 5},
                                                       "to": {"level": 7, "lane": 5}}]}]
    assert after["offer"] == climb(5)
    assert all(fall(2) not in hand(after, seat) for seat in range(5))


def test_fall_lowest():
    """sr.fall.lowest: the lowest bid left falls; tied lowest bids cancel."""
    state = build(3, offer=fall(3), positions={0: (6, 1), 1: (6, 2), 2: (13, 2)})
    after = play(state, {0: bid(0, 5), 1: bid(1, 2), 2: bid(2, 7)})
    assert spots(after) == {0: (6, 1), 1: (3, 2), 2: (13, 2)}
    assert after["previous"]["auction"]["winner"] == 1
    tied = play(state, {0: bid(0, 2), 1: bid(1, 2), 2: bid(2, 7)})
    assert tied["auction"] == {"winner": 2, "fall": True,
        "offered": True, "cancelled": [2]}
    assert pending(tied) == (2, "fall") and tied["phase"] == "resolve"
    assert G.legal_moves(tied, 2) == [{"type": "fall", "lane": lane} for lane in (1, 2, 3)]
    for lane in (0, 4):
        err = refused(tied, 2, {"type": "fall", "lane": lane}, "sr.drop.lane")
        assert err.params == {}
    refused(tied, 0, {"type": "fall", "lane": 1}, "sr.turn.wait")
    after = allowed(tied, 2, {"type": "fall", "lane": 3})
    assert spots(after) == {0: (6, 1), 1: (6, 2), 2: (10, 3)}
    assert discarded(tied, after) == [fall(3)]
    low = build(3, offer=fall(3), positions={0: (2, 1), 1: (6, 2)}, hands={0: kit(0, climb(3))})
    after = play(low, {0: bid(0, 1), 1: bid(1, 2), 2: bid(2, 7)})  # only as far as the ground
    assert spots(after) == {0: (0, 0), 1: (6, 2), 2: (0, 0)}
    assert climb(3) in hand(after, 0) and discarded(low, after) == [fall(3)]


def test_rulebook_a_fall_takes_the_climber_below_down():
    """Rulebook figure (sr.knock-on): A falls 2 levels onto B, who falls 2 levels too."""
    state = build(3, offer=fall(2), positions={0: (8, 1), 1: (6, 1), 2: (6, 2)})
    after = play(state, {0: bid(0, 1), 1: bid(1, 4), 2: bid(2, 5)})
    assert spots(after) == {0: (6, 1), 1: (4, 1), 2: (6, 2)}
    assert after["previous"]["events"][0]["falls"] == [
        {"seat": 0, "from": {"level": 8, "lane": 1}, "to": {"level": 6, "lane": 1}},
        {"seat": 1, "from": {"level": 6, "lane": 1}, "to": {"level": 4, "lane": 1}}]


def test_knock_on():
    """sr.knock-on: a sabotaged climber landing on another takes it down the same distance,
    past a ledge straight on; a climber beside is not touched."""
    state = build(hands={0: kit(0, sabotage(0), sabotage(1))},
                  positions={1: (10, 2), 2: (7, 2), 3: (8, 3)})
    state = play(state, {0: sabotage(0), **bidding(4, 0)})
    after = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 2})
    assert spots(after) == {0: (0, 0), 1: (7, 2), 2: (4, 2), 3: (8, 3)}
    ledge = build(hands={0: kit(0, sabotage(0))}, positions={1: (14, 3), 2: (12, 3),
                                                              3: (10, 1)})
    ledge = play(ledge, {0: sabotage(0), **bidding(4, 0)})
    after = allowed(ledge, 0, {"type": "sabotage", "target": 1, "lane": 2})
    assert spots(after) == {0: (0, 0), 1: (11, 2), 2: (9, 3), 3: (10, 1)}
    far = build(hands={0: kit(0, sabotage(0))}, positions={1: (10, 2), 2: (5, 2)})
    far = play(far, {0: sabotage(0), **bidding(4, 0)})
    after = allowed(far, 0, {"type": "sabotage", "target": 1, "lane": 2})
    assert spots(after) == {0: (0, 0), 1: (7, 2), 2: (5, 2), 3: (0, 0)}


KNOCK_ON_BUG = ("engine: building.drop moves the faller first, so the climber it knocks "
                "down finds the faller in its own path and knocks it down again")


def test_knock_on_two_levels_below_drops_each_climber_once():
    """sr.knock-on: sabotaged from 9, A lands at 6 on B (at 7): B goes down 3 to 4, A stays
    at 6; nobody falls twice."""
    state = build(hands={0: kit(0, sabotage(0))}, positions={1: (9, 2), 2: (7, 2)})
    state = play(state, {0: sabotage(0), **bidding(4, 0)})
    after = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 2})
    assert spots(after) == {0: (0, 0), 1: (6, 2), 2: (4, 2), 3: (0, 0)}


def test_knock_on_down_to_the_ground():
    """sr.knock-on: a Fall of 3 from level 3 goes through the climber at level 1 to the
    ground, and takes it down too (as far as the ground)."""
    state = build(3, offer=fall(3), positions={0: (3, 1), 1: (1, 1)})
    after = play(state, {0: bid(0, 1), 1: bid(1, 4), 2: bid(2, 5)})
    assert spots(after) == {0: (0, 0), 1: (0, 0), 2: (0, 0)}


def test_knock_on_of_two_climbers_drops_each_once():
    """sr.knock-on: a Fall of 3 from 10 lands at 7 on climbers at 8 and 6: each goes down 3."""
    state = build(3, offer=fall(3), positions={0: (10, 1), 1: (8, 1), 2: (6, 1)})
    after = play(state, {0: bid(0, 1), 1: bid(1, 4), 2: bid(2, 5)})
    assert spots(after) == {0: (7, 1), 1: (5, 1), 2: (3, 1)}


# --- the deck and the end -----------------------------------------------------------------


@pytest.mark.parametrize("deck", ["app", "real"])
def test_deck_reshuffle(deck):
    """sr.deck.reshuffle: the deck ran out: the played cards make a new one."""
    state = build(2, offer=climb(5), deck=[], hands={1: kit(1, climb(3))})
    state["options"]["deck"] = deck
    rest = sorted(state["discard"])
    after = play(state, {0: bid(0, 4), 1: climb(3)})
    after = allowed(after, 1, up(3, 1))
    assert climb(5) in hand(after, 0) and after["discard"] == []
    assert after["events"] == [{"kind": "reshuffled", "count": len(rest) + 1}]
    # The log keeps the count (a number, not cards): its line says how many cards.
    assert {"rule": "sr.deck.reshuffle", "kind": "reshuffled", "count": len(rest) + 1} \
        in after["effects"]
    if deck == "app":
        assert after["phase"] == "choose"
        pile = [after["offer"], *after["deck"]]
        assert sorted(pile) == sorted([*rest, climb(3)]) and pile != sorted(pile)
        assert after["rng"] != state["rng"]
    else:
        assert after["phase"] == "turn" and after["offer"] is None
        assert after["deck"] == sorted([*rest, climb(3)])
    full = build(2, offer=climb(5), deck=[climb(4)], hands={1: kit(1, climb(3))})
    full = allowed(play(full, {0: bid(0, 4), 1: climb(3)}), 1, up(3, 1))
    assert full["offer"] == climb(4) and full["deck"] == []
    assert len(full["discard"]) == len(rest) and not full["events"]


@pytest.mark.parametrize("holder", [0, 1])
def test_end_roof(holder):
    """sr.end.roof: the first climber onto the roof wins, without the exact count; the
    others rank by height."""
    state = build(hands={0: kit(0, climb(5), equipment(0)), 1: kit(1, climb(5, 1),
                                                                     equipment(1))},
                  positions={0: (32, 1), 1: (32, 2), 2: (20, 2), 3: (20, 1)}, holder=holder)
    state = play(state, {0: climb(5), 1: climb(5, 1), 2: bid(2, 3), 3: bid(3, 4)})
    first = holder
    assert pending(state) == (first, "climb")
    lane = first + 1  # the other lane is taken by the other climber
    assert climb_places(state, first) == {(32, lane): 0, (33, lane): 0, (ROOF, 0): 1}
    over = allowed(state, first, up(ROOF, 0))
    assert over["phase"] == "over" and over["winner"] == first
    assert spot(over, first) == (ROOF, 0) and spot(over, 1 - first) == (32, 2 - first)
    result = G.outcome(over)
    assert result.ranking == [[first], [1 - first], [2, 3]] and result.reason == "roof"
    assert result.scores == {first: ROOF, 1 - first: 32, 2: 20, 3: 20}
    assert G.view(over, None)["outcome"] == result.as_json()
    assert G.outcome(state) is None and G.view(state, None)["outcome"] is None


def test_end_roof_needs_equipment():
    state = build(2, hands={0: kit(0, climb(5))}, positions={0: (32, 1), 1: (10, 1)})
    state = play(state, {0: climb(5), 1: bid(1, 3)})
    assert climb_places(state, 0) == {(32, 1): 0, (32, 2): 0, (33, 1): 0, (33, 2): 0}
    err = refused(state, 0, up(ROOF, 0), "sr.climb.equipment")
    assert err.params == {"needs": 1}
    after = allowed(state, 0, up(33, 1))
    assert after["phase"] == "choose" and G.outcome(after) is None


# --- arbitrary input ----------------------------------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 95) | st.text(max_size=5)
    | st.sampled_from(["choose", "climb", "sabotage", "lost", "keep", "fall", "turn"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=6,
)
MOVE_KEYS = st.sampled_from(["type", "card", "level", "lane", "target", "x"])
MOVES = st.builds(
    lambda kind, rest: {"type": kind, **rest},
    st.sampled_from(["choose", "climb", "sabotage", "lost", "keep", "fall", "turn", "pass"]),
    st.dictionaries(MOVE_KEYS, st.integers(-2, 95), max_size=3),
)


def arbitrary_states() -> list[State]:
    """A choice under way, a real deck's turn, a climb, a won sabotage and a Fall."""
    choosing = allowed(build(3, hands={0: kit(0, climb(3), equipment())}), 0,
                       choose(bid(0, 2)))
    climbing = play(build(3, hands={0: kit(0, climb(5), equipment())}, positions={0: (9, 1),
                                                                                   1: (11, 1)}),
                    {0: climb(5), 1: bid(1, 2), 2: bid(2, 3)})
    won = play(build(3, offer=sabotage(), positions={1: (13, 2)}),
               {0: bid(0, 1), 1: bid(1, 2), 2: bid(2, 8)})
    falling = play(build(3, offer=fall(3), positions={2: (13, 2)}),
                   {0: bid(0, 2), 1: bid(1, 2), 2: bid(2, 7)})
    return [choosing, G.setup(3, {"deck": "real"}, 4), climbing, won, falling]


STATES = arbitrary_states()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(move=MOVES | JSONISH, seat=st.integers(0, 2), which=st.integers(0, len(STATES) - 1))
def test_apply_only_raises_illegal_move_and_agrees_with_legal(move, seat, which):
    CHECKS.agrees(STATES[which], seat, move)


def test_arbitrary_states_wait_for_what_they_should():
    assert [(s["phase"], pending(s)) for s in STATES] == [
        ("choose", None), ("turn", None), ("resolve", (0, "climb")), ("resolve", (2, "won")),
        ("resolve", (2, "fall"))]


# --- the catalogue ------------------------------------------------------------------------


def test_messages_fill_from_params():
    catalogue = clauses(GAME)
    climbing = play(build(3, hands={0: kit(0, climb(2))}, positions={0: (10, 1)}),
                    {0: climb(2), 1: bid(1, 2), 2: bid(2, 3)})
    cases = [
        (climbing, 0, up(13, 1), "sr.climb.points"),
        (climbing, 0, up(12, 1), "sr.climb.equipment"),
        (climbing, 0, up(9, 1), "sr.climb.blocked"),
        (climbing, 0, {"type": "climb"}, "sr.move.malformed"),
        (climbing, 0, None, "sr.move.malformed"),
        (climbing, 1, up(11, 1), "sr.turn.wait"),
        (build(3), 0, choose(equipment()), "sr.choose.not-in-hand"),
    ]
    for state, seat, move, rule in cases:
        err = refused(state, seat, move, rule)
        for lang in ("en", "fr"):
            text = catalogue[rule][lang].format(**TABLE_PARAMS, **err.params)
            assert "{" not in text and "}" not in text, (rule, text)


def test_a_seat_outside_the_table_may_do_nothing():
    state = G.setup(3, {}, 1)
    for seat in (-1, 3, 9):
        assert G.legal_moves(state, seat) == []
        with pytest.raises(IllegalMove) as err:
            G.apply(state, seat, {"type": "choose", "card": 0})
        assert err.value.rule == "sr.turn.wait"


# --- knock-ons across a ledge, in every geometry ------------------------------------------

LEDGES = {"lower ledge": 11, "upper ledge": 22}  # the top level of the section below


def _drop_through(how: str, ledge: int, lane: int) -> State:
    """Seat 1 stands just above the ``ledge`` in lane 2, seat 2 just under it in lane 2;
    seat 1 is sabotaged by seat 0, or takes a Fall card, and ends in ``lane``."""
    where = {1: (ledge + 1, 2), 2: (ledge, 2)}
    if how == "sabotage":
        state = build(3, hands={0: kit(0, sabotage(0))}, positions=where)
        state = play(state, {0: sabotage(0), 1: bid(1, 4), 2: bid(2, 5)})
        return allowed(state, 0, {"type": "sabotage", "target": 1, "lane": lane})
    distance = int(how[-1])
    state = build(3, offer=fall(distance), positions=where)
    state = play(state, {0: bid(0, 5), 1: bid(1, 1), 2: bid(2, 4)})
    return allowed(state, 1, {"type": "fall", "lane": lane})


@pytest.mark.parametrize("lane", [1, 2, 3])
@pytest.mark.parametrize("ledge", list(LEDGES))
@pytest.mark.parametrize("how", ["sabotage", "fall 2", "fall 3"])
def test_a_faller_drags_the_climber_under_the_ledge_whatever_its_lane(how, ledge, lane):
    """sr.knock-on: « Si un pion victime d'un sabotage tombe sur un autre pion, il
    l'entraîne avec lui »: the climber just under the ledge is in the faller's path, and
    goes down the same distance, whichever lane the faller chose below the ledge."""
    top = LEDGES[ledge]
    after = _drop_through(how, top, lane)
    distance = 3 if how == "sabotage" else int(how[-1])
    assert spot(after, 2) == (top - distance, 2)  # dragged straight down
    assert spot(after, 1)[0] < top + 1 and spot(after, 1)[1] == lane
    falls = next(e for e in after["previous"]["events"] if e.get("falls"))["falls"]
    assert [fall["seat"] for fall in falls] == [1, 2]
    rules = [effect["rule"] for effect in after["effects"]]
    assert ("sr.sabotage" if how == "sabotage" else "sr.fall.lowest") in rules
    assert {"rule": "sr.knock-on", "seats": [2]} in after["effects"]


@pytest.mark.parametrize("ledge", list(LEDGES))
@pytest.mark.parametrize("how", ["sabotage", "fall 3"])
def test_a_faller_landing_just_above_a_ledge_leaves_the_climber_under_it(how, ledge):
    """sr.knock-on: « Si un pion victime d'un sabotage tombe sur un autre pion, il
    l'entraîne avec lui »: sabotaged from 15, a climber lands on 12, the first level above
    the lower ledge; the climber on 11 (same lane, under the ledge) is neither passed nor
    landed on, and stays. Likewise at the upper ledge (a Fall from 26 to 23 over 22)."""
    top = LEDGES[ledge]
    where = {1: (top + 4, 2), 2: (top, 2)}
    if how == "sabotage":
        state = build(3, hands={0: kit(0, sabotage(0))}, positions=where)
        state = play(state, {0: sabotage(0), 1: bid(1, 4), 2: bid(2, 5)})
        after = allowed(state, 0, {"type": "sabotage", "target": 1, "lane": 2})
    else:
        state = build(3, offer=fall(3), positions=where)
        after = play(state, {0: bid(0, 5), 1: bid(1, 1), 2: bid(2, 4)})
    assert spot(after, 1) == (top + 1, 2) and spot(after, 2) == (top, 2)
    assert not any(effect["rule"] == "sr.knock-on" for effect in after["effects"])


def test_a_fall_of_2_onto_the_first_level_above_the_upper_ledge():
    """sr.knock-on: a Fall from 25 to 23 leaves the climber on 22, under the upper ledge."""
    state = build(3, offer=fall(2), positions={1: (25, 1), 2: (22, 1)})
    after = play(state, {0: bid(0, 5), 1: bid(1, 1), 2: bid(2, 4)})
    assert spots(after) == {0: (0, 0), 1: (23, 1), 2: (22, 1)}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(levels=st.integers(6, 16), lanes=st.tuples(*[st.integers(1, 5)] * 3),
       data=st.data())
def test_a_climber_is_dragged_only_when_the_faller_passes_or_lands_on_it(levels, lanes,
                                                                          data):
    """sr.knock-on, in every geometry (rows per section, lanes of each wall): a climber the
    fall drags down overlapped, before the fall, a place the first faller passed or landed
    on (same section, same lane, less than 2 levels apart); a climber that overlapped the
    faller's landing in the faller's own lane always goes down."""
    state = G.setup(4, {"levels": levels, "lower_lanes": str(lanes[0]),
                        "middle_lanes": str(lanes[1]), "upper_lanes": str(lanes[2])}, 1)
    top = building.roof(state) - 1
    per = building.per_section(state)
    # Half the time, seats 0 and 1 stand on either side of a ledge, the faller (seat 0)
    # landing just above it or crossing it: the case the hit test must judge by section.
    ledge = data.draw(st.sampled_from([None, per, 2 * per]), label="ledge")
    taken: list[tuple[int, int]] = []
    for seat in range(4):
        level = data.draw(st.integers(0, top), label=f"level {seat}")
        if ledge is not None and seat < 2:
            level = ledge + data.draw(st.integers(1, 4), label="above") if seat == 0 \
                else ledge - data.draw(st.integers(0, 1), label="below")
        if level == 0:
            lane = 0
        else:
            lane = data.draw(st.integers(1, building.lanes(state, building.face_section(
                state, level))), label=f"lane {seat}")
            if any(building.overlaps(state, level, lane, other) for other in taken):
                level, lane = 0, 0
        taken.append((level, lane))
        state["positions"][str(seat)] = {"level": level, "lane": lane}
    faller = 0 if ledge is not None else data.draw(
        st.sampled_from([s for s in range(4) if taken[s][0] > 0] or [0]), label="faller")
    distance = data.draw(st.integers(2, 3), label="distance")
    start = taken[faller]
    if start[0] == 0:
        return
    lane = data.draw(st.sampled_from(building.drop_lanes(state, faller, distance)),
                     label="lane")
    falls = building.drop(state, faller, distance, lane)
    target = max(0, start[0] - distance)

    def hits(fall: dict[str, Any], seat: int) -> bool:
        """Whether ``fall`` passed or landed on where ``seat`` stood."""
        begin = (fall["from"]["level"], fall["from"]["lane"])
        end = max(0, begin[0] - distance)
        return any(taken[seat][1] in building.path_lanes(state, begin, end, fall["to"]["lane"],
                                                          level)
                   and building.overlaps(state, level, taken[seat][1], taken[seat])
                   for level in range(max(end, 1), begin[0]))

    dragged = {fall["seat"] for fall in falls[1:]}
    for fall in falls[1:]:  # dragged by the first faller or by one it dragged
        assert any(hits(other, fall["seat"]) for other in falls if other is not fall), \
            (fall, taken, falls)
    if target:
        for seat in range(4):
            if seat != faller and building.overlaps(state, target, lane, taken[seat]) \
                    and taken[seat][0] < start[0]:
                assert seat in dragged, (seat, taken, falls)
    for seat in range(4):
        if seat not in dragged and seat != faller:
            assert spot(state, seat) == taken[seat]


def _pairs(state: State, offer_kind: str) -> list[tuple[int, int, int | None]]:
    """The cards seats 0 and 1 may play together, with the seat whose bid is the higher
    (None for a tie; 1 when seat 0 plays no bid), the closest bids first."""
    hand_a, hand_b = hand(state, 0), hand(state, 1)
    climbs = [c for c in hand_a if CARDS[c]["kind"] == "climb"]
    if offer_kind == "fall":
        mine = [c for c in hand_a if CARDS[c]["kind"] == "bid"]
    else:
        mine = climbs or [c for c in hand_a if CARDS[c]["kind"] in ("bid", "surprise")]
    theirs = [c for c in hand_b if CARDS[c]["kind"] == "bid"]

    def worth(card: int) -> int:
        return CARDS[card]["value"] if CARDS[card]["kind"] == "bid" else 0

    def higher(a: int, b: int) -> int | None:
        return 1 if worth(b) > worth(a) else 0 if worth(a) > worth(b) else None

    pairs = [(a, b, higher(a, b)) for a in mine for b in theirs]
    return sorted(pairs, key=lambda pair: abs(worth(pair[1]) - worth(pair[0])))


def _pick(state: State, offer_kind: str) -> tuple[int, int] | None:
    """Seat 1 wins a climbing card (or the bids tie); against a Fall seat 0 bids lowest."""
    wanted = {"climb": (1, None), "fall": (1,)}.get(offer_kind, (1, 0, None))
    for want in wanted:
        for a, b, higher in _pairs(state, offer_kind):
            if higher == want:
                return a, b
    return None


def _play_until_no_card_to_turn(state: State) -> State:
    """A two-player game with a real deck, played by the rules to a round with no card to
    turn: seat 0 plays its climbing cards away without climbing (« Il est également
    permis... les points restants sont alors perdus »), so the two Falls find it on the
    ground with no climbing card and wait in front of it (« la carte Chute est placée à
    côté du joueur »); seat 1 wins every climbing card; the holder turns the card that
    keeps it so. Every other card is won and kept."""
    for _ in range(600):
        if not state["deck"] and not state["discard"] and state["offer"] is None:
            return state
        if state["phase"] == "turn":
            deck = state["deck"]
            falls = [c for c in deck if CARDS[c]["kind"] == "fall"]
            climbs = [c for c in deck if CARDS[c]["kind"] == "climb"]
            others = [c for c in deck if c not in falls and c not in climbs]
            bare = spot(state, 0) == (0, 0) and not any(
                CARDS[c]["kind"] == "climb" for c in hand(state, 0))
            if bare and falls and _pick(state, "fall"):
                card = falls[0]
            elif climbs and _pick(state, "climb"):
                card = climbs[0]
            else:
                card = (others or climbs or falls)[0]
            state = allowed(state, state["holder"], {"type": "turn", "card": card})
        elif state["phase"] == "choose":
            offer = state["offer"]
            picked = _pick(state, "none" if offer is None else CARDS[offer]["kind"])
            assert picked is not None
            state = play(state, dict(enumerate(picked)))
        else:
            seat = state["pending"]["seat"]
            here = state["positions"][str(seat)]
            moves = G.legal_moves(state, seat)
            stay = [m for m in moves if m == {"type": "climb", **here}]
            keep = [m for m in moves if m["type"] == "keep"]
            state = allowed(state, seat, (stay or keep or moves)[0])
    raise AssertionError("the deck never ran dry")


def test_a_real_game_reaches_a_round_with_no_card_to_turn():
    """sr.round.no-offer: a game played by the rules can empty both the deck and the
    played cards: every card of the deck is then in a hand or waits in front of a player
    (here both Falls). The round is played without a card on offer: bids win nothing and go
    face down; a climbing card played is put away, and the next round's deck is made of
    it. The game goes on; only the roof ends it."""
    state = _play_until_no_card_to_turn(G.setup(2, {"deck": "real"}, 1))
    assert state["phase"] == "choose" and state["offer"] is None
    assert {"rule": "sr.round.no-offer", "kind": "no-offer"} in state["effects"]
    assert sorted(state["waiting"]["0"]) == sorted(cards_of("fall"))
    climbing = set(cards_of("climb"))
    assert climbing <= set(hand(state, 1))  # every climbing card is in a hand
    assert G.view(state, None)["offer"] is None and G.legal_moves(state, 1)
    low = min(c for c in hand(state, 0) if CARDS[c]["kind"] == "bid")
    card = next(c for c in hand(state, 1) if c in climbing)
    state = play(state, {0: low, 1: card})
    assert state["auction"] == {"winner": None, "fall": False, "offered": False,
                                "cancelled": []}
    state = allowed(state, 1, up(1, 1))
    assert spot(state, 1) == (1, 1) and low in state["used"]["0"]
    # The climbing card played away makes the next deck: its round has a card to turn.
    assert state["phase"] == "turn" and state["deck"] == [card] and not state["discard"]
    assert {"rule": "sr.deck.reshuffle", "kind": "reshuffled", "count": 1} in state["effects"]
    state = allowed(state, state["holder"], {"type": "turn", "card": card})
    assert state["offer"] == card and G.outcome(state) is None


def test_a_round_with_no_card_to_offer_still_plays_every_card():
    """sr.round.no-offer with the companion's deck: nothing to turn, yet a Surprise still
    takes the climbing cards played, and the climbers still climb."""
    state = build(3, offer=climb(2, 5), positions={1: (5, 1)},
                  hands={1: kit(1, climb(4, 1)), 2: kit(2, climb(3, 2))})
    state["hands"]["0"] = sorted(hand(state, 0) + state["deck"] + state["discard"])
    state["deck"], state["discard"] = [], []
    state = play(state, {0: bid(0, 3), 1: bid(1, 4), 2: bid(2, 5)})  # seat 2 wins the offer
    assert state["offer"] is None and state["phase"] == "choose"
    assert {"rule": "sr.round.no-offer", "kind": "no-offer"} in state["effects"]
    state = play(state, {0: surprise(0), 1: climb(4, 1), 2: climb(3, 2)})
    assert state["auction"]["offered"] is False and state["auction"]["winner"] is None
    state = allowed(state, 1, up(9, 1))
    state = allowed(state, 2, up(3, 1))
    assert climb(4, 1) in hand(state, 0) and climb(3, 2) in hand(state, 0)
    assert state["phase"] == "choose" and state["offer"] is None  # still nothing to turn


# --- every refusal names its own clause -----------------------------------------------------

# When a move breaks several rules, the one named is the first of (docs/games/skyrunner.md,
# "Which rule a refusal names"): the game is over; no seat of this table; the move's shape;
# not this seat's decision; the moment of the round; then the card or the place.


def _over() -> State:
    state = build(3)
    state["phase"], state["winner"] = "over", 0
    return state


def _climbing(card: int, where: tuple[int, int] = (5, 2)) -> State:
    return play(build(hands={0: kit(0, card)}, positions={0: where}),
                {0: card, **bidding(4, 0)})


def _three_lanes_sabotage() -> State:
    state = build(3, hands={1: kit(1, sabotage(0))}, positions={0: (8, 2)})
    return play(state, {0: bid(0, 2), 1: sabotage(0), 2: bid(2, 3)})


def _passing_with_three() -> State:
    three = build(2, hands={0: kit(0, climb(3), equipment(0), equipment(1))},
                  positions={0: (31, 1), 1: (33, 1)}, upper_lanes="1")
    return at_climb(three, 0, climb(3))


def _real_deck_without_lost_equipment() -> State:
    state = G.setup(2, {"deck": "real"}, 3)
    state["deck"].remove(lost(0))
    state["deck"].remove(lost(1))
    state["discard"] += [lost(0), lost(1)]
    return state


REFUSALS: dict[str, Any] = {
    "sr.game.over": lambda: (_over(), 0, choose(bid(0, 4))),
    "sr.move.malformed": lambda: (build(3), 0, {"type": "fly"}),
    "sr.turn.wait": lambda: (G.setup(2, {"deck": "real", "first_seat": 1}, 3), 0,
                             {"type": "turn", "card": climb(5)}),
    "sr.turn.phase": lambda: (build(3), 0, {"type": "turn", "card": equipment(5)}),
    "sr.deck.first": lambda: (G.setup(2, {"deck": "real", "first_seat": 1}, 3), 1,
                              choose(bid(1, 3))),
    "sr.climb.first": lambda: (_climbing(climb(2)), 0, choose(bid(0, 1))),
    "sr.target.first": lambda: (_three_lanes_sabotage(), 1, choose(bid(1, 3))),
    "sr.won.first": lambda: (STATES[3], 2, choose(bid(2, 3))),
    "sr.fall.first": lambda: (STATES[4], 2, choose(bid(2, 3))),
    "sr.choose.not-in-hand": lambda: (build(3), 0, choose(bid(1, 3))),
    "sr.choose.same": lambda: (allowed(build(3), 0, choose(bid(0, 4))), 0, choose(bid(0, 4))),
    "sr.fall.bid-only": lambda: (build(3, offer=fall(2), hands={0: kit(0, climb(3))}), 0,
                                 choose(climb(3))),
    "sr.equipment.with-climb": lambda: (build(2, hands={0: kit(0, climb(2), equipment())},
                                              positions={0: (11, 2)}), 0, choose(equipment())),
    "sr.deck.not-in-deck": lambda: (_real_deck_without_lost_equipment(), 0,
                                    {"type": "turn", "card": lost(0)}),
    "sr.target.opponent": lambda: (_three_lanes_sabotage(), 1,
                                   {"type": "sabotage", "target": 1, "lane": 2}),
    "sr.drop.lane": lambda: (_three_lanes_sabotage(), 1,
                             {"type": "sabotage", "target": 0, "lane": 9}),
    "sr.climb.points": lambda: (_climbing(climb(2)), 0, up(8, 2)),
    "sr.climb.equipment": lambda: (_climbing(climb(3), (10, 1)), 0, up(12, 1)),
    "sr.climb.pass": lambda: (_passing_with_three(), 0, up(ROOF, 0)),
    "sr.climb.blocked": lambda: (at_climb(build(3, hands={0: kit(0, climb(3))}), 0, climb(3)),
                                 0, up(1, 4)),
}


@pytest.mark.parametrize("rule", sorted(REFUSALS))
def test_each_refusal_clause_is_the_one_named(rule):
    state, seat, move = REFUSALS[rule]()
    refused(state, seat, move, rule)


def test_every_refusal_clause_has_its_example():
    assert set(REFUSALS) == move_refusal_clauses(GAME)


def test_a_card_tapped_while_a_decision_waits_names_that_decision():
    for state, rule in zip(STATES[2:], ("sr.climb.first", "sr.won.first", "sr.fall.first"),
                           strict=True):
        seat = pending(state)[0]
        for card in hand(state, seat):
            assert G.why_not(state, seat, {"card": card}).rule == rule
        other = (seat + 1) % state["players"]
        assert G.why_not(state, other, {"card": hand(state, other)[0]}).rule == "sr.turn.wait"
    holder = G.setup(2, {"deck": "real", "first_seat": 1}, 3)
    assert G.why_not(holder, 1, {"card": hand(holder, 1)[0]}).rule == "sr.deck.first"
    fall_offer = build(3, offer=fall(2), hands={0: kit(0, climb(3))})
    assert G.why_not(fall_offer, 0, {"card": climb(3)}).rule == "sr.fall.bid-only"


def test_a_card_tapped_after_a_place_names_the_climb_not_the_turn():
    """A place picked, then a card of the hand: the card is what the player asks about, and
    the climb comes first (it used to say "not your decision" to the climber)."""
    state = STATES[2]
    seat = pending(state)[0]
    level, lane = next((m["level"], m["lane"]) for m in G.legal_moves(state, seat))
    for card in hand(state, seat):
        chosen = {"level": level, "lane": lane, "card": card}
        assert G.why_not(state, seat, chosen).rule == "sr.climb.first"
