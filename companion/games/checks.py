"""A move's checks, each named, made in a fixed order: the first that fails is the refusal.

A game lists the checks every move goes through (``Order.first``), then those of each kind
of move (``Order.by_kind``), in the order they are made; a check may take for granted that
every check before it passed. The game's docs list the same names in the same order
(docs/games/<game>.md, "Which rule a refusal names"): tests hold the list to the docs and,
over random positions, every refusal to the first check that fails in the docs' order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import IllegalMove, Move, State
from companion.games.declared import check_declared

#: What a check does: the refusal when the move fails it, else None.
Refusal = Callable[[State, int, Any], IllegalMove | None]


@dataclass(frozen=True)
class Check:
    """One check of a move, by the name the docs give it."""

    name: str
    refuse: Refusal

    def __call__(self, state: State, seat: int, move: Any) -> IllegalMove | None:
        return self.refuse(state, seat, move)


def named(name: str) -> Callable[[Refusal], Check]:
    """Makes a function ``(state, seat, move) -> IllegalMove | None`` the check ``name``."""
    def wrap(refuse: Refusal) -> Check:
        return Check(name, refuse)
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
    return Check("shape", refuse)


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

    def refusal(self, state: State, seat: int, move: Any) -> IllegalMove | None:
        """The refusal of the first check ``move`` fails, or None."""
        for step in self.first:
            found = step(state, seat, move)
            if found is not None:
                return found
        for step in self.by_kind[move["type"]]:
            found = step(state, seat, move)
            if found is not None:
                return found
        return None

    def enforce(self, state: State, seat: int, move: Any) -> None:
        """Raise the refusal of the first check ``move`` fails."""
        found = self.refusal(state, seat, move)
        if found is not None:
            raise found
