"""Every registered game's catalogue of rule clauses: complete in both languages, each clause
named by some test of the game, every rule its engine names a clause of it, and every
refusal its engine may raise marked as one."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.base import clauses
from companion.games.registry import ENGINES
from tests.rule_checks import (
    engine_refusals,
    incomplete_clauses,
    refusal_clauses,
    rules_named,
    untested_clauses,
)

ROOT = Path(__file__).resolve().parents[2]


def package(engine) -> Path:
    """The folder of the engine's package (``companion/games/<game>``)."""
    return ROOT.joinpath(*type(engine).__module__.split(".")[:-1])


def prefix(game_id: str) -> str:
    """The one prefix all of a game's clause ids share ("7h.", "cl."…)."""
    found = {clause_id.split(".", 1)[0] for clause_id in clauses(game_id)}
    assert len(found) == 1, found
    return found.pop() + "."


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.id)
def test_every_clause_is_complete(engine):
    assert len(clauses(engine.id)) >= 20
    assert incomplete_clauses(engine.id, prefix(engine.id)) == []


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.id)
def test_every_clause_is_named_by_a_test_of_the_game(engine):
    tests = Path(__file__).parent.glob(f"test_{package(engine).name}*.py")
    assert untested_clauses(engine.id, tests) == []


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.id)
def test_every_rule_the_engine_names_is_a_clause(engine):
    named = rules_named(prefix(engine.id), package(engine))
    assert named and named <= set(clauses(engine.id)), named - set(clauses(engine.id))


@pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.id)
def test_every_refusal_the_engine_raises_is_marked_as_one(engine):
    assert engine_refusals(package(engine)) <= refusal_clauses(engine.id)
