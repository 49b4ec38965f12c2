"""SkyRunner: rules engine. See docs/games/skyrunner.md."""

from companion.games.skyrunner.game import SkyRunner

#: The game's engine, found here by the registry (``companion.games.registry``).
ENGINE = SkyRunner()

__all__ = ["ENGINE", "SkyRunner"]
