"""The games the companion offers, each one :class:`~companion.web.spec.GameSpec`: the
engine of ``companion.games.registry`` with what the pages add to it, found beside it in
the game's package (its presenter, ``companion.games.<id>.web``, names it ``SPEC``).

Derived from the engines' registry, in its order: the home page, the tables, the rules
pages and every test suite that covers "each game" are built from it. Adding a game is the
checklist in ``docs/architecture.md`` ("Adding a game"), which ``tests/test_registry.py``
enforces.
"""

from __future__ import annotations

from importlib import import_module

from companion.games.registry import ENGINES, package
from companion.web.spec import GameSpec


def presenter(game_id: str) -> GameSpec:
    """The :class:`GameSpec` the presenter of game ``game_id`` names ``SPEC``."""
    spec: GameSpec = import_module(f"{package(game_id)}.web").SPEC
    assert spec.id == game_id, f"{package(game_id)}.web.SPEC is the spec of {spec.id}"
    return spec


GAMES: tuple[GameSpec, ...] = tuple(presenter(engine.id) for engine in ENGINES)

#: The registered games by id (the app keeps its own copy, which a test may extend).
BY_ID: dict[str, GameSpec] = {spec.id: spec for spec in GAMES}
