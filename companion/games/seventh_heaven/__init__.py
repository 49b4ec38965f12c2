"""In 7th Heaven (Im 7. Himmel): rules engine. See docs/games/seventh-heaven.md."""

from companion.games.seventh_heaven.game import SeventhHeaven

__all__ = ["SeventhHeaven"]
