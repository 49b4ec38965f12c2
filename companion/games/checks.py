"""A move's checks, each named, made in a fixed order: the first that fails is the refusal.

A game lists the checks every move goes through (``Order.first``), then those of each kind
of move (``Order.by_kind``), in the order they are made; a check may take for granted that
every check before it passed. The game's docs list the same names in the same order
(docs/games/<game>.md, "Which rule a refusal names"): tests hold the list to the docs and,
over random positions, every refusal to the first check that fails in the docs' order.

Each check also declares the clauses it refuses with, and when a move of the log was held
to them: the order, read so, is what "Why it was allowed" lists for a move
(``Order.checked``, ``Game.checked``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import IllegalMove, Move, State
from companion.games.declared import check_declared

#: What a check does: the refusal when the move fails it, else None.
Refusal = Callable[[State, int, Any], IllegalMove | None]
#: Whether a move of the log was held to a check (or one of its clauses), from the table's
#: view just before it (``Game.view(state, None)``), the seat and the move as the reader's
#: log shows it (``Game.redact_move``): never a secret.
Applies = Callable[[Mapping[str, Any], int, Move], bool]
#: The name of the check of a move's shape, which the moves of a log always pass.
SHAPE = "shape"


def always(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    return True


def never(before: Mapping[str, Any], seat: int, move: Move) -> bool:
    """A check no move of a log was held to: it refuses only what the platform never sends
    (no seat of the table), or what a move's shape already settled."""
    return False


def in_phase(phase: str) -> Applies:
    """A check that refuses only in the game's ``phase``: a move of the log was held to it
    then only (a move of another moment that comes first, named)."""
    def applies(before: Mapping[str, Any], seat: int, move: Move) -> bool:
        return bool(before["phase"] == phase)
    return applies


def option(key: str, value: Any) -> Applies:
    """A check, or a clause, of one of the table's variants only (its option ``key`` set to
    ``value``)."""
    def applies(before: Mapping[str, Any], seat: int, move: Move) -> bool:
        return bool(before["options"][key] == value)
    return applies


@dataclass(frozen=True)
class Check:
    """One check of a move, by the name the docs give it, with every clause it refuses
    with (``clauses``, in the order it asks them); ``applies``: whether a move of the log
    was held to it at all, and ``when``: to those of its clauses that hold only sometimes
    (a table's variant, a stone laid this turn)."""

    name: str
    refuse: Refusal
    clauses: tuple[str, ...]
    applies: Applies = always
    when: Mapping[str, Applies] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.when) - set(self.clauses)
        if unknown:
            raise ValueError(f"check {self.name}: {sorted(unknown)} not among its clauses")

    def __call__(self, state: State, seat: int, move: Any) -> IllegalMove | None:
        return self.refuse(state, seat, move)

    def held(self, before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
        """The clauses a move of the log was held to by this check."""
        if not self.applies(before, seat, move):
            return []
        return [clause for clause in self.clauses
                if clause not in self.when or self.when[clause](before, seat, move)]


def named(name: str, *clauses: str, applies: Applies = always,
          when: Mapping[str, Applies] | None = None) -> Callable[[Refusal], Check]:
    """Makes a function ``(state, seat, move) -> IllegalMove | None`` the check ``name``,
    which refuses with ``clauses`` (see ``Check``)."""
    def wrap(refuse: Refusal) -> Check:
        return Check(name, refuse, clauses, applies, when or {})
    return wrap


def well_formed(declared: Any, clause: str,
                values: Callable[[Move], None] | None = None) -> Check:
    """The check "shape": a move of one of the kinds the game declares (``declared``, its
    ``types.Move``; ``games.declared``), whose values ``values`` accepts (it raises the
    refusal), refused with ``clause`` and the problem."""
    def refuse(state: State, seat: int, move: Any) -> IllegalMove | None:
        try:
            check_declared(move, declared, clause)
            if values is not None:
                values(move)
        except IllegalMove as refusal:
            return refusal
        return None
    return Check(SHAPE, refuse, (clause,), never)


@dataclass(frozen=True)
class Order:
    """The checks of every move, then those of each kind of move (its ``type``, which the
    checks of every move found declared)."""

    first: tuple[Check, ...]
    by_kind: Mapping[str, tuple[Check, ...]]

    def names(self) -> dict[str, list[str]]:
        """The checks' names, as the docs list them: ``""`` for every move, then each kind's."""
        return {"": [c.name for c in self.first],
                **{kind: [c.name for c in checks] for kind, checks in self.by_kind.items()}}

    def steps(self, kind: Any) -> tuple[Check, ...]:
        """The checks a move of ``kind`` goes through, in order (every move's alone for a
        kind the game has not)."""
        return (*self.first, *self.by_kind.get(kind, ()))

    def refused_by(self, state: State, seat: int, move: Any
                   ) -> tuple[Check, IllegalMove] | None:
        """The first check ``move`` fails, with its refusal; None when it fails none."""
        for step in self.first:
            found = step(state, seat, move)
            if found is not None:
                return step, found
        for step in self.by_kind[move["type"]]:
            found = step(state, seat, move)
            if found is not None:
                return step, found
        return None

    def refusal(self, state: State, seat: int, move: Any) -> IllegalMove | None:
        """The refusal of the first check ``move`` fails, or None."""
        found = self.refused_by(state, seat, move)
        return None if found is None else found[1]

    def enforce(self, state: State, seat: int, move: Any) -> None:
        """Raise the refusal of the first check ``move`` fails."""
        found = self.refusal(state, seat, move)
        if found is not None:
            raise found

    def checked(self, before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
        """The clauses a move of the log was held to, in the order they are asked, each
        once (``Game.checked``): every check's that applies, but a move's shape, which is
        no rule of the game."""
        steps = self.steps(move.get("type"))
        shape = {clause for step in steps if step.name == SHAPE for clause in step.clauses}
        held = (clause for step in steps for clause in step.held(before, seat, move))
        return list(dict.fromkeys(clause for clause in held if clause not in shape))
