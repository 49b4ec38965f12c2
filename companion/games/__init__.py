"""The games the companion knows: the catalogue shown on the home page, and the built ones."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import Game
from companion.games.climbers import Climbers
from companion.games.heuchel_meuchel import HeuchelMeuchel
from companion.games.seventh_heaven import SeventhHeaven
from companion.games.skyrunner import SkyRunner


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    names: dict[str, str]  # by language
    designer: str
    min_players: int
    max_players: int

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry("seventh-heaven", {"en": "In 7th Heaven", "fr": "Au 7ème Ciel"},
                   "Wolfgang Kramer, 1989", 2, 6),
    CatalogueEntry("heuchel-meuchel", {"en": "Heuchel & Meuchel"}, "Rudi Hoffmann, 1990", 3, 6),
    CatalogueEntry("skyrunner", {"en": "SkyRunner"}, "Sevelin, Karlsson, Glimne, 2000", 2, 5),
    CatalogueEntry("climbers", {"en": "The Climbers", "fr": "Die Aufsteiger"},
                   "Holger Lanz, 2008", 2, 5),
)

GAMES: dict[str, Game] = {game.id: game for game in (SeventhHeaven(), HeuchelMeuchel(),
                                                     SkyRunner(), Climbers())}


def get_game(game_id: str) -> Game | None:
    return GAMES.get(game_id)
