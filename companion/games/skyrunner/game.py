"""SkyRunner (Sevelin, Karlsson, Glimne; Ravensburger 2000): the Game protocol implementation.

State layout (plain JSON; see docs/games/skyrunner.md): ``players``, ``options``, ``rng``,
``building`` {levels, lanes per section}, ``colours`` (per seat), ``hands``, ``used`` (bids
and Surprise face down before their owner), ``waiting`` (cards waiting in front of a
player), ``deck`` (top first), ``discard``, ``out`` (unused colours), ``offer``,
``holder``, ``round``, ``phase`` (turn, choose, resolve, over), ``choices`` (secret until
the reveal), ``played`` (revealed cards not yet gone where they belong), ``reveal`` (what
was revealed, for everyone to read), ``auction``, ``surprise``, ``order``, ``step``, ``pending``,
``positions`` {seat: {level, lane}}, ``events``, ``previous`` (the last round's reveal),
``winner``, ``revealed``.
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
    copy_state,
    is_seat,
    new_rng_state,
    read_setup,
    revealed_nothing,
    shuffled,
)
from companion.games.skyrunner import building, corrections, resolve, rules
from companion.games.skyrunner.data import (
    BUILDING,
    CARDS,
    COLOURS,
    DECK,
    GAME_ID,
    SEED,
    bid_of,
    cards_of,
    surprise_of,
)
from companion.games.skyrunner.types import Card, View


class SkyRunner(SeededGame, seed=SEED, rules=rules):
    choice_keys: tuple[str, ...] = ("card", "level", "type", "target", "lane")
    takes_corrections = True

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        values, first = read_setup(self, players, options)
        lower = values["lower_lanes"]
        lanes = [BUILDING["lower_by_players"][str(players)] if lower == "auto" else int(lower),
                 int(values["middle_lanes"]), int(values["upper_lanes"])]
        colours = list(COLOURS[:players])
        start_equipment = cards_of("equipment")[:players * DECK["start_equipment"]]
        hands = {}
        for seat, colour in enumerate(colours):
            hands[str(seat)] = sorted(
                [bid_of(colour, v) for v in range(1, 9)] + [surprise_of(colour)]
                + [cards_of("climb", v)[seat] for v in DECK["start_climbing"]]
                + start_equipment[seat * DECK["start_equipment"]:
                                  (seat + 1) * DECK["start_equipment"]])
        dealt = {card for hand in hands.values() for card in hand}
        out = sorted(card["id"] for card in CARDS if card["kind"] in ("bid", "surprise")
                     and card["colour"] not in colours)
        rest = [card["id"] for card in CARDS
                if card["id"] not in dealt and card["id"] not in out]
        state: State = {"rng": new_rng_state(seed)}
        deck = sorted(rest) if values["deck"] == "real" else shuffled(state, rest)
        seats = [str(seat) for seat in range(players)]
        state.update({
            "game": GAME_ID,
            "players": players,
            "options": values,
            "building": {"levels": values["levels"], "lanes": lanes},
            "colours": colours,
            "hands": hands,
            "used": {seat: [] for seat in seats},
            "waiting": {seat: [] for seat in seats},
            "deck": deck,
            "discard": [],
            "out": out,
            "offer": None,
            "holder": first,
            "round": 1,
            "phase": "choose",
            "positions": {seat: {"level": building.GROUND, "lane": 0} for seat in seats},
            "previous": None,
            "effects": [],
            "winner": None,
            "revealed": False,
        })
        resolve.start_round(state)
        state["revealed"] = False
        return state

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        phase = state["phase"]
        if phase == "over" or not is_seat(state, seat):
            return []
        if phase == "turn":
            if seat != state["holder"]:
                return []
            return [{"type": "turn", "card": card} for card in sorted(state["deck"])]
        if phase == "choose":
            return rules.choices(state, seat)
        pending = state["pending"]
        if pending is None or pending["seat"] != seat:
            return []
        return rules.pending_moves(state)

    def apply(self, state: State, seat: int, move: Move) -> State:
        rules.check(state, seat, move)
        new = copy_state(state)
        new["revealed"], new["effects"] = False, []
        resolve.CARRY_OUT[move["type"]](new, seat, move)
        return new

    def correct(self, state: State, correction: Move) -> State:
        """The host sets a climber on the place it hangs at the table (``corrections.py``)."""
        return corrections.correct(state, correction)

    def can_undo(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Not once the cards were revealed or a new card was turned from the deck. A secret
        choice is not taken back but changed, by choosing again (an undo would tell the
        others)."""
        return (move.get("type") != "choose" and revealed_nothing(before, after)
                and not after["revealed"])

    def redact_move(self, state: State, seat: int, move: Move,
                    viewer: int | None) -> Move | None:
        """Nobody but the chooser learns which card they chose (the reveal shows it), nor
        that they changed their choice: the others saw them choose once."""
        if move.get("type") == "choose" and viewer != seat:
            return None if state["choices"].get(str(seat)) is not None else {"type": "choose"}
        return json.loads(json.dumps(move))

    def view(self, state: State, seat: int | None) -> View:
        pending = state["pending"]
        view: View = {
            "game": GAME_ID,
            "players": state["players"],
            "options": dict(state["options"]),
            "building": clone(state["building"]),
            "roof": building.roof(state),
            "per_section": building.per_section(state),
            "colours": list(state["colours"]),
            "phase": state["phase"],
            "round": state["round"],
            "holder": state["holder"],
            "offer": None if state["offer"] is None else card_view(state["offer"]),
            "positions": clone(state["positions"]),
            "hand_counts": {s: len(cards) for s, cards in state["hands"].items()},
            "used_counts": {s: len(cards) for s, cards in state["used"].items()},
            "waiting": {s: [card_view(c) for c in cards]
                        for s, cards in state["waiting"].items()},
            "deck_count": len(state["deck"]),
            "discard_count": len(state["discard"]),
            "chosen": [int(s) for s, card in state["choices"].items() if card is not None],
            "played": {s: card_view(c) for s, c in state["reveal"].items()},
            "auction": clone(state["auction"]),
            "surprise": clone(state["surprise"]),
            "events": _public_events(state["events"]),
            "previous": _public_previous(state["previous"]),
            "pending": None if pending is None else {"seat": pending["seat"],
                                                     "kind": pending["kind"],
                                                     "card": dict(CARDS[pending["card"]])},
            "turn": _turn(state),
            "winner": state["winner"],
            "outcome": None,
        }
        result = self.outcome(state)
        if result is not None:
            view["outcome"] = result.as_json()
        if seat is not None and str(seat) in state["hands"]:
            view["seat"] = seat
            view["hand"] = [card_view(c) for c in sorted(state["hands"][str(seat)])]
            view["used"] = [card_view(c) for c in sorted(state["used"][str(seat)])]
            choice = state["choices"][str(seat)]
            view["choice"] = None if choice is None else card_view(choice)
            if pending is not None and pending["seat"] == seat and pending["kind"] == "climb":
                options = rules.climb_options(state, seat, pending["card"])
                view["climbs"] = [{"level": level, "lane": lane, "equipment": needs}
                                  for (level, lane), needs in sorted(options.items())]
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        winner = state["winner"]
        heights = {seat: building.position(state, seat)[0] for seat in range(state["players"])}
        ranking: list[list[int]] = [[winner]] if winner is not None else []
        rest = sorted((s for s in heights if s != winner), key=lambda s: -heights[s])
        for seat in rest:
            if ranking and ranking[-1][0] != winner and heights[ranking[-1][0]] == heights[seat]:
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        return Outcome(ranking=ranking, scores=heights, reason="roof")


def card_view(card_id: int) -> Card:
    card = CARDS[card_id]
    return Card(id=card["id"], kind=card["kind"], colour=card["colour"], value=card["value"])

def _turn(state: State) -> int | None:
    """Whose decision the game waits for alone (None while everyone chooses)."""
    if state["phase"] == "turn":
        return state["holder"]
    if state["phase"] == "resolve" and state["pending"] is not None:
        return state["pending"]["seat"]
    return None


#: Event fields that name a card (or, for "cards", a list of cards).
_CARD_FIELDS = ("card", "discarded", "by")


def _public_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every event is public: the cards it names were revealed or shown to the table.
    Cards are written out as in the rest of the view."""
    public = []
    for event in events:
        event = clone(event)
        for key in _CARD_FIELDS:
            if key in event:
                event[key] = dict(CARDS[event[key]])
        if "cards" in event and isinstance(event["cards"], list):
            event["cards"] = [dict(CARDS[card]) for card in event["cards"]]
        public.append(event)
    return public


def _public_previous(previous: dict[str, Any] | None) -> dict[str, Any] | None:
    if previous is None:
        return None
    return {"played": {s: dict(CARDS[c]) for s, c in previous["played"].items()},
            "auction": clone(previous["auction"]), "surprise": clone(previous["surprise"]),
            "events": _public_events(previous["events"])}
