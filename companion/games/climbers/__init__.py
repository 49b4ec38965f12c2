"""Die Aufsteiger / The Climbers (Holger Lanz, 2008): the tower, its rules and the climb."""

from companion.games.climbers.game import Climbers

__all__ = ["Climbers"]
