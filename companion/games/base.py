"""The game protocol every game implements, and the helpers games share.

A game is pure: no Flask, no SQL, no I/O, no clock. A *state* is a plain JSON value
(dicts, lists, ints, strings, bools, None) so it can be stored, replayed, diffed and
built by hand in a test. Randomness comes only from the generator kept inside the state
(``state["rng"]``), so a table replays identically from its seed and its log.
"""

from __future__ import annotations

import base64
import json
import random
import struct
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeGuard

from companion.paths import SEEDS

State = dict[str, Any]
Move = dict[str, Any]


class IllegalMove(Exception):
    """A move the rules refuse. ``rule`` names a clause of the game's seeds file
    (or a platform clause such as ``table.not-your-turn``); ``params`` fill its text."""

    def __init__(self, rule: str, **params: Any) -> None:
        super().__init__(rule)
        self.rule = rule
        self.params = params


@dataclass(frozen=True)
class Option:
    """A table set-up choice shown on the home page and the rules page, read from an
    ``[[option]]`` of the game's seeds file, where its texts sit beside the rule clauses.

    ``kind`` is ``"int"`` (``low``..``high``), ``"bool"`` or ``"choice"`` (``choices``).
    ``label``, ``help`` and each of ``choice_labels`` are ``{"en": ..., "fr": ...}``.
    """

    key: str
    kind: str
    default: Any
    label: dict[str, str]
    help: dict[str, str] = field(default_factory=dict)
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    choice_labels: dict[str, dict[str, str]] = field(default_factory=dict)

    @classmethod
    def from_seed(cls, entry: dict[str, Any]) -> Option:
        """An option from its seeds table; each of its ``choices`` is ``{value, en, fr}``."""
        choices = entry.get("choices", [])
        return cls(
            key=entry["key"], kind=entry["kind"], default=entry["default"],
            label=dict(entry["label"]), help=dict(entry.get("help", {})),
            low=entry.get("low"), high=entry.get("high"),
            choices=tuple(choice["value"] for choice in choices),
            choice_labels={choice["value"]: {lang: text for lang, text in choice.items()
                                             if lang != "value"} for choice in choices},
        )

    def parse(self, raw: Any) -> Any:
        """Turn a form or JSON value into this option's value, or raise ValueError."""
        parse = {"bool": self._parse_bool, "int": self._parse_int,
                 "choice": self._parse_choice}.get(self.kind)
        if parse is None:
            raise ValueError(self.key)
        return parse(raw)

    def _parse_bool(self, raw: Any) -> bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and raw.lower() in {"1", "true", "on", "yes"}:
            return True
        if isinstance(raw, str) and raw.lower() in {"0", "false", "off", "no", ""}:
            return False
        raise ValueError(self.key)

    def _parse_int(self, raw: Any) -> int:
        if isinstance(raw, bool):
            raise ValueError(self.key)
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ValueError(self.key) from None
        if (self.low is not None and value < self.low) or \
                (self.high is not None and value > self.high):
            raise ValueError(self.key)
        return value

    def _parse_choice(self, raw: Any) -> Any:
        if raw not in self.choices:
            raise ValueError(self.key)
        return raw


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``ranking`` lists seats best first; tied seats share a sub-list."""

    ranking: list[list[int]]
    scores: dict[int, int]
    reason: str

    @property
    def winners(self) -> list[int]:
        return list(self.ranking[0]) if self.ranking else []

    def as_json(self) -> dict[str, Any]:
        return {
            "ranking": [list(group) for group in self.ranking],
            "scores": {str(seat): score for seat, score in self.scores.items()},
            "winners": self.winners,
            "reason": self.reason,
        }


class Moves(ABC):
    """A seat's legal moves in one position, as ``Game.moves`` gives them: every one by
    iterating, ``in`` and ``bool`` (whether there is any), and ``narrow``, the few a phone's
    picker needs for what its player has picked so far. The server keeps one for each seat
    and state, so a game may work its moves out only as they are asked for."""

    @abstractmethod
    def __iter__(self) -> Iterator[Move]:
        """Every legal move, in order, each exactly as ``apply`` takes it."""

    @abstractmethod
    def narrow(self, chosen: Mapping[str, Any]) -> list[Move]:
        """The legal moves a phone's picker needs once its player has picked the values
        ``chosen``: every legal move that has them, and any others that the picker asks
        the same next question of as of every legal move (``companion.web.picker.narrow``
        narrows them further); none exactly when there is no legal move. Shared: read it,
        never change it."""

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Mapping) and move in self.narrow(move)

    def __bool__(self) -> bool:
        return bool(self.narrow({}))


class MoveList(Moves):
    """Legal moves worked out all at once (``Game.legal_moves``): the picker needs them all."""

    def __init__(self, moves: list[Move]) -> None:
        self._moves = moves

    def __iter__(self) -> Iterator[Move]:
        return iter(self._moves)

    def narrow(self, chosen: Mapping[str, Any]) -> list[Move]:
        return self._moves


class Game(Protocol):
    """What the platform needs from a game (docs/architecture.md, "The game protocol").

    A state is a plain JSON value, so it can be stored, replayed, compared and built by hand
    in a test. Every method is pure: the same arguments give the same answer, and no
    argument is ever changed. Randomness comes only from the generator kept in the state.

    A game subclasses it (``class HighCard(Game)``) and gets the defaults of its optional
    members: ``moves``, ``seat_view`` and ``correct`` with ``takes_corrections``. A game
    that needs more overrides them (The Climbers' ``moves`` works a block's places out
    only once it is tapped).
    """

    id: str
    min_players: int
    max_players: int
    #: The order in which the phone asks for a move's parameters: after the first key,
    #: each key is asked only while the moves left still differ in it.
    choice_keys: tuple[str, ...]
    #: Whether the host may set the public position right (``correct``). By default not:
    #: the table screen offers no correction, and one sent is refused.
    takes_corrections: ClassVar[bool] = False

    def options(self) -> list[Option]:
        """The choices a table makes at set-up (variants, lane counts…), with defaults."""
        ...

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        """The state at the start of a match of ``players`` seats, numbered from 0.

        ``options`` holds the game's options (missing ones take their defaults) and
        ``first_seat``; raises ``ValueError`` for a player count or an option the game does
        not take. The same arguments always give the same state (the same deal).
        """
        ...

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every move ``seat`` may make now, each exactly as ``apply`` takes it: ``[]`` when
        the seat has nothing to do (not its turn, the game over) or is no seat of the game
        (a bool, a float, out of range). ``apply`` accepts each of them and refuses every
        other move, so the phone offers only what the rules allow."""
        ...

    def moves(self, state: State, seat: int) -> Moves:
        """``legal_moves`` as the platform asks for them: the server keeps the answer for
        each seat and state, asks it whether the seat has a move, and its picker asks it
        for the moves a half-made choice leaves (``Moves.narrow``). By default every legal
        move, listed; a game whose moves are many and costly overrides it with moves of
        its own that work out only what is asked for."""
        return MoveList(self.legal_moves(state, seat))

    def apply(self, state: State, seat: int, move: Move) -> State:
        """The state after ``seat`` makes ``move``; raises :class:`IllegalMove` naming a
        clause marked ``refusal = true`` in the game's seeds (never another exception,
        whatever the move or the seat holds); never changes ``state``.

        The new state's ``"effects"`` lists, in order, what the engine did beyond the move
        itself (an event space, a knock-on, a favour, figures pushed aside…): each a dict
        ``{"rule": clause id, …}`` with public parameters only, since every viewer's log
        shows it. It is replaced on every ``apply``.
        """
        ...

    def view(self, state: State, seat: int | None) -> Mapping[str, Any]:
        """What ``seat`` may see, as the templates and the API show it: that seat's own
        secrets and the public part of everything else; ``None`` is the table screen and
        holds no secret at all (no hand, no hidden card, no choice before its reveal, nor
        the generator, whose state would tell every deal to come)."""
        ...

    def seat_view(self, state: State, seat: int, public: Mapping[str, Any]) -> Mapping[str, Any]:
        """``view(state, seat)``, given the table screen's view ``public``
        (``view(state, None)``), which the server works out once per state for every
        viewer. By default ``view`` itself; a game that hides nothing (The Climbers) draws
        each seat's view from ``public``, sharing its values, rather than from the state."""
        return self.view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """``None`` while the game goes on; once over, the ranking, scores and the reason."""
        ...

    def can_undo(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Whether the mover may take this move back: not if it revealed hidden information."""
        ...

    def why_not(self, state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
        """Why no legal move of ``seat`` has the values ``chosen`` (a dimmed card, a greyed
        square tapped on the phone, with the values picked before it): the rule as players
        know it, a clause marked ``refusal = true``, never a complaint about a move's shape."""
        ...

    def redact_move(self, state: State, seat: int, move: Move,
                    viewer: int | None) -> Move | None:
        """The move as ``viewer`` may see it in the log (``viewer`` None: the table screen);
        None when ``viewer`` may not even learn that it was made (a secret choice changed
        before the reveal): the log, the pages and the pushes of that viewer skip it."""
        ...

    def checked(self, before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
        """The rules ``apply`` holds a move like ``move`` of ``seat`` to, in the order it
        checks them: each a clause marked ``refusal = true`` that ``apply`` raises for such
        a move breaking it (its shape aside). What a player reads under "Why it was
        allowed" for a move of the log. Worked out from the table's view just before the
        move (``view(state, None)``) and the move as the reader may see it
        (``redact_move``), never from a secret: the list tells nobody more than the log."""
        ...

    def correct(self, state: State, correction: Move) -> State:
        """The state with the host's ``correction`` of the public position made, as it
        stands on the real table: a new state, ``state`` unchanged, whose turn and phase
        are worked out again from the corrected position and whose ``effects`` are empty
        (a correction sets the table right; no rule acts on it). What may be corrected,
        and its shape, is the game's own: its ``types.Correction``, checked with
        ``declared.check_declared``. Refused, as a move is, with an ``IllegalMove`` naming
        a refusal clause when the position it makes could not exist under the game's
        rules, or when it would touch anything private (a hand, a secret choice): nothing
        private is ever corrected. By default (``takes_corrections`` False) every
        correction is refused (``table.no-corrections``)."""
        raise IllegalMove("table.no-corrections")


class Ordered(Protocol):
    """A game's checks in their order (``checks.Order``), as ``Game.checked`` reads them."""

    def checked(self, before: Mapping[str, Any], seat: int, move: Move) -> list[str]: ...


class Rules(Protocol):
    """The part of a game's ``rules`` module every game has alike: why a tap was refused,
    and the checks ``apply`` makes, which say too what a move was held to."""

    @property
    def ORDER(self) -> Ordered: ...  # the module's constant

    def why_not(self, state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove: ...


class SeededGame(Game):
    """What every game reads from its seeds file (its id, player counts and options) and
    asks its ``rules`` module (why a tap was refused; its ``ORDER``: the rules a move was
    held to). A game subclasses it naming them::

        class SkyRunner(SeededGame, seed=SEED, rules=rules): ...
    """

    id: str
    min_players: int
    max_players: int
    seed: ClassVar[dict[str, Any]]
    rules: ClassVar[Rules]
    _options: ClassVar[tuple[Option, ...]]

    def __init_subclass__(cls, *, seed: dict[str, Any], rules: Rules, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.seed, cls.rules = seed, rules
        cls.id, cls.min_players, cls.max_players = (
            seed["id"], seed["min_players"], seed["max_players"])
        cls._options = seed_options(seed)

    def options(self) -> list[Option]:
        return list(self._options)

    def why_not(self, state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
        return self.rules.why_not(state, seat, chosen)

    def checked(self, before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
        return self.rules.ORDER.checked(before, seat, move)


def first_refusal(check: Callable[[Move], object], attempts: Iterable[Move],
                  otherwise: IllegalMove) -> IllegalMove:
    """The refusal of the first of ``attempts`` that ``check`` refuses: a game lists the
    moves a tap most likely meant first, so the player hears the rule that stops those."""
    for move in attempts:
        try:
            check(move)
        except IllegalMove as refusal:
            return refusal
    return otherwise


def same_value(a: Any, b: Any) -> bool:
    """Equal as JSON values: a list of cards in any order, and never 1 for True."""
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(json.dumps, a)) == sorted(map(json.dumps, b))
    return a == b and type(a) is type(b)


def has_values(move: Mapping[str, Any], chosen: Mapping[str, Any]) -> bool:
    """Whether ``move`` has every value ``chosen`` names, each the same as JSON."""
    return all(key in move and same_value(move[key], value) for key, value in chosen.items())


def is_int(value: Any) -> TypeGuard[int]:
    """A whole number, not a bool (JSON true is no seat, card or row)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_seat(state: State, seat: Any) -> bool:
    """A seat of this table (``state["players"]`` seats, numbered from 0)."""
    return is_int(seat) and 0 <= seat < state["players"]


def read_setup(game: Game, players: Any, options: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The checks every ``setup`` starts with: the player count, the game's options
    (defaults filled in) and the first seat the platform names; ValueError when bad."""
    if not is_int(players) or not game.min_players <= players <= game.max_players:
        raise ValueError("players")
    values = {opt.key: opt.parse(options.get(opt.key, opt.default)) for opt in game.options()}
    first = options.get("first_seat")
    first = 0 if first is None else first
    if not is_int(first) or not 0 <= first < players:
        raise ValueError("first_seat")
    return values, first


def clone(value: Any) -> Any:
    """A deep copy of a JSON value (several times faster than copy.deepcopy)."""
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value


def copy_state(state: State) -> State:
    """A deep copy of a JSON state for ``apply`` to change."""
    return {key: clone(value) for key, value in state.items()}


def revealed_nothing(before: State, after: State) -> bool:
    """True when the move drew nothing from the generator: the usual test for undo."""
    return before.get("rng") == after.get("rng")


# --- randomness kept in the state -------------------------------------------------


def new_rng_state(seed: int) -> list[Any]:
    """A JSON-able snapshot of a fresh generator seeded with ``seed``."""
    return _dump(random.Random(seed).getstate())


def rng_from_state(rng_state: list[Any]) -> random.Random:
    rng = random.Random()
    version, packed, gauss = rng_state
    rng.setstate((version, _unpacked(packed), gauss))
    return rng


def rng_to_state(rng: random.Random) -> list[Any]:
    return _dump(rng.getstate())


def _dump(state: tuple[Any, ...]) -> list[Any]:
    """The generator's state as a game state keeps it: its version, its 625 numbers packed
    into one text, and its Gaussian's spare. A table keeps every state of its match (for
    its log and undo); a text is nothing the garbage collector walks, where a list of 625
    numbers was walked again at every collection, once for each state kept."""
    version, internal, gauss = state
    return [version, _packed(internal), gauss]


def _packed(numbers: tuple[int, ...]) -> str:
    """The generator's numbers (each under 2**32) as base64 text of 4-byte words."""
    return base64.b64encode(struct.pack(f"<{len(numbers)}I", *numbers)).decode("ascii")


def _unpacked(text: str) -> tuple[int, ...]:
    data = base64.b64decode(text)
    return struct.unpack(f"<{len(data) // 4}I", data)


def shuffled(state: State, items: list[Any]) -> list[Any]:
    """Shuffle ``items`` with the state's generator, advancing ``state["rng"]`` in place.

    Call it only on a state that ``apply`` or ``setup`` already copied.
    """
    rng = rng_from_state(state["rng"])
    items = list(items)
    rng.shuffle(items)
    state["rng"] = rng_to_state(rng)
    return items


def roll(state: State, sides: int) -> int:
    """One die roll from the state's generator (advances ``state["rng"]`` in place)."""
    rng = rng_from_state(state["rng"])
    value = rng.randint(1, sides)
    state["rng"] = rng_to_state(rng)
    return value


# --- seeds --------------------------------------------------------------------------


@cache
def load_seed(game_id: str, folder: Path = SEEDS) -> dict[str, Any]:
    """The parsed ``seeds/<game_id>.toml``: components, defaults and rule clauses (read
    from another ``folder`` for a game kept outside the checkout's places, as the tests'
    High Card is)."""
    with (folder / f"{game_id}.toml").open("rb") as handle:
        return tomllib.load(handle)


def seed_options(seed: dict[str, Any]) -> tuple[Option, ...]:
    """A game's table options, in the order its seeds file lists them."""
    return tuple(Option.from_seed(entry) for entry in seed.get("option", []))


def clauses(game_id: str) -> dict[str, dict[str, Any]]:
    """Rule clauses of a game by id: ``{"en", "fr", "source", "decision"?}``."""
    return {clause["id"]: clause for clause in load_seed(game_id).get("clause", [])}
