"""Heuchel & Meuchel: which rule a refusal names. The engine's checks, in the order of
docs/games/heuchel-meuchel.md, and every refusal over random positions of every table option
naming the first check that fails in that order, each check stated here again as a
predicate of its own."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.heuchel_meuchel import HeuchelMeuchel, board, rules, types
from companion.games.heuchel_meuchel.data import (
    CARD_COUNT,
    COLUMNS,
    ROWS,
    card_goal,
    goal_row,
    rank_of,
)
from tests.refusal_order import (
    Predicate,
    agrees_with_the_docs,
    clause_if,
    holds_at_random,
    reached,
    undeclared,
)

G = HeuchelMeuchel()
GAME = "heuchel-meuchel"
State = dict[str, Any]
Move = dict[str, Any]


# --- each check, stated again ----------------------------------------------------------


def _shape(state: State, seat: int, move: Any) -> str | None:
    if undeclared(move, types.Move, "hm.move.malformed"):
        return "hm.move.malformed"
    if any(key in move and not 1 <= move[key] <= COLUMNS for key in ("column", "from")):
        return "hm.move.malformed"
    if "card" in move and not 0 <= move["card"] < CARD_COUNT:
        return "hm.move.malformed"
    return None


def _placing(state: State) -> int | None:
    """Option "in turn": the first seat clockwise from the first player not yet set up."""
    if state["options"]["placing"] != "in-turn":
        return None
    for offset in range(state["players"]):
        seat = (state["first"] + offset) % state["players"]
        if state["columns"][str(seat)] is None or board.placed_count(state, seat) < 6:
            return seat
    return None


def _own(state: State, seat: int, row: int) -> dict[str, Any] | None:
    column = state["columns"][str(seat)]
    return state["board"][column - 1][row - 1] if 1 <= row <= ROWS else None


def _rank(state: State, seat: int, move: Move) -> int:
    return rank_of(_own(state, seat, move["row"])["cards"][-1])


def _free(state: State, seat: int, move: Move) -> bool:
    """Empty, or a face-down pile on the goal of the stack's top rank."""
    square = _own(state, seat, move["to"])
    return square is None or (square["down"] and move["to"] == goal_row(_rank(state, seat, move)))


def _landings(state: State, seat: int, move: Move) -> list[int]:
    column = state["columns"][str(seat)]
    return board.reachable(state, column, move["row"], _rank(state, seat, move))


def _taker(state: State) -> dict[str, Any]:
    moved = state["moved"]
    return state["board"][moved["column"] - 1][moved["row"] - 1]


def _victim(state: State, move: Move) -> dict[str, Any] | None:
    return state["board"][move["from"] - 1][state["moved"]["row"] - 1]


PHASE_OF = {"move": "move", "roll": "roll", "lose": "lose"}

PREDICATES: dict[str, Predicate] = {
    "over": lambda s, seat, m: clause_if(s["phase"] == "over", "hm.game.over"),
    "seat": lambda s, seat, m: clause_if(not (type(seat) is int and 0 <= seat < s["players"]),
                                         "hm.turn.wait"),
    "shape": _shape,
    "begun": lambda s, seat, m: clause_if(s["phase"] != "setup", "hm.setup.over"),
    "column-fixed": lambda s, seat, m: clause_if(s["columns"][str(seat)] is not None
                                                 and board.placed_count(s, seat) > 0,
                                                 "hm.setup.column-fixed"),
    "column-taken": lambda s, seat, m: clause_if(m["column"] in s["columns"].values(),
                                                 "hm.setup.column-taken"),
    "column-first": lambda s, seat, m: clause_if(s["columns"][str(seat)] is None,
                                                 "hm.setup.column-first"),
    "six": lambda s, seat, m: clause_if(board.placed_count(s, seat) >= 6, "hm.setup.six"),
    "in-turn": lambda s, seat, m: clause_if(_placing(s) not in (None, seat), "hm.setup.in-turn"),
    "dealt": lambda s, seat, m: clause_if(s["options"]["deal"] == "app"
                                          and m["card"] not in s["hands"][str(seat)],
                                          "hm.setup.not-dealt"),
    "already-placed": lambda s, seat, m: clause_if(
        s["options"]["deal"] == "table"
        and any(m["card"] in stack["cards"]
                for stack in s["board"][s["columns"][str(seat)] - 1] if stack),
        "hm.setup.already-placed"),
    "claimed": lambda s, seat, m: clause_if(s["options"]["deal"] == "table"
                                            and m["card"] in board.placed_cards(s),
                                            "hm.setup.claimed"),
    "not-yours": lambda s, seat, m: clause_if(
        s["columns"][str(seat)] is None
        or m["card"] not in [stack["cards"][-1]
                             for stack in s["board"][s["columns"][str(seat)] - 1] if stack],
        "hm.setup.not-yours"),
    "set-up": lambda s, seat, m: clause_if(s["phase"] == "setup", "hm.turn.phase"),
    "turn": lambda s, seat, m: clause_if(seat != s["turn"], "hm.turn.wait"),
    "favour-first": lambda s, seat, m: clause_if(s["phase"] == "favour", "hm.favour.first"),
    "roll-first": lambda s, seat, m: clause_if(s["phase"] == "roll", "hm.die.roll-first"),
    "moment": lambda s, seat, m: clause_if(s["phase"] != PHASE_OF[m["type"]], "hm.turn.phase"),
    "must-move": lambda s, seat, m: clause_if(m["type"] == "pass" or s["phase"] != "favour",
                                              "hm.turn.must-move"),
    "own-column": lambda s, seat, m: clause_if(_own(s, seat, m["row"]) is None,
                                               "hm.move.own-column"),
    "home": lambda s, seat, m: clause_if(_own(s, seat, m["row"])["down"], "hm.goal.reached"),
    "top-part": lambda s, seat, m: clause_if(not 1 <= m["count"] <= len(_own(s, seat, m["row"])[
        "cards"]), "hm.move.top-part"),
    "down": lambda s, seat, m: clause_if(m["to"] <= m["row"], "hm.move.upward"),
    "goal-limit": lambda s, seat, m: clause_if(m["to"] > goal_row(_rank(s, seat, m)),
                                               "hm.move.goal-limit"),
    "goal-shared": lambda s, seat, m: clause_if(
        bool(_own(s, seat, m["to"])) and _own(s, seat, m["to"])["down"]
        and not _free(s, seat, m), "hm.goal.shared"),
    "die-exact": lambda s, seat, m: clause_if(s["roll"] is not None
                                              and (m["to"] != m["row"] + s["roll"]
                                             or not _free(s, seat, m)), "hm.die.exact"),
    "no-landing": lambda s, seat, m: clause_if(not _landings(s, seat, m), "hm.move.no-landing"),
    "occupied": lambda s, seat, m: clause_if(not _free(s, seat, m), "hm.move.upward"),
    "keep-jumping": lambda s, seat, m: clause_if(not s["options"]["step_ends_move"]
                                                 and m["to"] not in _landings(s, seat, m),
                                                 "hm.move.keep-jumping"),
    "step-ends": lambda s, seat, m: clause_if(m["to"] not in _landings(s, seat, m)
                                              and _landings(s, seat, m) == [m["row"] + 1],
                                              "hm.move.step-ends"),
    "jump-ends": lambda s, seat, m: clause_if(m["to"] not in _landings(s, seat, m),
                                              "hm.move.jump-ends"),
    "exposes": lambda s, seat, m: clause_if(
        len(_own(s, seat, m["row"])["cards"]) > m["count"]
        and m["row"] > card_goal(_own(s, seat, m["row"])["cards"][-m["count"] - 1]),
        "hm.move.exposes"),
    "only-moved": lambda s, seat, m: clause_if(s["phase"] != "favour", "hm.favour.only-moved"),
    "other-column": lambda s, seat, m: clause_if(m["from"] == s["moved"]["column"],
                                                 "hm.favour.other-column"),
    "once": lambda s, seat, m: clause_if(m["from"] in s["taken_from"], "hm.favour.once"),
    "nothing-there": lambda s, seat, m: clause_if(_victim(s, m) is None, "hm.favour.nothing-there"),
    "goal-untouchable": lambda s, seat, m: clause_if(_victim(s, m)["down"],
                                                     "hm.favour.goal-untouchable"),
    "lower": lambda s, seat, m: (
        None if _victim(s, m)["cards"][-1] < (max(_taker(s)["cards"])
                                              if s["options"]["favour_rank"] == "highest"
                                              else _taker(s)["cards"][-1])
        else "hm.favour.lower-any" if s["options"]["favour_rank"] == "highest"
        else "hm.favour.lower"),
    "take-part": lambda s, seat, m: clause_if(not 1 <= m["count"] <= len(_victim(s, m)["cards"]),
                                              "hm.favour.top-part"),
    "took": lambda s, seat, m: clause_if(s["phase"] != "favour" or not s["took"],
                                         "hm.favour.again-needs-take"),
    "die-entered": lambda s, seat, m: clause_if((s["options"]["die"] == "real") != ("value" in m),
                                                "hm.move.malformed"),
    "die-value": lambda s, seat, m: clause_if("value" in m and not 1 <= m["value"] <= 6,
                                              "hm.die.value"),
    "only-stuck": lambda s, seat, m: clause_if(s["phase"] == "move" and s["roll"] is not None,
                                               "hm.die.lose-only-stuck"),
    "in-stack": lambda s, seat, m: clause_if(m["lost"] not in _own(s, seat, m["row"])["cards"],
                                             "hm.die.lose"),
    "lose-top": lambda s, seat, m: clause_if(s["options"]["die_loss"] == "top"
                                             and m["lost"] != _own(s, seat, m["row"])["cards"][-1],
                                             "hm.die.lose-top"),
}


# --- the docs and the engine ------------------------------------------------------------


def test_the_docs_list_the_engines_checks_in_its_order_and_each_is_stated():
    agrees_with_the_docs(GAME, rules.ORDER, PREDICATES)


# --- random positions -------------------------------------------------------------------


OPTIONS = {"deal": ["app", "table"], "die": ["off", "app", "real"], "die_loss": ["any", "top"],
           "step_ends_move": [True, False], "placing": ["together", "in-turn"],
           "favour_rank": ["top", "highest"]}


def game(rng: random.Random) -> list[State]:
    """Every position of one game of random options and random legal moves, from the
    set-up to the end (the set-up's own moves forward only, so it ends; half the time a
    favour takes, so favours go on)."""
    players = rng.randint(3, 6)
    options = {key: rng.choice(values) for key, values in OPTIONS.items()}
    state = G.setup(players, {**options, "first_seat": rng.randrange(players)},
                    rng.randrange(2**32))
    states = [state]
    while state["phase"] == "setup":
        seat = rng.choice([seat for seat in range(players) if not board.setup_done(state, seat)
                           and board.placing_seat(state) in (None, seat)])
        moves = [move for move in G.legal_moves(state, seat)
                 if move["type"] == "place" and move["card"] not in board.placed_cards(state)]
        if board.column_of(state, seat) is None:
            moves = [move for move in G.legal_moves(state, seat) if move["type"] == "column"]
        state = G.apply(state, seat, rng.choice(moves))
        states.append(state)
    while state["phase"] != "over":
        moves = G.legal_moves(state, state["turn"])
        takes = [move for move in moves if move["type"] == "take"]
        state = G.apply(state, state["turn"], rng.choice(takes if takes and rng.random() < 0.5
                                                         else moves))
        states.append(state)
    return states


def _card(rank: int, value: int) -> int:
    return (rank - 1) * 6 + value - 1


FIRE, MINSTREL, QUACK, LADY, BISHOP, PRINCE = range(1, 7)
#: Positions random games seldom reach, seat 0 to move in column 1 ((column, row): stack,
#: bottom first; "down": face-down goal piles): a Bishop boxed in under the Ladies' pile,
#: a Lady carried above her goal by a Prince, the rulebook's Quack and Fire-eater, and a
#: card to give up with the die.
CORNERS: list[dict[str, Any]] = [
    {"up": {(1, 10): [_card(BISHOP, 2)], (1, 12): [_card(PRINCE, 1)], (2, 11): [_card(QUACK, 1)]},
     "down": {(1, 11): [_card(LADY, 5)], (3, 12): [_card(BISHOP, 6)]}},
    {"up": {(1, 12): [_card(MINSTREL, 1), _card(LADY, 3), _card(PRINCE, 2)],
            (2, 13): [_card(LADY, 1)]}, "down": {}},
    {"up": {(1, 3): [_card(QUACK, 4)], (1, 5): [_card(BISHOP, 1)], (1, 1): [_card(FIRE, 2)],
            (1, 2): [_card(MINSTREL, 2)], (1, 6): [_card(PRINCE, 2)]}, "down": {}},
    {"up": {(1, 9): [_card(QUACK, 1), _card(QUACK, 4)], (1, 10): [_card(PRINCE, 3)]},
     "down": {}, "phase": "lose"},
]


def corner(rng: random.Random, spec: dict[str, Any]) -> State:
    """``spec``'s position at a table of random options, seat 0 to move (with the die, a
    roll made; seats without a card of their own get a Fire-eater on row 1)."""
    options = {key: rng.choice(values) for key, values in OPTIONS.items()}
    if spec.get("phase") == "lose":
        options["die"] = rng.choice(["app", "real"])
    state = G.setup(4, options, rng.randrange(2**32))
    state["columns"] = {str(seat): seat + 1 for seat in range(4)}
    used: list[int] = []
    for face_down, squares in ((False, spec["up"]), (True, spec["down"])):
        for (column, row), cards in squares.items():
            state["board"][column - 1][row - 1] = {"cards": list(cards), "down": face_down}
            used += cards
    spare = [c for c in range(6) if c not in used]
    for column in range(2, 5):
        if not any(state["board"][column - 1]):
            state["board"][column - 1][0] = {"cards": [spare.pop()], "down": False}
            used.append(state["board"][column - 1][0]["cards"][0])
    state["hands"] = {str(seat): [] for seat in range(4)}
    state["unused"] = [c for c in range(CARD_COUNT) if c not in used]
    roll = None if options["die"] == "off" else rng.randint(1, 6)
    state.update(phase=spec.get("phase", "move"), turn=0, roll=roll)
    return state


def probe(rng: random.Random, state: State) -> tuple[Any, Any]:
    """A seat and a move to try: mostly the seat to move, with a legal move changed a
    little or a move of any kind about its own stacks and cards; now and then not a move
    at all, or no seat."""
    seats = list(range(state["players"]))
    seat: Any = state["turn"] if state["turn"] is not None and rng.random() < 0.8 \
        else rng.choice(seats)
    legal = G.legal_moves(state, seat)
    if legal and rng.random() < 0.4:
        move = dict(rng.choice(legal))
        keys = sorted(set(move) - {"type"})
        for key in rng.sample(keys, k=min(len(keys), rng.randint(1, 2))):
            move[key] = move[key] + rng.choice((-3, -2, -1, 1, 2, 3, 6))
    else:
        fitting = [kind for kind, phases in PHASES.items() if state["phase"] in phases]
        kind = rng.choice(fitting if fitting and rng.random() < 0.7 else sorted(KEYS))
        move = _any_move(rng, state, seat, kind)
    if rng.random() < 0.04:
        move = rng.choice([{"type": "fly"}, {**move, "extra": 1},
                           {"type": "move", "row": True, "count": 1, "to": 3}])
    if rng.random() < 0.04:
        seat = rng.choice([-1, state["players"], True, 1.0])
    return seat, move


KEYS: dict[str, tuple[str, ...]] = {
    "column": ("column",), "place": ("card",), "lift": ("card",),
    "move": ("row", "count", "to"), "take": ("from", "count"), "again": (), "done": (),
    "pass": (), "roll": (), "lose": ("row", "lost"),
}


#: The moments of the game each kind of move fits.
PHASES = {"column": ("setup",), "place": ("setup",), "lift": ("setup",), "move": ("move",),
          "take": ("favour",), "again": ("favour",), "done": ("favour",), "roll": ("roll",),
          "lose": ("lose",)}


def _any_move(rng: random.Random, state: State, seat: int, kind: str) -> Move:
    """A move of ``kind`` about the seat's own stacks and cards, or numbers near them."""
    column = state["columns"][str(seat)]
    stacks = [] if column is None else list(board.stacks(state, column))
    row, stack = rng.choice(stacks) if stacks and rng.random() < 0.8 else (
        rng.randint(0, 14), None)
    cards = stack["cards"] if stack else []
    moved = state["moved"]
    beside = [] if moved is None else [other for other in range(1, COLUMNS + 1)
                                       if board.square(state, other, moved["row"])]
    values = {
        "column": rng.randint(0, 7),
        "card": rng.choice([*state["hands"][str(seat)], *(c for _, c in board.column_cards(
            state, seat))] or [0]) if rng.random() < 0.7 else rng.randint(-1, 36),
        "row": row,
        "count": rng.randint(0, len(cards) + 1),
        "to": rng.choice([r for r, _ in stacks if r > row] or [row]) if rng.random() < 0.3
        else rng.randint(row - 1, 14),
        "from": rng.choice(beside or [0]) if rng.random() < 0.7 else rng.randint(0, 7),
        "lost": rng.choice(cards) if cards and rng.random() < 0.7 else rng.randrange(CARD_COUNT),
    }
    move = {"type": kind, **{key: values[key] for key in KEYS[kind]}}
    if kind == "roll" and (state["options"]["die"] == "real") != (rng.random() < 0.2):
        move["value"] = rng.randint(0, 7)
    return move


POSITIONS, PROBES = 12, 8


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_refusal_names_the_first_check_that_fails_in_the_docs_order(seed):
    holds_at_random(G, PREDICATES, positions, probe, seed, PROBES)


def positions(rng: random.Random) -> list[State]:
    """Positions of one random game, and the corners at a table of random options."""
    states = game(rng)
    return [*rng.sample(states, min(POSITIONS, len(states))),
            *(corner(rng, spec) for spec in CORNERS)]


def test_the_random_positions_reach_every_check():
    """The games and moves the property test draws fail every check first, somewhere: a
    check they never reach would go untested."""
    seen = reached(GAME, PREDICATES, positions, probe, 40, PROBES)
    assert seen == set(PREDICATES), sorted(set(PREDICATES) - seen)
