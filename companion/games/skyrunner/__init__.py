"""SkyRunner: rules engine. See docs/games/skyrunner.md."""

from companion.games.skyrunner.game import SkyRunner

__all__ = ["SkyRunner"]
