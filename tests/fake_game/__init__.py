"""A throw-away game registered by the tests alone: the engine, seeds and templates in this
folder and a one-line helper class make it a game every suite covers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.web.games.spec import GameSpec
from tests.fake_game.engine import SEEDS, HighCard, card


class HighCardHelpers:
    def card(self, card_id: Any) -> dict[str, Any]:
        return card(card_id) if isinstance(card_id, int) else {"id": card_id, "value": "?"}

    def glitch(self) -> str:
        """What the ``glitch`` option's board and log lines call: a drawing that fails."""
        raise RuntimeError("High Card's glitch: this part cannot be drawn, on purpose")


SPEC = GameSpec(engine=HighCard(), helpers=HighCardHelpers(), seeds=SEEDS,
                templates=Path(__file__).with_name("templates"))
