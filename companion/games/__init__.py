"""The games the companion knows: the catalogue shown on the home page, and the built ones."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.base import Game
from companion.games.seventh_heaven import SeventhHeaven


@dataclass(frozen=True)
class CatalogueEntry:
    id: str
    name: str
    designer: str
    min_players: int
    max_players: int


CATALOGUE: tuple[CatalogueEntry, ...] = (
    CatalogueEntry("seventh-heaven", "In 7th Heaven", "Wolfgang Kramer, 1989", 2, 6),
    CatalogueEntry("heuchel-meuchel", "Heuchel & Meuchel", "Rudi Hoffmann, 1990", 3, 6),
    CatalogueEntry("skyrunner", "SkyRunner", "Sevelin, Karlsson, Glimne, 2000", 2, 5),
    CatalogueEntry("climbers", "The Climbers", "Holger Lanz, 2008", 2, 5),
)

GAMES: dict[str, Game] = {game.id: game for game in (SeventhHeaven(),)}


def get_game(game_id: str) -> Game | None:
    return GAMES.get(game_id)
