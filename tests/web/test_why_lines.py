"""Every "why" a player reads says what happened, rightly and completely: a piece sent back
by an event space is said to go back, and the card's account shows where it landed; a
rule without its case's numbers is said in general, never with a gap; a Heuchel & Meuchel
jump says what it jumped; a SkyRunner round's reveal is a line of its own, not under the
last player to choose."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from flask import Flask, render_template, render_template_string

from companion.games.seventh_heaven import SeventhHeaven
from companion.games.seventh_heaven.data import CARDS
from support.reading import shown_text, unreadable
from tests.conftest import ApiTable

G = SeventhHeaven()
SEATS = [{"name": name} for name in ("Ana", "Ben", "Chloé", "Dev")]
EFFECT = ('{% import "games/seventh-heaven/describe.html" as describe %}'
          "{% for e in effects %}<p>{{ describe.effect(e, view, seats, none) }}</p>{% endfor %}")


def red(value: int) -> int:
    return next(card["id"] for card in CARDS
                if card["kind"] == "number" and card["colour"] == "red"
                and card["value"] == value)


def played(red_at: int, value: int) -> dict[str, Any]:
    """Ana plays red +``value`` with the red piece on ``red_at``: the state after."""
    state = G.setup(4, {}, 7)
    state["first_card"], state["turn"] = False, 0
    state["hands"]["0"] = [red(value), *state["hands"]["0"][:3]]
    state["pieces"]["red"] = red_at
    return G.apply(state, 0, {"type": "move", "card": red(value), "piece": "red"})


def words(app: Flask, lang: str, html: str) -> str:
    text = " ".join(shown_text(html).split())
    assert not unreadable(text, lang), unreadable(text, lang)
    return text


def drawn(app: Flask, lang: str, state: dict[str, Any], template: str | None = None) -> str:
    context = {"view": G.view(state, None), "seats": SEATS, "game_id": "seventh-heaven",
               "effects": state["effects"]}
    with app.test_request_context(headers={"Accept-Language": lang}):
        html = render_template(template, **context) if template else \
            render_template_string(EFFECT, **context)
    return words(app, lang, html)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "red landed on The First Quarrel (space 13) and went back to space 10."),
    ("fr", "Le pion rouge, arrivé sur La Première Querelle (case 13), recule jusqu’à la "
           "case 10."),
])
def test_a_piece_sent_back_by_the_quarrel_is_said_to_go_back(app, lang, said):
    after = played(11, 2)
    assert after["last"]["moves"] == [{"piece": "red", "from": 11, "via": 13, "to": 10}]
    assert said in drawn(app, lang, after)
    assert "11 → 13 → 10" in drawn(app, lang, after, "games/seventh-heaven/last.html")


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "red landed on The First Kiss (space 2) and went on to space 5."),
    ("fr", "Le pion rouge, arrivé sur Le Premier Baiser (case 2), avance jusqu’à la case 5."),
])
def test_a_piece_sent_on_by_the_first_kiss_is_said_to_go_on(app, lang, said):
    after = played(0, 2)
    assert said in drawn(app, lang, after)
    assert "0 → 2 → 5" in drawn(app, lang, after, "games/seventh-heaven/last.html")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_swap_space_is_named_once(app, lang):
    after = played(1, 3)  # the Disco, space 4: a swap is due
    log = drawn(app, lang, after)
    last = drawn(app, lang, after, "games/seventh-heaven/last.html")
    name = "The Dance in the Disco" if lang == "en" else "La danse dans la discothèque"
    assert f"{name} ({'space' if lang == 'en' else 'case'} 4)" in log
    assert not re.search(r"(Space|Case) 4\W+(Space|Case) 4", last), last


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_rule_without_the_cases_numbers_is_said_in_general(app, lang):
    """The Mushroom's and the Three cards' rules, as a card's account and the log say them:
    no "(… is not allowed)"."""
    state = played(0, 1)
    for rule in ("7h.mushroom.count", "7h.three-cards.discard", "7h.foot.steps"):
        state["effects"] = [{"rule": rule}]
        state["last"]["rules"] = [rule]
        for text in (drawn(app, lang, state),
                     drawn(app, lang, state, "games/seventh-heaven/last.html")):
            assert "…" not in text and "allowed" not in text, text


def test_a_heuchel_meuchel_jump_says_what_it_jumped(client):
    table = ApiTable.started(client, game="heuchel-meuchel", players=3, seed=2)
    rng = random.Random(2)
    for _ in range(300):
        found = next(((seat, moves) for seat in range(3)
                      if (moves := [m for m in table.moves(seat) if m["type"] != "lift"])),
                     None)
        assert found is not None
        assert table.post_move(found[0], rng.choice(found[1])).status_code == 200
        entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
        jump = next((effect for effect in entries[-1]["effects"]
                     if effect["rule"] == "hm.move.upward"), None)
        if jump is not None:
            break
    assert jump is not None, "no jump in 300 moves"
    move = entries[-1]["move"]
    assert all(move["row"] < row < move["to"] for row in jump["rows"])
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    line = screen[screen.index(f'id="log-{entries[-1]["seq"]}"'):]
    line = " ".join(shown_text(line[:line.index("</li>")]).split())
    rows = " and ".join(map(str, jump["rows"])) if len(jump["rows"]) < 3 else None
    assert "Jumped over the cards on row" in line, line
    assert rows is None or rows in line
    assert "Why: Moving up" in line


def test_a_skyrunner_reveal_is_a_line_of_its_own(client):
    table = ApiTable.started(client, game="skyrunner", players=3, seed=4)
    rng = random.Random(1)
    for _ in range(60):
        for seat in range(3):
            view, moves = table.view(seat)["view"], table.moves(seat)
            if moves and not (view["phase"] == "choose" and view.get("choice")):
                assert table.post_move(seat, rng.choice(moves)).status_code == 200
                break
        entries = client.get(f"/api/tables/{table.code}/log").get_json()["entries"]
        won = [entry for entry in entries
               if any(effect.get("kind") == "won" for effect in entry["effects"])]
        if won:
            break
    entry = won[-1]
    assert entry["effects"][0] == {"rule": "sr.round.reveal", "kind": "reveal",
                                   "starts_line": True}
    chooser = ("Ana", "Ben", "Chloé")[entry["seat"]]
    screen = client.get(f"/t/{table.code}/screen").get_data(as_text=True)
    line = screen[screen.index(f'id="log-{entry["seq"]}"'):]
    line = line[:line.index("</li>")]
    round_line, own_line = line.split('<span class="log-round">', 1)[1].split(
        f"<strong>{chooser}</strong>", 1)
    round_text = " ".join(shown_text(round_line).split())
    assert round_text.startswith("Every card chosen is revealed. Why: The reveal")
    assert "wins the card on offer. Why: Bidding" in round_text
    assert "wins" not in own_line and "has chosen a card" in own_line


@pytest.mark.parametrize(("lang", "said"), [
    ("en", ["Ben drops from level 2, lane 1 to the ground.", "Ana climbs onto the roof.",
            "Ana climbs to level 3, lane 2."]),
    ("fr", ["Ben descend du niveau 2, voie 1, jusqu’au sol.", "Ana grimpe sur le toit.",
            "Ana grimpe au niveau 3, voie 2."]),
])
def test_a_skyrunner_climb_or_drop_names_where_it_ends(app, lang, said):
    events = [{"kind": "fall", "seat": 1, "falls": [
                  {"seat": 1, "from": {"level": 2, "lane": 1}, "to": {"level": 0, "lane": 0}}]},
              {"kind": "climb", "seat": 0, "end": {"level": 9, "lane": 1}, "equipment": 0},
              {"kind": "climb", "seat": 0, "end": {"level": 3, "lane": 2}, "equipment": 0}]
    source = ('{% import "games/skyrunner/describe.html" as describe %}'
              "{% for e in events %}<p>{{ describe.event(e, view, seats) }}</p>{% endfor %}")
    with app.test_request_context(headers={"Accept-Language": lang}):
        html = render_template_string(source, events=events, view={"roof": 9},
                                      seats=SEATS, game_id="skyrunner")
    text = words(app, lang, html)
    assert all(sentence in text for sentence in said), text


def test_the_heart_is_explained_once():
    """The Heart's swap names its rule; the card's note does not say it a second time."""
    heart = next(card["id"] for card in CARDS if card["special"] == "heart")
    state = G.setup(4, {}, 7)
    state["first_card"], state["turn"] = False, 0
    state["hands"]["0"] = [heart, *state["hands"]["0"][:3]]
    move = next(m for m in G.legal_moves(state, 0) if m.get("card") == heart)
    after = G.apply(state, 0, move)
    assert [effect["rule"] for effect in after["effects"]].count("7h.heart") == 1
