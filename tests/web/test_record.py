"""The game's record, read from any phone: every line of the log opens its move on its own
("This move") by its reader's own numbers, with the table just before and just after it as
stored, and the rules the engine held the move to, each with the rulebook's sentence and a
link to its page; nothing on it tells a reader a secret; and the host's whole log reaches
the first move of a long game, each line with its rewind."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest

from companion.web.clauses import clause_page
from companion.web.record import LOG_PAGE
from companion.web.services import services
from support.reading import shown_text, unreadable
from tests.conftest import ApiTable
from tests.web.hostile_kit import Seated, card_ids, data_cards, move_card_ids, random_move
from tests.web.test_leaks import changed_in_secret, normalised
from tests.web.test_rewind import effective, hidden, host_page, seated

GAMES = ("seventh-heaven", "heuchel-meuchel", "skyrunner", "climbers")
#: Moves played before reading the record: Heuchel & Meuchel's set-up takes some 45.
PLAYED = {"heuchel-meuchel": 60, "climbers": 12}
LINK = re.compile(r'<a class="this-move" href="(/t/\w+/(?:play/)?moves/(\d+))"')


def line_said(page: str, number: int | str) -> str:
    """What the line ``log-<number>`` of a page says, without its own tap's hidden words."""
    found = re.search(rf'<li id="log-{number}".*?</li>', page, re.S)
    line = re.sub(r'<a class="this-move".*?</a>', "", found.group(0)) if found else ""
    return " ".join(shown_text(line).split())


# --- reading the pictures --------------------------------------------------------------------

def section(page: str, at: str) -> str:
    """The picture of the table ``at`` "before" or "after" the move, as the page draws it."""
    found = re.search(rf'<div class="board moment-board" data-at="{at}">(.*?)</section>',
                      page, re.S)
    assert found is not None, f"no picture {at} the move"
    return found.group(1)


def pictured(game: str, picture: str) -> Any:
    """What a picture shows of the table, in the terms ``stored`` reads from a view: where
    the pieces, stacks, climbers or blocks are."""
    if game == "seventh-heaven":
        spaces = re.split(r'<g id="sp-(\d+)"', picture)[1:]
        return {(colour, int(space)) for space, inside in zip(spaces[::2], spaces[1::2],
                                                             strict=True)
                for colour in re.findall(r"pawn-g c-([\w-]+)", inside)}
    if game == "heuchel-meuchel":
        return {(int(c), int(row), int(card)) for c, row, card in re.findall(
            r'<g id="sq-(\d+)-(\d+)"[^>]*>(?:(?!</g>).)*?data-card="(\d+)"', picture, re.S)}
    if game == "skyrunner":
        label = re.search(r'<svg class="sr-wall"[^>]*aria-label="([^"]*)"', picture)
        assert label is not None
        return [int(level) for level in re.findall(r"on level (-?\d+)", html.unescape(
            label.group(1)))]
    return {tuple(record.split()[:5]) for record in re.findall(r'data-b="([^"]*)"', picture)}


def stored(game: str, view: dict[str, Any]) -> Any:
    """What the table's view of a stored state says of the same things as ``pictured``."""
    if game == "seventh-heaven":
        return set(view["pieces"].items())
    if game == "heuchel-meuchel":
        return {(c, row, square["top"]["id"]) for c, column in enumerate(view["board"], 1)
                for row, square in enumerate(column, 1) if square and square.get("top")}
    if game == "skyrunner":
        return [at["level"] for at in view["positions"].values()]
    return {(block["id"], block["kind"], str(block["x"]), str(block["y"]), str(block["z"]))
            for block in view["blocks"]}


def stored_around(app, code: str, number: int, viewer: int | None) -> tuple[Any, Any, Any]:
    """The entry ``viewer`` numbers ``number``, and the table's views of the states the
    server stored just before and just after it (a move taken back: applied again)."""
    table = services(app).tables.get(code)
    with table.lock:
        seq = table.match.entry_seq(number, viewer)
        entry = next(entry for entry in table.match.log if entry.seq == seq)
        before = table.match.befores[seq]
        after = next((step.after for step in table.match.steps if step.entry.seq == seq), None) \
            or table.game.apply(before, entry.mover, entry.move)
        return entry, table.game.view(before, None), table.game.view(after, None)


def playing(client, game: str, played: int | None = None, players: int = 3,
            seed: int = 5) -> ApiTable:
    table = ApiTable.started(client, game=game, players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(PLAYED.get(game, 24) if played is None else played):
        found = random_move(services(client.application).tables.get(table.code), rng)
        if found is None:
            break
        assert table.post_move(*found).status_code == 200
    return table


# --- "This move" --------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_this_move_shows_the_stored_table_around_it_and_the_rules_it_was_held_to(
        client, game, lang):
    table = playing(client, game)
    phone = seated(client, table, 1)
    play = phone.get(f"/t/{table.code}/play", headers={"Accept-Language": lang}).get_data(True)
    links = LINK.findall(play)
    assert links and all(url == f"/t/{table.code}/play/moves/{n}" for url, n in links)
    engine = services(client.application).tables.get(table.code).game
    for url, number in links[:6]:
        page = phone.get(url, headers={"Accept-Language": lang}).get_data(True)
        number = int(number)
        # The line, as the log says it, and no tap of its own to open itself.
        assert line_said(play, number) and line_said(play, number) == line_said(page, number)
        assert not LINK.search(page.split('class="log record-line"')[1].split("</ol>")[0])
        entry, before, after = stored_around(client.application, table.code, number, 1)
        if lang == "en":  # the pictures' words are English: what they show is compared
            assert pictured(game, section(page, "before")) == stored(game, before)
            assert pictured(game, section(page, "after")) == stored(game, after)
        # Why it was allowed: each rule by its title, with the rulebook's sentence, in order.
        shown = engine.redact_move(services(client.application).tables.get(
            table.code).match.befores[entry.seq], entry.mover, entry.move, 1)
        expected: dict[tuple[str, str], str] = {}
        with client.application.app_context():
            for rule in engine.checked(before, entry.mover, shown):
                clause = clause_page(services(client.application).games[game], rule, lang)
                assert clause is not None and clause["quote"]
                expected.setdefault((clause["title"], clause["quote"]),
                                    f"/rules/{game}/{rule}?table={table.code}")
        listed = [(html.unescape(url), html.unescape(title), html.unescape(quote))
                  for url, title, quote in re.findall(
                      r'<a class="rule-title" href="([^"]*)">([^<]*)</a>.*?<blockquote>'
                      r'([^<]*)</blockquote>', page.split('id="checked"')[1], re.S)]
        assert listed == [(url, title, quote) for (title, quote), url in expected.items()]
        assert not unreadable(" ".join(shown_text(page).split()), lang)


def test_each_line_opens_its_move_by_its_readers_own_numbers(app):
    """Seat 0 changed its SkyRunner choice in secret at one of two tables dealt alike: its
    numbers run one ahead of the others' there. Each reader's lines open its own entries;
    a number the reader has no move for is no page; and seat 1 and the table screen read
    the same record at both tables."""
    once, changed = changed_in_secret(app)
    for seated_at in (once, changed):
        for viewer, reader in ((0, seated_at.phones[0]), (1, seated_at.phones[1]),
                               (None, seated_at.stranger)):
            own = "" if viewer is None else "play/"
            page = reader.get(f"/t/{seated_at.code}/{'screen' if viewer is None else 'play'}")
            links = LINK.findall(page.get_data(True))
            assert links
            for url, number in links:
                assert url == f"/t/{seated_at.code}/{own}moves/{number}"
                said = [line_said(text, number)
                        for text in (page.get_data(True), reader.get(url).get_data(True))]
                assert said[0] and said[0] == said[1], (viewer, number, said)
    last_of_seat_0 = changed.table.match.seq_for(0)
    assert last_of_seat_0 == changed.table.match.seq_for(1) + 1
    assert changed.phones[0].get(f"/t/{changed.code}/play/moves/{last_of_seat_0}").status_code \
        == 200
    assert changed.phones[1].get(f"/t/{changed.code}/play/moves/{last_of_seat_0}").status_code \
        == 404
    for viewer, path in ((1, "play/"), (2, "play/"), (None, "")):
        for number in range(1, changed.table.match.seq_for(viewer) + 1):
            pages = [normalised((seated_at.phones[viewer] if viewer is not None else
                                 seated_at.stranger).get(
                f"/t/{seated_at.code}/{path}moves/{number}").get_data(True), seated_at.code)
                     for seated_at in (once, changed)]
            assert pages[0] == pages[1], (viewer, number)
    # Seat 0 reads its own choice on its page of it; seat 1, that a card was chosen.
    own = changed.phones[0].get(f"/t/{changed.code}/play/moves/{last_of_seat_0}").get_data(True)
    chosen = changed.table.match.state["choices"]["0"]
    number_at_1 = changed.table.match.number_of(
        changed.table.match.entry_seq(last_of_seat_0 - 1, 0), 1)
    theirs = changed.phones[1].get(f"/t/{changed.code}/play/moves/{number_at_1}").get_data(True)
    assert " chose " in shown_text(own) and "has chosen a card" in shown_text(theirs)
    assert f'data-card="{chosen}"' not in "".join(
        changed.phones[1].get(f"/t/{changed.code}/play/moves/{n}").get_data(True)
        for n in range(1, changed.table.match.seq_for(1) + 1))


@pytest.mark.parametrize("game", GAMES)
def test_this_move_draws_no_card_its_reader_could_not_see_then(app, game):
    """Every move of a seeded game, read by every seat and the table screen: the cards its
    page draws are those of the table's views around the move, and those the move itself
    names as the reader's log shows it: no hand, no secret."""
    seated_at = Seated(app, game, seed=31)
    rng = random.Random(31)
    for _ in range(PLAYED.get(game, 24)):
        found = random_move(seated_at.table, rng)
        if found is None:
            break
        assert seated_at.api.post_move(*found, seq=seated_at.table.match.seq).status_code == 200
    table = seated_at.table
    read = 0
    for viewer in (*range(seated_at.players), None):
        reader = seated_at.stranger if viewer is None else seated_at.phones[viewer]
        for item in table.match.log_for(viewer):
            if item["kind"] != "move":
                continue
            page = reader.get(f"/t/{seated_at.code}/{'' if viewer is None else 'play/'}"
                              f"moves/{item['seq']}").get_data(True)
            _, before, after = stored_around(app, seated_at.code, item["seq"], viewer)
            allowed = card_ids(before) | card_ids(after) | move_card_ids(item["move"])
            assert data_cards(page) <= allowed, (viewer, item, data_cards(page) - allowed)
            read += 1
    assert read >= 40


def test_a_move_taken_back_is_shown_as_it_was(client):
    table = playing(client, "seventh-heaven", played=5)
    screen = client.application.test_client()
    before_undo = screen.get(f"/t/{table.code}/moves/5").get_data(True)
    page = host_page(client, table)
    assert client.post(f"/t/{table.code}/host-undo",
                       data={"undo": hidden(page, "undo")}).status_code == 303
    log = screen.get(f"/t/{table.code}/screen").get_data(True)
    assert f'href="/t/{table.code}/moves/5"' in log.split('id="log-6"')[1].split("</li>")[0]
    after_undo = screen.get(f"/t/{table.code}/moves/5").get_data(True)
    assert section(after_undo, "after") == section(before_undo, "after")
    assert section(after_undo, "before") == section(before_undo, "before")
    assert "It was taken back since" in after_undo and "taken back" in after_undo


def test_a_record_page_answers_only_a_move_of_its_readers_log(client):
    table = playing(client, "seventh-heaven", played=3)
    reader = seated(client, table, 2)
    for number in (0, 4, 99):
        assert reader.get(f"/t/{table.code}/play/moves/{number}").status_code == 404
    assert reader.get(f"/t/{table.code}/play/moves/x").status_code == 404
    stranger = client.application.test_client()
    answer = stranger.get(f"/t/{table.code}/play/moves/1")
    assert answer.status_code == 303 and answer.headers["Location"].endswith(f"/j/{table.code}")
    assert stranger.get(f"/t/{table.code}/moves/1").status_code == 200  # the screen's
    assert stranger.get("/t/XXXX/moves/1").status_code == 404


# --- the whole log, and a rewind to the first move ----------------------------------------

def test_the_hosts_whole_log_rewinds_to_the_first_move_of_a_long_game(client):
    table = playing(client, "seventh-heaven", played=LOG_PAGE + 20, players=2)
    moves = effective(client, table)
    assert len(moves) == LOG_PAGE + 20
    screen = host_page(client, table)
    assert f'href="/t/{table.code}/log"' in screen  # the host's way to the whole log
    first = host_page(client, table, "log")
    assert first.count('class="rewind"') == LOG_PAGE
    last = host_page(client, table, "log?page=2")
    assert f'href="/t/{table.code}/rewind?to=1"' in last and 'id="log-1"' in last
    lines = [page.split('<ol class="log">')[1].split("</ol>")[0] for page in (first, last)]
    assert host_page(client, table, "log?page=99").count(lines[1]) == 1  # past the end
    assert host_page(client, table, "log?page=x").count(lines[0]) == 1
    # Nobody else is offered a rewind: the screen's whole log and a phone's.
    plain = client.application.test_client().get(f"/t/{table.code}/log?page=2").get_data(True)
    assert "/rewind" not in plain and f'href="/t/{table.code}/moves/1"' in plain
    phone = seated(client, table, 0)
    own = phone.get(f"/t/{table.code}/play/log?page=2").get_data(True)
    assert "/rewind" not in own and f'href="/t/{table.code}/play/moves/1"' in own
    assert f'href="/t/{table.code}/play/log"' in phone.get(f"/t/{table.code}/play").get_data(
        True)

    confirm = host_page(client, table, "rewind?to=1")
    assert f"Take back these {len(moves)} moves for everyone?" in confirm
    done = client.post(f"/t/{table.code}/rewind",
                       data={"to": hidden(confirm, "to"), "last": hidden(confirm, "last")})
    assert done.status_code == 303 and effective(client, table) == []
    assert table.view()["view"] == json.loads(json.dumps(
        services(client.application).tables.get(table.code).game.view(
            services(client.application).tables.get(table.code).match.initial, None)))


@pytest.mark.server_errors  # High Card's ``glitch``: its board and lines raise, on purpose
def test_this_move_whose_pictures_cannot_be_drawn_still_answers(app, caplog):
    client = app.test_client()
    table = ApiTable(client, game="high-card", players=2, seed=5,
                     options={"glitch": True}).join_all()
    table.start(first_seat=0)
    seat, moves = table.seat_to_move()
    assert table.post_move(seat, moves[0]).status_code == 200
    page = seated(client, table, 1).get(f"/t/{table.code}/play/moves/1")
    assert page.status_code == 200
    text = page.get_data(True)
    assert text.count("This part of the table could not be shown.") == 2
    assert "This line could not be shown." in text and 'id="checked"' in text
    assert "could not draw picture before a move" in caplog.text
