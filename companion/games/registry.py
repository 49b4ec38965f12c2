"""The games the companion offers, in the order the home page lists them: the rules
engines alone, for anything that plays games without pages (the tables' benchmarks, the
playouts). The web layer finds each game's presenter beside its engine
(``companion.web.games``).

A game is found from its id by convention: its package ``companion.games.<id>`` (with
``_`` for ``-``) names its engine ``ENGINE``. ``GAME_IDS`` is the one line a new game adds
here (docs/architecture.md, "Adding a game").
"""

from __future__ import annotations

from importlib import import_module

from companion.games.base import Game

GAME_IDS: tuple[str, ...] = (
    "seventh-heaven",
    "heuchel-meuchel",
    "skyrunner",
    "climbers",
)


def package(game_id: str) -> str:
    """The package of game ``game_id``: ``companion.games.heuchel_meuchel`` for
    ``heuchel-meuchel``."""
    return f"{__package__}.{game_id.replace('-', '_')}"


def engine(game_id: str) -> Game:
    """The engine the package of game ``game_id`` names ``ENGINE``."""
    found: Game = import_module(package(game_id)).ENGINE
    assert found.id == game_id, f"{package(game_id)}.ENGINE is the engine of {found.id}"
    return found


ENGINES: tuple[Game, ...] = tuple(engine(game_id) for game_id in GAME_IDS)

#: The engines by game id.
BY_ID: dict[str, Game] = {engine.id: engine for engine in ENGINES}
