"""SkyRunner for templates: card names, colours, and where things stand on the building.

Everything here reads the game's public data (the card table, the building) or a view.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _
from markupsafe import Markup

from companion.games.skyrunner import ENGINE
from companion.games.skyrunner.data import CARDS, SEED
from companion.i18n import current_lang
from companion.web.spec import GameSpec, Helpers

#: The order a hand is shown in.
KIND_ORDER = ("bid", "surprise", "climb", "equipment", "sabotage", "lost", "fall")
LANE_WIDTH, ROW_HEIGHT = 34, 16


class SkyRunnerHelpers(Helpers):
    kind_order = KIND_ORDER

    def _name(self, group: str, key: str | None) -> str:
        names = SEED["names"][group].get(key or "")
        if names is None:
            return str(key)
        return names.get(current_lang()) or names["en"]

    def card(self, card: Any) -> Mapping[str, Any]:
        if isinstance(card, Mapping):
            return card
        if isinstance(card, int) and not isinstance(card, bool) and 0 <= card < len(CARDS):
            return CARDS[card]
        return {"id": card, "kind": "unknown", "colour": None, "value": None}

    def kind_name(self, kind: str) -> str:
        return self._name("kinds", kind)

    def colour(self, colour: str | None) -> str:
        return self._name("colours", colour)

    def seat_colour_name(self, view: Mapping[str, Any], seat: int) -> str:
        """The colour of ``seat``'s climber, by which a free seat is named ("yellow")."""
        return self.colour(view["colours"][seat])

    def letter(self, colour: str | None) -> str:
        """A colour's letter, printed on a climber beside its fill."""
        return self._name("letters", colour) if colour else ""

    def colour_dot(self, colour: str | None) -> Markup:
        """A player's colour as a round swatch with its letter in it, named for a screen
        reader and a tooltip ("red (R)")."""
        said = f"{self.colour(colour)} ({self.letter(colour)})"
        return Markup('<span class="swatch sr-col lettered col-{}" role="img" aria-label="{}" '
                      'title="{}">{}</span>').format(colour or "", said, said,
                                                     self.letter(colour))

    def climber_said(self, name: str, colour: str | None) -> str:
        """A climber for a screen reader and a tooltip: "Ana's climber, red (R)"."""
        return _("%(name)s’s climber, %(colour)s (%(letter)s)", name=name,
                 colour=self.colour(colour), letter=self.letter(colour))

    def standing(self, view: Mapping[str, Any]) -> dict[str, str] | None:
        """The pick that starts changing the card this seat has chosen, while the others
        still choose; None when it has none. Until its phone asks for that pick, the phone
        shows the card chosen and offers no other (``render.pick_context``)."""
        if view.get("phase") == "choose" and view.get("choice"):
            return {"type": "choose"}
        return None

    def one_per_kind(self, cards: list[int]) -> list[int]:
        """One card of each kind and value, in order: alike cards are one button when the
        holder enters the card turned from a real deck (any of them is that card)."""
        seen: dict[tuple[str, Any], int] = {}
        for card in cards:
            seen.setdefault((CARDS[card]["kind"], CARDS[card]["value"]), card)
        return list(seen.values())

    def card_name(self, card: Any) -> str:
        card = self.card(card)
        name = self.kind_name(card["kind"])
        if card["kind"] == "bid":
            return f"{name} {card['value']}"
        if card["value"] is not None:
            return f"{name} {card['value']}"
        return name

    def sections(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The three sections top down, for drawing: lanes, levels, and where each sits."""
        per, lanes = view["per_section"], view["building"]["lanes"]
        width = max(lanes) * LANE_WIDTH
        found = []
        for index in (2, 1, 0):
            top_row = (2 - index) * (per + 2) + 2
            found.append({"index": index, "lanes": lanes[index], "per": per,
                          "first": index * per + 1, "x": (width - lanes[index] * LANE_WIDTH) / 2,
                          "y": top_row * ROW_HEIGHT, "height": (per + 1) * ROW_HEIGHT})
        return found

    def wall_size(self, view: dict[str, Any]) -> tuple[float, float]:
        per = view["per_section"]
        return (max(view["building"]["lanes"]) * LANE_WIDTH + 20,
                (3 * (per + 2) + 3) * ROW_HEIGHT)

    def spot(self, view: dict[str, Any], level: int, lane: int) -> dict[str, float] | None:
        """The top-left corner of a climber standing at (level, lane): it fills two holes."""
        per = view["per_section"]
        if level <= 0 or level >= view["roof"]:
            return None
        section = next(s for s in self.sections(view) if s["index"] == (level - 1) // per)
        row_from_top = per - (level - section["first"])  # 1 = the top position
        return {"x": section["x"] + (lane - 1) * LANE_WIDTH + 4,
                "y": section["y"] + (row_from_top - 1) * ROW_HEIGHT + 2}

    def lane_width(self) -> int:
        return LANE_WIDTH

    def row_height(self) -> int:
        return ROW_HEIGHT

    def reach(self, view: dict[str, Any]) -> dict[tuple[int, int], int]:
        """The places the viewer's climber can reach: {(level, lane): equipment used}."""
        return {(spot["level"], spot["lane"]): spot["equipment"]
                for spot in view.get("climbs", [])}

    def pick_spot(self, level: int, lane: int) -> dict[str, int]:
        return {"level": level, "lane": lane}


SPEC = GameSpec(engine=ENGINE, helpers=SkyRunnerHelpers())
