"""The rules SkyRunner's ``rules.check`` holds each kind of move to, in the order it checks
them (``Game.checked``): what a player reads under "Why it was allowed" for a move of the
log. Each is a clause of ``seeds/skyrunner.toml`` that ``check`` raises for a move of that
kind breaking it; a move's shape (``sr.move.malformed``) is no rule of the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Move

#: The game is on (``sr.game.over``); a decision waited for is its decider's alone
#: (``sr.turn.wait``: while everyone chooses, every seat chooses).
ON = ("sr.game.over",)
WAITED = ("sr.turn.wait",)
#: After those, by kind: the kind fits what the round waits for (``sr.turn.phase``),
#: then the kind's own rules, as ``rules.check`` and ``rules._pending_refusal`` ask them.
BY_KIND: dict[str, tuple[str, ...]] = {
    "turn": (*WAITED, "sr.turn.phase", "sr.deck.not-in-deck"),
    "choose": ("sr.turn.phase", "sr.choose.not-in-hand", "sr.choose.same", "sr.fall.bid-only",
               "sr.equipment.with-climb"),
    "climb": (*WAITED, "sr.turn.phase", "sr.climb.equipment", "sr.climb.pass",
              "sr.climb.points", "sr.climb.blocked"),
    "fall": (*WAITED, "sr.turn.phase", "sr.drop.lane"),
    "sabotage": (*WAITED, "sr.turn.phase", "sr.target.opponent", "sr.drop.lane"),
    "lost": (*WAITED, "sr.turn.phase", "sr.target.opponent"),
    "keep": (*WAITED, "sr.turn.phase"),
}
#: A choice is held to the Fall card's rule only while the Fall card is on offer.
FALL_ONLY = "sr.fall.bid-only"


def checked(before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
    offer = before.get("offer")
    fall = isinstance(offer, Mapping) and offer.get("kind") == "fall"
    return [rule for rule in (*ON, *BY_KIND.get(str(move.get("type")), ()))
            if rule != FALL_ONLY or fall]
