"""Heuchel & Meuchel: rules engine. See docs/games/heuchel-meuchel.md."""

from companion.games.heuchel_meuchel.game import HeuchelMeuchel

#: The game's engine, found here by the registry (``companion.games.registry``).
ENGINE = HeuchelMeuchel()

__all__ = ["ENGINE", "HeuchelMeuchel"]
