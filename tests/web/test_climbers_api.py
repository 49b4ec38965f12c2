"""The Climbers through the JSON API: a seeded game from the drawn tower to the last chance,
refusals with their rule ids, and the phone's height map lighting up the picker's answers."""

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import unquote

from companion.games.climbers.data import BLOCKS
from companion.games.climbers.tower import generate
from companion.games.climbers.web.ask import real_ways
from companion.web.services import services
from support.strategies.climbers import Square, choose
from tests.conftest import ApiTable, bearer
from tests.web.climbers_building import finish_building

GAME = "climbers"
#: With two players and the moves of ``choose`` below, this seed plays some 100 moves: blocks
#: moved to climb on, ladders, passes, a figure nearly 20 high.
SEED = 8
#: This one draws a tower where the first player, on the table, has a square of its own
#: colour touching the squares it can reach only by a corner.
CORNER_SEED = 5
#: With two players and this seed, the moves of ``LOWER_OR_LADDER`` bring the second
#: player's figure where two tops are reached with the short ladder only by going lower than
#: it began, or with the long ladder staying up.
LOWER_OR_LADDER_SEED = 220
LOWER_OR_LADDER = [
    (0, {"type": "block", "block": "H11", "top": "grey", "long": None, "x": -6, "y": 0}),
    (0, {"type": "stone", "block": "H3"}),
    (0, {"type": "walk", "to": "-5,1", "ladders": ""}),
    (1, {"type": "walk", "to": "-4,1", "ladders": ""}),
    (1, {"type": "block", "block": "H5", "top": "violet", "long": "y", "x": -1, "y": -2}),
    (1, {"type": "stone", "block": "D8"}),
    (1, {"type": "walk", "to": "-6,1", "ladders": ""}),
    (0, {"type": "walk", "to": "table", "ladders": ""}),
    (0, {"type": "block", "block": "H3", "top": "light-blue", "long": "y", "x": -1, "y": 0}),
    (0, {"type": "walk", "to": "6,1", "ladders": "short"}),  # no stone left: the turn ends
]


def refused(response, rule: str, status: int = 422) -> None:
    assert response.status_code == status, response.get_json()
    assert response.get_json()["error"]["rule"] == rule


def started(client, seed: int = SEED) -> ApiTable:
    return ApiTable.started(client, game=GAME, players=2, seed=seed)


def test_a_seeded_game_is_played_to_the_last_chance(client):
    table = started(client)
    view = table.view()["view"]
    assert view["phase"] == "build" and len(view["blocks"]) == 35
    assert table.moves(1) == []
    assert table.moves(0) == [{"type": "built"}]
    refused(table.post_move(1, {"type": "built"}), "table.not-your-turn", 403)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    played: list[dict[str, Any]] = [{"type": "built"}]
    kinds: set[str] = set()
    for _ in range(400):
        if table.view()["outcome"] is not None:
            break
        seat = table.view()["view"]["turn"]
        moves = table.moves(seat)
        view = table.view(seat)["view"]
        move = choose(view, seat, moves)
        response = table.post_move(seat, move)
        assert response.status_code == 200, (move, response.get_json())
        played.append(move)
        kinds.add(move["type"])
        if move["type"] == "walk" and move["ladders"]:
            kinds.add("ladder")
        after = response.get_json()["view"]
        if move["type"] == "block":
            placed = next(b for b in after["blocks"] if b["id"] == move["block"])
            assert (placed["x"], placed["y"], placed["top"]) == (move["x"], move["y"],
                                                                 move["top"])
            assert after["moved"] == move["block"]
    final = table.view()
    outcome = final["outcome"]
    assert outcome is not None, "the game never ended"
    assert {"walk", "block", "pass", "end", "ladder"} <= kinds, kinds
    view = final["view"]
    assert view["phase"] == "over" and view["turn"] is None
    assert any(e["kind"] == "over" for e in view["effects"])
    # What the rules did shows in the log with its rule, on a phone and on the screen.
    entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
    rules = {effect["rule"] for entry in entries for effect in entry["effects"]}
    assert {"cl.ladder.once", "cl.end.last-chance"} <= rules
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    for page in (client.get(f"/t/{table.code}/play"), client.get(f"/t/{table.code}/screen")):
        log = page.get_data(as_text=True).split('id="log"', 1)[1]
        assert 'href="/rules/climbers/cl.end.last-chance">Why: The last chance</a>' in log
    tops = {int(seat): fig["height"] for seat, fig in view["figures"].items()}
    assert outcome["scores"] == {str(seat): h for seat, h in tops.items()}
    assert tops[outcome["ranking"][0][0]] == max(tops.values()) > 0
    assert sorted(seat for group in outcome["ranking"] for seat in group) == [0, 1]
    # the log: every move, in order, for a seat and for the table screen alike
    for token in (table.tokens[1], None):
        headers = bearer(token) if token else {}
        entries = client.get(f"/api/tables/{table.code}/log", headers=headers).get_json()
        moves_logged = [e["move"] for e in entries["entries"] if e["kind"] == "move"]
        assert moves_logged == played
    # no move once it is over
    refused(table.post_move(0, {"type": "pass"}), "table.not-playing", 409)


def test_refusals_name_their_rule(client):
    table = started(client, CORNER_SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    view = table.view(0)["view"]
    assert len(view["blocks"]) == 35 and view["cells"] and view["bounds"]
    cells = {(c["x"], c["y"]): c for c in view["cells"]}
    mine = view["colours"][0]
    standable = {s for s, c in cells.items() if c["top"] in (mine, "grey")}
    reach = {tuple(map(int, k.split(","))) for k in view["reach"] if k != "table"}
    seq = table.seq()

    # a square of another colour
    other = next(s for s, c in sorted(cells.items()) if c["top"] not in (mine, "grey"))
    refused(table.post_move(0, {"type": "walk", "to": f"{other[0]},{other[1]}", "ladders": ""}),
            "cl.figure.colour")

    # a square of its colour that touches where the figure could ever walk (from the table,
    # over its colours and grey, however high) only by a corner, and 8 high: out of reach
    def sides(s: Square) -> list[Square]:
        return [(s[0] + 1, s[1]), (s[0] - 1, s[1]), (s[0], s[1] + 1), (s[0], s[1] - 1)]

    edge = [s for s in standable if any(n not in cells for n in sides(s))]
    anywhere, stack = set(edge), list(edge)
    while stack:
        for n in sides(stack.pop()):
            if n in standable and n not in anywhere:
                anywhere.add(n)
                stack.append(n)
    assert reach <= anywhere
    corner = next(s for s in sorted(standable - anywhere)
                  if any((s[0] + dx, s[1] + dy) in anywhere for dx in (-1, 1) for dy in (-1, 1)))
    assert cells[corner]["height"] == 8
    refused(table.post_move(0, {"type": "walk", "to": f"{corner[0]},{corner[1]}", "ladders": ""}),
            "cl.figure.reach")

    # a cube over a hole: its four squares at different heights
    cube = next(b for b in view["movable"] if BLOCKS[b].kind.name == "cube")
    own = {s for s, c in cells.items() if c["block"] == cube}
    hole = next((x, y) for (x, y) in sorted(cells)
                if not own & {(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)}
                and len({cells[s]["height"] if s in cells else 0
                         for s in ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))}) > 1)
    move = {"type": "block", "block": cube, "top": "red", "long": None,
            "x": hole[0], "y": hole[1]}
    refused(table.post_move(0, move), "cl.build.support")
    # a block that may not move, a shape the block cannot take, a second walk
    fixed = next(c["block"] for c in view["cells"] if c["block"] not in view["movable"])
    refused(table.post_move(0, dict(move, block=fixed)), "cl.block.covered")
    refused(table.post_move(0, dict(move, long="x")), "cl.block.shape")
    refused(table.post_move(0, {"type": "end"}), "cl.turn.phase")
    refused(table.post_move(0, {"type": "walk", "to": "table"}), "cl.move.malformed")
    assert table.seq() == seq, "a refused move changes nothing"
    assert table.view(0)["view"] == view


def test_a_top_out_of_reach_is_refused_with_the_reach_rule(client):
    """A grey top 8 high, beside the table where the figure stands: by the JSON API with any
    ladders named, and tapped on the phone (its tower asks why), the answer is the reach
    rule in the reader's language, not the two ladders set one after the other."""
    table = ApiTable.started(client, game=GAME, players=3, seed=SEED)
    finish_building(table)
    view = table.view(0)["view"]
    grey = {b["id"] for b in view["blocks"] if b["top"] == "grey"}
    high = next(f"{c['x']},{c['y']}" for c in view["cells"]
                if c["block"] in grey and c["height"] == 8)
    assert high not in view["reach"] and view["figures"]["0"]["place"] is None
    seq = table.seq()
    for ladders in ("", "short", "long", "short+long"):
        refused(table.post_move(0, {"type": "walk", "to": high, "ladders": ladders}),
                "cl.figure.reach")
    for lang, words in (("en", "out of the figure’s reach"), ("fr", "hors de portée")):
        answer = phone(client, table, 0).get(
            f"/t/{table.code}/explain", query_string={"pick": json.dumps(
                {"type": "walk", "to": high})},
            headers={"HX-Request": "true", "Accept-Language": lang}).get_data(as_text=True)
        assert 'data-rule="cl.figure.reach"' in answer, answer[:500]
        assert words in html.unescape(answer), (lang, answer[:500])
    assert table.seq() == seq


def phone(client, table: ApiTable, seat: int):
    client.set_cookie(f"seat_{table.code}", table.tokens[seat])
    return client


def pick(client, table: ApiTable, chosen: dict[str, Any]) -> str:
    response = client.get(f"/t/{table.code}/pick", query_string={"pick": json.dumps(chosen)},
                          headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def ask_of(page: str) -> dict[str, str]:
    """What the phone's tower lights up (the data attributes of #cl-ask)."""
    found = re.search(r'<div id="cl-ask" hidden ([^>]*)>', page)
    assert found, page[:2000]
    return {name: html.unescape(value)
            for name, value in re.findall(r'data-([\w-]+)="([^"]*)"', found.group(1))}


def reach_of(ask: dict[str, str]) -> set[str]:
    return {",".join(square.split(",")[:2]) for square in ask.get("reach", "").split()}


def ghosts_of(ask: dict[str, str]) -> dict[tuple[int, int, str | None], tuple[int, ...]]:
    """Each ghost: (x, y, long) and (z, w, d, h)."""
    found = {}
    for ghost in ask.get("ghosts", "").split():
        key, *numbers = ghost.split(":")
        x, y, long = key.split("_")
        found[(int(x), int(y), None if long == "-" else long)] = tuple(map(int, numbers[2:]))
    return found


def test_the_phone_lights_up_the_answers_on_the_tower(app, client):
    table = started(client, CORNER_SEED)
    page = phone(app.test_client(), table, 0)
    first = page.get(f"/t/{table.code}/play").get_data(as_text=True)
    assert "Build the tower as the table screen shows" in first
    assert "cl-3d" in first and 'id="cl-td"' in first and "cl-map" not in first
    assert table.post_move(0, {"type": "built"}).status_code == 200
    view = table.view(0)["view"]
    opening = ask_of(pick(page, table, {}))
    assert "Your turn: move your figure, a block, or pass" in page.get(
        f"/t/{table.code}/play").get_data(as_text=True)
    assert view["reach"] and "table" not in view["reach"]
    assert reach_of(opening) == set(view["reach"])
    assert len(opening["reach-names"].split("|")) == len(view["reach"])
    # every lit top is a walk ready to send: its one way, or the one that spends the least
    # of the ladders (the long ladder climbs every step the short one does)
    legal = [m for m in table.moves(0) if m["type"] == "walk"]
    made = opening["reach-moves"].split("|")
    marks = opening["reach-ladders"].split("|")
    assert len(made) == len(marks) == len(view["reach"])
    several = 0
    for entry, mark, square in zip(made, marks, opening["reach"].split(), strict=True):
        ways = view["reach"][",".join(square.split(",")[:2])]
        walk = json.loads(entry.split(" ")[0])
        assert walk in legal and walk["ladders"] == mark
        assert mark == min(ways, key=["", "short", "long", "short+long"].index)
        several += len(ways) > 1
    assert several, "no top reached several ways: not a test"
    # a block to move is tapped straight away too
    assert set(opening["lit"].split()) == set(view["movable"])
    assert json.loads(opening["block-pick"]) == {"type": "block"}
    walking = pick(page, table, {"type": "walk"})
    assert reach_of(ask_of(walking)) == set(view["reach"])
    # "Move your figure" keeps every way: a top reached several ways asks for the ladder
    for entry, square in zip(ask_of(walking)["reach-moves"].split("|"),
                             ask_of(walking)["reach"].split(), strict=True):
        assert bool(entry) == (len(view["reach"][",".join(square.split(",")[:2])]) == 1)
    assert "Tap the lit top your figure walks to" in walking
    moving = ask_of(pick(page, table, {"type": "block"}))
    assert set(moving["lit"].split()) == set(view["movable"])
    cube = next(b for b in view["movable"] if BLOCKS[b].kind.name == "cube")
    placing = pick(page, table, {"type": "block", "block": cube})
    ghosts = ghosts_of(ask_of(placing))
    offered = {(m["x"], m["y"], m["long"]) for m in table.moves(0)
               if m["type"] == "block" and m["block"] == cube}
    assert set(ghosts) == offered and all(size[1:] == (2, 2, 2) for size in ghosts.values())
    assert "Tap a ghost block" in placing
    # with a block chosen, another block tapped chooses anew: the first question's pick
    assert json.loads(ask_of(placing)["anew-pick"]) == {"type": "block"}
    assert "anew-pick" not in opening and "anew-pick" not in moving
    # Where a ghost rests: on the tower without the block, as the move would put it.
    below = next(b["z"] for b in view["blocks"] if b["id"] == cube)
    heights = {(c["x"], c["y"]): below if c["block"] == cube else c["height"]
               for c in view["cells"]}
    for (x, y, _), (z, *_) in ghosts.items():
        assert z == max(heights.get((x + i, y + j), 0) for i in (0, 1) for j in (0, 1))
    x, y, long = sorted(offered, key=lambda p: (p[0], p[1], str(p[2])))[0]
    tapped = {"type": "block", "block": cube, "x": x, "y": y, "long": long}
    colours = pick(page, table, tapped)
    assert "Which colour on top?" in colours
    assert ask_of(colours)["ghost"] == f"{x}_{y}_-"
    assert json.loads(ask_of(colours)["anew-pick"]) == {"type": "block"}
    back = re.search(r'hx-get="[^"]*\?pick=([^"]*)"[^>]*data-back', colours).group(1)
    # Back drops the ghost, not the block
    assert json.loads(unquote(html.unescape(back))) == {"type": "block", "block": cube}
    top = view["colours"][0]
    confirm = pick(page, table, dict(tapped, top=top))
    assert "data-confirm-move" in confirm and ask_of(confirm)["ghost"] == f"{x}_{y}_-"
    # The move in the players' words: the block as it looks, where it goes, no coordinates.
    summary = re.search(r'<p class="summary">(.*?)</p>', confirm, re.S).group(1)
    assert re.match(r"Move the .+-topped cube, .+ on top, on level \d+", summary), summary
    assert f"{x},{y}" not in summary and cube not in summary
    chips = re.findall(r'<span class="chip">(.*?)</span>', confirm, re.S)
    assert not any(re.search(r"\b[xy] -?\d", chip) for chip in chips), chips


def test_a_group_enters_its_own_tower_block_by_block(app, client):
    """With the own-tower option the first player enters the real tower, from the bottom up,
    with the same ghost blocks and questions as a block move; it stands only when complete."""
    table = ApiTable(client, game=GAME, players=2, seed=3,
                     options={"tower": "own"}).join_all()
    table.start(first_seat=0)
    view = table.view(0)["view"]
    assert [b["id"] for b in view["blocks"]] == ["F1", "F2"] and len(view["unplaced"]) == 33
    refused(table.post_move(0, {"type": "built"}), "cl.setup.unplaced")
    refused(table.post_move(1, {"type": "pass"}), "table.not-your-turn", 403)

    page = phone(app.test_client(), table, 0)
    choosing = pick(page, table, {"type": "build"})
    assert "Which block comes next?" in choosing
    offered = set(re.findall(r'class="option"[^>]*data-block="([A-Z]\d+)"', choosing))
    assert offered and offered <= set(view["unplaced"])
    blocks, order = generate(3)  # the group happens to build the tower the companion draws
    first = blocks[order[2]]
    alike = next(b for b in offered if (BLOCKS[b].kind, BLOCKS[b].square_pair)
                 == (BLOCKS[order[2]].kind, BLOCKS[order[2]].square_pair))
    ghosts = ghosts_of(ask_of(pick(page, table, {"type": "build", "block": alike})))
    assert (first["x"], first["y"], first["long"]) in ghosts

    for count, block_id in enumerate(order[2:], start=1):
        spot = blocks[block_id]
        move = {"type": "build", "block": block_id, "top": spot["top"],
                "long": spot["long"], "x": spot["x"], "y": spot["y"]}
        assert table.post_move(0, move).status_code == 200, (count, move)
        if count == 10:
            refused(table.post_move(0, {"type": "built"}), "cl.setup.unplaced")
    assert table.post_move(0, {"type": "built"}).status_code == 200
    view = table.view(0)["view"]
    assert view["phase"] == "play" and view["unplaced"] == [] and view["turn"] == 0
    assert {b["id"]: {k: b[k] for k in spot} for b in view["blocks"]} == blocks


def test_a_forged_pick_is_asked_again_from_the_start(app, client):
    """A pick no legal move matches (a stale link, or a forged one with lists, objects or
    far-away squares) gets the opening question, quickly: never a 500, never a map
    stretched to reach a square the rules do not offer."""
    table = started(client, CORNER_SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    page = phone(app.test_client(), table, 0)
    opening = pick(page, table, {})
    for chosen in ({"type": [1]}, {"ladders": [1]}, {"top": {"a": 1}},
                   {"type": "block", "block": [1], "top": "red", "x": 1, "y": 1},
                   {"type": "block", "block": "C1", "top": "red", "x": 10**30, "y": 400},
                   {"type": "walk", "to": "300,300"}):
        answer = pick(page, table, chosen)
        assert 'data-key="type"' in answer and 'data-step="0"' in answer, chosen
        assert len(answer) < 2 * len(opening), chosen


def test_a_phone_s_picks_keep_nothing_each_at_the_table(app, client):
    """A phone may send any values in its picks: answering each keeps nothing more at the
    table, so a stream of forged picks cannot grow the server's memory."""
    table = started(client)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    page = phone(app.test_client(), table, 0)
    pick(page, table, {})
    live = services(app).tables.get(table.code)
    kept = len(live.match._kept[-1][1])
    for x in range(40):
        pick(page, table, {"type": "block", "block": "C1", "x": x})
    assert len(live.match._kept[-1][1]) == kept


def test_build_steps_are_fetched_one_at_a_time(client):
    """The screen's page carries one build step; Back and Next fetch the others from the
    public view. A step that does not read is the first; past the ends, the last or first."""
    table = started(client)
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert screen.count('class="cl-3d') == 5  # the tower from four sides, one step
    assert "Step 1 of 35" in screen
    for asked, shown in (("7", 7), ("35", 35), ("99", 35), ("0", 1), ("x", 1), ("", 1)):
        answer = client.get(f"/t/{table.code}/extra/build_step?step={asked}")
        assert answer.status_code == 200
        page = answer.get_data(as_text=True)
        assert f"Step {shown} of 35" in page and page.count('class="cl-3d') == 1
        assert f'data-upto="{shown}"' in page
    assert "Step 2 of 35" in client.get(f"/t/{table.code}/screen?step=2").get_data(as_text=True)
    assert client.get(f"/t/{table.code}/extra/nothing").status_code == 404
    # In 7th Heaven serves no extra.
    other = ApiTable(client, game="seventh-heaven", players=2).join_all()
    other.start()
    assert client.get(f"/t/{other.code}/extra/build_step").status_code == 404
    assert client.get("/t/ZZZZ/extra/build_step").status_code == 404


def test_the_screen_says_when_the_last_chance_starts_why_and_how_the_game_ended(client):
    """cl.end.last-chance and cl.end.tie, as the table reads them: while the last chance is
    on, the screen says why (a whole round in which no one could climb higher than all
    the others); at the end it says which rule ended the game and, with figures level at
    the top, the tie rule the table plays, in English and in French."""
    table = started(client)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    for seat in (0, 1):  # a whole round in which no one climbs
        for move in ({"type": "pass"}, {"type": "end"}):
            assert table.post_move(seat, move).status_code == 200
    assert table.view()["view"]["last_chance"]
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert ("Why: in round 1, played all round the table from "
            "Ana, no one could climb higher than all the others.") in screen
    french = client.get(f"/t/{table.code}/screen", headers={"Accept-Language": "fr"})
    assert "Pourquoi : au tour de table 1" in french.get_data(as_text=True)
    for move in ({"type": "pass"}, {"type": "end"}):  # the last chance passes
        assert table.post_move(0, move).status_code == 200
    assert table.view()["outcome"]["reason"] == "tie-last"  # both still on the table
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    assert "the one that got there last wins (the French rulebook)" in screen
    french = client.get(f"/t/{table.code}/screen", headers={"Accept-Language": "fr"})
    assert "celle qui y est arrivée en dernier gagne (règle française)" in \
        french.get_data(as_text=True)


def test_the_screen_says_the_last_walk_ends_the_turn(client):
    """After the block move, the table screen says that a walk ends the turn, in English and
    in French; with the mover's stone in hand and no walk left, that the stone may still go
    down."""
    table = started(client, LOWER_OR_LADDER_SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    for seat, move in LOWER_OR_LADDER[:-1]:
        assert table.post_move(seat, move).status_code == 200, move
    view = table.view()["view"]
    assert (view["turn"], view["step"], view["stones"]["0"]) == (0, "after", "used")
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    # the figure went lower before the block move: only a walk higher can end the turn
    assert "Walk once more: that ends the turn." in screen
    assert "laying the blocking stone" not in screen and "end the turn" not in screen
    french = client.get(f"/t/{table.code}/screen", headers={"Accept-Language": "fr"})
    assert "Marchez encore : cela finit le tour." in french.get_data(as_text=True)
    held = started(client)
    assert held.post_move(0, {"type": "built"}).status_code == 200
    assert held.post_move(0, {"type": "pass"}).status_code == 200
    assert held.view()["view"]["steps"] == ["end", "stone"]
    screen = client.get(f"/t/{held.code}/screen").get_data(as_text=True)
    assert "No walk is left: lay the blocking stone if you like, or end the turn." in screen


def test_the_ways_that_are_a_choice():
    """The cheapest way to a top, and where it goes lower than the turn began, the cheapest
    that does not: any other spends more of the ladders for nothing more."""
    assert real_ways(["long", "short"], []) == ["short"]
    assert real_ways(["long", "short"], ["short"]) == ["short", "long"]
    assert real_ways(["long", "short"], ["long", "short"]) == ["short"]
    assert real_ways(["", "short"], [""]) == ["", "short"]
    assert real_ways(["", "long", "short"], ["", "short"]) == ["", "long"]
    assert real_ways(["short+long"], []) == ["short+long"]


def test_every_way_that_is_a_choice_and_the_stone_are_one_tap(app, client):
    """On the tower's first question each lit top walks its cheapest way, a dearer way that
    never goes lower is a target of its own, and in step after each block the stone may go on
    lays it, all ready to send and legal; the words say which ladder and where the stone
    goes, in French too."""
    table = started(client, LOWER_OR_LADDER_SEED)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    for seat, move in LOWER_OR_LADDER:
        assert table.post_move(seat, move).status_code == 200, move
    page = phone(app.test_client(), table, 1)
    opening = ask_of(pick(page, table, {}))
    legal = table.moves(1)
    seconds = opening["ways"].split()
    assert sorted(way.rsplit(",", 1)[1] for way in seconds) == ["long", "long"]
    assert {",".join(way.split(",")[:2]) for way in seconds} == {"-2,-1", "-2,-2"}
    for made, said in zip(opening["way-moves"].split("|"), opening["way-names"].split("|"),
                          strict=True):
        assert json.loads(made.split(" ")[0]) in legal
        assert said.endswith("with the long ladder, never lower than you began")
    at = [",".join(square.split(",")[:2]) for square in opening["reach"].split()].index("-2,-1")
    assert opening["reach-ladders"].split("|")[at] == "short"
    assert opening["reach-names"].split("|")[at].endswith(
        "with the short ladder, going lower than you began")
    assert "stones" not in opening  # before the block move: no stone yet
    way = json.loads(opening["way-moves"].split("|")[0].split(" ")[0])
    assert table.post_move(1, way).status_code == 200
    # a stone still unused, after the block move
    table = started(client)
    assert table.post_move(0, {"type": "built"}).status_code == 200
    assert table.post_move(0, {"type": "pass"}).status_code == 200
    page = phone(app.test_client(), table, 0)
    after = ask_of(pick(page, table, {}))
    stones = [m["block"] for m in table.moves(0) if m["type"] == "stone"]
    assert stones and after["stones"].split() == stones
    assert [json.loads(made.split(" ")[0]) for made in after["stone-moves"].split("|")] == \
        [{"type": "stone", "block": block} for block in stones]
    assert all(said.startswith("Place your blocking stone on the ")
               for said in after["stone-names"].split("|"))
    assert after["stone-colour"] == table.view(0)["view"]["colours"][0]
    page.set_cookie("lang", "fr")
    french = pick(page, table, {})
    assert "<h2>Toucher un bloc marqué d’une pierre y pose votre pierre de blocage.</h2>" in french
    assert all(said.startswith("Poser ma pierre de blocage sur ")
               for said in ask_of(french)["stone-names"].split("|"))
