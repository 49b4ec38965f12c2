"""Heuchel & Meuchel: a refused and an allowed case for every rule clause, the rulebook's own
examples, and the catalogue.

States are built by hand from a fresh set-up (they are plain JSON), so each test shows
exactly the position it is about. Cards are named by rank and value: ``card(LADY, 3)``.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.heuchel_meuchel import HeuchelMeuchel, board
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    COLUMNS,
    RANK_IDS,
    ROWS,
    VALUES,
    goal_row,
    rank_of,
    start_row,
    value_of,
)
from support.json_walk import keys_in, objects_in
from tests.rule_checks import (
    TABLE_PARAMS,
    RuleChecks,
    move_refusal_clauses,
    snapshot,
)

G = HeuchelMeuchel()
GAME = "heuchel-meuchel"

State = dict[str, Any]
Move = dict[str, Any]
Squares = dict[tuple[int, int], list[int]]

FIRE, MINSTREL, QUACK, LADY, BISHOP, PRINCE = range(1, 7)


# --- helpers ------------------------------------------------------------------------------


def card(rank: int, value: int) -> int:
    """The id of the card of ``rank`` (1 Fire-eater … 6 Prince) and ``value`` (1-6)."""
    return (rank - 1) * VALUES + value - 1


def mv(row: int, to: int, count: int = 1) -> Move:
    """A move of the top ``count`` cards of the stack on ``row`` to row ``to``."""
    return {"type": "move", "row": row, "count": count, "to": to}


def take(column: int, count: int = 1) -> Move:
    return {"type": "take", "from": column, "count": count}


def build(
    players: int = 4,
    *,
    up: Squares | None = None,
    down: Squares | None = None,
    columns: dict[int, int | None] | None = None,
    discards: dict[int, list[int]] | None = None,
    phase: str | None = None,
    turn: int = 0,
    roll: int | None = None,
    filler: bool = True,
    **options: Any,
) -> State:
    """A game under way: seat s owns column s + 1 unless ``columns`` says otherwise.

    ``up`` and ``down`` map (column, row) to a stack, bottom card first (``down``: a
    face-down goal pile). With ``filler``, a seat whose column got no card holds one
    Fire-eater on row 1 (no mover ever lands there), so it still has a card on the way.
    Hands are empty; every card not on the board or discarded is unused.
    """
    state = G.setup(players, options, 7)
    chosen = {seat: seat + 1 for seat in range(players)}
    chosen.update(columns or {})
    state["columns"] = {str(seat): chosen[seat] for seat in range(players)}
    squares = [(where, cards, False) for where, cards in (up or {}).items()]
    squares += [(where, cards, True) for where, cards in (down or {}).items()]
    for (column, row), cards, face_down in squares:
        assert state["board"][column - 1][row - 1] is None, (column, row)
        state["board"][column - 1][row - 1] = {"cards": list(cards), "down": face_down}
    state["discards"] = {str(seat): list((discards or {}).get(seat, [])) for seat in
                         range(players)}
    used = [c for cards in state["discards"].values() for c in cards]
    used += [c for column in state["board"] for stack in column if stack for c in stack["cards"]]
    if filler:
        spare = [c for c in range(card(FIRE, 1), card(FIRE, 6) + 1) if c not in used]
        for seat in range(players):
            column = chosen[seat]
            if column is not None and not any(state["board"][column - 1]):
                state["board"][column - 1][0] = {"cards": [spare.pop(0)], "down": False}
    used = [c for cards in state["discards"].values() for c in cards]
    used += [c for column in state["board"] for stack in column if stack for c in stack["cards"]]
    assert len(used) == len(set(used)), "a card is used twice"
    state["hands"] = {str(seat): [] for seat in range(players)}
    state["unused"] = [c for c in range(CARD_COUNT) if c not in used]
    if phase is None:
        phase = "move" if state["options"]["die"] == "off" or roll is not None else "roll"
    state.update(phase=phase, turn=turn, roll=roll)
    return state


def seated(players: int = 4, seed: int = 7, **options: Any) -> State:
    """A fresh set-up in which seat s has chosen column s + 1 and placed nothing."""
    state = G.setup(players, options, seed)
    for seat in range(players):
        state = G.apply(state, seat, {"type": "column", "column": seat + 1})
    return state


def table_cards(seat: int) -> list[int]:
    """The 6 physical cards seat ``seat`` holds in the table-deal tests."""
    return list(range(6 * seat, 6 * seat + 6))


def place_all(state: State, leave_last: bool = False) -> State:
    """Every seat places its cards (its hand, or ``table_cards`` in a table deal); with
    ``leave_last`` the last seat keeps its last card, so the set-up is not over."""
    players = state["players"]
    for seat in range(players):
        if state["options"]["deal"] == "app":
            cards = list(state["hands"][str(seat)])
        else:
            cards = table_cards(seat)
        if leave_last and seat == players - 1:
            cards = cards[:-1]
        for c in cards:
            state = G.apply(state, seat, {"type": "place", "card": c})
    return state


def shown(view: Any) -> set[int]:
    """Every card id a view shows (cards are shown as dicts carrying a ``rank_id``)."""
    return {card["id"] for card in objects_in(view) if "rank_id" in card}


CHECKS = RuleChecks(G)
offered, allowed, refused = CHECKS.offered, CHECKS.allowed, CHECKS.refused


def refused_offered(state: State, seat: int, move: Move, rule: str) -> IllegalMove:
    """Table deal only: ``move`` is refused for ``rule`` although the phone offers it
    (which cards the others entered is their secret)."""
    before = snapshot(state)
    with pytest.raises(IllegalMove) as err:
        G.apply(state, seat, move)
    assert err.value.rule == rule, (err.value.rule, err.value.params)
    assert offered(state, seat, move)
    assert snapshot(state) == before
    return err.value


def stack_at(state: State, column: int, row: int) -> tuple[list[int], bool] | None:
    """(cards, face down) of a square, or None."""
    square = board.square(state, column, row)
    return None if square is None else (square["cards"], square["down"])


def row_moves(state: State, seat: int, row: int) -> list[Move]:
    return [m for m in G.legal_moves(state, seat) if m.get("row") == row]


# --- protocol basics ----------------------------------------------------------------------


def test_protocol_attributes_and_options():
    assert G.id == GAME
    assert (G.min_players, G.max_players) == (3, 6)
    assert G.choice_keys[0] == "card"
    options = {option.key: option for option in G.options()}
    assert set(options) == {"deal", "die", "die_loss", "step_ends_move", "placing",
                            "favour_rank"}
    assert (options["deal"].default, options["deal"].choices) == ("app", ("app", "table"))
    assert (options["die"].default, options["die"].choices) == ("off", ("off", "app", "real"))
    assert options["step_ends_move"].default is True  # the rulebook's reading (DEROULEMENT)
    assert (options["die_loss"].default, options["die_loss"].choices) == ("any", ("any", "top"))
    # The readings the rulebook leaves open, by default as decided (MISE EN PLACE, FAVEURS).
    assert (options["placing"].default, options["placing"].choices) == ("together",
                                                                        ("together", "in-turn"))
    assert (options["favour_rank"].default,
            options["favour_rank"].choices) == ("top", ("top", "highest"))
    for option in options.values():
        assert option.label["en"] and option.label["fr"]
        assert option.help["en"] and option.help["fr"]


def test_setup_is_json_and_seeded():
    state = G.setup(4, {}, 42)
    assert json.loads(json.dumps(state)) == state
    assert G.setup(4, {}, 42) == state
    assert G.setup(4, {}, 43)["hands"] != state["hands"]
    assert state["phase"] == "setup" and state["turn"] is None
    assert state["options"] == {"deal": "app", "die": "off", "die_loss": "any",
                                "step_ends_move": True, "placing": "together",
                                "favour_rank": "top"}
    assert state["columns"] == {str(seat): None for seat in range(4)}
    assert state["board"] == [[None] * ROWS for _ in range(COLUMNS)]
    table = G.setup(5, {"deal": "table", "die": "real", "step_ends_move": "off",
                        "die_loss": "top", "placing": "in-turn", "favour_rank": "highest"}, 1)
    assert table["options"] == {"deal": "table", "die": "real", "die_loss": "top",
                                "step_ends_move": False, "placing": "in-turn",
                                "favour_rank": "highest"}


def test_setup_refuses_bad_player_counts_and_options():
    for players in (2, 7, 0, "4", True):
        with pytest.raises(ValueError):
            G.setup(players, {}, 1)
    for options in ({"deal": "dealer"}, {"die": "yes"}, {"step_ends_move": "maybe"},
                    {"first_seat": 4}, {"first_seat": -1}, {"first_seat": True},
                    {"first_seat": "1"}):
        with pytest.raises(ValueError):
            G.setup(4, options, 1)
    assert G.setup(4, {"first_seat": 3}, 1)["first"] == 3


def test_apply_never_mutates_its_input():
    state = build(up={(1, 5): [card(BISHOP, 4)], (3, 6): [card(LADY, 2)]})
    before = snapshot(state)
    after = G.apply(state, 0, mv(5, 6))
    assert snapshot(state) == before and after is not state
    assert after["phase"] == "favour"
    again = G.apply(after, 0, take(3))
    assert snapshot(after) != snapshot(again)
    assert stack_at(after, 3, 6) == ([card(LADY, 2)], False)


def test_can_undo():
    whole = build(up={(1, 3): [card(QUACK, 1), card(QUACK, 2)]})
    after = G.apply(whole, 0, mv(3, 4, count=2))
    assert G.can_undo(whole, 0, mv(3, 4, count=2), after)
    after = G.apply(whole, 0, mv(3, 4, count=1))  # uncovers the Quack 1
    assert not G.can_undo(whole, 0, mv(3, 4, count=1), after)
    rolling = build(die="app")
    after = G.apply(rolling, 0, {"type": "roll"})
    assert after["rng"] != rolling["rng"]
    assert not G.can_undo(rolling, 0, {"type": "roll"}, after)
    typed = build(die="real")
    after = G.apply(typed, 0, {"type": "roll", "value": 3})
    assert G.can_undo(typed, 0, {"type": "roll", "value": 3}, after)


def test_can_undo_favours():
    """Taking a lone card uncovers nothing; taking part of a stack uncovers its rest."""
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): [card(LADY, 2)],
                      (3, 6): [card(QUACK, 1), card(LADY, 1)]})
    favour = G.apply(state, 0, mv(5, 6))
    after = G.apply(favour, 0, take(2))
    assert G.can_undo(favour, 0, take(2), after)
    after = G.apply(favour, 0, take(3, 1))
    assert not G.can_undo(favour, 0, take(3, 1), after)
    after = G.apply(favour, 0, take(3, 2))  # the taker's owner now sees the hidden Quack
    assert not G.can_undo(favour, 0, take(3, 2), after)


def test_cannot_undo_the_place_that_begins_the_game():
    state = place_all(seated(3), leave_last=True)
    last = state["hands"]["2"][0]
    after = G.apply(state, 2, {"type": "place", "card": last})
    assert after["phase"] == "move"
    assert shown(G.view(after, None)) and not shown(G.view(state, None))
    assert not G.can_undo(state, 2, {"type": "place", "card": last}, after)


def test_redact_move_hides_set_up_cards_from_others():
    state = seated()
    place = {"type": "place", "card": card(LADY, 3)}
    lift = {"type": "lift", "card": card(LADY, 3)}
    for move in (place, lift):
        own = G.redact_move(state, 1, move, 1)
        assert own == move and own is not move
        for viewer in (0, 2, None):
            assert G.redact_move(state, 1, move, viewer) == {"type": move["type"], "rank": LADY}
    for move in ({"type": "column", "column": 2}, mv(3, 4), take(2, 1), {"type": "done"}):
        for viewer in (0, 1, None):
            copy = G.redact_move(state, 1, move, viewer)
            assert copy == move and copy is not move


def test_views_hide_other_seats_secrets():
    hidden = [card(MINSTREL, 2), card(QUACK, 5)]  # under seat 1's Lady 6
    goal_pile = [card(FIRE, 4), card(FIRE, 5)]
    state = build(
        up={(1, 6): [card(PRINCE, 1)], (2, 7): [*hidden, card(LADY, 6)]},
        down={(2, 8): goal_pile},
        discards={1: [card(BISHOP, 2)], 0: [card(BISHOP, 3)]},
    )
    state["hands"]["1"] = [card(PRINCE, 6)]  # as if still in hand
    state["unused"].remove(card(PRINCE, 6))
    public = {card(PRINCE, 1), card(LADY, 6), card(FIRE, 1), card(FIRE, 2)}
    table = G.view(state, None)
    assert shown(table) == public
    assert not keys_in(table) & {"rng", "unused", "hands", "hand", "discards", "cards", "mine",
                              "score", "scores"}
    assert table["board"][1][7] == {"height": 2, "down": True}
    assert table["board"][1][6] == {"height": 3, "down": False,
                                    "top": {"id": card(LADY, 6), "rank": LADY,
                                            "rank_id": "lady", "value": 6}}
    assert table["counts"]["1"] == {"home": 2, "climbing": 3, "discarded": 1}
    for seat in (0, 2, 3):
        view = G.view(state, seat)
        own = {c for _, c in board.column_cards(state, seat)} | set(state["discards"][str(seat)])
        assert shown(view) == public | own
        assert not keys_in(view) & {"rng", "unused", "hands"}
    mine = G.view(state, 1)
    assert shown(mine) == public | set(hidden) | set(goal_pile) | {card(BISHOP, 2),
                                                                   card(PRINCE, 6)}
    assert [c["id"] for c in mine["hand"]] == [card(PRINCE, 6)]
    assert [c["id"] for c in mine["discards"]] == [card(BISHOP, 2)]
    assert "rng" not in json.dumps(mine)


def test_views_in_setup_hide_hands_and_unused():
    state = seated()
    hand = state["hands"]["0"]
    for seat in (1, 2, 3, None):
        view = G.view(state, seat)
        assert not shown(view) & set(hand)
        assert not shown(view) & set(state["unused"])
    assert {c["id"] for c in G.view(state, 0)["hand"]} == set(hand)


# --- cards and board ----------------------------------------------------------------------


def test_ranks_order_cards():
    """hm.ranks: rank first, then value; any higher rank beats every lower one."""
    assert RANK_IDS == ("fire-eater", "minstrel", "quack", "lady", "bishop", "prince")
    for a in range(CARD_COUNT):
        assert (rank_of(a), value_of(a)) == (a // 6 + 1, a % 6 + 1)
        for b in range(CARD_COUNT):
            assert (a > b) == ((rank_of(a), value_of(a)) > (rank_of(b), value_of(b)))
    assert card(MINSTREL, 1) > card(FIRE, 6) and card(PRINCE, 1) > card(BISHOP, 6)


def test_ranks_decide_favours_both_ways():
    """hm.ranks: a Lady 1 may take a Quack 6; a Quack 6 may not take a Lady 1."""
    lady, quack = card(LADY, 1), card(QUACK, 6)
    state = build(up={(1, 6): [lady], (2, 7): [quack]})
    favour = allowed(state, 0, mv(6, 7))
    assert G.legal_moves(favour, 0) == [take(2), {"type": "done"}]
    state = build(up={(1, 7): [lady], (2, 6): [quack]}, turn=1)
    after = allowed(state, 1, mv(6, 7))
    assert after["phase"] == "move" and after["turn"] == 2  # no favour: the Lady is higher
    state.update(phase="favour", moved={"column": 2, "row": 7})  # as if it could take
    state["board"][1][6], state["board"][1][5] = state["board"][1][5], None
    refused(state, 1, take(1), "hm.favour.lower")


def test_board_rows():
    """hm.board.rows: 6 × 13; rank r starts on row r, its goal is row r + 7."""
    assert (COLUMNS, ROWS) == (6, 13)
    assert [start_row(rank) for rank in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert [goal_row(rank) for rank in range(1, 7)] == [8, 9, 10, 11, 12, 13]
    state = build(up={(1, 7): [card(FIRE, 3)], (2, 7): [card(MINSTREL, 3)]})
    after = allowed(state, 0, mv(7, 8))
    assert stack_at(after, 1, 8) == ([card(FIRE, 3)], True)  # home on row 8
    after = allowed(after, 1, mv(7, 8))
    assert stack_at(after, 2, 8) == ([card(MINSTREL, 3)], False)  # still on the way
    assert row_moves(after, 1, 8) == []  # not seat 1's turn any more
    after["turn"] = 1
    assert row_moves(after, 1, 8) == [mv(8, 9)]
    prince = build(up={(1, 12): [card(PRINCE, 3)]})
    assert row_moves(prince, 0, 12) == [mv(12, 13)]
    refused(prince, 0, mv(12, 14), "hm.move.goal-limit")


# --- set-up -------------------------------------------------------------------------------


def test_setup_column():
    """hm.setup.column: pick any free column; change it freely until a card is placed."""
    state = G.setup(4, {}, 7)
    assert G.legal_moves(state, 0) == [{"type": "column", "column": c} for c in range(1, 7)]
    state = allowed(state, 0, {"type": "column", "column": 2})
    assert state["columns"]["0"] == 2
    assert {"type": "column", "column": 2} not in G.legal_moves(state, 1)
    state = allowed(state, 0, {"type": "column", "column": 5})
    assert state["columns"]["0"] == 5
    state = allowed(state, 1, {"type": "column", "column": 2})
    assert state["columns"] == {"0": 5, "1": 2, "2": None, "3": None}


def test_setup_column_taken():
    state = G.apply(G.setup(4, {}, 7), 0, {"type": "column", "column": 3})
    err = refused(state, 1, {"type": "column", "column": 3}, "hm.setup.column-taken")
    assert err.params == {"column": 3}
    refused(state, 0, {"type": "column", "column": 3}, "hm.setup.column-taken")
    allowed(state, 1, {"type": "column", "column": 4})


def test_setup_column_first():
    state = G.setup(4, {}, 7)
    c = state["hands"]["0"][0]
    refused(state, 0, {"type": "place", "card": c}, "hm.setup.column-first")
    state = allowed(state, 0, {"type": "column", "column": 1})
    allowed(state, 0, {"type": "place", "card": c})


def test_setup_column_fixed():
    state = seated()
    c = state["hands"]["0"][0]
    placed = allowed(state, 0, {"type": "place", "card": c})
    refused(placed, 0, {"type": "column", "column": 6}, "hm.setup.column-fixed")
    lifted = allowed(placed, 0, {"type": "lift", "card": c})
    moved = allowed(lifted, 0, {"type": "column", "column": 6})
    assert moved["columns"]["0"] == 6


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_deal(players):
    """hm.setup.deal: 6 cards each, shown to their owner only; the rest unused, unseen."""
    state = G.setup(players, {}, 11)
    hands = [state["hands"][str(seat)] for seat in range(players)]
    assert all(len(hand) == 6 and hand == sorted(hand) for hand in hands)
    dealt = [c for hand in hands for c in hand]
    assert len(set(dealt)) == 6 * players
    assert state["unused"] == sorted(set(range(CARD_COUNT)) - set(dealt))
    assert len(state["unused"]) == 36 - 6 * players
    for seat in range(players):
        assert {c["id"] for c in G.view(state, seat)["hand"]} == set(hands[seat])
        assert shown(G.view(state, seat)) == set(hands[seat])
    assert shown(G.view(state, None)) == set()
    table = G.setup(players, {"deal": "table"}, 11)
    assert table["hands"] == {str(seat): [] for seat in range(players)}
    assert table["unused"] == []


def test_setup_not_dealt():
    state = seated()
    mine, theirs = state["hands"]["0"], state["hands"]["1"]
    refused(state, 0, {"type": "place", "card": theirs[0]}, "hm.setup.not-dealt")
    refused(state, 0, {"type": "place", "card": state["unused"][0]}, "hm.setup.not-dealt")
    assert [m["card"] for m in G.legal_moves(state, 0) if m["type"] == "place"] == mine
    after = allowed(state, 0, {"type": "place", "card": mine[0]})
    assert after["hands"]["0"] == mine[1:]


def test_setup_table_deal():
    """hm.setup.table-deal: each player enters their real cards; the phone offers all 36."""
    state = seated(3, deal="table")
    places = [m for m in G.legal_moves(state, 0) if m["type"] == "place"]
    assert [m["card"] for m in places] == list(range(CARD_COUNT))
    state = allowed(state, 0, {"type": "place", "card": 35})
    places = [m["card"] for m in G.legal_moves(state, 0) if m["type"] == "place"]
    assert places == list(range(35))
    state = place_all(seated(3, deal="table"))
    assert state["phase"] == "move"
    assert state["unused"] == list(range(18, 36))
    assert state["hands"] == {"0": [], "1": [], "2": []}
    assert stack_at(state, 1, 1) == (table_cards(0), False)  # the Fire-eaters 1-6


def test_setup_claimed():
    state = seated(3, deal="table")
    state = allowed(state, 0, {"type": "place", "card": card(LADY, 2)})
    err = refused_offered(state, 1, {"type": "place", "card": card(LADY, 2)}, "hm.setup.claimed")
    assert err.params == {}
    after = allowed(state, 1, {"type": "place", "card": card(LADY, 3)})
    assert stack_at(after, 2, 4) == ([card(LADY, 3)], False)


def test_setup_already_placed():
    state = seated(3, deal="table")
    state = allowed(state, 0, {"type": "place", "card": card(LADY, 2)})
    refused(state, 0, {"type": "place", "card": card(LADY, 2)}, "hm.setup.already-placed")
    after = allowed(state, 0, {"type": "place", "card": card(LADY, 1)})
    assert stack_at(after, 1, 4) == ([card(LADY, 2), card(LADY, 1)], False)


def test_setup_six():
    state = seated(3, deal="table")
    for c in range(6):
        state = allowed(state, 0, {"type": "place", "card": c})
    assert state["phase"] == "setup"
    refused(state, 0, {"type": "place", "card": 20}, "hm.setup.six")
    assert [m["type"] for m in G.legal_moves(state, 0)] == ["lift"]
    state = allowed(state, 0, {"type": "lift", "card": 5})
    allowed(state, 0, {"type": "place", "card": 20})
    app = seated(3)
    for c in list(app["hands"]["0"]):
        app = G.apply(app, 0, {"type": "place", "card": c})
    refused(app, 0, {"type": "place", "card": app["unused"][0]}, "hm.setup.six")


def test_setup_start_square():
    """hm.setup.start-square: each card on its rank's start row, the last placed on top."""
    state = seated(3, deal="table")
    for c in (card(LADY, 5), card(PRINCE, 1), card(LADY, 2), card(FIRE, 6)):
        state = allowed(state, 0, {"type": "place", "card": c})
    assert [stack_at(state, 1, row) for row in range(1, 14)] == [
        ([card(FIRE, 6)], False), None, None, ([card(LADY, 5), card(LADY, 2)], False),
        None, ([card(PRINCE, 1)], False), None, None, None, None, None, None, None,
    ]
    assert all(stack_at(state, column, row) is None for column in (2, 3, 4, 5, 6)
               for row in range(1, 14))


def test_setup_hidden():
    """hm.setup.hidden: during set-up the others see heights only; in play, tops only."""
    state = seated()
    for c in state["hands"]["0"]:
        state = G.apply(state, 0, {"type": "place", "card": c})
    placed = {c for _, c in board.column_cards(state, 0)}
    assert len(placed) == 6
    for seat in (1, 2, 3, None):
        view = G.view(state, seat)
        assert not shown(view) & placed
        column = view["board"][0]
        assert [sq for sq in column if sq] == [
            {"height": len(stack["cards"]), "down": False} for _, stack in board.stacks(state, 1)
        ]
    assert shown(G.view(state, 0)) == placed
    assert G.view(state, 0)["done"] is True and G.view(state, 1)["done"] is False
    playing = place_all(seated())
    assert playing["phase"] == "move"
    tops = {board.top(stack) for column in range(1, 7) for _, stack in board.stacks(playing,
                                                                                     column)}
    assert shown(G.view(playing, None)) == tops
    mine = {c for _, c in board.column_cards(playing, 2)}
    assert shown(G.view(playing, 2)) == tops | mine


def test_setup_in_turn():
    """hm.setup.in-turn (table option): the players place one after another, clockwise
    from the first player; a player's top cards show once their six are placed, and their
    stacks no longer change. By default (hm.setup.hidden) everyone places at once."""
    state = seated(3, placing="in-turn", first_seat=1)
    hands = {seat: list(state["hands"][str(seat)]) for seat in range(3)}
    assert G.view(state, None)["placing"] == 1
    refused(state, 0, {"type": "place", "card": hands[0][0]}, "hm.setup.in-turn")
    assert {m["type"] for m in G.legal_moves(state, 0)} == {"column"}
    for c in hands[1]:
        state = allowed(state, 1, {"type": "place", "card": c})
    assert G.view(state, None)["placing"] == 2
    tops = {board.top(stack) for _, stack in board.stacks(state, 2)}
    for seat in (0, 2, None):
        assert shown(G.view(state, seat)) & set(hands[1]) == tops
    refused(state, 1, {"type": "lift", "card": min(tops)}, "hm.setup.in-turn")
    state = allowed(state, 2, {"type": "place", "card": hands[2][0]})
    assert shown(G.view(state, 0)) & set(hands[2]) == set()  # seat 2 places still
    state = allowed(state, 2, {"type": "lift", "card": hands[2][0]})
    for c in hands[2]:
        state = allowed(state, 2, {"type": "place", "card": c})
    for c in hands[0]:
        state = allowed(state, 0, {"type": "place", "card": c})
    assert state["phase"] == "move" and state["turn"] == 1
    together = seated(3, first_seat=1)
    assert G.view(together, None)["placing"] is None
    allowed(together, 0, {"type": "place", "card": together["hands"]["0"][0]})


def test_setup_lift_and_not_yours():
    """hm.setup.lift, hm.setup.not-yours: only the top card of your own start stack."""
    state = seated(3, deal="table")
    for c in (card(LADY, 5), card(LADY, 2)):
        state = allowed(state, 0, {"type": "place", "card": c})
    state = allowed(state, 1, {"type": "place", "card": card(QUACK, 1)})
    refused(state, 0, {"type": "lift", "card": card(LADY, 5)}, "hm.setup.not-yours")
    refused(state, 0, {"type": "lift", "card": card(QUACK, 1)}, "hm.setup.not-yours")
    refused(state, 2, {"type": "lift", "card": card(QUACK, 1)}, "hm.setup.not-yours")
    lifted = allowed(state, 0, {"type": "lift", "card": card(LADY, 2)})
    assert stack_at(lifted, 1, 4) == ([card(LADY, 5)], False)
    lifted = allowed(lifted, 0, {"type": "lift", "card": card(LADY, 5)})
    assert stack_at(lifted, 1, 4) is None
    app = seated(3)
    c = app["hands"]["0"][2]
    app = allowed(app, 0, {"type": "place", "card": c})
    assert c not in app["hands"]["0"]
    app = allowed(app, 0, {"type": "lift", "card": c})
    assert c in app["hands"]["0"] and app["hands"]["0"] == sorted(app["hands"]["0"])


def test_setup_over():
    state = place_all(seated(3))
    assert state["phase"] == "move" and state["turn"] == 0
    top = next(board.top(stack) for _, stack in board.stacks(state, 1))
    for move in ({"type": "column", "column": 6},
                 {"type": "lift", "card": top},
                 {"type": "place", "card": state["unused"][0]}):
        refused(state, 0, move, "hm.setup.over")
        refused(state, 1, move, "hm.setup.over")  # not on turn: set-up is still the rule
    assert all(m["type"] == "move" for m in G.legal_moves(state, 0))


def test_setup_begin():
    """hm.setup.begin: the game begins with the last card placed; the host's first seat
    moves first (or rolls, with the die), then play goes clockwise."""
    state = place_all(seated(4, first_seat=2), leave_last=True)
    assert state["phase"] == "setup" and state["turn"] is None
    last = {"type": "place", "card": state["hands"]["3"][0]}
    begun = allowed(state, 3, last)
    assert begun["phase"] == "move" and begun["turn"] == 2
    assert G.legal_moves(begun, 0) == [] and G.legal_moves(begun, 2)
    after = allowed(begun, 2, G.legal_moves(begun, 2)[-1])
    if after["phase"] == "favour":
        after = allowed(after, 2, {"type": "done"})
    assert after["turn"] == 3
    rolling = place_all(seated(3, die="app", first_seat=1))
    assert rolling["phase"] == "roll" and rolling["turn"] == 1
    assert G.legal_moves(rolling, 1) == [{"type": "roll"}]


# --- turns --------------------------------------------------------------------------------


def test_turn_wait():
    state = build()
    refused(state, 1, mv(1, 2), "hm.turn.wait")
    assert G.legal_moves(state, 1) == []
    after = allowed(state, 0, mv(1, 2))
    assert after["turn"] == 1
    allowed(after, 1, mv(1, 2))


def test_turn_phase():
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): [card(LADY, 2)]})
    favour = G.apply(state, 0, mv(5, 6))
    assert favour["phase"] == "favour"
    refused(favour, 0, mv(6, 7), "hm.favour.first")
    refused(favour, 0, {"type": "roll"}, "hm.favour.first")
    refused(favour, 0, {"type": "lose", "row": 6, "lost": card(BISHOP, 4)}, "hm.favour.first")
    refused(state, 0, {"type": "roll"}, "hm.turn.phase")
    refused(state, 0, {"type": "lose", "row": 5, "lost": card(BISHOP, 4)}, "hm.turn.phase")
    refused(seated(), 0, mv(1, 2), "hm.turn.phase")
    refused(seated(), 0, {"type": "pass"}, "hm.turn.phase")
    allowed(favour, 0, {"type": "done"})


def test_turn_must_move():
    state = build()
    refused(state, 0, {"type": "pass"}, "hm.turn.must-move")
    refused(state, 0, {"type": "done"}, "hm.turn.must-move")
    rolling = build(die="real")
    refused(rolling, 0, {"type": "pass"}, "hm.turn.must-move")
    refused(rolling, 0, {"type": "done"}, "hm.turn.must-move")
    assert G.legal_moves(state, 0) == [mv(1, 2)]
    allowed(state, 0, mv(1, 2))


def test_turn_skip():
    """hm.turn.skip: a seat with nothing on the way is passed over."""
    state = build(up={(1, 7): [card(FIRE, 1)], (3, 2): [card(MINSTREL, 1)]},
                  down={(2, 8): [card(FIRE, 2)]})
    after = allowed(state, 0, mv(7, 8))  # seat 0 goes home too
    assert after["turn"] == 2
    state = build(up={(1, 6): [card(FIRE, 1)], (3, 2): [card(MINSTREL, 1)]},
                  down={(2, 8): [card(FIRE, 2)]}, turn=3)
    after = allowed(state, 3, mv(1, 2))
    assert after["turn"] == 0
    after = allowed(after, 0, mv(6, 7))
    assert after["turn"] == 2
    live = build(up={(1, 6): [card(FIRE, 1)], (2, 7): [card(FIRE, 2)]})
    assert allowed(live, 0, mv(6, 7))["turn"] == 1


@pytest.mark.parametrize(
    "move",
    [
        None,
        [],
        "move",
        3,
        {},
        {"type": "fly"},
        {"type": 3},
        {"type": None},
        {"row": 1, "count": 1, "to": 2},
        {"type": "move", "row": 1, "count": 1},
        {"type": "move", "row": 1, "to": 2},
        {"type": "move", "row": 1, "count": 1, "to": 2, "extra": 1},
        {"type": "move", "row": True, "count": 1, "to": 2},
        {"type": "move", "row": 1, "count": False, "to": 2},
        {"type": "move", "row": 1.0, "count": 1, "to": 2},
        {"type": "move", "row": "1", "count": 1, "to": 2},
        {"type": "move", "row": 1, "count": 1, "to": None},
        {"type": "move", "row": 1, "count": 1, "to": [2]},
        {"type": "move", 1: 1, "row": 1, "count": 1, "to": 2},
        {"type": "column", "column": 0},
        {"type": "column", "column": 7},
        {"type": "column", "column": True},
        {"type": "column"},
        {"type": "place", "card": 36},
        {"type": "place", "card": -1},
        {"type": "place", "card": True},
        {"type": "place", "card": "3"},
        {"type": "lift", "card": 36},
        {"type": "lift"},
        {"type": "take", "from": 0, "count": 1},
        {"type": "take", "from": 7, "count": 1},
        {"type": "take", "from": 2},
        {"type": "take", "from": True, "count": 1},
        {"type": "again", "now": True},
        {"type": "done", "why": "no"},
        {"type": "pass", "x": 1},
        {"type": "roll", "value": True},
        {"type": "roll", "value": "3"},
        {"type": "roll", "value": 3.0},
        {"type": "roll", "times": 1},
        {"type": "lose"},
        {"type": "lose", "row": False},
    ],
)
def test_move_malformed(move):
    for state in (build(), seated()):
        err = refused(state, 0, move, "hm.move.malformed")
        assert err.params["problem"]
    allowed(build(), 0, mv(1, 2))


def test_game_over():
    state = build(up={(1, 7): [card(FIRE, 1)], (2, 6): [card(FIRE, 2)]},
                  down={(3, 8): [card(FIRE, 3)], (4, 8): [card(FIRE, 4)]})
    assert G.outcome(state) is None
    over = allowed(state, 0, mv(7, 8))
    assert over["phase"] == "over" and over["turn"] is None
    assert G.outcome(over) is not None
    for seat in range(4):
        assert G.legal_moves(over, seat) == []
        refused(over, seat, mv(6, 7), "hm.game.over")
        refused(over, seat, {"type": "pass"}, "hm.game.over")
        refused(over, seat, None, "hm.game.over")


# --- moving -------------------------------------------------------------------------------


def test_rulebook_quack_stops_on_the_4th_square():
    """2nd figure: the Quack steps to row 4 and « doit s'arrêter là » (row 5 is free)."""
    state = build(up={(1, 3): [card(QUACK, 4)]})
    assert board.landings(state, 1, 3, QUACK, True) == [4]
    assert G.legal_moves(state, 0) == [mv(3, 4)]
    err = refused(state, 0, mv(3, 5), "hm.move.step-ends")
    assert err.params == {}
    broader = build(up={(1, 3): [card(QUACK, 4)]}, step_ends_move=False)
    refused(broader, 0, mv(3, 5), "hm.move.keep-jumping")
    after = allowed(state, 0, mv(3, 4))
    assert stack_at(after, 1, 4) == ([card(QUACK, 4)], False)
    assert stack_at(after, 1, 3) is None


def test_rulebook_fire_eater_jumps_to_7_or_stops_on_5():
    """2nd figure: rows 2, 3, 4 and 6 occupied; the Fire-eater may land on 5 or 7."""
    column = {(1, 1): [card(FIRE, 2)], (1, 2): [card(MINSTREL, 2)], (1, 3): [card(QUACK, 2)],
              (1, 4): [card(LADY, 2)], (1, 6): [card(PRINCE, 2)]}
    for step_ends in (False, True):
        state = build(up=column, step_ends_move=step_ends)
        assert board.landings(state, 1, 1, FIRE, step_ends) == [5, 7]
        assert row_moves(state, 0, 1) == [mv(1, 5), mv(1, 7)]
        err = refused(state, 0, mv(1, 6), "hm.move.upward")
        assert err.params == {"row": 1, "landings": "5, 7"}
        # « Il ne peut pas se déplacer plus loin »: a step after the jump, refused by the
        # rule this table plays.
        refused(state, 0, mv(1, 8),
                "hm.move.jump-ends" if step_ends else "hm.move.keep-jumping")
        for to in (5, 7):
            after = allowed(state, 0, mv(1, to))
            assert stack_at(after, 1, to) == ([card(FIRE, 2)], False)


def test_move_own_column():
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): [card(PRINCE, 2)]})
    for row in (6, 4, 0, 14, -1, 99):
        err = refused(state, 0, mv(row, row + 1), "hm.move.own-column")
        assert err.params == {"row": row}
    assert G.legal_moves(state, 0) == [mv(5, 6)]
    allowed(state, 0, mv(5, 6))


def test_move_top_part():
    stack = [card(LADY, 1), card(LADY, 2), card(LADY, 3)]
    state = build(up={(1, 4): stack})
    for count in (0, 4, -1):
        err = refused(state, 0, mv(4, 5, count=count), "hm.move.top-part")
        assert err.params == {"height": 3}
    assert G.legal_moves(state, 0) == [mv(4, 5, 3), mv(4, 5, 2), mv(4, 5, 1)]
    after = allowed(state, 0, mv(4, 5, count=2))
    assert stack_at(after, 1, 4) == ([card(LADY, 1)], False)
    assert stack_at(after, 1, 5) == ([card(LADY, 2), card(LADY, 3)], False)


def test_move_upward():
    state = build(up={(1, 3): [card(QUACK, 1)], (1, 4): [card(LADY, 1)], (1, 6): [card(PRINCE, 1)]})
    assert row_moves(state, 0, 3) == [mv(3, 5), mv(3, 7)]
    for to in (3, 2, 1, 4, 6):
        err = refused(state, 0, mv(3, to), "hm.move.upward")
        assert err.params == {"row": 3, "landings": "5, 7"}
    allowed(state, 0, mv(3, 5))


def test_move_keep_jumping_after_a_step():
    """hm.move.keep-jumping (table option): a plain step onto a free square may jump on if
    the square above is occupied; it stops if the square above is free."""
    state = build(up={(1, 3): [card(QUACK, 1)], (1, 5): [card(BISHOP, 1)]},
                  step_ends_move=False)
    assert row_moves(state, 0, 3) == [mv(3, 4), mv(3, 6)]
    refused(state, 0, mv(3, 7), "hm.move.keep-jumping")
    after = allowed(state, 0, mv(3, 6))
    assert stack_at(after, 1, 6) == ([card(QUACK, 1)], False)


def test_move_step_ends():
    """hm.move.step-ends (the default): the same step ends the move."""
    state = build(up={(1, 3): [card(QUACK, 1)], (1, 5): [card(BISHOP, 1)]})
    assert row_moves(state, 0, 3) == [mv(3, 4)]
    for to in (6, 7):
        err = refused(state, 0, mv(3, to), "hm.move.step-ends")
        assert err.params == {}
    allowed(state, 0, mv(3, 4))


def test_move_goal_limit():
    state = build(up={(1, 10): [card(LADY, 1)]})
    assert G.legal_moves(state, 0) == [mv(10, 11)]
    for to in (12, 13, 14):
        err = refused(state, 0, mv(10, to), "hm.move.goal-limit")
        assert err.params == {"goal": 11}
    after = allowed(state, 0, mv(10, 11))
    assert stack_at(after, 1, 11) == ([card(LADY, 1)], True)
    blocked = build(up={(1, 7): [card(FIRE, 1)], (1, 8): [card(MINSTREL, 1)]})
    assert G.legal_moves(blocked, 0) == [mv(8, 9)]  # the Fire-eater cannot move at all
    refused(blocked, 0, mv(7, 9), "hm.move.goal-limit")


def test_move_no_landing():
    """A stack whose every square up to its goal is occupied cannot move at all; once one
    is free, it can."""
    blocked = build(up={(1, 7): [card(FIRE, 1)], (1, 8): [card(MINSTREL, 1)]})
    err = refused(blocked, 0, mv(7, 8), "hm.move.no-landing")
    assert err.params == {"goal": 8}
    freed = build(up={(1, 7): [card(FIRE, 1)], (1, 9): [card(MINSTREL, 1)]})
    assert row_moves(freed, 0, 7) == [mv(7, 8)]
    after = allowed(freed, 0, mv(7, 8))
    assert stack_at(after, 1, 8) == ([card(FIRE, 1)], True)


def test_a_boxed_stack_names_the_rule_of_the_square_asked_for():
    """A Bishop on row 10 under the Ladies' face-down pile (row 11) and a Prince (row 12)
    has no landing at all, yet the Lady's pile is refused by its own rule (« occupées pour
    des personnages de classe plus élevée ») and row 9 by « toujours vers le haut », as
    when a landing is free; only the occupied square above names the stack boxed in."""
    lady_pile = {(1, 11): [card(LADY, 5)]}
    boxed = build(up={(1, 10): [card(BISHOP, 2)], (1, 12): [card(PRINCE, 1)]}, down=lady_pile)
    free = build(up={(1, 10): [card(BISHOP, 2)]}, down=lady_pile)
    assert row_moves(boxed, 0, 10) == [] and row_moves(free, 0, 10) == [mv(10, 12)]
    for state in (boxed, free):
        refused(state, 0, mv(10, 11), "hm.goal.shared")
        refused(state, 0, mv(10, 9), "hm.move.upward")
    assert refused(free, 0, mv(10, 9), "hm.move.upward").params == {"row": 10,
                                                                   "landings": "12"}
    assert refused(boxed, 0, mv(10, 9), "hm.move.upward").params == {}  # the rule's own words
    refused(boxed, 0, mv(10, 12), "hm.move.no-landing")


def test_rulebook_lady_carried_by_a_prince():
    """4th figure / hm.move.carried: alone, the Lady stops on row 11; under a Prince she
    goes to rows 12 and 13 and scores there."""
    lady, prince = card(LADY, 3), card(PRINCE, 2)
    alone = build(up={(1, 10): [lady]})
    refused(alone, 0, mv(10, 12), "hm.move.goal-limit")
    carried = build(up={(1, 11): [lady, prince]})
    assert G.legal_moves(carried, 0) == [mv(11, 12, 2), mv(11, 12, 1)]
    at12 = allowed(carried, 0, mv(11, 12, 2))
    assert stack_at(at12, 1, 12) == ([lady, prince], False)
    jumping = build(up={(1, 11): [lady, prince]}, down={(1, 12): [card(BISHOP, 1)]})
    assert row_moves(jumping, 0, 11) == [mv(11, 13, 2), mv(11, 13, 1)]
    at13 = allowed(jumping, 0, mv(11, 13, 2))
    assert stack_at(at13, 1, 13) == ([lady, prince], True)
    assert board.score_parts(at13, 0) == {"home": 3 + 2 + 1, "short": 0, "discarded": 0,
                                          "total": 6}
    high = build(up={(1, 12): [lady, prince]})
    assert G.legal_moves(high, 0) == [mv(12, 13, 2)]
    after = allowed(high, 0, mv(12, 13, 2))
    assert stack_at(after, 1, 13) == ([lady, prince], True)


def test_move_exposes():
    lady, prince = card(LADY, 3), card(PRINCE, 2)
    state = build(up={(1, 12): [card(MINSTREL, 1), lady, prince]})
    err = refused(state, 0, mv(12, 13, 1), "hm.move.exposes")
    assert err.params == {"goal": 11}
    err = refused(state, 0, mv(12, 13, 2), "hm.move.exposes")
    assert err.params == {"goal": 9}  # the Minstrel
    after = allowed(state, 0, mv(12, 13, 3))
    assert stack_at(after, 1, 12) is None
    low = build(up={(1, 10): [card(QUACK, 1), lady, prince]})
    after = allowed(low, 0, mv(10, 11, 1))  # the Lady stays on row 10, below her goal
    assert stack_at(after, 1, 10) == ([card(QUACK, 1), lady], False)


def test_move_leaves_the_rest_home():
    """hm.move.exposes (decision): a rest uncovered exactly on its goal is turned face down."""
    lady, prince = card(LADY, 3), card(PRINCE, 2)
    state = build(up={(1, 11): [card(QUACK, 4), lady, prince]})
    after = allowed(state, 0, mv(11, 12, 1))
    assert stack_at(after, 1, 11) == ([card(QUACK, 4), lady], True)
    assert stack_at(after, 1, 12) == ([prince], False)
    assert after["last"]["uncovered_home"] is True and after["last"]["home"] is False
    assert not G.can_undo(state, 0, mv(11, 12, 1), after)


def test_goal_reached():
    state = build(up={(1, 6): [card(FIRE, 1)]}, down={(1, 8): [card(FIRE, 2)]})
    refused(state, 0, mv(8, 9), "hm.goal.reached")
    assert G.legal_moves(state, 0) == [mv(6, 7)]
    after = allowed(state, 0, mv(6, 7))
    assert stack_at(after, 1, 7) == ([card(FIRE, 1)], False)
    lose = build(up={(1, 6): [card(FIRE, 1)]}, down={(1, 8): [card(FIRE, 2)]}, die="real",
                 phase="lose", roll=6)
    refused(lose, 0, {"type": "lose", "row": 8, "lost": card(FIRE, 2)}, "hm.goal.reached")
    allowed(lose, 0, {"type": "lose", "row": 6, "lost": card(FIRE, 1)})


def test_goal_shared():
    """hm.goal.shared: a goal pile is free for its own rank, occupied for higher ranks."""
    pile = [card(LADY, 5)]
    state = build(up={(1, 10): [card(LADY, 1)], (1, 9): [card(BISHOP, 2)]}, down={(1, 11): pile})
    assert row_moves(state, 0, 10) == [mv(10, 11)]
    assert row_moves(state, 0, 9) == [mv(9, 12)]  # jumps rows 10 and 11
    refused(state, 0, mv(9, 11), "hm.goal.shared")  # a Bishop on the Ladies' goal pile
    after = allowed(state, 0, mv(10, 11))
    assert stack_at(after, 1, 11) == ([card(LADY, 5), card(LADY, 1)], True)
    assert after["last"]["home"] is True
    after = allowed(state, 0, mv(9, 12))
    assert stack_at(after, 1, 12) == ([card(BISHOP, 2)], True)
    die = build(up={(1, 9): [card(LADY, 1)]}, down={(1, 11): pile}, die="real", roll=2)
    assert G.legal_moves(die, 0) == [mv(9, 11)]


# --- favours ------------------------------------------------------------------------------


def bishop_example() -> State:
    """3rd figure: the Bishop 4 (seat 0, column 1) on row 5; on row 6 a Lady (column 3),
    a Bishop 3 (column 5) and a Prince (column 2)."""
    return build(
        columns={0: 1, 1: 3, 2: 5, 3: 2},
        up={(1, 5): [card(BISHOP, 4)], (3, 6): [card(LADY, 2)], (5, 6): [card(BISHOP, 3)],
            (2, 6): [card(PRINCE, 1)], (3, 2): [card(MINSTREL, 6)], (5, 3): [card(QUACK, 6)]},
    )


def test_favours_judge_the_stack_that_moved_by_its_top_card_or_its_highest():
    """hm.favour.lower (decision): a stack with a Fire-eater on top and a Prince inside
    takes only lower Fire-eaters. hm.favour.lower-any (table option 'Its highest card'):
    the Prince's rank counts, and the Prince 2 still outranks it."""
    beside = {(2, 7): [card(FIRE, 1)], (3, 7): [card(MINSTREL, 2)], (4, 7): [card(PRINCE, 2)]}
    moving = {(1, 6): [card(PRINCE, 1), card(FIRE, 3)], **beside}
    top = allowed(build(up=moving), 0, mv(6, 7, count=2))
    assert G.legal_moves(top, 0) == [take(2), {"type": "done"}]
    refused(top, 0, take(3), "hm.favour.lower")
    refused(top, 0, take(4), "hm.favour.lower")
    highest = allowed(build(up=moving, favour_rank="highest"), 0, mv(6, 7, count=2))
    assert G.legal_moves(highest, 0) == [take(2), take(3), {"type": "done"}]
    refused(highest, 0, take(4), "hm.favour.lower-any")
    after = allowed(highest, 0, take(3))
    assert stack_at(after, 1, 7) == ([card(MINSTREL, 2), card(PRINCE, 1), card(FIRE, 3)],
                                     False)


def test_rulebook_bishop_takes_the_lady_and_the_bishop_3_not_the_prince():
    state = bishop_example()
    assert G.legal_moves(state, 0) == [mv(5, 6)]
    favour = allowed(state, 0, mv(5, 6))
    assert favour["phase"] == "favour" and favour["turn"] == 0
    assert favour["moved"] == {"column": 1, "row": 6}
    assert G.legal_moves(favour, 0) == [take(3), take(5), {"type": "done"}]
    assert [v["column"] for v in G.view(favour, None)["victims"]] == [3, 5]
    refused(favour, 0, take(2), "hm.favour.lower")
    one = allowed(favour, 0, take(3))
    assert stack_at(one, 1, 6) == ([card(LADY, 2), card(BISHOP, 4)], False)
    assert stack_at(one, 3, 6) is None
    assert G.legal_moves(one, 0) == [take(5), {"type": "again"}, {"type": "done"}]
    two = allowed(one, 0, take(5))
    assert stack_at(two, 1, 6) == ([card(BISHOP, 3), card(LADY, 2), card(BISHOP, 4)], False)
    assert stack_at(two, 2, 6) == ([card(PRINCE, 1)], False)
    assert G.legal_moves(two, 0) == [{"type": "again"}, {"type": "done"}]
    assert two["last"]["takes"] == [
        {"column": 3, "count": 1, "discarded": 0, "home": False},
        {"column": 5, "count": 1, "discarded": 0, "home": False},
    ]
    ended = allowed(two, 0, {"type": "done"})
    assert ended["phase"] == "move" and ended["turn"] == 1 and ended["moved"] is None


def test_favour_same_row():
    """hm.favour.same-row: only stacks on the row the mover ended on can be taken."""
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 7): [card(LADY, 2)],
                      (3, 5): [card(LADY, 3)], (4, 6): [card(QUACK, 6)]})
    favour = allowed(state, 0, mv(5, 6))
    assert G.legal_moves(favour, 0) == [take(4), {"type": "done"}]
    for column in (2, 3):
        err = refused(favour, 0, take(column), "hm.favour.nothing-there")
        assert err.params == {"row": 6, "column": column}
    after = allowed(favour, 0, take(4))
    assert stack_at(after, 1, 6) == ([card(QUACK, 6), card(BISHOP, 4)], False)
    quiet = build(up={(1, 5): [card(BISHOP, 4)], (2, 7): [card(LADY, 2)]})
    after = allowed(quiet, 0, mv(5, 6))
    assert after["phase"] == "move" and after["turn"] == 1  # no favour to offer


def test_favour_only_moved():
    state = build(up={(1, 6): [card(BISHOP, 4)], (2, 6): [card(LADY, 2)]})
    refused(state, 0, take(2), "hm.favour.only-moved")
    favour = bishop_example()
    favour = G.apply(favour, 0, mv(5, 6))
    favour = G.apply(favour, 0, take(3))
    again = allowed(favour, 0, {"type": "again"})
    refused(again, 0, take(5), "hm.favour.only-moved")
    allowed(favour, 0, take(5))


def test_favour_nothing_there():
    favour = G.apply(bishop_example(), 0, mv(5, 6))
    for column in (4, 6):
        err = refused(favour, 0, take(column), "hm.favour.nothing-there")
        assert err.params == {"row": 6, "column": column}
    allowed(favour, 0, take(5))


def test_favour_other_column():
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): [card(LADY, 2)]})
    favour = G.apply(state, 0, mv(5, 6))
    refused(favour, 0, take(1), "hm.favour.other-column")
    allowed(favour, 0, take(2))


def test_favour_lower():
    favour = G.apply(bishop_example(), 0, mv(5, 6))
    refused(favour, 0, take(2), "hm.favour.lower")
    allowed(favour, 0, take(5))  # the Bishop 3, same rank but lower


def test_favour_top_part():
    victim = [card(FIRE, 1), card(QUACK, 2), card(LADY, 1)]
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): victim})
    favour = G.apply(state, 0, mv(5, 6))
    assert G.legal_moves(favour, 0) == [take(2, 1), take(2, 2), take(2, 3), {"type": "done"}]
    for count in (0, 4, -2):
        err = refused(favour, 0, take(2, count), "hm.favour.top-part")
        assert err.params == {"height": 3}
    after = allowed(favour, 0, take(2, 2))
    assert stack_at(after, 1, 6) == ([card(QUACK, 2), card(LADY, 1), card(BISHOP, 4)], False)
    assert stack_at(after, 2, 6) == ([card(FIRE, 1)], False)


def test_favour_hidden():
    """hm.favour.hidden: the top decides; a hidden Prince goes along under the Bishop."""
    victim = [card(PRINCE, 6), card(LADY, 2)]
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): victim})
    favour = G.apply(state, 0, mv(5, 6))
    assert take(2, 2) in G.legal_moves(favour, 0)
    after = allowed(favour, 0, take(2, 2))
    assert stack_at(after, 1, 6) == ([card(PRINCE, 6), card(LADY, 2), card(BISHOP, 4)], False)
    assert stack_at(after, 2, 6) is None
    part = allowed(favour, 0, take(2, 1))
    assert stack_at(part, 2, 6) == ([card(PRINCE, 6)], False)  # now on top, face up


def test_favour_once():
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): [card(FIRE, 1), card(LADY, 1)],
                      (3, 6): [card(QUACK, 1)]})
    favour = G.apply(state, 0, mv(5, 6))
    after = allowed(favour, 0, take(2, 1))
    refused(after, 0, take(2, 1), "hm.favour.once")
    assert G.legal_moves(after, 0) == [take(3), {"type": "again"}, {"type": "done"}]
    after = allowed(after, 0, take(3))
    assert after["taken_from"] == [2, 3]


def test_favour_goal_untouchable():
    state = build(up={(1, 10): [card(PRINCE, 1)], (3, 11): [card(BISHOP, 2)]},
                  down={(2, 11): [card(LADY, 2)]})
    favour = G.apply(state, 0, mv(10, 11))
    refused(favour, 0, take(2), "hm.favour.goal-untouchable")
    assert G.legal_moves(favour, 0) == [take(3), {"type": "done"}]
    after = allowed(favour, 0, take(3))
    assert stack_at(after, 1, 11) == ([card(BISHOP, 2), card(PRINCE, 1)], False)
    assert stack_at(after, 2, 11) == ([card(LADY, 2)], True)


def test_favour_again():
    """hm.favour.again: after a take the same seat moves again, with any stack."""
    favour = G.apply(bishop_example(), 0, mv(5, 6))
    favour["board"][0][0] = {"cards": [card(FIRE, 6)], "down": False}
    favour["unused"].remove(card(FIRE, 6))
    one = G.apply(favour, 0, take(3))
    again = allowed(one, 0, {"type": "again"})
    assert again["phase"] == "move" and again["turn"] == 0
    assert again["moved"] is None and again["took"] is False and again["taken_from"] == []
    assert G.legal_moves(again, 0) == [mv(1, 2), mv(6, 7, 2), mv(6, 7, 1)]
    after = allowed(again, 0, mv(1, 2))
    assert after["turn"] == 1
    done = allowed(one, 0, {"type": "done"})
    assert done["turn"] == 1 and done["phase"] == "move"


def test_favour_again_needs_take():
    favour = G.apply(bishop_example(), 0, mv(5, 6))
    refused(favour, 0, {"type": "again"}, "hm.favour.again-needs-take")
    refused(bishop_example(), 0, {"type": "again"}, "hm.favour.again-needs-take")
    allowed(G.apply(favour, 0, take(3)), 0, {"type": "again"})


# --- arrogance ----------------------------------------------------------------------------


def prince_takes(victim: list[int], row: int = 12, die: str = "off") -> State:
    """Seat 0's Prince 5 has just moved up to ``row``; seat 1's ``victim`` stands beside it."""
    state = build(up={(1, row - 1): [card(PRINCE, 5)], (2, row): victim}, die=die,
                  roll=None if die == "off" else 1)
    return G.apply(state, 0, mv(row - 1, row))


def test_arrogance_discards_the_whole_rest():
    """hm.arrogance: the rest uncovered above its goal goes to its owner's discards."""
    rest = [card(BISHOP, 2), card(MINSTREL, 4), card(LADY, 3)]
    favour = prince_takes([*rest, card(PRINCE, 3)])
    after = allowed(favour, 0, take(2, 1))
    assert stack_at(after, 2, 12) is None
    assert after["discards"] == {"0": [], "1": rest, "2": [], "3": []}
    assert after["last"]["takes"] == [{"column": 2, "count": 1, "discarded": 3, "home": False}]
    assert board.score_parts(after, 1)["discarded"] == 2 + 4 + 3
    assert stack_at(after, 1, 12) == ([card(PRINCE, 3), card(PRINCE, 5)], False)


def test_arrogance_spares_a_card_below_its_goal():
    favour = prince_takes([card(QUACK, 2), card(BISHOP, 1)], row=9)
    after = allowed(favour, 0, take(2, 1))
    assert stack_at(after, 2, 9) == ([card(QUACK, 2)], False)
    assert after["discards"]["1"] == []
    assert after["last"]["takes"][0]["discarded"] == 0
    whole = allowed(prince_takes([card(LADY, 3), card(PRINCE, 3)]), 0, take(2, 2))
    assert whole["discards"]["1"] == [] and stack_at(whole, 2, 12) is None


def test_arrogance_at_goal():
    """hm.arrogance.at-goal: a rest uncovered on its own goal is home, face down."""
    favour = prince_takes([card(QUACK, 2), card(LADY, 3), card(BISHOP, 2)], row=11)
    after = allowed(favour, 0, take(2, 1))
    assert stack_at(after, 2, 11) == ([card(QUACK, 2), card(LADY, 3)], True)
    assert after["discards"]["1"] == []
    assert after["last"]["takes"] == [{"column": 2, "count": 1, "discarded": 0, "home": True}]
    assert board.score_parts(after, 1) == {"home": 2 + 3, "short": 0, "discarded": 0,
                                           "total": 5}
    below = allowed(prince_takes([card(LADY, 3), card(BISHOP, 2)], row=10), 0, take(2, 1))
    assert stack_at(below, 2, 10) == ([card(LADY, 3)], False)


def test_die_arrogance_one_card_at_a_time():
    """hm.die.arrogance: with the die, cards go one by one until one may stand there."""
    rest = [card(BISHOP, 2), card(MINSTREL, 4), card(LADY, 3)]
    favour = prince_takes([*rest, card(PRINCE, 3)], die="real")
    after = allowed(favour, 0, take(2, 1))
    assert stack_at(after, 2, 12) == ([card(BISHOP, 2)], True)
    assert after["discards"]["1"] == [card(LADY, 3), card(MINSTREL, 4)]
    assert after["last"]["takes"] == [{"column": 2, "count": 1, "discarded": 2, "home": True}]
    higher = prince_takes([card(PRINCE, 1), card(LADY, 3), card(PRINCE, 3)], die="app")
    after = allowed(higher, 0, take(2, 1))
    assert stack_at(after, 2, 12) == ([card(PRINCE, 1)], False)
    assert after["discards"]["1"] == [card(LADY, 3)]
    plain = allowed(prince_takes([card(PRINCE, 1), card(LADY, 3), card(PRINCE, 3)]), 0,
                    take(2, 1))
    assert plain["discards"]["1"] == [card(PRINCE, 1), card(LADY, 3)]


# --- the end and the score ----------------------------------------------------------------


def test_end_last_player():
    """hm.end.last-player: without the die, the game ends when one seat is left moving."""
    state = build(3, up={(1, 3): [card(QUACK, 1)], (2, 7): [card(FIRE, 1)]},
                  down={(3, 8): [card(FIRE, 2)]}, turn=1)
    over = allowed(state, 1, mv(7, 8))
    assert over["phase"] == "over" and over["turn"] is None
    result = G.outcome(over)
    assert result is not None and result.reason == "last-player"
    assert result.scores == {0: -1, 1: 1, 2: 2}
    assert result.ranking == [[2], [1], [0]]
    state["board"][2][1] = {"cards": [card(MINSTREL, 1)], "down": False}
    state["unused"].remove(card(MINSTREL, 1))
    going = allowed(state, 1, mv(7, 8))
    assert going["phase"] == "move" and going["turn"] == 2 and G.outcome(going) is None


def test_end_by_a_favour_at_once():
    """hm.end.last-player: arrogance can take a seat's last card; the game ends at once,
    with no extra turn and no further favour (FIN DE LA PARTIE)."""
    state = build(3, up={(1, 11): [card(PRINCE, 5)], (2, 12): [card(LADY, 3), card(PRINCE, 3)],
                         (1, 3): [card(QUACK, 1)]},
                  down={(3, 8): [card(FIRE, 2)]})
    favour = G.apply(state, 0, mv(11, 12))
    over = allowed(favour, 0, take(2, 1))
    assert over["phase"] == "over" and over["turn"] is None
    assert G.legal_moves(over, 0) == []
    refused(over, 0, {"type": "again"}, "hm.game.over")
    assert G.outcome(over).reason == "last-player"
    assert G.outcome(over).scores == {0: -(3 + 5 + 1), 1: -3, 2: 2}  # Princes short of 13
    assert {"rule": "hm.end.last-player", "seats": [0]} in over["effects"]
    assert {"rule": "hm.arrogance", "column": 2, "row": 12, "seat": 1, "count": 1} \
        in over["effects"]


def test_score_exact_totals_and_ties():
    """hm.score: home (on or beyond the goal) minus short minus discarded; ties share."""
    state = build(
        4,
        up={(1, 7): [card(QUACK, 6)], (3, 5): [card(BISHOP, 6)]},
        down={(1, 8): [card(FIRE, 3), card(FIRE, 5)], (1, 13): [card(LADY, 4), card(PRINCE, 2)],
              (2, 9): [card(FIRE, 6), card(MINSTREL, 5)],
              (2, 11): [card(PRINCE, 4), card(LADY, 1)], (4, 12): [card(BISHOP, 3)]},
        discards={0: [card(MINSTREL, 2)], 3: [card(QUACK, 1)]},
        filler=False,
    )
    state["phase"], state["turn"] = "over", None
    parts = {seat: board.score_parts(state, seat) for seat in range(4)}
    assert parts[0] == {"home": 3 + 5 + 4 + 2, "short": 6, "discarded": 2, "total": 6}
    assert parts[1] == {"home": 6 + 5 + 1, "short": 4, "discarded": 0, "total": 8}
    assert parts[2] == {"home": 0, "short": 6, "discarded": 0, "total": -6}
    assert parts[3] == {"home": 3, "short": 0, "discarded": 1, "total": 2}
    result = G.outcome(state)
    assert result.scores == {0: 6, 1: 8, 2: -6, 3: 2}
    assert result.ranking == [[1], [0], [3], [2]]
    assert result.winners == [1]
    state["discards"]["1"] = [card(QUACK, 2)]
    assert G.outcome(state).ranking == [[0, 1], [3], [2]]
    view = G.view(state, None)
    assert view["outcome"]["ranking"] == [[0, 1], [3], [2]]
    assert view["scores"]["2"] == parts[2]


def test_score_private():
    """hm.score.private: the phone shows its own score, the table only counts until the end."""
    state = build(up={(1, 7): [card(QUACK, 6)]}, down={(1, 8): [card(FIRE, 5)],
                                                        (2, 8): [card(FIRE, 4)]},
                  discards={1: [card(MINSTREL, 3)]})
    table = G.view(state, None)
    assert "scores" not in table and "score" not in table and table["outcome"] is None
    assert table["counts"]["0"] == {"home": 1, "climbing": 1, "discarded": 0}
    assert table["counts"]["1"] == {"home": 1, "climbing": 0, "discarded": 1}
    mine = G.view(state, 0)
    assert mine["score"] == {"home": 5, "short": 6, "discarded": 0, "total": -1}
    assert "scores" not in mine
    assert G.view(state, 1)["score"] == {"home": 4, "short": 0, "discarded": 3, "total": 1}
    state["phase"], state["turn"] = "over", None
    for seat in (None, 0, 2):
        scores = G.view(state, seat)["scores"]
        assert scores["1"]["total"] == 1 and scores["0"]["total"] == -1


# --- the die variant ----------------------------------------------------------------------


def test_die_roll():
    """hm.die.roll: the companion rolls, or the player enters the real die."""
    app = build(die="app")
    assert app["phase"] == "roll" and G.legal_moves(app, 0) == [{"type": "roll"}]
    rolled = allowed(app, 0, {"type": "roll"})
    assert 1 <= rolled["roll"] <= 6 and rolled["phase"] in ("move", "lose")
    refused(app, 0, {"type": "roll", "value": 3}, "hm.move.malformed")
    real = build(die="real")
    assert G.legal_moves(real, 0) == [{"type": "roll", "value": v} for v in range(1, 7)]
    refused(real, 0, {"type": "roll"}, "hm.move.malformed")
    rolled = allowed(real, 0, {"type": "roll", "value": 3})
    assert rolled["roll"] == 3 and rolled["phase"] == "move" and rolled["rng"] == real["rng"]
    assert G.legal_moves(rolled, 0) == [mv(1, 4)]
    refused(rolled, 0, {"type": "roll", "value": 3}, "hm.turn.phase")


def test_die_roll_first():
    state = build(die="real")
    refused(state, 0, mv(1, 2), "hm.die.roll-first")
    allowed(state, 0, {"type": "roll", "value": 1})


def test_die_value():
    state = build(die="real")
    for value in (0, 7, -1, 66):
        refused(state, 0, {"type": "roll", "value": value}, "hm.die.value")
    for value in range(1, 7):
        assert allowed(state, 0, {"type": "roll", "value": value})["roll"] == value


def test_die_exact():
    """hm.die.exact: exactly the roll, counting occupied squares, onto a free square."""
    state = build(up={(1, 3): [card(QUACK, 1)], (1, 4): [card(LADY, 1)]}, die="real", roll=2)
    assert row_moves(state, 0, 3) == [mv(3, 5)]
    for to in (6, 7):
        err = refused(state, 0, mv(3, to), "hm.die.exact")
        assert err.params == {"roll": 2}
    refused(state, 0, mv(3, 4), "hm.die.exact")
    refused(state, 0, mv(3, 11), "hm.move.goal-limit")
    after = allowed(state, 0, mv(3, 5))
    assert stack_at(after, 1, 5) == ([card(QUACK, 1)], False) and after["roll"] is None
    assert after["last"]["roll"] == 2 and after["phase"] == "roll" and after["turn"] == 1
    short = build(up={(1, 9): [card(QUACK, 1)]}, die="real", roll=2)
    assert row_moves(short, 0, 9) == []


def test_die_again():
    """hm.die.again: the extra turn is optional; once chosen, the die must be rolled."""
    state = build(up={(1, 5): [card(BISHOP, 4)], (2, 6): [card(LADY, 2)],
                      (2, 1): [card(FIRE, 6)]}, die="real", roll=1)
    favour = G.apply(state, 0, mv(5, 6))
    took = allowed(favour, 0, take(2))
    again = allowed(took, 0, {"type": "again"})
    assert again["phase"] == "roll" and again["turn"] == 0
    refused(again, 0, {"type": "done"}, "hm.turn.must-move")
    refused(again, 0, mv(6, 7), "hm.die.roll-first")
    rolled = allowed(again, 0, {"type": "roll", "value": 1})
    assert rolled["phase"] == "move" and rolled["turn"] == 0
    declined = allowed(took, 0, {"type": "done"})
    assert declined["phase"] == "roll" and declined["turn"] == 1


def lose(row: int, lost: int) -> Move:
    return {"type": "lose", "row": row, "lost": lost}


def test_die_lose():
    """hm.die.lose: a roll that allows no move costs a card of the roller's choice still on
    its way, a covered one too (« une carte de son choix »)."""
    state = build(up={(1, 9): [card(QUACK, 1), card(QUACK, 4)], (1, 10): [card(PRINCE, 2)]},
                  down={(1, 8): [card(FIRE, 2)]}, die="real")
    stuck = allowed(state, 0, {"type": "roll", "value": 4})  # 9+4 > 10, 10+4 > 13
    assert stuck["phase"] == "lose" and stuck["roll"] == 4
    assert {"rule": "hm.die.lose", "seat": 0, "roll": 4} in stuck["effects"]
    assert G.legal_moves(stuck, 0) == [lose(9, card(QUACK, 4)), lose(9, card(QUACK, 1)),
                                       lose(10, card(PRINCE, 2))]
    refused(stuck, 0, mv(10, 13), "hm.turn.phase")
    refused(stuck, 0, lose(7, card(QUACK, 1)), "hm.move.own-column")
    refused(stuck, 0, lose(9, card(PRINCE, 2)), "hm.die.lose")  # not in that stack
    refused(stuck, 0, lose(8, card(FIRE, 2)), "hm.goal.reached")
    after = allowed(stuck, 0, lose(9, card(QUACK, 4)))
    assert stack_at(after, 1, 9) == ([card(QUACK, 1)], False)
    assert after["discards"]["0"] == [card(QUACK, 4)]
    assert after["last"]["lost"] == {"row": 9, "discarded": 0}
    assert after["turn"] == 1 and after["phase"] == "roll"
    assert not G.can_undo(stuck, 0, lose(9, card(QUACK, 4)), after)
    covered = allowed(stuck, 0, lose(9, card(QUACK, 1)))
    assert stack_at(covered, 1, 9) == ([card(QUACK, 4)], False)  # the order is unchanged
    assert covered["discards"]["0"] == [card(QUACK, 1)]
    assert covered["last"]["top"] is None  # the others never see the covered card
    for viewer in (None, 1, 2):
        assert G.view(covered, viewer)["last"]["top"] is None
        assert "discards" not in json.dumps(G.view(covered, viewer).get("private", {}))
    carried = build(up={(1, 12): [card(LADY, 3), card(PRINCE, 2)]}, die="real", phase="lose",
                    roll=5)
    after = allowed(carried, 0, lose(12, card(PRINCE, 2)))
    assert after["discards"]["0"] == [card(PRINCE, 2), card(LADY, 3)]
    assert after["last"]["lost"] == {"row": 12, "discarded": 1}
    assert {"rule": "hm.die.arrogance", "column": 1, "row": 12, "seat": 0, "count": 1} \
        in after["effects"]


def test_die_lose_top_only_as_a_table_option():
    """hm.die.lose-top: with the narrower reading, only a stack's top card may go."""
    stuck = build(up={(1, 9): [card(QUACK, 1), card(QUACK, 4)]}, die="real", phase="lose",
                  roll=6, die_loss="top")
    assert G.legal_moves(stuck, 0) == [lose(9, card(QUACK, 4))]
    refused(stuck, 0, lose(9, card(QUACK, 1)), "hm.die.lose-top")


def test_die_lose_only_stuck():
    state = build(up={(1, 9): [card(QUACK, 1)]}, die="real", roll=1)
    refused(state, 0, lose(9, card(QUACK, 1)), "hm.die.lose-only-stuck")
    allowed(state, 0, mv(9, 10))


def test_die_end():
    """hm.die.end: with the die, the last seat on the way plays on alone; the game ends
    when every card is home or gone."""
    state = build(3, up={(1, 3): [card(QUACK, 1)], (2, 7): [card(FIRE, 1)]},
                  down={(3, 8): [card(FIRE, 2)]}, die="real", turn=1, roll=1)
    after = allowed(state, 1, mv(7, 8))
    assert after["phase"] == "roll" and after["turn"] == 0 and G.outcome(after) is None
    after = allowed(allowed(after, 0, {"type": "roll", "value": 1}), 0, mv(3, 4))
    assert after["phase"] == "roll" and after["turn"] == 0
    state = build(3, up={(1, 9): [card(QUACK, 1)]}, down={(2, 8): [card(FIRE, 1)],
                                                         (3, 8): [card(FIRE, 2)]},
                  die="app", roll=1)
    over = allowed(state, 0, mv(9, 10))
    assert over["phase"] == "over"
    result = G.outcome(over)
    assert result.reason == "all-home" and result.scores == {0: 1, 1: 1, 2: 2}
    assert result.ranking == [[2], [0, 1]]


# --- arbitrary input ----------------------------------------------------------------------

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=5)
    | st.sampled_from(["move", "take", "place", "lift", "column", "roll", "lose", "again"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                               max_size=3),
    max_leaves=6,
)
MOVE_KEYS = st.sampled_from(["type", "row", "count", "to", "from", "card", "column", "value"])
MOVES = st.builds(
    lambda kind, rest: {"type": kind, **rest},
    st.sampled_from(["move", "take", "place", "lift", "column", "roll", "lose", "again", "done",
                     "pass"]),
    st.dictionaries(MOVE_KEYS, st.integers(-2, 40), max_size=4),
)


def arbitrary_states() -> list[State]:
    favour = G.apply(bishop_example(), 0, mv(5, 6))
    return [seated(), seated(deal="table"), bishop_example(), favour, build(die="app"),
            build(die="real", phase="lose", roll=6)]


STATES = arbitrary_states()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(move=MOVES | JSONISH, seat=st.integers(0, 3), which=st.integers(0, len(STATES) - 1))
def test_apply_only_raises_illegal_move_and_agrees_with_legal(move, seat, which):
    CHECKS.agrees(STATES[which], seat, move, frozenset({"hm.setup.claimed"}))


# --- the catalogue ------------------------------------------------------------------------


def test_messages_fill_from_params():
    catalogue = clauses(GAME)
    lady = build(up={(1, 10): [card(LADY, 1)]})
    favour = G.apply(bishop_example(), 0, mv(5, 6))
    cases = [
        (lady, 0, mv(10, 12), "hm.move.goal-limit"),
        (lady, 0, mv(10, 9), "hm.move.upward"),
        (lady, 0, mv(8, 9), "hm.move.own-column"),
        (lady, 0, mv(10, 11, 2), "hm.move.top-part"),
        (lady, 0, None, "hm.move.malformed"),
        (build(up={(1, 12): [card(LADY, 1), card(PRINCE, 1)]}), 0, mv(12, 13),
         "hm.move.exposes"),
        (build(die="real", roll=4), 0, mv(1, 2), "hm.die.exact"),
        (favour, 0, take(4), "hm.favour.nothing-there"),
        (favour, 0, take(3, 2), "hm.favour.top-part"),
        (G.apply(G.setup(4, {}, 1), 0, {"type": "column", "column": 2}), 1,
         {"type": "column", "column": 2}, "hm.setup.column-taken"),
    ]
    for state, seat, move, rule in cases:
        err = refused(state, seat, move, rule)
        for lang in ("en", "fr"):
            text = catalogue[rule][lang].format(**TABLE_PARAMS, **err.params)
            assert "{" not in text and "}" not in text, (rule, text)


def test_a_seat_outside_the_table_may_do_nothing():
    for state in (seated(3), build(3, up={(1, 3): [card(QUACK, 1)]})):
        for seat in (-1, 3, 7, True, False, 1.0, "1", None):
            assert G.legal_moves(state, seat) == []
            with pytest.raises(IllegalMove) as err:
                G.apply(state, seat, {"type": "column", "column": 6})
            assert err.value.rule == "hm.turn.wait"


# --- every refusal names its own clause -----------------------------------------------------

# When a move breaks several rules, the one named is the first of (docs/games/
# heuchel-meuchel.md, "Which rule a refusal names"): the game is over; no seat of this
# table; the move's shape; set-up moves outside the set-up; not your turn; the moment of
# the turn; then the move's own rules, from the stack to the landing square.


def _over() -> State:
    state = build()
    state["phase"], state["turn"] = "over", None
    return state


def _table_dealt(*placed: tuple[int, int]) -> State:
    state = seated(3, deal="table")
    for seat, placed_card in placed:
        state = G.apply(state, seat, {"type": "place", "card": placed_card})
    return state


def _six_placed() -> State:
    state = seated(3, deal="table")
    for c in range(6):
        state = G.apply(state, 0, {"type": "place", "card": c})
    return state


def _favour(state: State, row: int, to: int, *takes: Move) -> State:
    state = G.apply(state, 0, mv(row, to))
    for move in takes:
        state = G.apply(state, 0, move)
    return state


REFUSALS: dict[str, Any] = {
    "hm.game.over": lambda: (_over(), 0, mv(1, 2)),
    "hm.turn.wait": lambda: (build(), 1, mv(1, 2)),
    "hm.move.malformed": lambda: (build(), 0, {"type": "fly"}),
    "hm.turn.phase": lambda: (seated(), 0, mv(1, 2)),
    "hm.favour.first": lambda: (G.apply(build(up={(1, 5): [card(BISHOP, 4)],
                                                  (2, 6): [card(LADY, 2)]}), 0, mv(5, 6)),
                                0, mv(6, 7)),
    "hm.setup.over": lambda: (build(), 1, {"type": "lift", "card": card(FIRE, 1)}),
    "hm.turn.must-move": lambda: (build(), 0, {"type": "pass"}),
    "hm.die.roll-first": lambda: (build(die="real"), 0, mv(1, 2)),
    "hm.favour.only-moved": lambda: (build(up={(1, 6): [card(BISHOP, 4)],
                                               (2, 6): [card(LADY, 2)]}), 0, take(2)),
    "hm.favour.again-needs-take": lambda: (_favour(bishop_example(), 5, 6), 0,
                                           {"type": "again"}),
    "hm.die.lose-only-stuck": lambda: (build(up={(1, 9): [card(QUACK, 1)]}, die="real",
                                             roll=1), 0, lose(9, card(QUACK, 1))),
    "hm.setup.column-fixed": lambda: (G.apply(seated(), 0, {"type": "place", "card":
                                                            seated()["hands"]["0"][0]}),
                                      0, {"type": "column", "column": 6}),
    "hm.setup.column-taken": lambda: (G.apply(G.setup(4, {}, 7), 0,
                                              {"type": "column", "column": 3}),
                                      1, {"type": "column", "column": 3}),
    "hm.setup.not-yours": lambda: (_table_dealt((1, card(QUACK, 1))), 0,
                                   {"type": "lift", "card": card(QUACK, 1)}),
    "hm.setup.column-first": lambda: (G.setup(4, {}, 7), 0,
                                      {"type": "place",
                                       "card": G.setup(4, {}, 7)["hands"]["0"][0]}),
    "hm.setup.six": lambda: (_six_placed(), 0, {"type": "place", "card": 20}),
    "hm.setup.in-turn": lambda: (seated(placing="in-turn"), 1,
                                 {"type": "place", "card": seated()["hands"]["1"][0]}),
    "hm.setup.not-dealt": lambda: (seated(), 0, {"type": "place",
                                                 "card": seated()["hands"]["1"][0]}),
    "hm.setup.already-placed": lambda: (_table_dealt((0, card(LADY, 2))), 0,
                                        {"type": "place", "card": card(LADY, 2)}),
    "hm.setup.claimed": lambda: (_table_dealt((0, card(LADY, 2))), 1,
                                 {"type": "place", "card": card(LADY, 2)}),
    "hm.move.own-column": lambda: (build(up={(1, 10): [card(LADY, 1)]}), 0, mv(8, 9)),
    "hm.goal.reached": lambda: (build(up={(1, 6): [card(FIRE, 1)]},
                                      down={(1, 8): [card(FIRE, 2)]}), 0, mv(8, 9)),
    "hm.move.top-part": lambda: (build(up={(1, 10): [card(LADY, 1)]}), 0, mv(10, 11, 2)),
    "hm.move.exposes": lambda: (build(up={(1, 12): [card(MINSTREL, 1), card(LADY, 3),
                                                    card(PRINCE, 2)]}), 0, mv(12, 13, 1)),
    "hm.move.goal-limit": lambda: (build(up={(1, 10): [card(LADY, 1)]}), 0, mv(10, 12)),
    "hm.die.exact": lambda: (build(die="real", roll=4), 0, mv(1, 2)),
    "hm.move.no-landing": lambda: (build(up={(1, 7): [card(FIRE, 1)],
                                             (1, 8): [card(MINSTREL, 1)]}), 0, mv(7, 8)),
    "hm.goal.shared": lambda: (build(up={(1, 10): [card(LADY, 1)], (1, 9): [card(BISHOP, 2)]},
                                     down={(1, 11): [card(LADY, 5)]}), 0, mv(9, 11)),
    "hm.move.upward": lambda: (build(up={(1, 10): [card(LADY, 1)]}), 0, mv(10, 9)),
    "hm.move.step-ends": lambda: (build(up={(1, 3): [card(QUACK, 4)]}), 0, mv(3, 5)),
    "hm.move.keep-jumping": lambda: (build(up={(1, 3): [card(QUACK, 4)]},
                                           step_ends_move=False), 0, mv(3, 5)),
    "hm.move.jump-ends": lambda: (build(up={(1, 1): [card(FIRE, 2)], (1, 2): [card(LADY, 2)]}),
                                  0, mv(1, 4)),
    "hm.favour.other-column": lambda: (_favour(build(up={(1, 5): [card(BISHOP, 4)],
                                                         (2, 6): [card(LADY, 2)]}), 5, 6),
                                       0, take(1)),
    "hm.favour.once": lambda: (_favour(build(up={(1, 5): [card(BISHOP, 4)],
                                                 (2, 6): [card(FIRE, 1), card(LADY, 1)],
                                                 (3, 6): [card(QUACK, 1)]}), 5, 6, take(2, 1)),
                               0, take(2, 1)),
    "hm.favour.nothing-there": lambda: (_favour(bishop_example(), 5, 6), 0, take(4)),
    "hm.favour.goal-untouchable": lambda: (_favour(build(up={(1, 10): [card(PRINCE, 1)],
                                                             (3, 11): [card(BISHOP, 2)]},
                                                         down={(2, 11): [card(LADY, 2)]}),
                                                   10, 11), 0, take(2)),
    "hm.favour.lower": lambda: (_favour(bishop_example(), 5, 6), 0, take(2)),
    "hm.favour.lower-any": lambda: (_favour(build(up={(1, 5): [card(BISHOP, 1), card(LADY, 1)],
                                                      (2, 6): [card(PRINCE, 1)],
                                                      (3, 6): [card(QUACK, 1)]},
                                                  favour_rank="highest"), 5, 6),
                                    0, take(2)),
    "hm.favour.top-part": lambda: (_favour(build(up={(1, 5): [card(BISHOP, 4)],
                                                     (2, 6): [card(FIRE, 1), card(LADY, 1)]}),
                                           5, 6), 0, take(2, 3)),
    "hm.die.value": lambda: (build(die="real"), 0, {"type": "roll", "value": 7}),
    "hm.die.lose": lambda: (build(up={(1, 9): [card(QUACK, 1)], (1, 10): [card(PRINCE, 2)]},
                                  die="real", phase="lose", roll=6),
                            0, lose(9, card(PRINCE, 2))),
    "hm.die.lose-top": lambda: (build(up={(1, 9): [card(QUACK, 1), card(QUACK, 4)]},
                                      die="real", phase="lose", roll=6, die_loss="top"),
                                0, lose(9, card(QUACK, 1))),
}


@pytest.mark.parametrize("rule", sorted(REFUSALS))
def test_each_refusal_clause_is_the_one_named(rule):
    state, seat, move = REFUSALS[rule]()
    if rule == "hm.setup.claimed":  # offered: the others' real cards are theirs to know
        refused_offered(state, seat, move, rule)
    else:
        refused(state, seat, move, rule)


def test_every_refusal_clause_has_its_example():
    assert set(REFUSALS) == move_refusal_clauses(GAME)


def test_where_two_rules_collide_the_first_in_the_order_is_named():
    over = _over()
    refused(over, 7, {"type": "fly"}, "hm.game.over")  # over, before seat and shape
    refused(build(), 9, {"type": "fly"}, "hm.turn.wait")  # no seat, before the shape
    refused(build(), 1, {"type": "column", "column": 9}, "hm.move.malformed")
    refused(build(), 1, {"type": "place", "card": card(FIRE, 1)}, "hm.setup.over")
    # A Bishop aimed past its goal at the Ladies' pile: the goal limit comes first.
    state = build(up={(1, 9): [card(BISHOP, 2)]}, down={(1, 11): [card(LADY, 5)]})
    refused(state, 0, mv(9, 13), "hm.move.goal-limit")
