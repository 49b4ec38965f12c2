"""Each check refuses with the clauses it declares (``checks.Check.clauses``) only.

The random positions and moves of each game's order test (tests/games/test_<game>_order.py:
bad seats, malformed moves, every kind at every moment) are tried against the game's
``rules.ORDER``: every refusal must be among the clauses of the check that made it, else
"Why it was allowed" (``Order.checked``) could leave it out.
"""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from tests.games import (
    test_climbers_order,
    test_heuchel_meuchel_order,
    test_seventh_heaven_order,
    test_skyrunner_order,
)

ORDER_TESTS = [test_seventh_heaven_order, test_skyrunner_order, test_heuchel_meuchel_order,
               test_climbers_order]
#: Games drawn per game.
TABLES = 12


def raised(order_test: ModuleType) -> set[tuple[str, str]]:
    """The (check, clause) pairs the draws of a game's order test refuse with, each
    asserted to be among the clauses the check declares."""
    order = order_test.rules.ORDER
    rng = random.Random(53)
    seen = set()
    for _ in range(TABLES):
        for state in order_test.positions(rng):
            for _ in range(order_test.PROBES):
                found = order.refused_by(state, *order_test.probe(rng, state))
                if found is not None:
                    step, refusal = found
                    assert refusal.rule in step.clauses, (step.name, refusal.rule)
                    seen.add((step.name, refusal.rule))
    return seen


@pytest.mark.parametrize("order_test", ORDER_TESTS, ids=lambda test: test.GAME)
def test_every_refusal_is_among_the_clauses_its_check_declares(order_test):
    assert raised(order_test), "no draw was refused: the test tried nothing"
