"""The rules In 7th Heaven's ``rules.check`` holds each kind of move to, in the order it
checks them (``Game.checked``): what a player reads under "Why it was allowed" for a move
of the log. Each is a clause of ``seeds/seventh-heaven.toml`` that ``check`` raises for a
move of that kind breaking it; a move's shape (``7h.move.malformed``) is no rule of the
game. A card played is public: which card it was says which rules it was held to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Move
from companion.games.seventh_heaven.data import CARD_COUNT, CARDS

#: The game is on, a card named is one (a special card's play, a special card:
#: ``rules.check_values``), and the mover is the one the table waits for.
ON = ("7h.game.over", "7h.card.not-in-hand")
SPECIAL_PLAYED = ("7h.card.wrong-kind",)
WAITED = ("7h.turn.wait",)
#: The kind fits the moment, named as ``rules._decision_first`` names what it waits for.
WAITING = {"play": "7h.turn.phase", "event-swap": "7h.event.first",
           "discard": "7h.three-cards.first"}
#: Every partner-card exchange (``rules.check_swap``).
SWAP = ("7h.swap.give-own", "7h.swap.already-held", "7h.swap.heaven-fixed")
#: A special card's own rules (``rules._check_special``).
SPECIAL = {"heart": SWAP, "mushroom": ("7h.mushroom.count",),
           "foot": ("7h.foot.steps", "7h.foot.first-piece"),
           "finger": ("7h.finger.own-piece",)}
#: The first card of the game is a number card moving a piece forward.
FIRST = "7h.first.forward-number"


def checked(before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
    kind = str(move.get("type"))
    card_id = move.get("card")
    card = CARDS[card_id] if isinstance(card_id, int) and 0 <= card_id < CARD_COUNT else {}
    rules = [*ON, *(SPECIAL_PLAYED if kind == "play" else ()), *WAITED,
             WAITING.get(str(before.get("phase")), "7h.turn.phase")]
    if kind == "event-swap":
        rules += SWAP
    elif kind == "decline":
        rules.append("7h.event.disco")
    elif kind == "discard":
        rules.append("7h.three-cards.discard")
    elif kind in ("move", "swap", "play", "pass"):
        rules += [FIRST] if before.get("first_card") else []
        rules += _played(kind, card)
    return list(dict.fromkeys(rules))


def _played(kind: str, card: Mapping[str, Any]) -> list[str]:
    """The rules of a card played, after the first card's (``rules._check_play``)."""
    if kind == "pass":
        return ["7h.turn.pass"]
    if kind == "play":
        return list(SPECIAL.get(str(card.get("special")), ()))
    if kind == "swap":
        return ["7h.card.wrong-kind", "7h.swap.coloured-only", *SWAP]
    ahead = "7h.move.backward-limit" if card.get("kind") == "number" else \
        "7h.arrow.nothing-ahead"
    return ["7h.card.wrong-kind", "7h.move.colour", "7h.move.in-heaven", ahead]
