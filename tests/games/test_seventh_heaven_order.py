"""In 7th Heaven: which rule a refusal names. The engine's checks, in the order of
docs/games/seventh-heaven.md, and every refusal over random positions of every table option
naming the first check that fails in that order, each check stated here again as a
predicate of its own (whether a card could act, for a card laid down, by the legal
moves)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.seventh_heaven import SeventhHeaven, rules, types
from companion.games.seventh_heaven.data import CARD_COUNT, CARDS, COLOURS, SPECIAL_PARAMS
from tests.refusal_order import (
    Predicate,
    agrees_with_the_docs,
    clause_if,
    holds_at_random,
    reached,
    undeclared,
)

G = SeventhHeaven()
GAME = "seventh-heaven"
State = dict[str, Any]
Move = dict[str, Any]


# --- each check, stated again ----------------------------------------------------------


def _shape(state: State, seat: int, move: Any) -> str | None:
    if undeclared(move, types.Move, "7h.move.malformed"):
        return "7h.move.malformed"
    return None


def _values(state: State, seat: int, move: Move) -> str | None:
    keys = SPECIAL_PARAMS[CARDS[move["card"]]["special"]] | {"type", "card"} \
        if move["type"] == "play" else set(move)
    wrong = (set(move) != keys
             or any(key in move and move[key] not in COLOURS for key in ("piece", "give", "take"))
             or ("cards" in move and move["cards"] != sorted(set(move["cards"]))))
    return clause_if(wrong, "7h.move.malformed")


def _deciders(state: State) -> list[int]:
    if state["phase"] == "play":
        return [state["turn"]]
    if state["phase"] == "event-swap":
        return [state["pending"]["seat"]]
    return [int(seat) for seat in state["pending"]["seats"]] if state["phase"] == "discard" \
        else []


def _heaven(state: State, colour: str) -> bool:
    return state["pieces"][colour] >= state["heaven"]


def _own(state: State, seat: int) -> list[str]:
    return state["partners"][str(seat)]


def _exchange(move: Move) -> tuple[str, str] | None:
    if move["type"] == "swap":
        return CARDS[move["card"]]["colour"], move["give"]
    return (move["take"], move["give"]) if "take" in move else None


def _special(move: Move) -> str | None:
    return CARDS[move["card"]]["special"]


def _leaders(state: State) -> list[str]:
    racing = [colour for colour in COLOURS if not _heaven(state, colour)]
    best = max((state["pieces"][colour] for colour in racing), default=None)
    return [colour for colour in racing if state["pieces"][colour] == best]


def _ahead(state: State, piece: str) -> bool:
    return any(state["pieces"][other] > state["pieces"][piece] and not _heaven(state, other)
               for other in COLOURS if other != piece)


def _mushroom(state: State, move: Move) -> bool:
    deck = len(state["deck"])
    return move["count"] not in (range(1, min(4, deck) + 1) if deck else range(1))


def _could_act(state: State, seat: int) -> bool:
    """Whether some card of the hand could move a piece, swap or act (a legal move other
    than laying a card down)."""
    return any(move["type"] != "pass" for move in G.legal_moves(state, seat))


def _dead(card: int, state: State) -> bool:
    colour = CARDS[card]["colour"]
    return colour in COLOURS and _heaven(state, colour)


PREDICATES: dict[str, Predicate] = {
    "over": lambda s, seat, m: clause_if(s["phase"] == "over", "7h.game.over"),
    "shape": _shape,
    "card": lambda s, seat, m: clause_if("card" in m and not 0 <= m["card"] < CARD_COUNT,
                                         "7h.card.not-in-hand"),
    "special": lambda s, seat, m: clause_if(m["type"] == "play" and _special(m) is None,
                                            "7h.card.wrong-kind"),
    "values": _values,
    "seat": lambda s, seat, m: clause_if(not (type(seat) is int and 0 <= seat < s["players"])
                                         or seat not in _deciders(s), "7h.turn.wait"),
    "event-first": lambda s, seat, m: clause_if(s["phase"] == "event-swap", "7h.event.first"),
    "discard-first": lambda s, seat, m: clause_if(s["phase"] == "discard", "7h.three-cards.first"),
    "moment": lambda s, seat, m: clause_if(s["phase"] == "play", "7h.turn.phase"),
    "in-hand": lambda s, seat, m: clause_if(m["card"] not in s["hands"][str(seat)],
                                            "7h.card.not-in-hand"),
    "opening": lambda s, seat, m: clause_if(s["first_card"] and not (
        m["type"] == "move" and CARDS[m["card"]]["kind"] == "number"
        and CARDS[m["card"]]["value"] > 0), "7h.first.forward-number"),
    "pass": lambda s, seat, m: clause_if(not _dead(m["card"], s) and _could_act(s, seat),
                                         "7h.turn.pass"),
    "card-kind": lambda s, seat, m: clause_if(CARDS[m["card"]]["kind"] not in ("number", "arrow"),
                                              "7h.card.wrong-kind"),
    "colour": lambda s, seat, m: clause_if(CARDS[m["card"]]["colour"] not in ("white", m["piece"]),
                                           "7h.move.colour"),
    "in-heaven": lambda s, seat, m: clause_if(_heaven(s, m["piece"]), "7h.move.in-heaven"),
    "backward": lambda s, seat, m: clause_if(
        CARDS[m["card"]]["kind"] == "number"
        and s["pieces"][m["piece"]] + CARDS[m["card"]]["value"] < 0, "7h.move.backward-limit"),
    "nothing-ahead": lambda s, seat, m: clause_if(CARDS[m["card"]]["kind"] == "arrow"
                                                  and not _ahead(s, m["piece"]),
                                                  "7h.arrow.nothing-ahead"),
    "coloured-only": lambda s, seat, m: clause_if(CARDS[m["card"]]["colour"] == "white",
                                                  "7h.swap.coloured-only"),
    "give-own": lambda s, seat, m: clause_if(_exchange(m) is not None
                                             and _exchange(m)[1] not in _own(s, seat),
                                             "7h.swap.give-own"),
    "already-held": lambda s, seat, m: clause_if(_exchange(m) is not None
                                                 and _exchange(m)[0] in _own(s, seat),
                                                 "7h.swap.already-held"),
    "heaven-fixed": lambda s, seat, m: clause_if(any(_heaven(s, c) for c in _exchange(m) or ()),
                                                 "7h.swap.heaven-fixed"),
    "mushroom-count": lambda s, seat, m: clause_if(_special(m) == "mushroom" and _mushroom(s, m),
                                                   "7h.mushroom.count"),
    "foot-steps": lambda s, seat, m: clause_if(_special(m) == "foot"
                                               and m["steps"] not in (1, 2, 3), "7h.foot.steps"),
    "first-piece": lambda s, seat, m: clause_if(_special(m) == "foot"
                                                and m["piece"] not in _leaders(s),
                                                "7h.foot.first-piece"),
    "own-piece": lambda s, seat, m: clause_if(_special(m) == "finger" and (
        m["piece"] not in _own(s, seat) or _heaven(s, m["piece"])), "7h.finger.own-piece"),
    "disco": lambda s, seat, m: clause_if(s["pending"]["must"], "7h.event.disco"),
    "discard-count": lambda s, seat, m: clause_if(
        len(m["cards"]) != min(3, len(s["hands"][str(seat)])), "7h.three-cards.discard"),
    "discard-held": lambda s, seat, m: clause_if(
        any(card not in s["hands"][str(seat)] for card in m["cards"]), "7h.card.not-in-hand"),
}


# --- the docs and the engine ------------------------------------------------------------


def test_the_docs_list_the_engines_checks_in_its_order_and_each_is_stated():
    agrees_with_the_docs(GAME, rules.ORDER, PREDICATES)


# --- random positions -------------------------------------------------------------------


def game(rng: random.Random) -> list[State]:
    """Every position of one game of random options and random legal moves."""
    players = rng.randint(2, 6)
    options = {"heaven": rng.randint(15, 30), "refill": rng.random() < 0.5,
               "play_for_places": rng.random() < 0.5, "first_seat": rng.randrange(players)}
    state = G.setup(players, options, rng.randrange(2**32))
    states = [state]
    for _ in range(2000):
        if G.outcome(state) is not None:
            break
        movers = {seat: moves for seat in range(players) if (moves := G.legal_moves(state, seat))}
        seat = rng.choice(sorted(movers))
        state = G.apply(state, seat, rng.choice(movers[seat]))
        states.append(state)
    return states


KINDS = {"move": ("card", "piece"), "swap": ("card", "give"), "pass": ("card",),
         "event-swap": ("take", "give"), "decline": (), "discard": ("cards",)}


def probe(rng: random.Random, state: State) -> tuple[Any, Any]:
    """A seat and a move to try: mostly a seat with something to decide, with a legal move
    changed a little or a move of any kind about its hand; now and then not a move at all,
    or no seat."""
    players = state["players"]
    deciding = [seat for seat in range(players) if G.legal_moves(state, seat)]
    seat: Any = rng.choice(deciding) if deciding and rng.random() < 0.8 \
        else rng.randrange(players)
    hand = state["hands"][str(seat)]
    card = rng.choice(hand) if hand and rng.random() < 0.8 else rng.randrange(-1, CARD_COUNT + 1)
    legal = G.legal_moves(state, seat)
    if legal and rng.random() < 0.4:
        move = dict(rng.choice(legal))
        for key in rng.sample(sorted(set(move) - {"type"}),
                              k=min(len(move) - 1, rng.randint(1, 2))):
            move[key] = (rng.choice(COLOURS) if key in ("piece", "give", "take")
                         else card if key == "card"
                         else sorted(rng.sample(hand, min(len(hand), rng.randint(1, 4))))
                         if key == "cards"
                         else move[key] + rng.choice((-2, -1, 1, 2)))
    else:
        special = CARDS[card]["special"] if 0 <= card < CARD_COUNT else None
        kind = rng.choice([*KINDS, "play", "play"])
        values = {"card": card, "piece": rng.choice(COLOURS), "give": rng.choice(COLOURS),
                  "take": rng.choice(COLOURS), "count": rng.randint(0, 5),
                  "steps": rng.randint(0, 4),
                  "cards": sorted(rng.sample(hand, min(len(hand), rng.randint(1, 4))))}
        if values["cards"] and rng.random() < 0.3:  # one card that is not in the hand
            values["cards"] = sorted({*values["cards"][1:], rng.randrange(CARD_COUNT)})
        keys = ("card", *SPECIAL_PARAMS[special]) if kind == "play" and special else KINDS.get(
            kind, ("card",))
        move = {"type": kind, **{key: values[key] for key in keys}}
    if rng.random() < 0.04:
        move = rng.choice([{"type": "fly"}, {**move, "extra": 1}, {"type": "move", "card": True,
                                                                     "piece": "red"},
                           {"type": "discard", "cards": [3, 1]},
                           {"type": "move", "card": card, "piece": "black"}])
    if rng.random() < 0.04:
        seat = rng.choice([-1, players, True, 0.0])
    return seat, move


POSITIONS, PROBES = 12, 8


def positions(rng: random.Random) -> list[State]:
    """Positions of one random game, some anywhere, some where a decision waits, and the
    last."""
    states = game(rng)
    deciding = [state for state in states if state["phase"] != "play"]
    return [*rng.sample(states, min(POSITIONS, len(states))),
            *rng.sample(deciding, min(4, len(deciding))), states[-1]]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_refusal_names_the_first_check_that_fails_in_the_docs_order(seed):
    holds_at_random(G, PREDICATES, positions, probe, seed, PROBES)


def test_the_random_positions_reach_every_check():
    """The games and moves the property test draws fail every check first, somewhere: a
    check they never reach would go untested."""
    seen = reached(GAME, PREDICATES, positions, probe, 30, PROBES)
    assert seen == set(PREDICATES), sorted(set(PREDICATES) - seen)
