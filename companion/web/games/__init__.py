"""Per-game helpers for templates: names and pictures from a game's public data only."""

from __future__ import annotations

from typing import Any

from companion.web.games.climbers import ClimbersHelpers
from companion.web.games.heuchel_meuchel import HeuchelMeuchelHelpers
from companion.web.games.seventh_heaven import SeventhHeavenHelpers
from companion.web.games.skyrunner import SkyRunnerHelpers

HELPERS: dict[str, Any] = {"seventh-heaven": SeventhHeavenHelpers(),
                           "heuchel-meuchel": HeuchelMeuchelHelpers(),
                           "skyrunner": SkyRunnerHelpers(),
                           "climbers": ClimbersHelpers()}


def helpers(game_id: str) -> Any:
    return HELPERS[game_id]
