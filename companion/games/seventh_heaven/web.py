"""In 7th Heaven for templates: card faces, colour names, the track's event spaces."""

from __future__ import annotations

from typing import Any

from companion.games.seventh_heaven import ENGINE, board
from companion.games.seventh_heaven.data import (
    CARDS,
    COLOURS,
    EVENTS,
    PARTNER_NAMES,
    SEED,
    WHITE,
)
from companion.i18n import current_lang
from companion.web.spec import GameSpec, Helpers


class SeventhHeavenHelpers(Helpers):
    def card(self, card_id: Any) -> dict[str, Any]:
        if isinstance(card_id, int) and not isinstance(card_id, bool) and \
                0 <= card_id < len(CARDS):
            return CARDS[card_id]
        return {"id": card_id, "kind": "unknown", "colour": None, "value": None,
                "special": None}

    def colour(self, colour: str | None) -> str:
        lang = current_lang()
        for entry in SEED["colour"]:
            if entry["id"] == colour:
                return entry.get(lang) or entry["en"]
        if colour == WHITE:
            return "blanc" if lang == "fr" else "white"
        return str(colour)

    def letter(self, colour: str | None) -> str:
        """A colour's letter, printed on its cards and pawns beside the fill ("" for white)."""
        for entry in SEED["colour"]:
            if entry["id"] == colour:
                return str(entry["letter"].get(current_lang()) or entry["letter"]["en"])
        return ""

    def pawn_name(self, colour: str) -> str:
        """A pawn as a screen reader says it: its colour, then its letter."""
        return f"{self.colour(colour)} ({self.letter(colour)})"

    def colour_order(self) -> list[str | None]:
        return [*COLOURS, WHITE, None]

    def partner(self, colour: str) -> str:
        names = PARTNER_NAMES.get(colour, {})
        return names.get(current_lang()) or names.get("en", "")

    def special(self, special: str | None) -> str:
        names = SEED["deck"]["special_names"].get(special or "", {})
        return names.get(current_lang()) or names.get("en") or str(special)

    def event(self, space: int) -> str:
        event = EVENTS.get(space)
        if event is None:
            return ""
        if event["kind"] == "move":
            return f"→{event['to']}"
        return "⇄!" if event.get("must") else "⇄"

    def landing(self, move: dict[str, Any], view: dict[str, Any]) -> tuple[int, int] | None:
        """Where a card moves its piece: (from, to), before any event space sends it on;
        None for a move that is not a piece's."""
        card = self.card(move.get("card"))
        here = view["pieces"].get(move.get("piece"))
        if move.get("type") != "move" or here is None:
            return None
        if card["kind"] == "number":
            return here, min(here + card["value"], view["heaven"])
        ahead = board.next_ahead(view, move["piece"])  # a view has the pieces and Heaven
        return None if ahead is None else (here, ahead)

    def event_name(self, space: int) -> str:
        """The printed name of an event space ("The Carnival")."""
        names = EVENTS.get(space, {}).get("name", {})
        return str(names.get(current_lang()) or names.get("en") or space)

    def swap_is_due(self, space: int) -> bool:
        """Whether the swap of an event space must be made (the Disco), not only may."""
        return bool(EVENTS.get(space, {}).get("must"))

    def pieces_at(self, view: dict[str, Any], space: int) -> list[str]:
        return [colour for colour in COLOURS if view["pieces"].get(colour) == space]

    def best_space(self, view: dict[str, Any], seat: int) -> int | str:
        colours = view["partners"].get(str(seat), [])
        spaces = [view["pieces"][colour] for colour in colours if colour in view["pieces"]]
        return max(spaces) if spaces else "–"



SPEC = GameSpec(engine=ENGINE, helpers=SeventhHeavenHelpers())
