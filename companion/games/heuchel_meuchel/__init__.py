"""Heuchel & Meuchel: rules engine. See docs/games/heuchel-meuchel.md."""

from companion.games.heuchel_meuchel.game import HeuchelMeuchel

__all__ = ["HeuchelMeuchel"]
