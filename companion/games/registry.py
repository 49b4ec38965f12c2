"""The games the companion offers, in the order the home page lists them: the rules
engines alone, for anything that plays games without pages (the tables' benchmarks, the
playouts). The web layer adds each game's template helpers to it (``companion.web.games``).
"""

from __future__ import annotations

from companion.games.base import Game
from companion.games.climbers import Climbers
from companion.games.heuchel_meuchel import HeuchelMeuchel
from companion.games.seventh_heaven import SeventhHeaven
from companion.games.skyrunner import SkyRunner

ENGINES: tuple[Game, ...] = (SeventhHeaven(), HeuchelMeuchel(), SkyRunner(), Climbers())

#: The engines by game id.
BY_ID: dict[str, Game] = {engine.id: engine for engine in ENGINES}
