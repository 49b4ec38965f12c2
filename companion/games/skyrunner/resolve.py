"""A SkyRunner round, carried out on a state that ``apply`` already copied.

A round: the deck holder turns the offered card; every player chooses a card in secret;
the last choice reveals them all; the auction and the Surprise cards are settled; then
each player's card acts in seat order from the holder, stopping where its player must
decide (where to climb, whom to sabotage, which lane after a ledge); then the played cards
go where they belong, the deck passes left and the next round begins. ``state["events"]``
is the public account of the round; ``state["revealed"]`` says the move showed something
someone had not seen (its mover may not take it back then).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Move, State, shuffled
from companion.games.skyrunner import building
from companion.games.skyrunner.data import (
    SABOTAGE_DROP,
    SABOTAGE_GROUND_MIN,
    kind,
    value,
)
from companion.games.skyrunner.rules import climb_options


def _hand(state: State, seat: int) -> list[int]:
    return state["hands"][str(seat)]


#: Event fields that name a card (or, for "cards", a list of cards).
CARD_FIELDS = ("card", "cards", "discarded", "by")

#: The clause behind each kind of event: a move's effects carry it (``state["effects"]``).
EVENT_RULES = {
    "returned": "sr.bid.used", "reshuffled": "sr.deck.reshuffle", "won": "sr.bid.cancel",
    "stuck": "sr.climb.blocked", "climb": "sr.climb.move", "fall": "sr.fall.lowest",
    "sabotage": "sr.sabotage", "ground": "sr.ground", "waits": "sr.ground",
    "lost": "sr.lost", "kept": "sr.won.use-or-keep", "taken": "sr.lost",
    "surprise": "sr.surprise.takes", "no-offer": "sr.round.no-offer",
}


def _event(state: State, **event: Any) -> None:
    """Adds to the round's public account, and to this move's effects with its clause (a
    fall that drags others adds the knock-on too). Every event is public: the cards it
    names were revealed or shown to the table."""
    state["events"].append(event)
    # The log keeps effects for the whole game: they name no card (the round's account
    # above does, while the round is on the table).
    effect = {key: value for key, value in event.items() if key not in CARD_FIELDS}
    state["effects"].append({"rule": EVENT_RULES[event["kind"]], **effect})
    if len(event.get("falls", [])) > 1:
        state["effects"].append({"rule": "sr.knock-on",
                                 "seats": [fall["seat"] for fall in event["falls"][1:]]})


# --- the start of a round -------------------------------------------------------------


def start_round(state: State) -> None:
    """Bids come back to a player who has none left; the holder turns the next card."""
    state["choices"] = {str(seat): None for seat in range(state["players"])}
    state["played"], state["reveal"] = {}, {}
    state["auction"], state["surprise"] = None, None
    state["order"], state["step"], state["pending"] = [], 0, None
    state["events"] = []
    for seat in range(state["players"]):
        if not any(kind(card) == "bid" for card in _hand(state, seat)):
            state["hands"][str(seat)] = sorted(_hand(state, seat) + state["used"][str(seat)])
            state["used"][str(seat)] = []
            _event(state, kind="returned", seat=seat)
    if state["offer"] is None and not state["deck"] and state["discard"]:
        state["deck"] = _new_deck(state, state["discard"])
        state["discard"] = []
        _event(state, kind="reshuffled", count=len(state["deck"]))
    if state["offer"] is None and not state["deck"]:
        # Every card of the deck is in a hand (or waits in front of a player): there is no
        # card to turn, so this round offers none. The players still choose and play their
        # cards; a card played refills the discard, and so the next round's deck
        # (sr.round.no-offer).
        _event(state, kind="no-offer")
    elif state["offer"] is None:
        if state["options"]["deck"] == "real":
            state["phase"] = "turn"
            return
        state["offer"] = state["deck"].pop(0)
        state["revealed"] = True
    state["phase"] = "choose"


def _new_deck(state: State, cards: list[int]) -> list[int]:
    if state["options"]["deck"] == "real":
        return sorted(cards)  # the table shuffles the real cards
    return shuffled(state, cards)


def turn_card(state: State, seat: int, move: Move) -> None:
    """Real deck: the holder enters the card they turned (any card of that kind and value
    still in the deck: alike cards are one and the same to the table)."""
    state["deck"].remove(move["card"])
    state["offer"] = move["card"]
    state["phase"] = "choose"


# --- secret choices and the reveal ----------------------------------------------------


def choose(state: State, seat: int, move: Move) -> None:
    state["choices"][str(seat)] = move["card"]
    if all(card is not None for card in state["choices"].values()):
        _reveal(state)


def _reveal(state: State) -> None:
    """Everyone's card at once; the auction and the Surprise cards are settled now and act
    in seat order from the deck holder."""
    # What the cards do now is the round's, not the last chooser's: the log gives it a line
    # of its own.
    state["effects"].append({"rule": "sr.round.reveal", "kind": "reveal", "starts_line": True})
    played = {seat: card for seat, card in state["choices"].items()}
    for seat, card in played.items():
        state["hands"][seat].remove(card)
    state["played"], state["reveal"] = played, dict(played)
    state["choices"] = {seat: None for seat in played}
    state["revealed"] = True
    offer = state["offer"]
    fall = offer is not None and kind(offer) == "fall"
    bids = {int(seat): value(card) for seat, card in played.items() if kind(card) == "bid"}
    counts: dict[int, int] = {}
    for bid in bids.values():
        counts[bid] = counts.get(bid, 0) + 1
    standing = [bid for bid, count in counts.items() if count == 1]
    winner = None
    if standing and offer is not None:
        wanted = min(standing) if fall else max(standing)
        winner = next(seat for seat, bid in bids.items() if bid == wanted)
    state["auction"] = {"winner": winner, "fall": fall, "offered": offer is not None,
                        "cancelled": sorted(bid for bid, count in counts.items() if count > 1)}
    surprises = [int(seat) for seat, card in played.items() if kind(card) == "surprise"]
    state["surprise"] = {"taker": surprises[0] if len(surprises) == 1 else None,
                         "cancelled": len(surprises) > 1, "players": surprises}
    holder = state["holder"]
    state["order"] = [(holder + offset) % state["players"] for offset in range(state["players"])]
    state["step"] = 0
    state["phase"] = "resolve"
    advance(state)


# --- resolving, seat by seat ----------------------------------------------------------


def advance(state: State) -> None:
    """Carry out the steps that need no decision; stop at one that does, or end the round."""
    while state["step"] < len(state["order"]):
        seat = state["order"][state["step"]]
        card = state["played"][str(seat)]
        pending = _step(state, seat, card)
        if state["phase"] == "over":
            return
        if pending is not None:
            state["pending"] = pending
            return
        state["step"] += 1
    _end_round(state)


def _step(state: State, seat: int, card: int) -> dict[str, Any] | None:
    """One player's card acts; returns the decision it waits for, if any."""
    auction = state["auction"]
    if kind(card) == "bid" and auction["winner"] == seat:
        offer = state["offer"]
        if auction["fall"]:
            distance = value(offer)
            if len(building.drop_lanes(state, seat, distance)) > 1:
                return {"seat": seat, "kind": "fall", "card": offer, "distance": distance}
            _fall(state, seat, offer, building.drop_lanes(state, seat, distance)[0])
            return None
        _event(state, kind="won", seat=seat, card=offer)
        if kind(offer) in ("sabotage", "lost"):
            return {"seat": seat, "kind": "won", "card": offer}  # use it now, or keep it
        state["offer"] = None
        gain(state, seat, [offer])
        return None
    if kind(card) == "climb":
        if len(climb_options(state, seat, card)) > 1:
            return {"seat": seat, "kind": "climb", "card": card}
        _event(state, kind="stuck", seat=seat, card=card)
        return None
    if kind(card) in ("sabotage", "lost"):
        return {"seat": seat, "kind": "target", "card": card}
    return None


def decide(state: State, seat: int, move: Move) -> None:
    """The answer to the pending decision; then the round goes on."""
    pending = state["pending"]
    state["pending"] = None
    if pending["kind"] == "won":
        state["offer"] = None
    elif pending["kind"] == "target":
        del state["played"][str(seat)]
    if move["type"] == "climb":
        _climb(state, seat, pending["card"], move["level"], move["lane"])
    elif move["type"] == "fall":
        _fall(state, seat, pending["card"], move["lane"])
    elif move["type"] == "keep":
        gain(state, seat, [pending["card"]])
        _event(state, kind="kept", seat=seat)
    elif move["type"] == "sabotage":
        _sabotage(state, seat, pending["card"], move["target"], move["lane"])
    else:
        _lose_equipment(state, seat, pending["card"], move["target"])
    if state["phase"] == "over":
        return
    state["step"] += 1
    advance(state)


def _climb(state: State, seat: int, card: int, level: int, lane: int) -> None:
    needs = climb_options(state, seat, card)[(level, lane)]
    before = dict(state["positions"][str(seat)])
    for _ in range(needs):
        equipment = next(c for c in _hand(state, seat) if kind(c) == "equipment")
        _hand(state, seat).remove(equipment)
        state["discard"].append(equipment)
    state["positions"][str(seat)] = {"level": level, "lane": lane}
    _event(state, kind="climb", seat=seat, card=card, start=before,
           end={"level": level, "lane": lane}, equipment=needs)
    if level == building.roof(state):
        state["winner"] = seat
        state["phase"] = "over"


def _fall(state: State, seat: int, card: int, lane: int) -> None:
    """The Fall card on offer acts on the lowest bid left."""
    state["offer"] = None
    distance = value(card)
    if building.position(state, seat)[0] == building.GROUND:
        _ground_penalty(state, seat, card, distance)
        return
    falls = building.drop(state, seat, distance, lane)
    state["discard"].append(card)
    _event(state, kind="fall", seat=seat, card=card, falls=falls)


def _sabotage(state: State, seat: int, card: int, target: int, lane: int) -> None:
    if building.position(state, target)[0] == building.GROUND:
        _event(state, kind="sabotage", seat=seat, target=target, falls=[])
        _ground_penalty(state, target, card, SABOTAGE_GROUND_MIN)
        return
    falls = building.drop(state, target, SABOTAGE_DROP, lane)
    state["discard"].append(card)
    _event(state, kind="sabotage", seat=seat, target=target, falls=falls)


def _ground_penalty(state: State, seat: int, card: int, at_least: int) -> None:
    """A climber already on the ground gives up a climbing card of at least ``at_least``
    (the lowest such, the one a player would give); with none, the card waits in front of
    them for the next one they gain."""
    eligible = sorted((c for c in _hand(state, seat)
                       if kind(c) == "climb" and value(c) >= at_least), key=value)
    if eligible:
        _hand(state, seat).remove(eligible[0])
        state["discard"] += [eligible[0], card]
        _event(state, kind="ground", seat=seat, card=card, discarded=eligible[0])
    else:
        state["waiting"][str(seat)].append(card)
        _event(state, kind="waits", seat=seat, card=card)


def _lose_equipment(state: State, seat: int, card: int, target: int) -> None:
    equipment = [c for c in _hand(state, target) if kind(c) == "equipment"]
    if equipment:
        _hand(state, target).remove(equipment[0])
        state["discard"] += [equipment[0], card]
        _event(state, kind="lost", seat=seat, target=target, waits=False)
    else:
        state["waiting"][str(target)].append(card)
        _event(state, kind="lost", seat=seat, target=target, waits=True)


def gain(state: State, seat: int, cards: list[int]) -> None:
    """Cards come into a hand; a card waiting in front of the player takes the first one
    it was waiting for (lost equipment an equipment card, sabotage and falls a climbing
    card of at least their value)."""
    for card in cards:
        taken_by = next((waiting for waiting in state["waiting"][str(seat)]
                         if _waits_for(waiting, card)), None)
        if taken_by is None:
            _hand(state, seat).append(card)
            continue
        state["waiting"][str(seat)].remove(taken_by)
        state["discard"] += [card, taken_by]
        _event(state, kind="taken", seat=seat, card=card, by=taken_by)
    state["hands"][str(seat)].sort()


def _waits_for(waiting: int, card: int) -> bool:
    if kind(waiting) == "lost":
        return kind(card) == "equipment"
    needed = SABOTAGE_GROUND_MIN if kind(waiting) == "sabotage" else value(waiting)
    return kind(card) == "climb" and value(card) >= needed


# --- the end of a round ---------------------------------------------------------------


def _end_round(state: State) -> None:
    """Bids and Surprises go face down before their owners; climbing cards to the one
    Surprise, if there was exactly one, else away; the deck passes left."""
    taker = state["surprise"]["taker"]
    stolen = []
    for seat, card in state["played"].items():
        if kind(card) in ("bid", "surprise"):
            state["used"][seat].append(card)
        elif kind(card) == "climb":
            if taker is None:
                state["discard"].append(card)
            else:
                stolen.append(card)
    if stolen:
        _event(state, kind="surprise", seat=taker, cards=sorted(stolen))
        gain(state, taker, sorted(stolen))
    state["previous"] = {"played": state["reveal"], "auction": state["auction"],
                         "surprise": state["surprise"], "events": state["events"]}
    state["played"] = {}
    state["holder"] = (state["holder"] + 1) % state["players"]
    state["round"] += 1
    start_round(state)


CARRY_OUT = {"turn": turn_card, "choose": choose, "climb": decide, "fall": decide,
             "keep": decide, "sabotage": decide, "lost": decide}

