"""The games the tests offer: every registered game, and High Card (tests/fake_game), a
throw-away game the tests register through the registry alone. Apart from the fixtures,
with no pytest, since ``scripts/translations`` keeps High Card's catalogue in step with its
places too (``tests/catalogues.py``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from companion.web.games import GAMES
from companion.web.spec import GameSpec
from tests.fake_game import web as fake_game

#: High Card (tests/fake_game), its seeds and templates read from its folder in the tests.
FAKE_GAME = replace(fake_game.SPEC, seeds=Path(fake_game.__file__).with_name("high-card.toml"),
                    templates=Path(fake_game.__file__).with_name("templates"))
#: The registered games, and High Card: every suite that covers "each game" covers these.
GAMES_UNDER_TEST: tuple[GameSpec, ...] = (*GAMES, FAKE_GAME)
GAME_IDS: tuple[str, ...] = tuple(spec.id for spec in GAMES_UNDER_TEST)
