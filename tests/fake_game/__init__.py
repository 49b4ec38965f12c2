"""High Card, a throw-away game registered by the tests alone, kept as a game's places are
(docs/architecture.md, "Adding a game") but in one folder: its package (this file, the
engine ``engine.py``, the presenter ``web.py`` and its catalogue ``translations/``, which
scripts/translations keeps), its seeds ``high-card.toml``, its templates ``templates/`` and
its stylesheet ``high-card.css``. tests/games_under_test.py registers it from here;
tests/test_registry.py copies these places into a checkout under a new id."""

from tests.fake_game.engine import HighCard

#: The game's engine, as a game's package names it for the registry.
ENGINE = HighCard()

__all__ = ["ENGINE", "HighCard"]
