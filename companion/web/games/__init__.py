"""The games the companion offers, each one :class:`~companion.web.games.spec.GameSpec`:
an engine of ``companion.games.registry`` with what the pages add to it.

This list is the registry: the home page, the tables, the rules pages and every test suite
that covers "each game" are built from it. Adding a game is the checklist in
``docs/architecture.md`` ("Adding a game"), which ``tests/test_registry.py`` enforces.
"""

from __future__ import annotations

from companion.web.games import climbers, heuchel_meuchel, seventh_heaven, skyrunner
from companion.web.games.spec import GameSpec

GAMES: tuple[GameSpec, ...] = (seventh_heaven.SPEC, heuchel_meuchel.SPEC, skyrunner.SPEC,
                               climbers.SPEC)

#: The registered games by id (the app keeps its own copy, which a test may extend).
BY_ID: dict[str, GameSpec] = {spec.id: spec for spec in GAMES}
