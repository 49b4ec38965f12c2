"""The rules Heuchel & Meuchel's ``rules.check`` holds each kind of move to, in the order it
checks them (``Game.checked``): what a player reads under "Why it was allowed" for a move
of the log. Each is a clause of ``seeds/heuchel-meuchel.toml`` that ``check`` raises for a
move of that kind breaking it; a move's shape (``hm.move.malformed``) is no rule of the
game. The table's options say which of the variants' rules a move was held to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Move

#: Set-up, where every seat acts at once: the game is on and the kind fits set-up.
SETTING_UP = ("hm.game.over", "hm.turn.phase")
#: A turn: the game is on, it is the mover's turn, and the kind fits its moment.
TURN = ("hm.game.over", "hm.turn.wait", "hm.turn.phase")
#: The mover's own stack, still on its way (``rules._own_live``).
OWN_LIVE = ("hm.move.own-column", "hm.goal.reached")
BY_KIND: dict[str, tuple[str, ...]] = {
    "column": ("hm.setup.column-fixed", "hm.setup.column-taken"),
    "lift": ("hm.setup.not-yours",),
    "place": ("hm.setup.column-first", "hm.setup.six"),
    "take": ("hm.favour.other-column", "hm.favour.once", "hm.favour.nothing-there",
             "hm.favour.goal-untouchable", "hm.favour.lower", "hm.favour.top-part"),
    "again": ("hm.favour.again-needs-take",),
    "done": (),
    "roll": (),
    "lose": (*OWN_LIVE, "hm.die.lose"),
}
SETUP_KINDS = frozenset({"column", "lift", "place"})


def checked(before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
    kind = str(move.get("type"))
    options: Mapping[str, Any] = before.get("options") or {}
    rules = [*(SETTING_UP if kind in SETUP_KINDS else TURN), *BY_KIND.get(kind, ())]
    if kind == "place":
        rules += ["hm.setup.not-dealt"] if options.get("deal") == "app" else \
            ["hm.setup.already-placed", "hm.setup.claimed"]
    elif kind == "move":
        rules += _landing(before, options)
    elif kind == "roll" and options.get("die") == "real":
        rules.append("hm.die.value")
    elif kind == "lose" and options.get("die_loss") == "top":
        rules.append("hm.die.lose-top")
    return rules


def _landing(before: Mapping[str, Any], options: Mapping[str, Any]) -> list[str]:
    """A stack's move (``rules._check_move``, ``rules._landing_refusal``): the die's roll
    when one was rolled, and the way a move goes on as the table plays it."""
    rolled = ["hm.die.exact"] if before.get("roll") is not None else []
    going_on = ["hm.move.step-ends", "hm.move.jump-ends"] if options.get("step_ends_move") \
        else ["hm.move.keep-jumping"]
    return [*OWN_LIVE, "hm.move.top-part", "hm.move.goal-limit", *rolled, "hm.move.no-landing",
            "hm.goal.shared", "hm.move.upward", *going_on, "hm.move.exposes"]
