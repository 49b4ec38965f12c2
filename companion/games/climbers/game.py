"""The Climbers (Holger Lanz, Chili-Spiele 2008): the Game protocol implementation.

State layout (plain JSON; see docs/games/climbers.md): ``game``, ``players``, ``options``,
``first``, ``phase`` (build, play, over), ``turn``, ``step`` (before or after the block move),
``walked`` (the figure walked in this step), ``round``, ``turns``, ``blocks`` {id: place or
None}, ``order`` (the build order), ``figures`` {seat: "x,y" or None on the table},
``ladders`` {seat: ladders left}, ``stones`` {seat: "unused" or "used"}, ``blocked`` {seat:
the block its stone lies on}, ``last_moved`` (barred to the player on turn), ``moved`` (the
block moved this turn), ``start`` {height, dipped}, ``top_before``, ``round_topped``,
``last_chance``, ``reached`` {seat: the turn it last changed height}, ``effects`` (what the
last move did beyond itself, each naming its clause),
``turn_start`` (what the turn may change, as it was when the turn began).
Nothing is hidden in this game: every view shows the whole table.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any, NamedTuple, cast

from companion.games.base import (
    Move,
    Outcome,
    SeededGame,
    State,
    clone,
    copy_state,
    is_seat,
    read_setup,
)
from companion.games.climbers import corrections, rules
from companion.games.climbers.data import BLOCKS, COLOURS, FOUNDATIONS, GAME_ID, LADDERS, SEED
from companion.games.climbers.geometry import Tower
from companion.games.climbers.tower import foundations, generate
from companion.games.climbers.types import View
from companion.lru import LRU

#: How many answers of ``legal_moves`` are kept (a few positions, for each seat).
MOVES_KEPT = 32


class _TowerView(NamedTuple):
    """What a view says of the tower itself (``Climbers._tower_view``)."""

    blocks: list[dict[str, Any]]
    cells: list[dict[str, Any]]
    bounds: list[int]


class Climbers(SeededGame, seed=SEED, rules=rules):
    #: A block, then where it goes, then only if more than one way of lying fits there,
    #: which colour on top and which way: the fewest taps for the common move.
    choice_keys: tuple[str, ...] = ("type", "to", "ladders", "block", "x", "y", "top", "long")
    takes_corrections = True

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        values, first = read_setup(self, players, options)
        if values["tower"] == "generated":
            built, order = generate(seed)
        else:
            built, order = foundations(), list(FOUNDATIONS)
        seats = [str(seat) for seat in range(players)]
        return {
            "game": GAME_ID,
            "players": players,
            "options": values,
            "first": first,
            "phase": "build",
            "turn": first,
            "step": "before",
            "walked": False,
            "round": 0,
            "turns": 0,
            "blocks": {block_id: built.get(block_id) for block_id in BLOCKS},
            "order": order,
            "figures": {seat: None for seat in seats},
            "ladders": {seat: list(LADDERS) for seat in seats},
            "stones": {seat: "unused" for seat in seats},
            "blocked": {},
            "last_moved": None,
            "moved": None,
            "start": {"height": 0, "dipped": False},
            "top_before": 0,
            "round_topped": False,
            "last_chance": False,
            "reached": {seat: 0 for seat in seats},
            "effects": [],
            "turn_start": None,
        }

    def __init__(self) -> None:
        self._offered: LRU[tuple[str, int], rules.Offered] = LRU(MOVES_KEPT)
        #: Guards what the game keeps: the legal moves and the views' lists.
        self._kept_lock = threading.Lock()
        #: The view's lists of a tower, by the tower (kept with it, so its id is not
        #: reused) and the order its blocks were placed in.
        self._tower_views: LRU[int, tuple[Tower, list[str], _TowerView]] = LRU(rules.TOWERS_KEPT)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every legal move. A block may go to thousands of places, so the last few answers
        are kept, by the state's content: the server asks again for the same position on
        every move submitted and every page drawn."""
        return [dict(move) for move in self.moves(state, seat)]

    def moves(self, state: State, seat: int) -> rules.Offered:
        """The legal moves and the walks among them that go lower, kept for the position,
        without a copy: shared, so read them and never change them. A block's places are
        worked out only once asked for (``rules.Offered.narrow``): a phone that has not
        tapped a block never needs the thousands of places of every block."""
        if not is_seat(state, seat) or seat != state["turn"]:
            # Not this seat's turn: nothing to look up (False and 0.0 would find seat 0's
            # answers below).
            return rules.Offered([])
        # The state's repr is its content (JSON values only), at a tenth of the cost of its
        # JSON: equal states built in another order miss, and are answered afresh.
        key = (repr(state), seat)
        with self._kept_lock:
            found = self._offered.get(key)
        if found is None:
            found = rules.offered(state, seat)
            self._keep(key, found)
        return found

    def _keep(self, key: tuple[str, int], offered: rules.Offered) -> None:
        with self._kept_lock:
            self._offered.put(key, offered)

    def apply(self, state: State, seat: int, move: Move) -> State:
        done = rules.check(state, seat, move)
        new = copy_state(state)
        new["effects"] = []
        kind = move["type"]
        if kind == "built":
            new["phase"] = "play"
            new["round"] = 1
            _start_turn(new, new["first"])
        elif kind in ("build", "block"):
            assert isinstance(done, rules.Placement)
            _place(new, done)
            if kind == "block":
                new["moved"] = done.block
                new["step"], new["walked"] = "after", False
        elif kind == "walk":
            assert isinstance(done, rules.Walk)
            _walk(new, seat, done)
            if new["step"] == "after":
                _end_turn(new, seat)  # the walk after the block move ends the turn
        elif kind == "pass":
            new["step"], new["walked"] = "after", False
        elif kind == "restart":
            new.update(clone(new["turn_start"]))
            new["effects"].append({"rule": "cl.turn.restart", "kind": "restart"})
        elif kind == "stone":
            new["stones"][str(seat)] = "used"
            new["blocked"][str(seat)] = move["block"]
            new["effects"].append({"rule": "cl.stone.blocks", "kind": "stone",
                                   "block": move["block"]})
            left = rules.offered(new, seat)
            if left.first:  # the last walk is still to come: the moves left are kept
                self._keep((repr(new), seat), left)
            else:
                _end_turn(new, seat)  # nothing is left to choose but the end (cl.turn.order)
        else:
            _end_turn(new, seat)
        return new

    def correct(self, state: State, correction: Move) -> State:
        """The host sets a figure or a block where it stands at the table
        (``corrections.py``), before the turn's first move: the turn starts again from the
        corrected position (the height its figure begins at, what a restart puts back)."""
        new = corrections.correct(state, correction)
        begin_turn_here(new, new["turn"])
        return new

    def can_undo(self, before: State, seat: int, move: Move, after: State) -> bool:
        """Everything can be taken back by its mover: the companion draws nothing."""
        return True

    def redact_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move:
        """Nothing is secret in this game."""
        return clone(move)

    def view(self, state: State, seat: int | None) -> View:
        public = self._public_view(state)
        return public if seat is None else self.seat_view(state, seat, public)

    def seat_view(self, state: State, seat: int, public: Mapping[str, Any]) -> View:
        """``seat``'s view drawn from the table's, ``public`` (``view(state, None)``): the
        seat's number, and on its turn the tops its figure can reach. Everything else is
        the same for every viewer, so the server works it out once per state and shares
        it (``Match.view_for``); the result shares ``public``'s values, read, never changed.
        ``reach_lower`` names the ways that go lower than the figure began the turn. Both
        are read from the kept legal moves' walks."""
        view = cast(View, dict(public))  # a view of this game's, as ``view`` made it
        if is_seat(state, seat):
            view["seat"] = seat
            if state["phase"] == "play" and seat == state["turn"] and not state["walked"]:
                kept = self.moves(state, seat)
                reach: dict[str, list[str]] = {}
                lower: dict[str, list[str]] = {}
                for move in kept.first:
                    if move["type"] != "walk":
                        continue
                    reach.setdefault(move["to"], []).append(move["ladders"])
                    if (move["to"], move["ladders"]) in kept.lower:
                        lower.setdefault(move["to"], []).append(move["ladders"])
                view["reach"] = reach
                view["reach_lower"] = lower
        return view

    def _public_view(self, state: State) -> View:
        built = rules.tower(state)
        drawn = self._tower_view(state, built)
        heights = {s: rules.height_of(state, int(s), built) for s in state["figures"]}
        view: View = {
            "game": GAME_ID,
            "players": state["players"],
            "options": dict(state["options"]),
            "colours": list(COLOURS[:state["players"]]),
            "phase": state["phase"],
            "first": state["first"],
            "turn": None if state["phase"] == "over" else state["turn"],
            "step": state["step"],
            "walked": state["walked"],
            "round": state["round"],
            "last_chance": state["last_chance"],
            "blocks": drawn.blocks,
            "order": list(state["order"]),
            "unplaced": [block_id for block_id, spot in state["blocks"].items() if spot is None],
            "cells": drawn.cells,
            "bounds": drawn.bounds,
            "figures": {s: {"place": place, "height": heights[s]}
                        for s, place in state["figures"].items()},
            "ladders": clone(state["ladders"]),
            "stones": dict(state["stones"]),
            "blocked": dict(state["blocked"]),
            "last_moved": state["last_moved"],
            "moved": state["moved"],
            "start": dict(state["start"]),
            "effects": clone(state["effects"]),
            "outcome": None,
        }
        if state["phase"] == "play":
            view["movable"] = rules.movable(state, built) if state["step"] == "before" else []
            view["stuck"] = rules.stuck(state, state["turn"], built)
            # What the player to move can do now, which the turn's words follow.
            view["steps"] = sorted({move["type"] for move in
                                    self.moves(state, state["turn"]).narrow({})})
        result = self.outcome(state)
        if result is not None:
            view["outcome"] = result.as_json()
        return view

    def _tower_view(self, state: State, built: Tower) -> _TowerView:
        """The view's blocks, squares and bounds: the same lists for every position whose
        blocks stand as they did (``rules.tower``), so that a walk's pushes find them
        digested already (``companion.web.memo.ViewDigests``)."""
        with self._kept_lock:
            kept = self._tower_views.get(id(built))
        if kept is not None and kept[0] is built and kept[1] == state["order"]:
            return kept[2]
        drawn = _TowerView(
            [_block_view(block_id, spot) for block_id in state["order"]
             if (spot := state["blocks"][block_id]) is not None],
            [{"x": x, "y": y, "height": h, "block": block_id,
              "top": built.blocks[block_id]["top"]}
             for (x, y), (h, block_id) in sorted(built.top.items())],
            list(built.bounds()))
        with self._kept_lock:
            self._tower_views.put(id(built), (built, list(state["order"]), drawn))
        return drawn

    def outcome(self, state: State) -> Outcome | None:
        if state["phase"] != "over":
            return None
        built = rules.tower(state)
        heights = {seat: rules.height_of(state, seat, built) for seat in range(state["players"])}
        last = state["options"]["tie"] == "last"

        def rank(seat: int) -> tuple[int, int]:
            reached = state["reached"][str(seat)]
            return (-heights[seat], -reached if last else reached)

        ranking: list[list[int]] = []
        for seat in sorted(heights, key=rank):
            if ranking and rank(ranking[-1][0]) == rank(seat):
                ranking[-1].append(seat)
            else:
                ranking.append([seat])
        # The reason says the end rule, and the tie rule when several figures stand highest.
        tied = sum(1 for seat in heights if heights[seat] == max(heights.values())) > 1
        reason = ("tie-last" if last else "tie-first") if tied else "last-chance"
        return Outcome(ranking=ranking, scores=heights, reason=reason)


#: What a turn can change, kept from its start so a player whose turn cannot end may put
#: everything back and start again.
TURN_START = ("blocks", "order", "figures", "ladders", "reached", "step", "walked", "moved",
              "start")


def _block_view(block_id: str, spot: dict[str, Any]) -> dict[str, Any]:
    return {"id": block_id, "kind": BLOCKS[block_id].kind.name, **spot}


def _place(state: State, done: rules.Placement) -> None:
    for seat, place in done.pushed.items():
        state["figures"][seat] = place
    if done.pushed:
        state["effects"].append({"rule": "cl.build.push", "kind": "pushed",
                                 "figures": dict(done.pushed)})
    opened = rules.set_block(state, done.block, done.spot)
    if opened:
        state["effects"].append({"rule": "cl.figure.pit-opened", "kind": "pit-opened",
                                 "seats": [int(seat) for seat in opened]})


def _walk(state: State, seat: int, done: rules.Walk) -> None:
    state["figures"][str(seat)] = done.to
    for foot, top, name in done.climbs:
        state["ladders"][str(seat)].remove(name)
        state["effects"].append({"rule": "cl.ladder.once", "kind": "ladder", "ladder": name,
                                 "from": foot, "to": top})
    state["start"]["dipped"] = state["start"]["dipped"] or done.dipped
    state["walked"] = True


def _start_turn(state: State, seat: int) -> None:
    state["turn"] = seat
    state["step"], state["walked"], state["moved"] = "before", False, None
    state["blocked"].pop(str(seat), None)
    state["turns"] += 1
    begin_turn_here(state, seat)


def begin_turn_here(state: State, seat: int) -> None:
    """What a turn keeps from where it begins: the height of ``seat``'s figure, the highest
    top of all, and everything a restart puts back (``TURN_START``). Worked out at each
    turn's start, and again when the host corrects the position before the turn's first
    move (``corrections.correct``)."""
    built = rules.tower(state)
    state["start"] = {"height": rules.height_of(state, seat, built), "dipped": False}
    state["top_before"] = max(rules.height_of(state, s, built) for s in range(state["players"]))
    state["turn_start"] = {key: clone(state[key]) for key in TURN_START}


def _end_turn(state: State, seat: int) -> None:
    """The next player's turn, or the end: a round without a new top gives the first player
    a last chance, and a last chance that does not top (with the option ``last_climb``
    "above-start": that ends no higher than it began) ends the game at once."""
    height = rules.height_of(state, seat)
    if height != state["start"]["height"]:  # up and back down again is no new height
        state["reached"][str(seat)] = state["turns"]
    topped = height > state["top_before"]
    state["round_topped"] = state["round_topped"] or topped
    if state["last_chance"]:
        own = state["options"]["last_climb"] == "above-start"
        if not (height > state["start"]["height"] if own else topped):
            state["phase"] = "over"
            state["effects"].append({"rule": _last_chance_rule(state), "kind": "over"})
            return
        state["last_chance"] = False
    state["last_moved"] = state["moved"]
    following = (seat + 1) % state["players"]
    if following == state["first"]:
        state["last_chance"] = not state["round_topped"]
        state["round_topped"] = False
        state["round"] += 1
        if state["last_chance"]:
            state["effects"].append({"rule": _last_chance_rule(state), "kind": "last-chance"})
    _start_turn(state, following)


def _last_chance_rule(state: State) -> str:
    """The last chance the table plays: to climb higher than every figure (the default),
    or only higher than the first player's own figure stood (option ``last_climb``)."""
    own = state["options"]["last_climb"] == "above-start"
    return "cl.end.last-chance-own" if own else "cl.end.last-chance"

