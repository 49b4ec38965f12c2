"""Tonight's plays, taken home (README, "Take the night home"): a night of whole games of
every game, played through the app by seeded players (``NIGHT``), then its exports read as
BG Stats, a spreadsheet and BoardGameGeek would read them, each against a real sample of its
format (``tests/samples``, where each came from is said there): field names, nesting, value
types. Names hold accents and commas, places are shared, and the host frees a seat in the
middle of one game and lets a newcomer in: the exports name both, as the log does.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit
from xml.etree import ElementTree

import pytest
from flask import Flask
from flask.testing import FlaskClient

import companion.tables
from companion.live import Connection
from companion.web.services import services
from support.pushing import render_for
from support.strategies import climbers, heuchel_meuchel, skyrunner
from tests.conftest import ApiTable, bearer, make_app
from tests.web.test_region_memo import fresh

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
#: The night: each game with its players' names and its seed (the first player is the seed's
#: seat). The names hold commas and accents; with its seed, Heuchel & Meuchel ends with the
#: first two seats sharing the win (24 points each).
NIGHT = (
    ("seventh-heaven", ("Ana, María", "Bérénice", "Ødegård", "Zoé d’Arc"), 11),
    ("heuchel-meuchel", ("Ana, María", "Chloé", "Jürgen"), 21),
    ("skyrunner", ("Bérénice", "Ødegård", "Zoé d’Arc"), 23),
    ("climbers", ("Chloé", "Ana, María"), 8),
)
#: In Heuchel & Meuchel, once this many moves are made after the set-up, the host frees the
#: seat whose turn it is and lets the newcomer in.
FREED_AFTER = 6
NEWCOMER = "Dana, la Grande"
MOVES_AT_MOST = 800


@dataclass
class Night:
    app: Flask
    #: The laptop's browser: it created every table (a host cookie each).
    host: FlaskClient
    #: Each game's table and a phone seated at its seat 0, by game (a game played again
    #: tonight: by game and seed).
    tables: dict[str, ApiTable] = field(default_factory=dict)
    phones: dict[str, FlaskClient] = field(default_factory=dict)
    #: Heuchel & Meuchel's freed seat: (seat, who was freed).
    freed: tuple[int, str] = (0, "")


def acting(table: ApiTable, game: str) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    """The first seat with something to do (not one waiting on the others: a seat done
    placing its cards, a SkyRunner choice made)."""
    for seat in range(table.players):
        moves = table.moves(seat)
        view = table.view(seat)["view"] if moves else {}
        waiting = (game == "heuchel-meuchel" and all(m["type"] == "lift" for m in moves)) or \
            (game == "skyrunner" and view.get("phase") == "choose" and view.get("choice"))
        if moves and not waiting:
            return seat, view, moves
    raise AssertionError(f"{game}: nobody has anything to do and the game is not over")


def chosen(game: str, rng: random.Random, seat: int, view: dict[str, Any],
           moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The seeded players' move: the strategies the API tests play with."""
    if game == "climbers":
        return moves[0] if moves[0]["type"] == "built" else climbers.choose(view, seat, moves)
    if game == "heuchel-meuchel":
        return heuchel_meuchel.choose(view, moves)
    if game == "skyrunner":
        return skyrunner.choose(view, moves)
    return rng.choice(moves)


def free_and_let_in(night: Night, table: ApiTable, seat: int) -> None:
    """The host frees ``seat`` from the table screen; the newcomer asks for it on the join
    page and the host lets them in: the newcomer's phone plays it from then on."""
    code = table.code
    assert night.host.post(f"/t/{code}/free", data={"seat": seat}).status_code == 303
    newcomer = night.app.test_client()
    asked = newcomer.post(f"/j/{code}", data={"name": NEWCOMER, "seat": seat})
    assert asked.status_code == 303
    live = services(night.app).tables.get(code)
    (request_id,) = live.requests
    assert night.host.post(f"/t/{code}/admit", data={"request": request_id}).status_code == 303
    newcomer.get(f"/t/{code}/wait")
    cookie = newcomer.get_cookie(f"seat_{code}")
    assert cookie is not None
    table.tokens[seat] = cookie.value


def play_the_night(app: Flask, games: tuple[tuple[str, tuple[str, ...], int], ...] = NIGHT,
                   ) -> Night:
    """``games`` played one after the other, each to its end, the laptop's browser hosting
    them all."""
    night = Night(app, app.test_client())
    for game, names, seed in games:
        table = ApiTable(app.test_client(), game=game, players=len(names), seed=seed)
        table.join_all(names)
        table.start(first_seat=seed % len(names))
        night.host.set_cookie(f"host_{table.code}", table.host)
        rng, played, after_set_up = random.Random(seed), 0, None
        while table.view()["outcome"] is None:
            assert played < MOVES_AT_MOST, f"{game} did not end"
            seat, view, moves = acting(table, game)
            if game == "heuchel-meuchel" and table.view()["view"]["phase"] != "setup":
                after_set_up = played if after_set_up is None else after_set_up
                if played - after_set_up == FREED_AFTER:
                    night.freed = (seat, names[seat])
                    free_and_let_in(night, table, seat)
                    seat, view, moves = acting(table, game)
            response = table.post_move(seat, chosen(game, rng, seat, view, moves))
            assert response.status_code == 200, response.get_json()
            played += 1
        key = game if game not in night.tables else f"{game} {seed}"
        night.tables[key] = table
        phone = app.test_client()
        phone.set_cookie(f"seat_{table.code}", table.tokens[0])
        night.phones[key] = phone
    return night


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Night:
    app = make_app({"DATABASE": str(tmp_path_factory.mktemp("night") / "night.sqlite"),
                    "PUBLIC_HOST": "192.168.1.20", "RATE_BURST": 1e9})
    return play_the_night(app)


def download(client: FlaskClient, path: str, ending: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith("attachment;") and disposition.endswith(f'.{ending}"')
    return response.get_data(as_text=True)


def api_plays(night: Night) -> list[dict[str, Any]]:
    """Tonight's plays as the JSON API lists them to each table's host, oldest first."""
    plays = []
    for table in night.tables.values():
        answer = night.host.get("/api/night", headers=bearer(table.host))
        assert answer.status_code == 200
        plays += answer.get_json()["plays"]
    return sorted(plays, key=lambda play: play["ended_at"])


# --- what a sample says of its fields ---------------------------------------------------

def kind(value: Any) -> str:
    """A JSON value's kind, as a format's reader tells them apart (a number is a number)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return {str: "str", type(None): "null", list: "list", dict: "object"}[type(value)]


def fields(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Each field the records of a sample hold, with the kinds of value it takes there."""
    found: dict[str, set[str]] = {}
    for record in records:
        for key, value in record.items():
            found.setdefault(key, set()).add(kind(value))
    return found


def assert_like(records: list[dict[str, Any]], sample: list[dict[str, Any]], what: str) -> None:
    """Every field of ``records`` is a field of the sample's records, with a value of a kind
    the sample gives it."""
    known = fields(sample)
    for record in records:
        for key, value in record.items():
            assert key in known, f"{what}: {key!r} is no field of the sample"
            assert kind(value) in known[key], \
                f"{what}: {key!r} is {kind(value)} ({value!r}), the sample's {known[key]}"


STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


# --- BG Stats -----------------------------------------------------------------------------

def test_the_bg_stats_file_is_a_bg_stats_export(night):
    sample = json.loads((SAMPLES / "bgstats-export.json").read_text())
    exported = json.loads(download(night.host, "/night/plays.bgsplay", "bgsplay"))
    assert set(exported) <= set(sample) and {"games", "players", "plays"} <= set(exported)
    for part in ("games", "players", "locations", "plays"):
        assert_like(exported[part], sample[part], part)
    scores = [score for play in exported["plays"] for score in play["playerScores"]]
    assert_like(scores, [s for play in sample["plays"] for s in play["playerScores"]],
                "playerScores")
    assert_like([exported["userInfo"]], [sample["userInfo"]], "userInfo")
    # each reference holds, each id is BG Stats' kind of uuid, each date its kind of date
    ids = {part: {record["id"] for record in exported[part]}
           for part in ("games", "players", "locations")}
    for play in exported["plays"]:
        assert play["gameRefId"] in ids["games"] and play["locationRefId"] in ids["locations"]
        assert {s["playerRefId"] for s in play["playerScores"]} <= ids["players"]
        assert STAMP.match(play["playDate"]) and play["durationMin"] >= 1
    for record in [*exported["games"], *exported["players"], *exported["plays"]]:
        uuid.UUID(record["uuid"])
    assert {game["name"]: game["bggId"] for game in exported["games"]} == {
        "In 7th Heaven": 1914, "Heuchel & Meuchel": 0, "SkyRunner": 0, "The Climbers": 0}
    # the night's plays, in the order they ended, each seat in order with its result
    by_id = {player["id"]: player["name"] for player in exported["players"]}
    for play, listed in zip(exported["plays"], api_plays(night), strict=True):
        said = [(s["seatOrder"], by_id[s["playerRefId"]], s["score"], s["rank"], s["winner"])
                for s in play["playerScores"]]
        assert said == [(seat["seat"] + 1, name, str(seat["score"]), seat["place"],
                         seat["winner"]) for seat in listed["seats"] for name in seat["players"]]
        starters = [by_id[s["playerRefId"]] for s in play["playerScores"] if s["startPlayer"]]
        assert starters == [listed["seats"][listed["first_seat"]]["players"][0]]


def test_the_bg_stats_link_opens_this_play_in_bg_stats(night):
    """A phone at game over: "Add to my plays" holds the link BG Stats opens a play from."""
    sample = json.loads((SAMPLES / "bgstats-createplay.json").read_text())
    for game, table in night.tables.items():
        page = night.phones[game].get(f"/t/{table.code}/play").get_data(as_text=True)
        assert "Add to my plays" in page
        (link,) = re.findall(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?[^"]+)"',
                             page)
        assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
        data = json.loads(parse_qs(urlsplit(link.replace("&amp;", "&")).query)["data"][0])
        assert_like([data], [sample], "the link")
        assert_like([data["game"]], [sample["game"]], "the link's game")
        assert_like(data["players"], sample["players"], "the link's players")
        assert STAMP.match(data["playDate"])
        names = set(table.view()["outcome"]["names"].values())
        assert {player["name"] for player in data["players"]} >= names


def test_add_to_my_plays_downloads_this_play_alone(night):
    """Each phone (seat 0's: the newcomer's at Heuchel & Meuchel) takes its own game."""
    listed = {play["table"]: play for play in api_plays(night)}
    for game, table in night.tables.items():
        phone = night.phones[game]
        exported = json.loads(download(phone, f"/night/{table.code}-1/plays.bgsplay", "bgsplay"))
        assert len(exported["plays"]) == 1
        me = next(p for p in exported["players"] if p["id"] == exported["userInfo"]["meRefId"])
        assert me["name"] == listed[table.code]["seats"][0]["players"][-1], game
        rows = list(csv.DictReader(io.StringIO(
            download(phone, f"/night/{table.code}-1/plays.csv", "csv").lstrip("\ufeff"))))
        assert {row["table"] for row in rows} == {table.code}
        plays = ElementTree.fromstring(
            download(phone, f"/night/{table.code}-1/plays.xml", "xml")).findall("play")
        assert len(plays) == 1


NIGHT_NAMES = {game: names for game, names, _ in NIGHT}


# --- a spreadsheet ------------------------------------------------------------------------

def column_kinds(rows: list[dict[str, str]]) -> dict[str, set[str]]:
    """What each column of a CSV holds: whole numbers, empty cells, or words."""
    kinds: dict[str, set[str]] = {}
    for row in rows:
        for column, value in row.items():
            kinds.setdefault(column, set()).add(
                "empty" if value == "" else "number" if re.fullmatch(r"-?\d+", value)
                else "date" if re.fullmatch(r"\d{4}-\d\d-\d\d", value)
                else "time" if re.fullmatch(r"\d\d:\d\d", value) else "words")
    return kinds


def test_the_csv_has_one_row_per_player_per_play(night):
    sample = (SAMPLES / "night.csv").read_text(encoding="utf-8")
    text = download(night.host, "/night/plays.csv", "csv")
    assert text.startswith("\ufeff")  # a spreadsheet reads the accents as UTF-8
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    wanted = list(csv.DictReader(io.StringIO(sample)))
    assert list(rows[0]) == list(wanted[0])
    known = column_kinds(wanted)
    for column, kinds in column_kinds(rows).items():
        assert kinds <= known[column] | {"words"} if "words" in known[column] else \
            kinds <= known[column], f"{column}: {kinds}, the sample's {known[column]}"
    listed = api_plays(night)
    assert [(row["play"], int(row["seat"]), row["player"], row["score"], int(row["place"]),
             row["winner"]) for row in rows] == [
        (play["id"], seat["seat"] + 1, name, str(seat["score"]), seat["place"],
         str(int(seat["winner"]))) for play in listed for seat in play["seats"]
        for name in seat["players"]]
    assert "Ana, María" in {row["player"] for row in rows}


# --- BoardGameGeek ------------------------------------------------------------------------

def attributes(root: ElementTree.Element, tag: str) -> list[dict[str, str]]:
    return [dict(element.attrib) for element in root.iter(tag)]


def test_the_bgg_file_holds_bgg_s_play_fields(night):
    sample = ElementTree.parse(SAMPLES / "bgg-plays.xml").getroot()
    root = ElementTree.fromstring(download(night.host, "/night/plays.xml", "xml"))
    assert root.tag == sample.tag
    for tag in ("play", "item", "subtype", "player"):
        mine, theirs = attributes(root, tag), attributes(sample, tag)
        assert mine and all(set(one) == set(theirs[0]) for one in mine), tag
        numbers = {key for key, value in theirs[0].items() if re.fullmatch(r"\d+", value)}
        for one in mine:
            assert all(re.fullmatch(r"\d+", one[key]) for key in numbers - {"score"}), one
    for play, listed in zip(root.iter("play"), api_plays(night), strict=True):
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", play.get("date", ""))
        assert play.get("length") == str(listed["minutes"])
        players = [(p.get("name"), p.get("startposition"), p.get("win"))
                   for p in play.iter("player")]
        count = len(listed["seats"])
        assert sorted(players, key=lambda p: int(p[1])) == players  # in turn order
        assert sorted(players) == sorted(
            (name, str((seat["seat"] - listed["first_seat"]) % count + 1),
             str(int(seat["winner"]))) for seat in listed["seats"] for name in seat["players"])


def test_the_bgg_text_says_each_play_field_by_field(night):
    page = night.host.get("/night/bgg").get_data(as_text=True)
    text = re.search(r'<textarea[^>]*>(.*?)</textarea>', page, re.S).group(1)
    blocks = text.strip().split("\n\n")
    assert len(blocks) == len(NIGHT)
    assert blocks[0].splitlines()[0] == "In 7th Heaven, BoardGameGeek id 1914"
    assert "Start position 1: " in text and "Location: Table Companion" in text
    assert "Ana, María" in text  # escaped in the page, the name itself once read
    french = night.host.get("/night/bgg", headers={"Accept-Language": "fr"})
    assert "Position de départ 1 : " in french.get_data(as_text=True)


# --- who played ---------------------------------------------------------------------------

def test_a_freed_and_retaken_seat_names_both_players(night):
    seat, freed = night.freed
    table = night.tables["heuchel-meuchel"]
    (play,) = [p for p in api_plays(night) if p["table"] == table.code]
    assert play["seats"][seat]["players"] == [freed, NEWCOMER]
    names = [(s["seat"], s["players"]) for s in play["seats"]]
    assert names[seat] == (seat, [freed, NEWCOMER])
    rows = [row for row in csv.DictReader(io.StringIO(
        download(night.host, f"/night/{table.code}-1/plays.csv", "csv").lstrip("\ufeff")))
        if row["seat"] == str(seat + 1)]
    assert [row["player"] for row in rows] == [freed, NEWCOMER]
    assert len({(row["score"], row["place"]) for row in rows}) == 1
    page = night.host.get("/night").get_data(as_text=True)
    assert f"{freed} → {NEWCOMER}" in page.replace("&#39;", "'")
    # the game's whole log, every page of it, says so where it happened
    log = "".join(night.host.get(f"/night/{table.code}-1/log?page={page}").get_data(as_text=True)
                  for page in range(1, 4))
    assert f"The host freed {freed}’s seat." in log
    assert f"The host let {NEWCOMER} into {freed}’s seat." in log


def test_tied_seats_share_their_place(night):
    shared = [(play["game"], seat["place"]) for play in api_plays(night)
              for seat in play["seats"]
              if sum(s["place"] == seat["place"] for s in play["seats"]) > 1]
    assert shared, "the night's seeds end no game with a shared place"
    exported = json.loads(download(night.host, "/night/plays.bgsplay", "bgsplay"))
    ranks = [[s["rank"] for s in play["playerScores"]] for play in exported["plays"]]
    assert any(len(r) != len(set(r)) for r in ranks)


def test_nothing_but_what_the_table_screen_showed_is_exported(night):
    """Every word of the exports is a name, a game's or a colour's, the place, or a number,
    date or id: no card, no hand, no secret choice."""
    names = {name for names in NIGHT_NAMES.values() for name in names} | {NEWCOMER}
    words = names | {"In 7th Heaven", "Heuchel & Meuchel", "SkyRunner", "The Climbers",
                     "Table Companion", "Wolfgang Kramer", "Rudi Hoffmann", "Holger Lanz",
                     "Joel Sevelin, Erik Karlsson, Dan Glimne", "boardgame", "thing", ""}
    colour = re.compile(r"(Red|Dark blue|Yellow|Light blue|Violet|Blue|Green|Purple)$")
    number = re.compile(r"-?\d+|\d{4}-\d\d-\d\d( \d\d:\d\d:\d\d|T[\d:]+[+-]\d\d:\d\d)?$")

    def strings(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            for item in value.values():
                yield from strings(item)
        elif isinstance(value, list):
            for item in value:
                yield from strings(item)
        elif isinstance(value, str):
            yield value

    exported = json.loads(download(night.host, "/night/plays.bgsplay", "bgsplay"))
    said = set(strings(exported)) | set(strings(api_plays(night)))
    root = ElementTree.fromstring(download(night.host, "/night/plays.xml", "xml"))
    said |= {value for element in root.iter() for value in element.attrib.values()}
    ids = {play["id"] for play in api_plays(night)} | {t.code for t in night.tables.values()}
    unknown = {text for text in said if text not in words | ids and not colour.match(text)
               and not number.fullmatch(text) and not _is_uuid(text)
               and text not in {"heaven", "both-in-heaven", "places", "cards-out",
                                "all-home", "last-player", "roof", "last-chance", "tie-first",
                                "tie-last", "seventh-heaven", "heuchel-meuchel", "skyrunner",
                                "climbers"}}
    assert not unknown


def _is_uuid(text: str) -> bool:
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return True


# --- who may read them --------------------------------------------------------------------

def test_tonight_s_plays_go_only_to_who_hosted_or_played_them(night):
    table = night.tables["skyrunner"]
    stranger = night.app.test_client()
    assert "No game finished yet tonight" in stranger.get("/night").get_data(as_text=True)
    for path in (f"/night/{table.code}-1/plays.csv", f"/night/{table.code}-1/log",
                 f"/night/{table.code}-1/moves/1", f"/night/{table.code}-1/bgg"):
        assert stranger.get(path).status_code == 404, path
    # a phone of one table reads its own table's game, no other
    phone = night.phones["skyrunner"]
    other = night.tables["climbers"]
    assert phone.get(f"/night/{other.code}-1/plays.csv").status_code == 404
    assert phone.get(f"/night/{table.code}-1/plays.csv").status_code == 200
    rows = list(csv.DictReader(io.StringIO(
        download(phone, "/night/plays.csv", "csv").lstrip("\ufeff"))))
    assert {row["table"] for row in rows} == {table.code}
    # the API: a token sees its own tables' games; no token is refused, saying why
    mine = night.host.get("/api/night", headers=bearer(table.tokens[1])).get_json()["plays"]
    assert [play["table"] for play in mine] == [table.code]
    refused = stranger.get("/api/night")
    assert refused.status_code == 403
    assert refused.get_json()["error"]["rule"] == "table.night-token"
    made_up = stranger.get("/api/night", headers=bearer("x" * 22)).get_json()
    assert made_up == {"plays": []}


def test_the_game_over_screens_pushed_are_what_a_fresh_page_draws(tmp_path):
    """"Add to my plays" and "Export this game" at game over, pushed (each region drawn
    again only when what it read changed) as a fresh page draws them, in both languages;
    a game played again leaves the new game's screens without them."""
    app = make_app({"DATABASE": str(tmp_path / "over.sqlite"), "RATE_BURST": 1e9})
    table = ApiTable.started(app.test_client(), game="skyrunner", players=3, seed=23)
    live = services(app).tables.get(table.code)
    viewers = [Connection(None, table.code, 0, "en"), Connection(None, table.code, 1, "fr"),
               Connection(None, table.code, None, "en"),
               Connection(None, table.code, None, "fr", is_host=True)]
    while table.view()["outcome"] is None:
        seat, view, moves = acting(table, "skyrunner")
        assert table.post_move(seat, skyrunner.choose(view, moves)).status_code == 200
    for again in (False, True):
        for conn in viewers:
            with app.app_context():
                pushed = {part.id: part.html for part in render_for(live, conn)}
            assert pushed == fresh(app, live, conn), (conn.seat, conn.lang)
            shown = "take-home" in pushed["outcome"]
            assert shown == (not again and (conn.seat is not None or conn.is_host)), conn
        if not again:
            table.start()  # play again


def test_asking_for_a_play_is_no_guess_at_a_table_code(night):
    """A play's address names no table code: a stranger turned away from a dozen plays may
    still look up a table (codes that find no table are limited per address)."""
    table = night.tables["climbers"]
    stranger = night.app.test_client()
    for _ in range(12):
        assert stranger.get(f"/night/{table.code}-1/log").status_code == 404
    assert stranger.get(f"/j/{table.code}").status_code == 200


# --- the night's page ---------------------------------------------------------------------

def test_the_night_s_page_lists_each_game_with_its_log_a_tap_away(night):
    for scoreboard in ("/", f"/t/{night.tables['climbers'].code}/screen"):
        assert 'href="/night"' in night.host.get(scoreboard).get_data(as_text=True)
    page = night.host.get("/night").get_data(as_text=True)
    order = [m.start() for m in (re.search(f'id="play-{t.code}-1"', page)
                                  for t in night.tables.values())]
    assert order == sorted(order)  # in the order they were played
    for game, names, seed in NIGHT:
        table = night.tables[game]
        block = page.split(f'id="play-{table.code}-1"', 1)[1].split("</article>", 1)[0]
        cells = re.findall(r"<tr[^>]*>\s*<td>(\d+)</td>\s*<td>([^<]*)", block)
        assert [int(seat) for seat, _ in cells] == list(range(1, len(names) + 1))
        started = re.search(r"<td>([^<]*) <span class=\"tag\">started</span>", block)
        assert started and names[seed % len(names)] in started.group(1).replace("&#39;", "'")
        log = night.host.get(f"/night/{table.code}-1/log")
        assert log.status_code == 200
        first = re.search(rf'href="(/night/{table.code}-1/moves/\d+)"', log.get_data(as_text=True))
        assert first and night.host.get(first.group(1)).status_code == 200
    coloured = page.split(f'id="play-{night.tables["skyrunner"].code}-1"', 1)[1]
    assert "<th scope=\"col\">Colour</th>" in coloured.split("</table>", 1)[0]
    french = night.host.get("/night", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Emporter la soirée" in french and "a commencé" in french


def test_a_retired_table_s_game_stays_on_the_night_s_page_with_its_log(tmp_path, monkeypatch):
    app = make_app({"DATABASE": str(tmp_path / "retired.sqlite"), "RATE_BURST": 1e9})
    clock = [time.time()]
    monkeypatch.setattr(companion.tables, "now", lambda: clock[0])
    client = app.test_client()
    table = ApiTable.started(client, game="high-card", players=2, seed=3)
    while table.view()["outcome"] is None:
        seat, _, moves = acting(table, "high-card")
        assert table.post_move(seat, moves[0]).status_code == 200
    client.set_cookie(f"host_{table.code}", table.host)
    clock[0] += 2 * 3600
    tables = services(app).tables
    assert tables.retire_idle(force=True) == [table.code]
    page = client.get("/night").get_data(as_text=True)
    (play_id,) = re.findall(r'id="play-([^"]+)"', page)
    assert play_id.startswith(f"{table.code}~") and play_id.endswith("-1")
    log = client.get(f"/night/{play_id}/log")
    assert log.status_code == 200 and "Ana" in log.get_data(as_text=True)
