"""Heuchel & Meuchel's ladder once a stack is chosen: every square answers a tap, with the
move it shows or the rule that forbids it; and a stack chosen anew is asked anew how many
of its cards move."""

from __future__ import annotations

import html
import json
import re
from typing import Any

from companion.web.services import services
from support.strategies.heuchel_meuchel import choose
from tests.web.hostile_kit import Seated, play_api, snapshot

GAME = "heuchel-meuchel"
#: With three players and support/strategies/heuchel_meuchel.py, this deal's third move finds
#: seat 2 with a three-card stack on row 1 whose top card may land on rows 3, 5 or 7, and other
#: stacks.
SEED = 5
RUNG = re.compile(r'<li class="rung[^"]*" data-row="(\d+)"[^>]*>(.*?)</li>', re.S)
GET = re.compile(r'hx-get="([^"]+)"')
RULE = re.compile(r'id="notice"[^>]*data-rule="([^"]+)"')
KEY = re.compile(r'<section id="picker"[^>]*data-key="([^"]*)"')


def choosing_a_tall_stack(seated: Seated) -> tuple[int, int, int]:
    """Play by the shared strategy until a seat's stack of several cards may move its top
    card to more than one square: (the seat, that stack's row, another movable stack's)."""
    table = seated.table
    for _ in range(100):
        with table.lock:
            state = table.match.state
            movers = [seat for seat in range(seated.players) if table.match.moves_for(seat)
                      and not all(m["type"] == "lift" for m in table.match.moves_for(seat))]
            seat = movers[0]
            moves = table.match.moves_for(seat)
        if state["phase"] == "move":
            counts: dict[int, set[int]] = {}
            landings: dict[int, set[int]] = {}
            for move in moves:
                counts.setdefault(move["row"], set()).add(move["count"])
                if move["count"] == 1:
                    landings.setdefault(move["row"], set()).add(move["to"])
            tall = [row for row in counts if len(counts[row]) > 1 and len(landings[row]) > 1]
            if tall and len(counts) > 1:
                return seat, tall[0], next(row for row in counts if row != tall[0])
        with table.lock:
            move = choose(table.match.view_for(seat), moves)
        play_api(seated, seat, move)
    raise AssertionError("no such position")


def rungs(page: str) -> dict[int, str]:
    """Each rung of the ladder a page or an answer draws, by row."""
    return {int(row): body for row, body in RUNG.findall(page)}


def tap(phone: Any, body: str) -> str:
    """The answer to a tap on the button a rung (or a picker's option) draws."""
    found = GET.search(body)
    assert found, body
    response = phone.get(html.unescape(found.group(1)), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.get_data(True)


def picker_option(answer: str, value: int) -> str:
    found = re.search(rf'<button class="option"[^>]*data-value="{value}"[^>]*>', answer)
    assert found, answer
    return found.group(0)


def test_every_square_a_chosen_stack_may_not_reach_names_the_rule(app):
    seated = Seated(app, GAME, seed=SEED)
    seat, row, _ = choosing_a_tall_stack(seated)
    phone = seated.phones[seat]
    refusals = {rule for rule, clause in services(app).games[GAME].clauses.items()
                if clause.get("refusal") and not rule.endswith(".malformed")}
    page = phone.get(f"/t/{seated.code}/play").get_data(True)
    asked = tap(phone, rungs(page)[row])
    assert KEY.search(asked).group(1) == "count"
    answer = tap(phone, picker_option(asked, 1))
    assert KEY.search(answer).group(1) == "to"
    ladder = rungs(answer)
    offered = {row for row, body in ladder.items() if 'class="landing"' in body}
    assert offered and len(offered) < len(ladder)
    named = set()
    for row, body in ladder.items():
        if row in offered:
            continue
        before = snapshot(seated.table)
        said = tap(phone, body)  # no button at all: a silent square
        assert snapshot(seated.table) == before
        rule = RULE.search(said)
        if rule is None:  # another stack of the column that may move: chosen anew
            assert 'class="stackbtn' in body and KEY.search(said), (row, said[:300])
            continue
        assert rule.group(1) in refusals, (row, rule.group(1))
        named.add(rule.group(1))
    assert {"hm.move.jump-ends", "hm.move.goal-limit"} <= named, named  # past a landing, a goal


def test_a_stack_chosen_anew_is_asked_again_how_many_cards_move(app):
    seated = Seated(app, GAME, seed=SEED)
    seat, row, other = choosing_a_tall_stack(seated)
    phone = seated.phones[seat]
    page = phone.get(f"/t/{seated.code}/play").get_data(True)
    answer = tap(phone, picker_option(tap(phone, rungs(page)[row]), 1))  # its top card
    assert KEY.search(answer).group(1) == "to"
    answer = tap(phone, rungs(answer)[other])  # another stack
    assert KEY.search(answer).group(1) != "count"
    answer = tap(phone, rungs(answer)[row])  # the first again
    assert KEY.search(answer).group(1) == "count"
    assert json.loads(html.unescape(re.search(r'data-step="(\d+)"', answer).group(1))) == 1
