"""In 7th Heaven (Im 7. Himmel, Wolfgang Kramer 1989): the Game protocol implementation.

State layout (all plain JSON; see docs/games/seventh-heaven.md):
``players``, ``heaven``, ``options``, ``rng``, ``pieces`` {colour: space}, ``partners``
{seat: [colours]}, ``spare`` [colours], ``hands`` {seat: [card ids]}, ``deck`` (top first),
``discard``, ``turn``, ``phase``, ``pending``, ``first_card``, ``refilling``,
``refill_final``, ``arrived``, ``arrival_rank``, ``places``, ``end_reason``, ``last``.
"""

from __future__ import annotations

import json
from typing import Any

from companion.games.base import (
    Move,
    Outcome,
    SeededGame,
    State,
    clone,
    new_rng_state,
    read_setup,
    revealed_nothing,
    shuffled,
)
from companion.games.seventh_heaven import board, corrections, resolve, rules
from companion.games.seventh_heaven.data import (
    CARD_COUNT,
    CARDS,
    COLOUR_INDEX,
    COLOURS,
    GAME_ID,
    HAND_SIZE,
    SEED,
    START,
    card_sort_key,
)
from companion.games.seventh_heaven.types import Card, View

#: State fields that are flat lists of scalars, or dicts of such lists: copied flat, for speed.
_FLAT_LISTS = frozenset({"spare", "deck", "discard", "arrived"})
_DICTS_OF_LISTS = frozenset({"hands", "partners"})


def _copy(state: State) -> State:
    """A deep copy of a JSON state (apply runs often; a JSON round trip costs 10x more)."""
    new: State = {}
    for key, value in state.items():
        if key in _FLAT_LISTS and isinstance(value, list):
            new[key] = list(value)
        elif key in _DICTS_OF_LISTS and isinstance(value, dict):
            new[key] = {seat: list(items) for seat, items in value.items()}
        else:
            new[key] = clone(value)
    return new


class SeventhHeaven(SeededGame, seed=SEED, rules=rules):
    choice_keys: tuple[str, ...] = (
        "card",
        "type",
        "piece",
        "steps",
        "count",
        "take",
        "give",
        "cards",
    )
    takes_corrections = True

    # --- set-up ---------------------------------------------------------------------------

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        values, first_seat = read_setup(self, players, options)
        state: State = {"rng": new_rng_state(seed)}
        partners = shuffled(state, list(COLOURS))
        per_seat = 2 if players <= 3 else 1
        by_colour = COLOUR_INDEX.__getitem__
        state["partners"] = {
            str(seat): sorted(partners[seat * per_seat : (seat + 1) * per_seat], key=by_colour)
            for seat in range(players)
        }
        state["spare"] = sorted(partners[players * per_seat :], key=by_colour)
        deck = shuffled(state, list(range(CARD_COUNT)))
        state["hands"] = {
            str(seat): sorted(deck[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
            for seat in range(players)
        }
        state.update(
            {
                "game": GAME_ID,
                "players": players,
                "heaven": values["heaven"],
                "options": {
                    "refill": values["refill"],
                    "play_for_places": values["play_for_places"],
                },
                "pieces": {colour: START for colour in COLOURS},
                "deck": deck[players * HAND_SIZE :],
                "discard": [],
                "phase": "play",
                "pending": None,
                "first_card": True,
                "refilling": players <= 3 or values["refill"],
                "refill_final": False,
                "arrived": [],
                "arrival_rank": {},
                "places": [],
                "end_reason": None,
                "last": None,
                "effects": [],
            }
        )
        state["turn"] = self._first_player(state, first_seat)
        return state

    @staticmethod
    def _first_player(state: State, first_seat: int) -> int:
        """The chosen seat, or the next one clockwise holding a forward number card."""
        for seat in board.clockwise_from(state, first_seat):
            if any(
                CARDS[card]["kind"] == "number" and CARDS[card]["value"] > 0
                for card in board.hand(state, seat)
            ):
                return seat
        state["first_card"] = False
        return first_seat

    # --- moves ----------------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        return rules.legal(state, seat)

    def apply(self, state: State, seat: int, move: Move) -> State:
        rules.check(state, seat, move)
        new = _copy(state)
        if new["phase"] == "event-swap":
            resolve.event_swap(new, seat, move)
        elif new["phase"] == "discard":
            resolve.discard(new, seat, move)
        else:
            resolve.play_card(new, seat, move)
        new["effects"] = _effects(state["last"], new["last"], state["phase"] == "play")
        return new

    def correct(self, state: State, correction: Move) -> State:
        """The host sets a piece on the space it stands on at the table (``corrections.py``)."""
        return corrections.correct(state, correction)

    def can_undo(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Not once a card was drawn: draws come off the pre-shuffled deck, not the rng."""
        return revealed_nothing(before, after) and len(before["deck"]) == len(after["deck"])

    def redact_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move:
        """Cards played are public and no move names a drawn card; the cards a seat chose
        to discard for a Three cards stay its own, since the others choose at the same time."""
        if move.get("type") == "discard" and viewer != seat:
            return {"type": "discard", "count": len(move.get("cards", []))}
        return json.loads(json.dumps(move))

    # --- what players see -----------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        over = state["phase"] == "over"
        view: View = {
            "game": GAME_ID,
            "players": state["players"],
            "heaven": state["heaven"],
            "options": dict(state["options"]),
            "pieces": dict(state["pieces"]),
            "partners": {key: list(value) for key, value in state["partners"].items()},
            "spare_partners": list(state["spare"]),
            "hand_counts": {key: len(value) for key, value in state["hands"].items()},
            "deck_count": len(state["deck"]),
            "discard_count": len(state["discard"]),
            "turn": None if over else state["turn"],
            "phase": state["phase"],
            "pending": _public_pending(state),
            "deciders": board.deciders(state),
            "arrived": list(state["arrived"]),
            "places": [list(group) for group in state["places"]],
            "refilling": state["refilling"],
            "first_card": state["first_card"],
            "last": clone(state["last"]),
            "outcome": None,
        }
        result = self.outcome(state)
        if result is not None:
            view["outcome"] = result.as_json()
        if seat is not None and str(seat) in state["hands"]:
            view["seat"] = seat
            cards = sorted(state["hands"][str(seat)], key=card_sort_key)
            view["hand"] = [card_view(card) for card in cards]
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        return _outcome(state)


def card_view(card_id: int) -> Card:
    card = CARDS[card_id]
    return Card(id=card["id"], kind=card["kind"], colour=card["colour"], value=card["value"],
                special=card["special"])


def _effects(before: dict[str, Any] | None, after: dict[str, Any] | None,
             new_turn: bool) -> list[dict[str, Any]]:
    """What this move caused, each with its clause: what the turn's public account
    (``last``) gained. A card played starts a new account; a partner swap or discards
    decided later add to it. Everything in ``last`` is public (no card of a hand)."""
    if after is None:
        return []
    old = {} if new_turn or before is None else before

    def added(key: str) -> list[Any]:
        return after[key][len(old.get(key, [])):]

    effects: list[dict[str, Any]] = [dict(event) for event in added("events")]
    effects += [dict(swap) for swap in added("swaps")]
    effects += [dict(arrival) for arrival in added("arrivals")]
    # A rule already behind an effect above (the Heart's swap) is not said a second time.
    named = {effect.get("rule") for effect in effects}
    effects += [{"rule": rule} for rule in added("rules") if rule not in named]
    return effects


def _public_pending(state: State) -> dict[str, Any] | None:
    pending = state["pending"]
    if pending is None:
        return None
    if state["phase"] == "event-swap":
        return {
            "kind": "event-swap",
            "seat": pending["seat"],
            "space": pending["space"],
            "must": pending["must"],
            "rule": pending["rule"],
        }
    return {
        "kind": "discard",
        "player": pending["player"],
        "seats": list(pending["seats"]),
        "counts": dict(pending["counts"]),
        "rule": "7h.three-cards.discard",
    }


def _outcome(state: State) -> Outcome:
    """Placed seats first, in order; the rest by the cards-out rule (ties share a place)."""
    small = state["players"] <= 3
    heaven = state["heaven"]
    pieces = state["pieces"]

    def positions(seat: int) -> list[int]:
        return sorted((pieces[c] for c in board.own(state, seat)), reverse=True)

    def key(seat: int) -> tuple[int, ...]:
        if not small:
            return tuple(positions(seat))
        colours = board.own(state, seat)
        ranks = [state["arrival_rank"][c] for c in colours if c in state["arrival_rank"]]
        first = -min(ranks) if ranks else -len(COLOURS) - 1
        inside = sum(1 for c in colours if pieces[c] >= heaven)
        return (inside, first, *positions(seat))

    ranking = [list(group) for group in state["places"]]
    done = board.placed(state)
    rest = sorted((seat for seat in range(state["players"]) if seat not in done), key=key)
    rest.reverse()
    for seat in rest:
        if ranking and len(ranking) > len(state["places"]) and key(ranking[-1][0]) == key(seat):
            ranking[-1].append(seat)
        else:
            ranking.append([seat])
    ranking = [sorted(group) for group in ranking]
    scores = {seat: sum(positions(seat)) for seat in range(state["players"])}
    return Outcome(ranking=ranking, scores=scores, reason=state["end_reason"] or "cards-out")
