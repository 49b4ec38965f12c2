"""High Card's rules, as pure as the real games': a JSON state, randomness from the state."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games.base import (
    Game,
    IllegalMove,
    Move,
    Option,
    Outcome,
    State,
    copy_state,
    first_refusal,
    is_int,
    is_seat,
    load_seed,
    new_rng_state,
    read_setup,
    seed_options,
    shuffled,
)

GAME_ID = "high-card"
#: Its seeds file, kept beside this one in the tests; in a checkout's places it is
#: ``seeds/<id>.toml``, where ``load_seed(GAME_ID)`` reads it (tests/test_registry.py).
SEED = load_seed(GAME_ID, Path(__file__).parent)
DECK = 30


def card(card_id: int) -> dict[str, Any]:
    return {"id": card_id, "kind": "number", "value": card_id % 10 + 1}


class HighCard(Game):
    """A card game with nothing more to it: the protocol's defaults are its own (no kept
    moves, views drawn from the state alone, no corrections)."""

    id = GAME_ID
    min_players: int = SEED["min_players"]
    max_players: int = SEED["max_players"]
    choice_keys = ("card",)

    def options(self) -> list[Option]:
        return list(seed_options(SEED))

    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        values, first = read_setup(self, players, options)
        state: State = {"rng": new_rng_state(seed)}
        deck = shuffled(state, list(range(DECK)))
        size = values["hand"]
        state.update({
            "game": self.id, "players": players, "options": values, "phase": "play", "turn": first,
            "hands": {str(s): sorted(deck[s * size:(s + 1) * size]) for s in range(players)},
            "played": [], "scores": {str(s): 0 for s in range(players)}, "effects": [],
        })
        return state

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if not is_seat(state, seat) or state["turn"] != seat:
            return []
        return [{"type": "play", "card": c} for c in state["hands"][str(seat)]]

    def apply(self, state: State, seat: int, move: Move) -> State:
        if state["turn"] is None:
            raise IllegalMove("hc.game.over")
        if not is_seat(state, seat) or state["turn"] != seat:
            raise IllegalMove("hc.turn.wait")
        if not isinstance(move, dict) or set(move) != {"type", "card"} \
                or move["type"] != "play" or not is_int(move["card"]):
            raise IllegalMove("hc.move.malformed")
        if move["card"] not in state["hands"][str(seat)]:
            raise IllegalMove("hc.card.not-in-hand")
        new = copy_state(state)
        new["hands"][str(seat)].remove(move["card"])
        new["played"].append({"seat": seat, "card": move["card"]})
        value = card(move["card"])["value"]
        new["scores"][str(seat)] += value
        new["effects"] = [{"rule": "hc.score", "seat": seat, "points": value}]
        if new["options"]["glitch"]:
            new["effects"].append({"rule": "hc.glitch"})
        if any(new["hands"].values()):
            new["turn"] = (seat + 1) % new["players"]
        else:
            new["turn"], new["phase"] = None, "over"
            new["effects"].append({"rule": "hc.end"})
        return new

    def checked(self, before: Mapping[str, Any], seat: int, move: Move) -> list[str]:
        return ["hc.game.over", "hc.turn.wait", "hc.card.not-in-hand"]

    def why_not(self, state: State, seat: int, chosen: Mapping[str, Any]) -> IllegalMove:
        return first_refusal(lambda move: self.apply(state, seat, move),
                             [{"type": "play", "card": chosen.get("card")}],
                             IllegalMove("hc.turn.wait"))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.id, "players": state["players"], "turn": state["turn"],
            "phase": state["phase"],
            "played": [{"seat": p["seat"], "card": card(p["card"])} for p in state["played"]],
            "hand_counts": {s: len(hand) for s, hand in state["hands"].items()},
            "scores": dict(state["scores"]), "glitch": state["options"]["glitch"],
        }
        if is_seat(state, seat):
            view["hand"] = [card(c) for c in state["hands"][str(seat)]]
        return view

    def outcome(self, state: State) -> Outcome | None:
        if state["turn"] is not None:
            return None
        scores = {int(s): points for s, points in state["scores"].items()}
        ranking = [[s for s in scores if scores[s] == points]
                   for points in sorted(set(scores.values()), reverse=True)]
        return Outcome(ranking, scores, "hands-empty")

    def can_undo(self, before: State, seat: int, move: Move, after: State) -> bool:
        """A card played is seen by everyone: it goes back into the hand only where the
        table allows it (``take_back``), until the next player plays."""
        return bool(before["options"]["take_back"])

    def redact_move(self, state: State, seat: int, move: Move, viewer: int | None) -> Move:
        return dict(move)
