"""The checks every game's rule tests make: a move refused for its clause, not offered, and
the state untouched; and the game's catalogue of clauses complete, tested and the only
rules its engine names."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import Game, IllegalMove, clauses, load_seed

State = dict[str, Any]

#: What the table adds to a refusal's parameters, beside the engine's: to a seat with no move
#: now, whom the game waits for (``Tables.explain``, ``Tables.submit``), said by name.
TABLE_PARAMS = {"turn": "Ana"}


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``True`` is not ``1`` and ``3.0`` is not ``3`` here."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


class RuleChecks:
    """``offered``, ``allowed`` and ``refused`` for one game."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def offered(self, state: State, seat: int, move: Any) -> bool:
        """Whether ``move`` is among the seat's legal moves."""
        return any(same(move, legal) for legal in self.game.legal_moves(state, seat))

    def allowed(self, state: State, seat: int, move: Any) -> State:
        """``move`` is offered and applies, without touching ``state``: the state after it."""
        assert self.offered(state, seat, move), self.game.legal_moves(state, seat)
        before = snapshot(state)
        after = self.game.apply(state, seat, move)
        assert snapshot(state) == before
        return after

    def refused(self, state: State, seat: int, move: Any, rule: str) -> IllegalMove:
        """``move`` is refused for ``rule``, is not offered, and leaves ``state`` untouched."""
        before = snapshot(state)
        with pytest.raises(IllegalMove) as err:
            self.game.apply(state, seat, move)
        assert err.value.rule == rule, (err.value.rule, err.value.params)
        assert in_force(self.game.id, rule, state), f"{rule} is not this table's rule"
        assert not self.offered(state, seat, move)
        assert snapshot(state) == before
        return err.value

    def agrees(self, state: State, seat: int, move: Any,
               offered_yet_refused: frozenset[str] = frozenset()) -> None:
        """``apply`` takes ``move`` exactly when the legal moves offer it, refuses it with a
        clause of the game otherwise, and never changes ``state``. ``offered_yet_refused``:
        clauses that may refuse an offered move (a choice the others made in secret)."""
        before = snapshot(state)
        refusals = refusal_clauses(self.game.id)
        try:
            self.game.apply(state, seat, move)
        except IllegalMove as err:
            assert err.rule in clauses(self.game.id)
            assert in_force(self.game.id, err.rule, state), \
                f"{err.rule} names a table option not in use: {state['options']}"
            assert not refusals or err.rule in refusals, f"{err.rule} is no refusal clause"
            assert err.rule in offered_yet_refused or not self.offered(state, seat, move)
        else:
            assert self.offered(state, seat, move)
        assert snapshot(state) == before


def in_force(game_id: str, rule: str, state: State) -> bool:
    """Whether the clause ``rule`` is a rule of this table: a clause written for some
    values of table options (its ``when``: {option: [values]}) applies only with them."""
    when = clauses(game_id).get(rule, {}).get("when", {})
    options = state.get("options", {})
    return all(options.get(key) in values for key, values in when.items())


# --- a game's catalogue of clauses ---------------------------------------------------------


def incomplete_clauses(game_id: str, prefix: str) -> list[str]:
    """Clauses without the game's prefix, an English and a French text and a rulebook
    source, with a decision not written in both languages, or written for table options
    (``when``) the game does not have."""
    return [clause_id for clause_id, clause in clauses(game_id).items()
            if not clause_id.startswith(prefix)
            or not (clause["en"] and clause["fr"] and clause["source"])
            or ("decision" in clause
                and not (clause["decision"]["en"] and clause["decision"]["fr"]))
            or not _options_exist(game_id, clause.get("when", {}))]


def _options_exist(game_id: str, when: dict[str, list[Any]]) -> bool:
    """Whether every option and value a clause's ``when`` names is one of the game's."""
    options = {option["key"]: option for option in load_seed(game_id).get("option", [])}
    for key, values in when.items():
        option = options.get(key)
        if option is None or not values:
            return False
        allowed = ([True, False] if option["kind"] == "bool"
                   else [choice["value"] for choice in option.get("choices", [])])
        if any(value not in allowed for value in values):
            return False
    return True


def untested_clauses(game_id: str, tests: Iterable[Path]) -> list[str]:
    """Clauses that no test file names (a whole id, not the start of a longer one)."""
    text = "".join(path.read_text() for path in tests)
    return [clause_id for clause_id in clauses(game_id)
            if not re.search(r"(?<![\w.-])" + re.escape(clause_id) + r"(?![\w-])", text)]


def rules_named(prefix: str, engine: Path) -> set[str]:
    """Every clause id the engine's source names in quotes."""
    source = "".join(path.read_text() for path in engine.glob("*.py"))
    return set(re.findall(r"\"(" + re.escape(prefix) + r"[a-z0-9.\-]+)\"", source))


# --- refusals and effects: every clause an engine names, shown -----------------------------


def refusal_clauses(game_id: str) -> set[str]:
    """The clauses an ``IllegalMove`` of the game may name (``refusal = true`` in its seeds)."""
    return {clause_id for clause_id, clause in clauses(game_id).items() if clause.get("refusal")}


def correction_clauses(game_id: str) -> set[str]:
    """The refusals of the host's corrections (``<game>.correct.*``): raised by the game's
    ``correct``, not by a move, so their examples are corrections
    (tests/games/test_<game>_corrections.py)."""
    return {clause_id for clause_id in refusal_clauses(game_id) if ".correct." in clause_id}


def refused_correction(game: Any, state: Any, correction: dict[str, Any],
                       rule: str) -> IllegalMove:
    """The refusal ``game`` gives ``correction``, checked to name ``rule`` and to leave
    ``state`` as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove) as err:
        game.correct(state, correction)
    assert err.value.rule == rule
    assert state == before
    return err.value


def move_refusal_clauses(game_id: str) -> set[str]:
    """The refusals a move may meet: every refusal but the corrections'."""
    return refusal_clauses(game_id) - correction_clauses(game_id)


def engine_refusals(engine: Path) -> set[str]:
    """Every clause id the engine's source passes to ``IllegalMove(...)`` as a literal."""
    source = "".join(path.read_text() for path in engine.glob("*.py"))
    return set(re.findall(r"IllegalMove\(\s*\"([a-z0-9][a-z0-9.\-]*)\"", source))


def effects_of(state: State) -> list[dict[str, Any]]:
    """What the last ``apply`` did beyond the move itself, each naming its clause."""
    return state.get("effects", [])


def refusals_without_a_test(game_id: str, tests: Iterable[Path]) -> list[str]:
    """Refusal clauses of a move that no ``refused(…, "<id>")`` call in the test files
    names (a correction's have theirs in tests/games/test_<game>_corrections.py)."""
    text = "".join(path.read_text() for path in tests)
    named = set(re.findall(r"refused\((?:[^()]|\([^()]*\))*?\"([a-z0-9][a-z0-9.\-]*)\"\)",
                           text))
    return sorted(move_refusal_clauses(game_id) - named)
