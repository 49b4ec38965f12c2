"""The order of a move's checks as a game's docs write it, and the property every refusal
holds to: it names the first check, in that order, that the move fails.

Each game's docs (docs/games/<game>.md, "Which rule a refusal names") give a table of its
checks (a name, what it refuses, the clauses it names) and, for every move and for each
kind of move, the names in the order the checks are made:

    | `over` | the game is over | `hm.game.over` |
    - **every move**: `over`, `seat`, `shape`
    - **`move`**: `set-up`, `turn`, …

A game's order test states each check again as a predicate of its own (the clause it
names, or None when the move passes it) and walks them in the docs' order: swapping two
checks in the engine, or in the docs, fails it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from companion.games.base import Game, IllegalMove
from companion.games.checks import Order
from companion.games.declared import check_declared

ROOT = Path(__file__).resolve().parents[1]
HEADING = "## Which rule a refusal names"
EVERY_MOVE = ""

State = dict[str, Any]
Move = dict[str, Any]
#: A game's random positions (drawn with the generator given) and its probes: a seat and a
#: move to try at a position.
Positions = Callable[[random.Random], list[State]]
Probe = Callable[[random.Random, State], tuple[Any, Any]]
#: A check stated in the test: the clause it names when the move fails it (or the clauses
#: one of which it names, where the engine explains further), else None.
Predicate = Callable[[State, int, Any], "str | frozenset[str] | None"]


def clause_if(fails: bool, clause: str) -> str | None:
    """A predicate's answer: ``clause`` when the move fails the check, else None."""
    return clause if fails else None


def undeclared(move: Any, declared: Any, clause: str) -> bool:
    """Whether ``move`` is none of the kinds of move the game declares (``declared``, its
    ``types.Move``), as ``games.declared`` finds it."""
    try:
        check_declared(move, declared, clause)
    except IllegalMove:
        return True
    return False


def section(game_id: str) -> str:
    """The docs' section on which rule a refusal names."""
    text = (ROOT / "docs" / "games" / f"{game_id}.md").read_text()
    start = text.index(HEADING)
    end = text.find("\n## ", start + len(HEADING))
    return text[start:end if end >= 0 else None]


def documented_order(game_id: str) -> dict[str, list[str]]:
    """The checks' names in order: ``EVERY_MOVE`` for every move, then each kind's."""
    order: dict[str, list[str]] = {}
    for line in section(game_id).splitlines():
        found = re.fullmatch(r"- \*\*(every move|`[a-z-]+`)\*\*: (.+)", line.strip())
        if found:
            kind = EVERY_MOVE if found[1] == "every move" else found[1].strip("`")
            order[kind] = re.findall(r"`([a-z0-9-]+)`", found[2])
    return order


def documented_clauses(game_id: str) -> dict[str, set[str]]:
    """Each check's name and the clauses it may name, from the docs' table of checks."""
    clauses: dict[str, set[str]] = {}
    for line in section(game_id).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and re.fullmatch(r"`[a-z0-9-]+`", cells[0]):
            clauses[cells[0].strip("`")] = set(re.findall(r"`([a-z0-9][a-z0-9.\-]*)`",
                                                          cells[2]))
    return clauses


def first_failing(order: Mapping[str, list[str]], predicates: Mapping[str, Predicate],
                  state: State, seat: Any, move: Any
                  ) -> tuple[str, str | frozenset[str]] | None:
    """The first check, in the docs' order, that the move fails, with the clause it names;
    None when it fails none. A predicate is asked only once every check before it passed,
    so it may take them for granted (the kind of move is known after every move's)."""
    for kind in (EVERY_MOVE, move["type"]):
        for name in order[kind]:
            clause = predicates[name](state, seat, move)
            if clause is not None:
                return name, clause
    return None


def holds(game: Game, order: Mapping[str, list[str]], predicates: Mapping[str, Predicate],
          state: State, seat: Any, move: Any) -> str | None:
    """Checks one move: ``apply`` refuses it exactly when some check fails, naming the
    clause of the first that fails in the docs' order. Returns that clause (None: taken)."""
    expected = first_failing(order, predicates, state, seat, move)
    try:
        game.apply(state, seat, move)
    except IllegalMove as refusal:
        assert expected is not None, f"refused {refusal.rule}, yet no check fails: {move}"
        name, clauses = expected
        assert refusal.rule in ({clauses} if isinstance(clauses, str) else clauses), (
            f"{json.dumps(move)} named {refusal.rule}; the first check that fails in the "
            f"docs' order is {name}, {clauses}")
        return refusal.rule
    assert expected is None, f"{json.dumps(move)} taken, yet {expected} fails"
    return None


def agrees_with_the_docs(game_id: str, order: Order, predicates: Mapping[str, Predicate]
                         ) -> None:
    """The docs list the engine's checks in its order, each in their table, and the test
    states every one of them."""
    assert documented_order(game_id) == order.names()
    named = {name for names in documented_order(game_id).values() for name in names}
    assert set(documented_clauses(game_id)) == named == set(predicates)


def holds_at_random(game: Game, predicates: Mapping[str, Predicate], positions: Positions,
                    probe: Probe, seed: int, probes: int) -> None:
    """``holds`` for ``probes`` moves at each of the positions ``seed`` draws."""
    rng = random.Random(seed)
    order = documented_order(game.id)
    for state in positions(rng):
        for _ in range(probes):
            seat, move = probe(rng, state)
            holds(game, order, predicates, state, seat, move)


def reached(game_id: str, predicates: Mapping[str, Predicate], positions: Positions,
            probe: Probe, tables: int, probes: int) -> set[str]:
    """The checks that some move, among ``probes`` at each position of ``tables`` tables
    drawn from a fixed seed, fails first: those a property test of the same draws reaches."""
    rng = random.Random(47)
    order = documented_order(game_id)
    seen: set[str] = set()
    for _ in range(tables):
        for state in positions(rng):
            for _ in range(probes):
                found = first_failing(order, predicates, state, *probe(rng, state))
                if found is not None:
                    seen.add(found[0])
    return seen
