"""The tower's records, which the browser draws in 3-D, agree with the state; a move's push
carries only the records it changed."""

from __future__ import annotations

from companion.games.climbers import Climbers
from companion.games.climbers.data import opposite
from companion.games.climbers.web import ClimbersHelpers
from companion.games.climbers.web.tower import (
    FACES,
    block_records,
    face_colours,
    figure_letters,
    figure_records,
)
from companion.live import Connection
from companion.web.diff import catch_up
from companion.web.services import services
from support.pushing import render_for
from support.strategies.climbers import choose
from tests.conftest import ApiTable
from tests.web.climbers_building import finish_building

G = Climbers()
SEATS = [{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Ben"}, {"seat": 2, "name": "Chloé"}]


def played(moves: int, seed: int = 2) -> dict:
    """A started game of three, ``moves`` moves in, played to climb."""
    state = G.setup(3, {}, seed)
    state = G.apply(state, 0, {"type": "built"})
    for _ in range(moves):
        if G.outcome(state) is not None:
            break
        seat = state["turn"]
        state = G.apply(state, seat, choose(G.view(state, seat), seat, G.legal_moves(state, seat)))
    return state


def test_every_block_record_is_the_block_as_the_state_places_it():
    state = played(30)
    view = G.view(state, None)
    records = {r["id"]: r["data"].split() for r in block_records(view, view["moved"])}
    placed = {b: spot for b, spot in state["blocks"].items() if spot is not None}
    assert set(records) == {f"tb-{b}" for b in placed}
    blocked = {block: G.view(state, None)["colours"][int(seat)]
               for seat, block in state["blocked"].items()}
    for block, spot in placed.items():
        fields = records[f"tb-{block}"]
        assert fields[0] == block
        assert [int(v) for v in fields[2:8]] == [spot[k] for k in ("x", "y", "z", "w", "d", "h")]
        faces = dict(zip(FACES, fields[8:14], strict=True))
        assert faces["top"] == spot["top"]
        if spot["top"] != "grey" or not block.startswith("F"):
            assert faces["bottom"] == opposite(spot["top"])
        assert fields[14] == blocked.get(block, "-")
        assert fields[15] == ("1" if block == state["moved"] else "0")
    # records come in a fixed order: a moved block never reorders the list
    assert list(records) == sorted(records)


def test_the_block_moved_last_turn_is_marked_until_the_player_on_turn_moves_one():
    """The block that stays put this turn (moved last turn) carries the mark "2" while the
    player on turn has not moved a block; once they have, theirs carries "1" alone."""
    state = G.setup(2, {}, 5)
    state = G.apply(state, 0, {"type": "built"})
    first = next(m for m in G.legal_moves(state, 0) if m["type"] == "block")
    state = G.apply(state, 0, first)
    state = G.apply(state, 0, next(m for m in G.legal_moves(state, 0) if m["type"] == "end"))
    helpers = ClimbersHelpers()
    view = G.view(state, None)
    assert helpers.stays_put(view) == first["block"]
    marks = {r["id"]: r["data"].split()[15]
             for r in block_records(view, view["moved"], helpers.stays_put(view))}
    assert {block: mark for block, mark in marks.items() if mark != "0"} == {
        f"tb-{first['block']}": "2"}
    second = next(m for m in G.legal_moves(state, 1) if m["type"] == "block")
    view = G.view(G.apply(state, 1, second), None)
    assert helpers.stays_put(view) is None
    marks = {r["id"]: r["data"].split()[15]
             for r in block_records(view, view["moved"], helpers.stays_put(view))}
    assert {block: mark for block, mark in marks.items() if mark != "0"} == {
        f"tb-{second['block']}": "1"}


def test_the_faces_of_a_block_are_its_three_colour_pairs():
    view = G.view(played(0), None)
    for block in view["blocks"]:
        faces = face_colours(block)
        if block["kind"] == "foundation":
            assert set(faces.values()) == {"grey"}
            continue
        assert faces["bottom"] == opposite(faces["top"])
        assert faces["west"] == opposite(faces["east"])
        assert faces["south"] == opposite(faces["north"])
        assert len(set(faces.values())) == 6


def test_every_figure_record_stands_where_the_state_says_with_its_players_letter():
    state = played(12)
    view = G.view(state, None)
    heights = {f"{c['x']},{c['y']}": c["height"] for c in view["cells"]}
    records = figure_records(view, SEATS)
    assert [r["data"].split()[1] for r in records] == ["A", "B", "C"]
    for record in records:
        seat, _, colour, x, y, z = record["data"].split()
        place = state["figures"][seat]
        assert colour == view["colours"][int(seat)]
        assert (x, y) == (("-", "-") if place is None else tuple(place.split(",")))
        assert int(z) == heights.get(place, 0)
    assert any(state["figures"][s] for s in state["figures"]), "nobody climbed: not a test"
    assert figure_letters([{"seat": 0, "name": "Ana"}, {"seat": 1, "name": "Alex"},
                           {"seat": 2, "name": "ben"}]) == {0: "A1", 1: "A2", 2: "B"}


def test_a_block_moves_push_carries_only_the_blocks_it_changed(app):
    """The phones' and the screen's tower, pushed after a block move: the records of the
    block moved (and the one moved before it, no longer outlined), not the tower."""
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=2)
    finish_building(table)
    live = services(app).tables.get(table.code)
    with app.app_context():
        viewers = [Connection(None, table.code, 1, "en"), Connection(None, table.code, None, "en")]
        shown: dict[Connection, dict[str, str]] = {conn: {} for conn in viewers}
        for conn in viewers:
            catch_up(shown[conn], render_for(live, conn))
        seat, moves = table.seat_to_move()
        block = next(m for m in moves if m["type"] == "block")
        assert table.post_move(seat, block).status_code == 200
        for conn in viewers:
            board = next(p for p in render_for(live, conn) if p.id == "board")
            sent = catch_up(shown[conn], [board])
            assert f'id="tb-{block["block"]}"' in sent
            assert sent.count('data-b="') <= 2, sent
            assert len(sent.encode()) < 2000, len(sent.encode())
