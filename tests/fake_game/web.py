"""High Card for templates: its cards' faces, the cards left in each hand in words, and a
drawing that fails on purpose."""

from __future__ import annotations

from typing import Any

from companion.i18n import ngettext
from companion.web.spec import GameSpec, Helpers
from tests.fake_game import ENGINE
from tests.fake_game.engine import card


class HighCardHelpers(Helpers):
    def card(self, card_id: Any) -> dict[str, Any]:
        return card(card_id) if isinstance(card_id, int) else {"id": card_id, "value": "?"}

    def cards_in_hand(self, count: int) -> str:
        """How many cards a seat still holds, on the table screen's scores."""
        return ngettext("%(num)d card in hand", "%(num)d cards in hand", count)

    def glitch(self) -> str:
        """What the ``glitch`` option's board and log lines call: a drawing that fails."""
        raise RuntimeError("High Card's glitch: this part cannot be drawn, on purpose")


SPEC = GameSpec(engine=ENGINE, helpers=HighCardHelpers())
