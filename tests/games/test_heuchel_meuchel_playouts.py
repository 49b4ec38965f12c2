"""Heuchel & Meuchel: random legal games from the set-up to the end, for 3 to 6 players and
both deals, checking the invariants after every move.

In a table deal the real cards are shuffled with a drawn seed and each seat enters only its
own 6 physical cards. During the set-up, lifts and column changes are drawn only a few times
per game (Hypothesis favours small draws, so odds alone would let lifts undo placements
forever), so the set-up finishes.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalMove, clauses
from companion.games.heuchel_meuchel import HeuchelMeuchel, board
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    COLUMNS,
    ROWS,
    card_goal,
    rank_of,
    start_row,
    value_of,
)
from tests.rule_checks import in_force

G = HeuchelMeuchel()
MAX_MOVES = 3000
FIDDLE_BUDGET = 6  # set-up steps per game that may lift a card or change column

State = dict[str, Any]
Move = dict[str, Any]


# --- what a state must always satisfy ---------------------------------------------------


def board_cards(state: State) -> list[int]:
    return [c for column in state["board"] for stack in column if stack for c in stack["cards"]]


def check_cards(state: State) -> None:
    """Every card is once on the board, in a discard pile, a hand or the unused pile; in a
    table deal the cards not entered yet are simply not in the state."""
    cards = board_cards(state)
    cards += [c for pile in state["discards"].values() for c in pile]
    cards += [c for hand in state["hands"].values() for c in hand]
    cards += state["unused"]
    assert len(cards) == len(set(cards)), "a card is in two places"
    if state["options"]["deal"] == "table" and state["phase"] == "setup":
        assert set(cards) <= set(range(CARD_COUNT)) and state["unused"] == []
    else:
        assert sorted(cards) == list(range(CARD_COUNT))


def face_up_tops(state: State) -> set[int]:
    return {board.top(stack) for column in range(1, COLUMNS + 1)
            for _, stack in board.stacks(state, column) if not stack["down"]}


def check_board(state: State) -> None:
    """Stacks stand in owned columns; no card above its goal unless a higher rank tops its
    stack; in play no face-up top on or above its goal, and goal piles on their goal."""
    owned = {column for column in state["columns"].values() if column is not None}
    setting_up = state["phase"] == "setup"
    for column in range(1, COLUMNS + 1):
        for row, stack in board.stacks(state, column):
            assert column in owned and stack["cards"]
            top = board.top(stack)
            for c in stack["cards"]:
                if row > card_goal(c):
                    assert rank_of(top) > rank_of(c), (column, row, stack)
                if setting_up:
                    assert row == start_row(rank_of(c))
            if setting_up:
                assert not stack["down"]
            elif stack["down"]:
                assert row == card_goal(top), (column, row, stack)
            else:
                assert row < card_goal(top), (column, row, stack)
    if setting_up:
        assert all(board.placed_count(state, seat) <= 6 for seat in range(state["players"]))


CARD = re.compile(r'\{"id": (\d+), "rank": \d+, "rank_id": "[a-z-]+", "value": \d+\}')


def walk(view: Any, forbidden: tuple[str, ...]) -> set[int]:
    """Every card id a view shows (as a card: id, rank, rank_id, value), read from its JSON
    text, which must use none of the ``forbidden`` keys."""
    text = json.dumps(view)
    found = CARD.findall(text)
    assert text.count('"rank_id"') == len(found), "a card in another shape"
    for key in forbidden:
        assert f'"{key}": ' not in text, key
    return {int(card) for card in found}


def placed_in_turn(state: State) -> set[int]:
    """During a set-up "in turn", the top cards of the players who placed their six."""
    if state["options"]["placing"] != "in-turn":
        return set()
    return {board.top(stack) for seat in range(state["players"])
            if board.setup_done(state, seat)
            for _, stack in board.stacks(state, board.own_column(state, seat))}


TABLE_SECRETS = ("rng", "unused", "hands", "hand", "discards", "cards", "mine", "score")
SEAT_SECRETS = ("rng", "unused", "hands")


def check_effects(state: State) -> None:
    """Each effect names a clause of the game and holds only public JSON values: columns,
    rows, seats and counts, never a card."""
    catalogue = clauses(G.id)
    for effect in state["effects"]:
        assert effect["rule"] in catalogue, effect
        assert json.loads(json.dumps(effect)) == effect
        assert set(effect) <= {"rule", "column", "row", "rows", "seat", "seats", "count",
                               "columns", "roll"}, effect


def check_views(state: State, before: State) -> None:
    """Each seat sees its column, hand and discards, and during play the face-up tops and
    the card the latest turn moved or lost (a top everyone saw); the table only the latter."""
    public = face_up_tops(state) if state["phase"] != "setup" else placed_in_turn(state)
    last = state["last"]
    if last is not None and last["top"] is not None:  # a covered card given up stays unnamed
        if last["top"] != (before["last"] or {}).get("top"):  # a favour names it again
            assert last["top"]["id"] in face_up_tops(before), "the log names a hidden card"
        public.add(last["top"]["id"])
    table = G.view(state, None)
    assert walk(table, TABLE_SECRETS) == public
    assert ("scores" in table) == (state["phase"] == "over")
    for seat in range(state["players"]):
        view = G.view(state, seat)
        own = {c for _, c in board.column_cards(state, seat)}
        own |= set(state["hands"][str(seat)]) | set(state["discards"][str(seat)])
        assert walk(view, SEAT_SECRETS) == own | public, seat
        assert view["score"] == board.score_parts(state, seat)


def check_turn(state: State) -> None:
    """In play only the seat whose turn it is may act, and it has a card on the way."""
    if state["phase"] in ("setup", "over"):
        return
    turn = state["turn"]
    assert board.has_live(state, turn), "the turn went to a seat with nothing on the way"
    for seat in range(state["players"]):
        assert bool(G.legal_moves(state, seat)) == (seat == turn)


def claimed_by_other(state: State, seat: int, move: Move) -> bool:
    """A table-deal place of a card that another seat has already entered."""
    if state["options"]["deal"] != "table" or move.get("type") != "place":
        return False
    mine = {c for _, c in board.column_cards(state, seat)}
    return move["card"] in board.placed_cards(state) and move["card"] not in mine


def check_legal_apply(state: State, seat: int, moves: list[Move]) -> None:
    """Every legal move applies (in a table deal, but for a card another seat entered)."""
    for move in moves:
        try:
            G.apply(state, seat, move)
        except IllegalMove as err:
            if err.rule == "hm.setup.claimed" and claimed_by_other(state, seat, move):
                continue
            pytest.fail(f"legal move {move} refused: {err.rule}")


def _probes() -> tuple[list[Move], list[Move]]:
    """Candidate moves, legal or not, to check that apply accepts exactly the legal ones:
    (during the set-up, during play)."""
    setup: list[Move] = [{"type": "column", "column": c} for c in range(1, COLUMNS + 1)]
    setup += [{"type": t, "card": c} for t in ("place", "lift") for c in range(CARD_COUNT)]
    play: list[Move] = [{"type": t} for t in ("again", "done", "pass", "roll")]
    play += [{"type": "roll", "value": v} for v in range(0, 8)]
    play += [{"type": "lose", "row": r, "lost": c} for r in range(1, ROWS + 1)
             for c in (0, 7, 17, 35)]
    play += [{"type": "take", "from": c, "count": n} for c in range(1, 7) for n in range(1, 4)]
    play += [{"type": "move", "row": r, "count": n, "to": t} for r in range(1, ROWS + 1)
             for n in range(1, 4) for t in range(r, ROWS + 2)]
    return setup, play


SETUP_PROBES, PLAY_PROBES = _probes()


def check_probe(state: State, seat: int, move: Move) -> None:
    try:
        G.apply(state, seat, move)
    except IllegalMove as err:
        # Every refusal names a rule of this table, never a clause of an option not in use.
        assert in_force(G.id, err.rule, state), (move, err.rule, state["options"])
        if err.rule == "hm.setup.claimed":
            assert claimed_by_other(state, seat, move)
        else:
            assert move not in G.legal_moves(state, seat), (move, err.rule)
    else:
        assert move in G.legal_moves(state, seat), move


# --- choosing moves -------------------------------------------------------------------


def pick(data: st.DataObject, items: list[Any], label: str) -> Any:
    """One of ``items``, drawn by index (cheap for Hypothesis to store and shrink)."""
    return items[data.draw(st.integers(0, len(items) - 1), label=label)]


def setup_choice(data: st.DataObject, state: State, physical: dict[int, set[int]] | None,
                 may_fiddle: bool) -> tuple[int, Move]:
    """A set-up step: a column for a seat without one or a card placed, or (when
    ``may_fiddle`` and drawn so) a lift or a change of column."""
    placing = board.placing_seat(state)
    waiting = [seat for seat in range(state["players"]) if not board.setup_done(state, seat)
               and placing in (None, seat)]
    assert waiting, "the set-up is over but the phase is not"
    fiddle = may_fiddle and data.draw(st.booleans(), label="fiddle")
    seats = [seat for seat in range(state["players"])
             if G.legal_moves(state, seat)] if fiddle else waiting
    seat = pick(data, seats, "seat")
    moves = G.legal_moves(state, seat)
    if physical is not None:
        moves = [m for m in moves if m["type"] != "place" or m["card"] in physical[seat]]
    placing = board.column_of(state, seat) is not None
    progress = [m for m in moves if m["type"] == ("place" if placing else "column")]
    other = [m for m in moves if m not in progress]
    pool = other if fiddle and other else progress
    if not pool:
        pool = moves
    return seat, pick(data, pool, "move")


# --- the playout ----------------------------------------------------------------------


def play_out(data: st.DataObject, players: int, deal: str) -> None:
    options = {
        "deal": deal,
        "die": pick(data, ["off", "app", "real"], "die"),
        "step_ends_move": data.draw(st.booleans(), label="step_ends_move"),
        "die_loss": pick(data, ["any", "top"], "die_loss"),
        "placing": pick(data, ["together", "in-turn"], "placing"),
        "favour_rank": pick(data, ["top", "highest"], "favour_rank"),
        "first_seat": data.draw(st.integers(0, players - 1), label="first_seat"),
    }
    state = G.setup(players, options, data.draw(st.integers(0, 2**32), label="seed"))
    physical = None
    if deal == "table":
        deck = list(range(CARD_COUNT))
        random.Random(data.draw(st.integers(0, 2**32), label="deal")).shuffle(deck)
        physical = {seat: set(deck[6 * seat:6 * seat + 6]) for seat in range(players)}
    check_cards(state)
    placed: set[int] = set()
    fiddles = 0
    for _ in range(MAX_MOVES):
        if G.outcome(state) is not None:
            break
        check_turn(state)
        if state["phase"] == "setup":
            seat, move = setup_choice(data, state, physical, fiddles < FIDDLE_BUDGET)
            placing = board.column_of(state, seat) is not None
            fiddles += move["type"] != ("place" if placing else "column")
        else:
            seat = state["turn"]
            move = pick(data, G.legal_moves(state, seat), "move")
        check_legal_apply(state, seat, G.legal_moves(state, seat))
        probes = SETUP_PROBES if state["phase"] == "setup" else PLAY_PROBES
        check_probe(state, seat, pick(data, probes, "probe"))
        before = json.dumps(state, sort_keys=True)
        after = G.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == before, "apply mutated its input"
        assert json.loads(json.dumps(after)) == after
        check_cards(after)
        check_board(after)
        check_effects(after)
        check_views(after, state)
        check_redaction(state, seat, move)
        check_undo(state, seat, move, after)
        if state["phase"] == "setup" and after["phase"] != "setup":
            placed = set(board_cards(after))
            assert after["turn"] == options["first_seat"]
            assert after["phase"] == ("move" if options["die"] == "off" else "roll")
            if physical is not None:
                assert placed == set().union(*physical.values())
        state = after
    check_end(state, placed)


def check_redaction(state: State, seat: int, move: Move) -> None:
    assert G.redact_move(state, seat, move, seat) == move
    for viewer in [*range(state["players"]), None]:
        if viewer == seat:
            continue
        seen = G.redact_move(state, seat, move, viewer)
        if move["type"] in ("place", "lift"):
            assert seen == {"type": move["type"], "rank": rank_of(move["card"])}
        elif move["type"] == "lose" and move["lost"] not in face_up_tops(state):
            assert seen == {"type": "lose", "row": move["row"]}  # a covered card given up
        else:
            assert seen == move


def check_undo(state: State, seat: int, move: Move, after: State) -> None:
    undo = G.can_undo(state, seat, move, after)
    assert isinstance(undo, bool)
    if move["type"] == "roll":
        assert undo == (state["options"]["die"] == "real")
    elif move["type"] == "move":
        height = len(board.square(state, board.column_of(state, seat), move["row"])["cards"])
        assert undo == (move["count"] == height)
    elif move["type"] == "place":
        assert undo == (after["phase"] == "setup")  # the last one turns every top face up
    elif move["type"] in ("again", "done", "column", "lift"):
        assert undo


def check_end(state: State, placed: set[int]) -> None:
    result = G.outcome(state)
    assert result is not None, "the game did not end"
    players = state["players"]
    assert sorted(seat for group in result.ranking for seat in group) == list(range(players))
    die = state["options"]["die"] != "off"
    assert result.reason == ("all-home" if die else "last-player")
    live = [seat for seat in range(players) if board.has_live(state, seat)]
    assert len(live) <= (0 if die else 1)
    total = 0
    for seat in range(players):
        parts = board.score_parts(state, seat)
        assert result.scores[seat] == parts["total"]
        assert parts["home"] - parts["short"] - parts["discarded"] == parts["total"]
        total += parts["home"] + parts["short"] + parts["discarded"]
        assert G.legal_moves(state, seat) == []
    assert total == sum(value_of(c) for c in placed)
    totals = [result.scores[group[0]] for group in result.ranking]
    assert totals == sorted(totals, reverse=True) and len(set(totals)) == len(totals)
    for group in result.ranking:
        assert len({result.scores[seat] for seat in group}) == 1


SETTINGS = settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
)


@pytest.mark.parametrize("deal", ["app", "table"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@SETTINGS
@given(data=st.data())
def test_random_games_end_cleanly(players, deal, data):
    play_out(data, players, deal)
