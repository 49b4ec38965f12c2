"""In 7th Heaven (Im 7. Himmel): rules engine. See docs/games/seventh-heaven.md."""

from companion.games.seventh_heaven.game import SeventhHeaven

#: The game's engine, found here by the registry (``companion.games.registry``).
ENGINE = SeventhHeaven()

__all__ = ["ENGINE", "SeventhHeaven"]
