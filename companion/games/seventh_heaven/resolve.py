"""Carrying out a checked move on a state that ``apply`` already copied.

Every function here mutates ``state`` in place and trusts that ``rules.check`` passed.
The record of what happened goes to ``state["last"]`` for the table screen; it never holds
a drawn card.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Move, State
from companion.games.seventh_heaven import board
from companion.games.seventh_heaven.data import CARDS, COLOUR_INDEX, EVENTS, HAND_SIZE, START

PEPPER_STEPS = 3
SNAIL_STEPS = 2
CLOUD_STEPS = 3
THREE = 3


# --- entry points -------------------------------------------------------------------------


def play_card(state: State, seat: int, move: Move) -> None:
    """A play-phase move: the card leaves the hand, then its effect."""
    card_id = move["card"]
    card = CARDS[card_id]
    board.hand(state, seat).remove(card_id)
    state["discard"].append(card_id)
    state["first_card"] = False
    last: dict[str, Any] = {
        "seat": seat,
        "type": move["type"],
        "card": dict(card),
        "rules": [],
        "moves": [],
        "events": [],
        "swaps": [],
        "arrivals": [],
        "drew": {},
        "discarded": {},
    }
    state["last"] = last
    kind = move["type"]
    queue: list[int] = []
    if kind == "pass":
        colour = card["colour"]
        dead = colour in state["pieces"] and board.in_heaven(state, colour)
        last["rules"].append("7h.card.dead" if dead else "7h.turn.pass")
    elif kind == "swap":
        swap(state, seat, card["colour"], move["give"], "7h.swap.effect")
    elif kind == "move":
        queue = _move_with_card(state, card, move["piece"])
    else:
        queue = _play_special(state, seat, card["special"], move)
    if state["phase"] == "play":
        _offer_events(state, seat, queue)


def event_swap(state: State, seat: int, move: Move) -> None:
    pending = state["pending"]
    if move["type"] == "decline":
        state["last"]["events"].append(
            {"space": pending["space"], "rule": pending["rule"], "declined": True}
        )
    else:
        swap(state, seat, move["take"], move["give"], pending["rule"])
    state["phase"] = "play"
    _offer_events(state, seat, pending["queue"])


def discard(state: State, seat: int, move: Move) -> None:
    pending = state["pending"]
    held = board.hand(state, seat)
    for card_id in move["cards"]:
        held.remove(card_id)
        state["discard"].append(card_id)
    state["last"]["discarded"][str(seat)] = len(move["cards"])
    pending["seats"].remove(seat)
    if not pending["seats"]:
        _three_cards_draw(state, pending["player"])


# --- pieces -------------------------------------------------------------------------------


def _move_with_card(state: State, card: dict[str, Any], piece: str) -> list[int]:
    if card["kind"] == "number":
        target = state["pieces"][piece] + card["value"]
    else:
        target = board.next_ahead(state, piece)
        state["last"]["rules"].append("7h.arrow.next-piece")
    return move_pieces(state, {piece: target})


def move_pieces(state: State, targets: dict[str, int]) -> list[int]:
    """Move pieces, send them on from kiss/Montmartre/quarrel and note arrivals.

    Returns the swap-event spaces reached, for the mover to decide on.

    Targets past 7th Heaven stop there, targets behind the start stop at the start
    (number cards never ask for that: rules refuse them first).
    """
    landed, arrived = _place(state, targets)
    swap_spaces = [space for space in sorted(landed) if _event(state, space, landed[space])]
    if arrived:
        _arrive(state, arrived)
    return swap_spaces


def _place(state: State, targets: dict[str, int]) -> tuple[dict[int, list[str]], list[str]]:
    """Put each piece on its target (held at 7th Heaven and at the start); returns the
    pieces that landed on each space below 7th Heaven, and those that arrived there."""
    last = state["last"]
    heaven = state["heaven"]
    landed: dict[int, list[str]] = {}
    arrived: list[str] = []
    for colour in sorted(targets, key=COLOUR_INDEX.__getitem__):
        start = state["pieces"][colour]
        target = targets[colour]
        if target > heaven:
            target = heaven
            _note(last, "7h.move.surplus")
        if target < START:
            target = START
            _note(last, "7h.special.stop-at-start")
        state["pieces"][colour] = target
        last["moves"].append({"piece": colour, "from": start, "to": target})
        if target == start:
            continue
        if target >= heaven:
            arrived.append(colour)
        else:
            landed.setdefault(target, []).append(colour)
    return landed, arrived


def _event(state: State, space: int, pieces: list[str]) -> bool:
    """Apply the event of ``space`` where ``pieces`` landed: a move-on event sends them on
    at once; returns whether it is a swap event, for the mover to decide on."""
    event = EVENTS.get(space)
    if event is None:
        return False
    last = state["last"]
    if event["kind"] != "move":
        if len(pieces) > 1:
            _note(last, "7h.event.once")
        return True
    for colour in pieces:
        state["pieces"][colour] = event["to"]
    for record in last["moves"]:
        if record["piece"] in pieces:  # where it landed, and where it went
            record["via"], record["to"] = space, event["to"]
    last["events"].append(
        {"space": space, "rule": event["rule"], "pieces": pieces, "to": event["to"]}
    )
    return False


def _note(last: dict[str, Any], rule: str) -> None:
    if rule not in last["rules"]:
        last["rules"].append(rule)


# --- partner cards ------------------------------------------------------------------------


def swap(state: State, seat: int, take: str, give: str, rule: str) -> None:
    """``seat`` takes partner card ``take`` and hands over ``give`` to its previous holder."""
    other = board.holder(state, take)
    mine = state["partners"][str(seat)]
    mine.remove(give)
    mine.append(take)
    mine.sort(key=COLOUR_INDEX.__getitem__)
    if other is None:
        state["spare"].remove(take)
        state["spare"].append(give)
        state["spare"].sort(key=COLOUR_INDEX.__getitem__)
    else:
        theirs = state["partners"][str(other)]
        theirs.remove(take)
        theirs.append(give)
        theirs.sort(key=COLOUR_INDEX.__getitem__)
    state["last"]["swaps"].append(
        {"seat": seat, "take": take, "give": give, "from": other, "rule": rule}
    )


# --- special cards ------------------------------------------------------------------------


def _play_special(state: State, seat: int, special: str, move: Move) -> list[int]:
    last = state["last"]
    pieces = state["pieces"]
    if special == "heart":
        swap(state, seat, move["take"], move["give"], "7h.heart")
        last["rules"].append("7h.heart")
    elif special == "mushroom":
        last["rules"].append("7h.mushroom.count")
        draw(state, seat, move["count"])
    elif special == "three_cards":
        last["rules"].append("7h.three-cards.discard")
        _start_three_cards(state, seat)
    elif special == "pepper":
        last["rules"].append("7h.pepper")
        return move_pieces(state, {c: pieces[c] + PEPPER_STEPS for c in board.laggards(state)})
    elif special == "snail":
        last["rules"].append("7h.snail")
        return move_pieces(state, {c: pieces[c] - SNAIL_STEPS for c in board.leaders(state)})
    elif special == "cloud":
        last["rules"].append("7h.cloud")
        return move_pieces(state, {c: pieces[c] - CLOUD_STEPS for c in board.leaders(state)})
    elif special == "foot":
        last["rules"].append("7h.foot.steps")
        return move_pieces(state, {move["piece"]: pieces[move["piece"]] + move["steps"]})
    elif special == "finger":
        last["rules"].append("7h.finger.next-piece")
        piece = move["piece"]
        target = board.next_ahead(state, piece)
        if board.shares_space(state, piece) or target is None:
            target = pieces[piece]
        return move_pieces(state, {piece: target})
    return []


def draw(state: State, seat: int, count: int) -> None:
    got = state["deck"][:count]
    del state["deck"][:count]
    held = board.hand(state, seat)
    held.extend(got)
    if got:
        drew = state["last"]["drew"]
        drew[str(seat)] = drew.get(str(seat), 0) + len(got)


def _start_three_cards(state: State, player: int) -> None:
    order = [seat for seat in board.clockwise_from(state, player) if seat in board.active(state)]
    seats = [seat for seat in order if board.hand(state, seat)]
    state["phase"] = "discard"
    state["pending"] = {
        "player": player,
        "seats": seats,
        "counts": {str(seat): min(THREE, len(board.hand(state, seat))) for seat in seats},
    }
    if not seats:
        _three_cards_draw(state, player)


def _three_cards_draw(state: State, player: int) -> None:
    state["last"]["rules"].append("7h.three-cards.draw")
    for seat in board.clockwise_from(state, player):
        if seat in board.active(state):
            draw(state, seat, THREE)
    state["phase"] = "play"
    state["pending"] = None
    end_turn(state, player)


# --- arrivals, events, end of turn --------------------------------------------------------


def _arrive(state: State, colours: list[str]) -> None:
    rank = len(set(state["arrival_rank"].values()))
    last = state["last"]
    for colour in colours:
        state["arrived"].append(colour)
        state["arrival_rank"][colour] = rank
        owner = board.holder(state, colour)
        rule = "7h.end.unowned-arrival" if owner is None else "7h.end.heaven"
        last["arrivals"].append({"piece": colour, "seat": owner, "rule": rule})
    if state["refilling"]:
        state["refill_final"] = True
    done = [
        seat
        for seat in board.active(state)
        if all(board.in_heaven(state, colour) for colour in board.own(state, seat))
    ]
    if not done:
        return
    state["places"].append(done)
    if state["options"]["play_for_places"]:
        _note(last, "7h.end.places")
        return
    small = state["players"] <= 3
    _note(last, "7h.end.both-in" if small else "7h.end.heaven")
    end_game(state, "both-in-heaven" if small else "heaven")


def _offer_events(state: State, mover: int, queue: list[int]) -> None:
    """Ask the mover about each swap event reached in turn, then end the turn."""
    while queue:
        space, queue = queue[0], queue[1:]
        event = EVENTS[space]
        if board.swap_pairs(state, mover):
            state["phase"] = "event-swap"
            state["pending"] = {
                "seat": mover,
                "space": space,
                "must": event["must"],
                "rule": event["rule"],
                "queue": queue,
            }
            state["last"]["events"].append({"space": space, "rule": event["rule"]})
            return
        state["last"]["events"].append(
            {"space": space, "rule": event["rule"], "skipped": "7h.event.no-swap"}
        )
    state["pending"] = None
    end_turn(state, mover)


def end_turn(state: State, mover: int) -> None:
    if state["refilling"]:
        held = board.hand(state, mover)
        draw(state, mover, max(0, HAND_SIZE - len(held)))
        if state["refill_final"]:
            state["refilling"] = False
            state["refill_final"] = False
    state["phase"] = "play"
    state["pending"] = None
    still = board.active(state)
    if state["options"]["play_for_places"] and len(still) <= 1:
        end_game(state, "places")
        return
    for seat in [*board.clockwise_from(state, mover)[1:], mover]:
        if seat in still and board.hand(state, seat):
            state["turn"] = seat
            return
    end_game(state, "cards-out")


def end_game(state: State, reason: str) -> None:
    state["phase"] = "over"
    state["turn"] = None
    state["pending"] = None
    state["end_reason"] = reason
