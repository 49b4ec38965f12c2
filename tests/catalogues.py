"""Every catalogue the tests read kept in step with its places: the shared one, each
registered game's and High Card's (``scripts/translations`` runs this; the work is
``support/catalogues.py``, which knows no game of the tests)."""

from __future__ import annotations

from support.catalogues import main
from tests.games_under_test import GAMES_UNDER_TEST

if __name__ == "__main__":
    main(GAMES_UNDER_TEST)
