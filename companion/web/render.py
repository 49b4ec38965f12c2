"""What a page or a push shows one viewer, and the template globals that draw it.

Templates receive views, never states: everything below comes from ``game.view`` for the
viewer's own seat (or the table screen's ``None``), the seat's legal moves, and the
redacted log, so a template cannot leak what its viewer may not see.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, url_for

from companion.games.base import has_values
from companion.i18n import current_lang
from companion.network import JoinHost, join_host
from companion.plays import places
from companion.tables import SCREEN_SIDES, Table
from companion.web.clauses import clause_text, clause_title
from companion.web.memo import Call
from companion.web.outcome_words import outcome_reason, outcome_score
from companion.web.picker import Pick, anew, back, narrow
from companion.web.seat_names import free_line, seat_name, seats_then
from companion.web.services import registered, services, spec_of

SEAT_COLOURS = ("#e4572e", "#2e86ab", "#f3a712", "#7b2cbf", "#29bf12", "#d81159")
LOG_TAIL = 12


def game_name(game_id: str) -> str:
    spec = spec_of(game_id)
    return spec.name(current_lang()) if spec is not None else game_id


def public_url(path: str, joined: JoinHost | None = None) -> str:
    """``path`` at the address the phones on the wifi reach this laptop by (``joined``, when
    the caller has found it already)."""
    host = (joined or join_host_now()).host
    return f"http://{host}:{current_app.config['PUBLIC_PORT']}{path}"


def join_host_now() -> JoinHost:
    """The host the phones are sent to, as ``companion serve`` printed it (``join_host``)."""
    bound, _, _ = current_app.config["BIND_ADDRESS"].rpartition(":")
    return join_host(bound, current_app.config["PUBLIC_HOST"])


def join_url(code: str) -> str:
    return public_url(f"/j/{code}")


def seats_context(table: Table) -> list[dict[str, Any]]:
    """Each seat as the pages show it: a free one named as free (``seat_names``), never
    blank, with what the table says while the game waits for it (``free_line``)."""
    connected = services().hub.connected_seats(table.code)
    game_id = table.row.game
    with table.lock:
        public = table.match.view_for(None) if len(table.seats) < table.row.players else None
        return [
            {
                "seat": seat,
                "name": seat_name(table, seat, public),
                "taken": seat in table.seats,
                "held": table.held(seat),
                "connected": seat in connected,
                "colour": SEAT_COLOURS[seat % len(SEAT_COLOURS)],
                "free_line": None if seat in table.seats
                else free_line(game_id, public, seat),
            }
            for seat in range(table.row.players)
        ]


def free_turns(table: Table, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """The free seats the game waits for (a move of theirs is due), for the headlines to
    say so; and whether it waits for nobody else. Asked only while a seat is free."""
    if table.status != "playing" or len(table.seats) == table.row.players:
        return {"free_turns": [], "free_turns_only": False}
    due = [seats[seat] for seat in table.match.awaited()]
    free = [seat for seat in due if not seat["taken"]]
    return {"free_turns": free, "free_turns_only": bool(free) and len(free) == len(due)}


def pick_context(table: Table, seat: int, moves: list[dict[str, Any]],
                 chosen: dict[str, Any], change: dict[str, Any] | None = None) -> dict[str, Any]:
    """The picker's question for ``chosen``, from ``moves``, the legal moves it needs for
    those values (``Match.pick_moves``).

    ``change`` is the pick that changes a choice the seat has made already (a game helper's
    ``standing``: SkyRunner's secret card). Until ``chosen`` holds it, the picker asks
    nothing and shows the choice made, with a button to change it: a second tap meant for
    Confirm finds no other card's Confirm there."""
    standing = change if change is not None and not has_values(chosen, change) else None
    if standing is not None:
        chosen = {}
        pick = Pick(chosen, None, [], False, [], None, len(moves))
    else:
        pick = narrow(moves, table.game.choice_keys, chosen)
    if moves and pick.remaining == 0:
        # Values no legal move has (a stale link, or a forged one): ask from the start, so
        # a template never meets a value it cannot name.
        chosen = {}
        moves = table.match.pick_moves(seat, chosen)
        pick = narrow(moves, table.game.choice_keys, chosen)
    # A form's id names the move and this seat's own last entry (by the seat's own seq: the
    # log's would tell it of another seat's hidden change): a page and a push draw the
    # same form, a double tap applies once, the same move made again later is a new one,
    # and the other players' moves leave this phone's forms (and so its pushes) alone.
    last_own = next((entry.seq for entry in reversed(table.match.log) if entry.seat == seat),
                    None)
    own = 0 if last_own is None else table.match.number_of(last_own, seat) or 0

    def offer(move: dict[str, Any]) -> dict[str, Any]:
        move_json = json.dumps(move, separators=(",", ":"))
        digest = hashlib.sha256(f"{table.code}:{seat}:{own}:{move_json}".encode()).hexdigest()
        return {"move": move, "move_json": move_json, "client_move_id": digest[:32]}

    confirm = offer(pick.move) if pick.move is not None else None
    settles = {json.dumps(value, sort_keys=True): offer(move)
               for value, move in zip(pick.values, pick.settles, strict=False) if move}
    return {
        "moves": moves,
        "pick": pick,
        "picked": chosen,
        "settling": Call(lambda key, value: settles.get(json.dumps(value, sort_keys=True))
                         if key == pick.key else None, pick.key, settles),
        "chosen_json": json.dumps(chosen, separators=(",", ":")),
        "confirm": confirm,
        "standing": None if standing is None else pick_json(standing),
        "next_pick": Call(lambda key, value: pick_json(chosen, **{key: value}), chosen),
        "offer": Call(offer, table.code, seat, own),
        "back_json": pick_json(back(chosen, registered()[table.row.game].helpers.riders)),
    }


def standing_pick(game_id: str, view: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The pick that starts changing a choice the viewer has made and may still change (a
    game helper's ``standing``: SkyRunner's secret card), or None."""
    return registered()[game_id].helpers.standing(view) if view else None


def choice_stands(table: Table, seat: int, chosen: dict[str, Any]) -> bool:
    """Whether ``chosen`` would change a choice ``seat`` has made without the player asking
    to first (the ``standing_pick``): a card at rest, tapped."""
    with table.lock:
        change = standing_pick(table.row.game, table.match.view_for(seat))
    return change is not None and not has_values(chosen, change)


def pick_json(picked: dict[str, Any], **values: Any) -> str:
    """What the player picked so far and ``values``, as a pick address carries them (a
    value chosen anew clears the answers given after it, see ``picker.anew``)."""
    return json.dumps(anew(picked, values), separators=(",", ":"))


def why_url(code: str, chosen: dict[str, Any]) -> Call:
    """For a template: the address that explains why ``key`` can't be ``value`` (a dimmed
    card, stack or square; or several values given by name), given what the player picked
    before it."""
    def url(key: str | None = None, value: Any = None, **values: Any) -> str:
        if key is not None:
            values[key] = value
        return url_for("phone.explain", code=code, pick=pick_json(chosen, **values))
    return Call(url, code, chosen)


def viewer_context(table: Table, seat: int | None, is_host: bool = False,
                   chosen: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything a page or a push shows this viewer, taken under the table's lock."""
    with table.lock:
        view = table.match.view_for(seat)
        # While the whole table is in a moment of the game's (``paused``), none is offered.
        moves = [] if table.match.paused else table.match.pick_moves(seat, chosen or {})
        last = table.match.steps[-1].entry if table.match.steps else None
        context: dict[str, Any] = {
            "code": table.code,
            "game_id": table.row.game,
            "game_name": game_name(table.row.game),
            "status": table.status,
            "seq": table.match.seq_for(seat),
            "players": table.row.players,
            "options": table.row.options,
            "seats": seats_context(table),
            "me": seat,
            "my_name": table.name(seat),
            "is_host": is_host,
            "view": view,
            "moves": moves,
            "outcome": table.match.outcome(),
            # The finished game as its players log it: the game-over screen's plays.
            "played": table.play() if table.status == "over" else None,
            "log": table.match.log_tail(seat, LOG_TAIL),
            "can_undo": bool(seat is not None and last is not None and last.seat == seat
                             and table.status == "playing" and not table.match.paused
                             and table.game.can_undo(table.match.steps[-1].before, seat,
                                                     last.move, table.match.steps[-1].after)),
            "can_host_undo": bool(is_host and table.match.steps),
            # The game takes corrections (``Game.correct``): "The table differs…".
            "can_correct": bool(is_host and table.status == "playing"
                                and table.game.takes_corrections),
            "match_no": table.match.row.no if table.match.row else 0,
            # The moment the whole table is in, pausing its moves (a game's extra).
            "paused": table.match.paused.extra if table.match.paused else None,
            "sitting": table.sitting.get(seat, SCREEN_SIDES[0]) if seat is not None else None,
            # A phone reads its log by its seat's numbers, the table screen by its own:
            # the record's page a log line opens ("This move"), the whole log it links to.
            "on_phone": seat is not None,
            "opens_move": "record.phone_move" if seat is not None else "record.screen_move",
        }
        context.update(free_turns(table, context["seats"]))
        if seat is not None and moves:
            context.update(pick_context(table, seat, moves, chosen or {},
                                        standing_pick(table.row.game, view)))
        if seat is not None:
            context["why_url"] = why_url(table.code, context.get("picked", {}))
    return context


def screen_context(table: Table, is_host: bool) -> dict[str, Any]:
    context = viewer_context(table, None, is_host)
    if is_host:
        context.update(last_move_context(table))
    joined = join_host_now()
    context.update(join_url=public_url(f"/j/{table.code}", joined),
                   unreachable=joined.unreachable,
                   requests=[{"id": r.id, "seat": r.seat, "name": r.name,
                              "was": table.match.freed_from(r.seat),
                              "spoken_code": r.spoken_code}
                             for r in table.requests.values()] if is_host else [],
                   night=services().tables.plays_tonight(
                       current_app.config["NIGHT_HOURS"]),
                   game_names={spec.id: spec.name(current_lang())
                               for spec in registered().values()})
    return context


def last_move_context(table: Table) -> dict[str, Any]:
    """The last effective move the table screen shows, as it shows it, for the host's undo
    to name (``last_move``: seq, seat, move, and the seats named as they were then), and
    the table as it was around it
    (``moment``, for a game's words of a place then). A move the screen may not see is
    never named, nor counted: naming it would tell the table it was made."""
    with table.lock:
        shown = table.match.last_shown()
        if shown is None:
            return {"last_move": None}
        step = table.match.steps[shown]
        entry = step.entry
        seq = table.match.number_of(entry.seq, None)
        assert seq is not None  # the screen shows it: it is in the screen's count
        seats = seats_then(table.row.game, table.match.view_for(None),
                           table.match.holders[entry.seq])
        last: dict[str, Any] = {"seq": seq, "seat": entry.seat, "seats": seats}
        if entry.kind == "correction":  # the host's own, said by the game's words
            last["correction"] = entry.move
        else:
            last["move"] = table.game.redact_move(step.before, entry.mover, entry.move, None)
    return {"last_move": last,
            "moment": Call(lambda: table.match.moment(seq, None), table.code, seq)}


def place_of(outcome: dict[str, Any], seat: int) -> int | None:
    """``seat``'s place in a finished game's ranking (tied seats share the better place)."""
    return places(outcome["ranking"]).get(seat)


def winner_names(outcome: dict[str, Any]) -> list[str]:
    """The names of the seats that share the first place."""
    first = outcome["ranking"][0] if outcome["ranking"] else []
    return [outcome["names"][str(seat)] for seat in first]


def ordinal(number: int) -> str:
    """A place as the reader's language writes it: "2nd", "2e"."""
    if current_lang() == "fr":
        return "1er" if number == 1 else f"{number}e"
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


def install_template_globals(app: Flask) -> None:
    """The template globals every page and push uses."""
    app.jinja_env.globals["helpers"] = lambda game_id: registered()[game_id].helpers
    app.jinja_env.globals["rule_text"] = lambda game_id, rule: clause_text(
        spec_of(game_id), rule, current_lang())
    app.jinja_env.globals["rule_title"] = lambda game_id, rule: clause_title(
        spec_of(game_id), rule, current_lang())
    app.jinja_env.globals["outcome_reason"] = lambda game_id, reason: outcome_reason(
        registered()[game_id], reason, current_lang())
    app.jinja_env.globals["outcome_score"] = lambda game_id, score: outcome_score(
        registered()[game_id], score, current_lang())
    app.jinja_env.globals["place_of"] = place_of
    app.jinja_env.globals["ordinal"] = ordinal
    app.jinja_env.globals["winner_names"] = winner_names
    app.jinja_env.globals["pick_json"] = pick_json
