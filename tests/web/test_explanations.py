"""Every dimmed card, stack, square or block a phone shows says which rule stops it.

Seeded playouts of every game: after each move, every seat's page is read for the things it
shows dimmed (an ``hx-get`` to ``/explain``, or a block of The Climbers' tower that the
question does not light, which static/js/games/climbers/taps.js asks about the same way), and
each is asked. The answer is a notice naming a rule the game marks as a refusal, in the
players' terms (in English and in French by turns, with nothing a player should not read: no clause
id, no source in the other language): never a shape error, never a 500, and the table
unchanged."""

from __future__ import annotations

import html
import json
import random
import re

import pytest

from companion.web.games import GAMES as REGISTERED
from companion.web.services import services
from support.reading import shown_text, unreadable
from tests.web.hostile_kit import Seated, random_move, snapshot

EXPLAIN = re.compile(r'hx-get="(/t/[A-Z0-9]+/explain\?pick=[^"]*)"')
ASK = re.compile(r'<div id="cl-ask" hidden ([^>]*)>')
ATTRIBUTE = re.compile(r'data-([\w-]+)="([^"]*)"')
TOWER_BLOCK = re.compile(r'<i id="tb-\w+" data-b="(\w+) ')
RULE = re.compile(r'id="notice"[^>]*data-rule="([^"]+)"')
#: A deal per game that shows many dimmed things early; any other game plays deal 5.
SEEDS = {"heuchel-meuchel": 6, "skyrunner": 7, "climbers": 8}
MOVES = {"heuchel-meuchel": 70, "climbers": 24}
#: Platform answers a dimmed thing may give: the game not running; a card at rest beside a
#: choice made, which changes only once the player asks to.
PLATFORM = {"table.not-playing", "table.choice-stands"}


def explain_urls(page: str, blocks: list[str] | None = None) -> list[str]:
    """What the page's dimmed things ask when tapped; ``blocks``: The Climbers' tower, when
    the page does not carry it."""
    urls = [html.unescape(url) for url in EXPLAIN.findall(page)]
    blocks = TOWER_BLOCK.findall(page) or blocks or []
    for attributes in ASK.findall(page):
        ask = {name: html.unescape(value) for name, value in ATTRIBUTE.findall(attributes)}
        if "block-pick" not in ask:
            continue
        lit = set(ask.get("lit", "").split())
        for block in blocks:
            if block not in lit:
                pick = dict(json.loads(ask["block-pick"]), block=block)
                urls.append(f"{ask['why']}?pick={json.dumps(pick)}")
    return urls


@pytest.mark.parametrize("game", [spec.id for spec in REGISTERED])
def test_every_dimmed_thing_on_a_phone_says_which_rule_stops_it(app, game):
    seed = SEEDS.get(game, 5)
    seated = Seated(app, game, seed=seed)
    rng = random.Random(seed)
    refusals = {rule for rule, clause in services(app).games[game].clauses.items()
                if clause.get("refusal") and not rule.endswith(".malformed")}
    allowed = refusals | PLATFORM
    asked: dict[str, int] = {}
    for _ in range(MOVES.get(game, 40)):
        for seat, phone in enumerate(seated.phones):
            page = phone.get(f"/t/{seated.code}/play").get_data(True)
            urls = [(url, True) for url in explain_urls(page)]
            tower = TOWER_BLOCK.findall(page)
            if game == "climbers":  # its map asks once "walk", "move a block" or a block
                with seated.table.lock:  # is tapped
                    moves = seated.table.match.moves_for(seat)
                picks = [{"type": kind} for kind in sorted({move["type"] for move in moves})]
                blocks = [move for move in moves if "top" in move]
                if blocks:
                    move = rng.choice(blocks)
                    picks.append({"type": move["type"], "block": move["block"]})
                    picks.append({key: move[key] for key in ("type", "block", "top", "long")})
                urls += [(url, False) for pick in picks for url in explain_urls(
                    phone.get(f"/t/{seated.code}/pick",
                              query_string={"pick": json.dumps(pick)}).get_data(True), tower)]
            for url, from_page in rng.sample(urls, min(4, len(urls))):
                before = snapshot(seated.table)
                lang = ("en", "fr")[sum(asked.values()) % 2]
                response = phone.get(url, headers={"HX-Request": "true", "Accept-Language": lang})
                assert response.status_code == 200, url
                answer = response.get_data(True)
                found = RULE.search(answer)
                assert found, (url, from_page, answer[:300])
                assert not unreadable(shown_text(answer), lang), (url, lang, answer)
                assert found.group(1) in allowed, (url, found.group(1))
                assert snapshot(seated.table) == before
                asked[found.group(1)] = asked.get(found.group(1), 0) + 1
        move = random_move(seated.table, rng)
        if move is None:
            break
        assert seated.api.post_move(*move, seq=seated.table.match.seq).status_code == 200
    assert sum(asked.values()) >= 10, asked
    assert len(asked) >= 2, asked
