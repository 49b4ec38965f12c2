"""Tonight's plays in the forms players keep them in (README, "Take the night home"):

- BG Stats: a file in the shape of BG Stats' own export (games, players, locations, plays
  and their player scores), which BG Stats opens as plays to import, and one play as the
  address of BG Stats' "createPlay" page, which opens the app where it is installed;
- a CSV, one row per player per play, for a spreadsheet;
- BoardGameGeek: each play in the fields BGG logs a play with, as XML in the shape of BGG's
  own list of plays, and as text to read from while logging it on BGG.

The samples each format was checked against are in ``tests/exports/samples`` (where each
came from is said there). A play holds only what the table screen showed: names, scores,
places, the seats' public colours, who started, when and how long. Names and words are in
the reader's language; the seat a player held is numbered from 1.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote
from xml.etree import ElementTree

from companion.i18n import gettext
from companion.plays import Play
from companion.web.render import game_name
from companion.web.responses import tables
from companion.web.seat_names import seat_colour
from companion.web.services import registered

#: Where the plays say they were played, and who made the file.
LOCATION = SOURCE = "Table Companion"
BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
#: The namespace of the companion's ids in BG Stats: the same game, player (by name) and
#: play have the same id in every file, so a play imported twice is one play.
IDS = uuid.uuid5(uuid.NAMESPACE_URL, "https://github.com/table-companion")
#: The CSV's columns, in order (README says what each holds).
CSV_COLUMNS = ("play", "date", "start", "minutes", "game", "bgg_id", "table", "seat",
               "player", "colour", "start_player", "score", "place", "winner")
STAMP = "%Y-%m-%d %H:%M:%S"


@dataclass(frozen=True)
class Player:
    """One player of a play: a seat's holder (a seat freed and taken again has two)."""

    name: str
    seat: int
    colour: str
    score: int | None
    place: int
    winner: bool
    #: Who made the first move: the first holder of the first seat.
    starts: bool
    #: The seat's place in the turn order, the start player's being 1 (BGG's "start
    #: position").
    position: int


def players_of(play: Play) -> list[Player]:
    """The play's players in seat order, each holder of a seat with the seat's result."""
    count = len(play.seats)
    colours = seat_colours(play)
    return [Player(name, seat.seat, colours[seat.seat] or "", seat.score, seat.place,
                   seat.winner, seat.seat == play.first_seat and held == 0,
                   (seat.seat - play.first_seat) % count + 1)
            for seat in play.seats for held, name in enumerate(seat.players)]


def seat_colours(play: Play) -> list[str | None]:
    """Each seat's colour as the game names it ("Yellow"), where the game gives its seats
    colours (The Climbers, SkyRunner: the table screen showed them from the start), else
    None."""
    view = tables().public_start(play)
    return [seat_colour(play.game, view, seat) for seat in range(len(play.seats))]


def bgg_id(play: Play) -> int | None:
    """The game's BoardGameGeek id, as its seeds file keeps it (None where unknown)."""
    return registered()[play.game].bgg_id


def local(moment: float) -> datetime:
    """A moment on the laptop's clock (the games night's own time)."""
    return datetime.fromtimestamp(moment)


def _id(kind: str, name: str) -> str:
    return str(uuid.uuid5(IDS, f"{kind}:{name}"))


def _numbered(names: Iterable[str]) -> dict[str, int]:
    """Each name once, numbered from 1 in the order met."""
    numbered: dict[str, int] = {}
    for name in names:
        numbered.setdefault(name, len(numbered) + 1)
    return numbered


# --- BG Stats ----------------------------------------------------------------------------

def bgstats_file(plays: list[Play], me: str | None = None) -> dict[str, Any]:
    """The plays as a BG Stats file (its export's shape, which it imports as plays), with
    ``me`` the reader's own name among the players, if known."""
    everyone = {play.id: players_of(play) for play in plays}
    player_ids = _numbered(player.name for found in everyone.values() for player in found)
    game_ids = _numbered(play.game for play in plays)
    stamp = local(max((play.ended_at for play in plays), default=0)).strftime(STAMP)
    return {
        "games": [_bgstats_game(game, number, stamp) for game, number in game_ids.items()],
        "players": [{"uuid": _id("player", name), "id": number, "name": name,
                     "isAnonymous": False, "modificationDate": stamp, "bggUsername": ""}
                    for name, number in player_ids.items()],
        "locations": [{"uuid": _id("location", LOCATION), "id": 1, "name": LOCATION,
                       "modificationDate": stamp}],
        "plays": [_bgstats_play(play, everyone[play.id], player_ids, game_ids[play.game])
                  for play in plays],
        "userInfo": {"meRefId": player_ids.get(me or "", 0), "exportDate": stamp,
                     "appVersion": SOURCE},
    }


def _bgstats_game(game: str, number: int, stamp: str) -> dict[str, Any]:
    spec = registered()[game]
    return {"uuid": _id("game", game), "id": number, "name": game_name(game),
            "modificationDate": stamp, "cooperative": False, "highestWins": True,
            "noPoints": False, "usesTeams": False, "bggId": spec.bgg_id or 0,
            "bggYear": spec.year or 0, "designers": spec.designers,
            "minPlayerCount": spec.min_players, "maxPlayerCount": spec.max_players}


def _bgstats_play(play: Play, players: list[Player], player_ids: dict[str, int],
                  game: int) -> dict[str, Any]:
    started, ended = local(play.started_at).strftime(STAMP), local(play.ended_at).strftime(STAMP)
    return {
        "uuid": _id("play", f"{play.id}@{play.started_at}"), "modificationDate": ended,
        "entryDate": ended, "playDate": started, "usesTeams": False,
        "durationMin": play.minutes, "ignored": False,
        # The engine ranked the seats (a tie broken by the rules, not the score): its
        # winners stand as they are.
        "manualWinner": True, "rounds": 0, "bggId": 0, "importPlayId": 0,
        "locationRefId": 1, "gameRefId": game, "board": "", "rating": 0, "nemestatsId": 0,
        "scoringSetting": 0,
        "playerScores": [{"score": None if player.score is None else str(player.score),
                          "winner": player.winner, "newPlayer": False,
                          "startPlayer": player.starts, "playerRefId": player_ids[player.name],
                          "role": player.colour, "rank": player.place,
                          "seatOrder": player.seat + 1} for player in players],
        "expansionPlays": [],
    }


def bgstats_link(play: Play) -> str:
    """The address that opens BG Stats on this play where the app is installed (its page
    for other apps' plays, "createPlay"; elsewhere BG Stats' web page says how to get it).
    The players are listed in seat order."""
    spec = registered()[play.game]
    game: dict[str, Any] = {"name": game_name(play.game), "sourceGameId": play.game,
                            "highestWins": True, "noPoints": False}
    if spec.bgg_id:
        game["bggId"] = spec.bgg_id
    data = {
        "sourceName": SOURCE, "sourcePlayId": _id("play", f"{play.id}@{play.started_at}"),
        "playDate": local(play.started_at).strftime(STAMP), "durationMin": play.minutes,
        "location": LOCATION, "board": "", "comments": "", "game": game,
        "players": [{"name": player.name, "sourcePlayerId": _id("player", player.name),
                     "startPlayer": player.starts, "winner": player.winner,
                     "rank": player.place, "score": player.score, "role": player.colour}
                    for player in players_of(play)],
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"{BGSTATS_CREATE_PLAY}?data={quote(text, safe='')}"


# --- a spreadsheet -----------------------------------------------------------------------

def csv_rows(plays: list[Play]) -> Iterator[dict[str, Any]]:
    for play in plays:
        started = local(play.started_at)
        for player in players_of(play):
            yield {"play": play.id, "date": started.date().isoformat(),
                   "start": started.strftime("%H:%M"), "minutes": play.minutes,
                   "game": game_name(play.game), "bgg_id": bgg_id(play) or "",
                   "table": play.code, "seat": player.seat + 1, "player": player.name,
                   "colour": player.colour, "start_player": int(player.starts),
                   "score": "" if player.score is None else player.score,
                   "place": player.place, "winner": int(player.winner)}


def csv_text(plays: list[Play]) -> str:
    """One row per player per play, under a header of ``CSV_COLUMNS``."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(csv_rows(plays))
    return out.getvalue()


# --- BoardGameGeek -----------------------------------------------------------------------

def by_position(play: Play) -> list[Player]:
    """The players in turn order, as BGG lists them by start position."""
    return sorted(players_of(play), key=lambda player: player.position)


def bgg_xml(plays: list[Play]) -> str:
    """The plays in the shape of BGG's own list of plays (its XML API's ``plays``): BGG's
    play fields, a play not logged on BGG yet being id 0, a player without a BGG account
    user 0."""
    root = ElementTree.Element("plays")
    for play in plays:
        element = ElementTree.SubElement(root, "play", {
            "id": "0", "date": local(play.started_at).date().isoformat(), "quantity": "1",
            "length": str(play.minutes), "incomplete": "0", "nowinstats": "0",
            "location": LOCATION})
        item = ElementTree.SubElement(element, "item", {
            "name": game_name(play.game), "objecttype": "thing",
            "objectid": str(bgg_id(play) or 0)})
        subtypes = ElementTree.SubElement(item, "subtypes")
        ElementTree.SubElement(subtypes, "subtype", {"value": "boardgame"})
        players = ElementTree.SubElement(element, "players")
        for player in by_position(play):
            ElementTree.SubElement(players, "player", {
                "username": "", "userid": "0", "name": player.name,
                "startposition": str(player.position), "color": player.colour,
                "score": "" if player.score is None else str(player.score), "new": "0",
                "rating": "0", "win": str(int(player.winner))})
    ElementTree.indent(root)
    return ElementTree.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def bgg_text(plays: list[Play]) -> str:
    """The plays as text to read from (or paste) while logging them on BGG: each play's
    fields in the order BGG's "Record a play" asks for them."""
    blocks = []
    for play in plays:
        known = bgg_id(play)
        lines = [gettext("%(game)s, BoardGameGeek id %(id)s", game=game_name(play.game),
                         id=known) if known else
                 gettext("%(game)s (no BoardGameGeek id known: look the game up on BGG)",
                         game=game_name(play.game)),
                 gettext("Date: %(date)s", date=local(play.started_at).date().isoformat()),
                 gettext("Location: %(place)s", place=LOCATION),
                 gettext("Length: %(minutes)s min", minutes=play.minutes)]
        for player in by_position(play):
            said = [gettext("Start position %(n)s: %(name)s", n=player.position,
                            name=player.name)]
            if player.colour:
                said.append(gettext("colour %(colour)s", colour=player.colour))
            if player.score is not None:
                said.append(gettext("score %(score)s", score=player.score))
            if player.winner:
                said.append(gettext("win"))
            lines.append(" · ".join(said))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


# --- scripts -----------------------------------------------------------------------------

def play_json(play: Play) -> dict[str, Any]:
    """A play as the JSON API lists it (docs/api.md, "Tonight's plays")."""
    colours = seat_colours(play)
    return {
        "id": play.id, "table": play.code, "no": play.no, "game": play.game,
        "bgg_id": bgg_id(play),
        "started_at": local(play.started_at).astimezone().isoformat(timespec="seconds"),
        "ended_at": local(play.ended_at).astimezone().isoformat(timespec="seconds"),
        "minutes": play.minutes, "reason": play.reason, "first_seat": play.first_seat,
        "seats": [{"seat": seat.seat, "players": list(seat.players),
                   "colour": colours[seat.seat], "score": seat.score, "place": seat.place,
                   "winner": seat.winner} for seat in play.seats],
    }
