"""Die Aufsteiger / The Climbers (Holger Lanz, 2008): the tower, its rules and the climb."""

from companion.games.climbers.game import Climbers

#: The game's engine, found here by the registry (``companion.games.registry``).
ENGINE = Climbers()

__all__ = ["ENGINE", "Climbers"]
