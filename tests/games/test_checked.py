"""What "Why it was allowed" lists for a move is what the engine holds it to.

``Game.checked`` reads the game's ``rules.ORDER``: each check declares the clauses it
refuses with, and when a move of the log was held to them. Seeded games of every engine,
with their variants: at each position, every move a seat may make is changed one value at
a time (another value the legal moves give that key, or one more or less), and each change
``apply`` refuses for a rule must find that rule among the clauses of the check that
refused it, and among those ``Game.checked`` lists for the changed move: a check that
leaves out a clause it refuses with, or a list that leaves out a check the engine makes,
fails. Each rule listed is a clause the seeds mark as a refusal, with the rulebook's
sentence to show; and the list is the same whether worked out from the move or from the
move as another viewer sees it (no secret changes it).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.games.base import Game, IllegalMove, clauses
from companion.games.registry import BY_ID

#: (game, players, options, seed, moves played): each engine at a small and a large table,
#: and the variants whose rules change what a move is held to.
TABLES = [
    ("seventh-heaven", 2, {}, 3, 60),
    ("seventh-heaven", 5, {"refill": True}, 4, 60),
    ("skyrunner", 2, {}, 5, 90),
    ("skyrunner", 4, {}, 6, 90),
    ("heuchel-meuchel", 3, {"deal": "app", "die": "real", "die_loss": "top"}, 2, 90),
    ("heuchel-meuchel", 4, {"deal": "table", "step_ends_move": False}, 3, 90),
    ("heuchel-meuchel", 3, {"die": "app"}, 4, 90),
    ("climbers", 2, {"descent": "never"}, 1, 40),
    ("climbers", 3, {}, 2, 60),
    ("climbers", 3, {"tower": "own"}, 9, 60),
]
#: Moves a game's random player makes only when it has nothing else: lifting a card placed
#: at set-up and passing make a game go round in circles, or end it at once.
AVOIDED = frozenset({"lift", "pass", "restart", "decline"})
#: Changed moves tried per seat and position.
TRIED = 24


def changed(moves: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Moves like the legal ``moves``, each with one value changed."""
    values: dict[str, list[Any]] = {}
    for move in moves:
        for key, value in move.items():
            if key != "type" and value not in values.setdefault(key, []):
                values[key].append(value)
    found = []
    for move in rng.sample(moves, min(len(moves), TRIED)):
        keys = [key for key in move if key != "type"]
        if not keys:
            continue
        key = rng.choice(keys)
        options = [value for value in values[key] if value != move[key]]
        if isinstance(move[key], int) and not isinstance(move[key], bool):
            options += [move[key] - 1, move[key] + 1]
        if options:
            found.append({**move, key: rng.choice(options)})
    return found


def legal(game: Game, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    moves = game.legal_moves(state, seat)
    if len(moves) > 400:  # The Climbers' blocks may go to thousands of places
        moves = random.Random(len(moves)).sample(moves, 400)
    return moves


def next_state(game: Game, state: dict[str, Any], acting: list[tuple[int, list[Any]]],
               rng: random.Random) -> dict[str, Any]:
    """The state after a move of a seat that may act. A table deal offers every card a seat
    has not entered, since which ones the others entered is theirs to know: a card another
    seat entered is refused, and another is tried."""
    seat, moves = rng.choice(acting)
    preferred = [move for move in moves if move["type"] not in AVOIDED] or moves
    kind = rng.choice(sorted({move["type"] for move in preferred}))  # a walk as often as a
    preferred = [move for move in preferred if move["type"] == kind]  # block's 800 places
    for move in rng.sample(preferred, len(preferred)) + moves:
        try:
            return game.apply(state, seat, move)
        except IllegalMove:
            continue
    raise AssertionError(f"no move of seat {seat} applies")


@pytest.mark.parametrize(("game_id", "players", "options", "seed", "played"), TABLES)
def test_every_refusal_of_a_changed_move_is_among_the_rules_it_is_checked_against(
        game_id, players, options, seed, played):
    game = BY_ID[game_id]
    refusals = {rule for rule, clause in clauses(game_id).items() if clause.get("refusal")}
    rng = random.Random(seed)
    state = game.setup(players, {**options, "first_seat": 0}, seed)
    seen: set[str] = set()
    for _ in range(played):
        public = game.view(state, None)
        acting = [(seat, moves) for seat in range(players) if (moves := legal(game, state, seat))]
        if not acting:
            break
        for seat, moves in acting:
            for move in moves[:3]:
                listed = game.checked(public, seat, move)
                assert listed and set(listed) <= refusals, (move, listed)
                for viewer in (None, *range(players)):
                    shown = game.redact_move(state, seat, move, viewer)
                    if shown is not None:
                        assert game.checked(public, seat, shown) == listed, (move, shown)
            tried = [(seat, move) for move in changed(moves, rng)]
            # Another seat's moves, tried by a seat the table is not waiting for.
            tried += [(other, move) for other in range(players) if other not in dict(acting)
                      for move in moves[:3]]
            for by, move in tried:
                found = game.rules.ORDER.refused_by(state, by, move)
                if found is not None:
                    step, refusal = found
                    assert refusal.rule in step.clauses, (step.name, move, refusal.rule)
                try:
                    game.apply(state, by, move)
                except IllegalMove as refusal:
                    if refusal.rule.endswith(".malformed"):
                        continue
                    seen.add(refusal.rule)
                    assert refusal.rule in game.checked(public, by, move), (move, refusal.rule)
        state = next_state(game, state, acting, rng)
    assert seen, "no changed move was refused: the test tried nothing"


@pytest.mark.parametrize("game_id", sorted(BY_ID))
def test_every_rule_a_move_is_checked_against_has_the_rulebooks_sentence(game_id):
    game = BY_ID[game_id]
    quoted = {rule for rule, clause in clauses(game_id).items()
              if clause.get("refusal") and clause.get("quote")}
    state = game.setup(game.min_players, {"first_seat": 0}, 1)
    public = game.view(state, None)
    for seat in range(game.min_players):
        for move in game.legal_moves(state, seat)[:20]:
            assert set(game.checked(public, seat, move)) <= quoted
