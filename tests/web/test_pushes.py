"""Live updates over real websockets: a push carries only the regions a change touched, the
mover's request never waits for the pushes, a slow phone holds up nobody and gets the newest
state rather than a backlog, and the socket is compressed."""

from __future__ import annotations

import base64
import random
import re
import socket
import statistics
import threading
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
import websocket
from flask import render_template
from werkzeug.serving import make_server

from companion.live import Connection
from companion.web.diff import Part, catch_up
from companion.web.pushes import LATER
from companion.web.regions import PHONE_BOARD, regions
from companion.web.render import viewer_context
from companion.web.services import services
from support.playout import playout
from support.pushing import push_for, render_for
from tests.conftest import GAME_IDS, GAMES_UNDER_TEST, ApiTable, make_app
from tests.web.climbers_building import finish_building

BY_GAME = {spec.id: spec for spec in GAMES_UNDER_TEST}

SEQ = re.compile(r'id="status"[^>]*data-seq="(\d+)"')


@pytest.fixture
def server(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "pushes.sqlite"), "PUBLIC_HOST": "127.0.0.1",
                    "RATE_BURST": 1e9})
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield app, f"127.0.0.1:{httpd.server_port}"
    httpd.shutdown()


def connect(address: str, code: str, token: str | None = None):
    cookie = f"seat_{code}={token}" if token else ""
    return websocket.create_connection(f"ws://{address}/t/{code}/ws", timeout=5,
                                       origin=f"http://{address}", cookie=cookie)


def receive_until(ws, needle: str) -> str:
    for _ in range(20):
        message = ws.recv()
        if needle in message:
            return message
    raise AssertionError(f"{needle!r} never came")


def seated(app, players: int = 4) -> ApiTable:
    return ApiTable.started(app.test_client(), game="seventh-heaven", players=players, seed=7)


def test_a_push_carries_only_the_regions_the_move_changed(server):
    app, address = server
    table = seated(app)
    watcher = connect(address, table.code, table.tokens[3])
    screen = connect(address, table.code)
    first = receive_until(watcher, 'id="log"')
    for region in ("status", "notice", "private", "picker", "undo", "outcome", "board",
                   "seats", "log"):
        assert f'id="{region}"' in first  # a new connection gets everything
    receive_until(screen, 'id="night"')
    for seq in range(2):
        seat, moves = table.seat_to_move()
        table.post_move(seat, moves[0], seq=seq)
        pushed = receive_until(watcher, f'data-seq="{seq + 1}"')
    assert 'id="log-2"' in pushed
    assert 'hx-swap-oob="afterbegin:#log"' in pushed  # the line goes on top of the log
    assert 'hx-swap-oob="outerMorph" id="sp-' in pushed  # a square of the track, alone
    for unchanged in ('id="private"', 'id="picker"', 'id="outcome"', 'id="log"',
                      'id="board"', 'id="sp-0"'):
        assert unchanged not in pushed  # seat 3's hand, its picker, the lists themselves
    on_screen = receive_until(screen, 'id="screen-head"')
    assert 'id="night"' not in on_screen and 'id="host"' not in on_screen
    watcher.close()
    screen.close()


#: A long line that stays, so that sending edits is worth it.
KEPT = '<!--i:log--><li id="log-0">' + "the first move, told at length " * 20 + "</li><!--/i-->"


def test_list_items_are_added_in_place_swapped_or_removed_alone():
    shown: dict[str, str] = {}
    before = Part.of("log", '<ol id="log"><!--i:log--><li id="log-2">b</li><!--/i-->'
                            f'<!--i:log--><li id="log-1">a</li><!--/i-->{KEPT}</ol>')
    assert before.html.startswith('<ol id="log"><li id="log-2">b</li><li id="log-1">a</li>')
    assert catch_up(shown, [before]) == before.html
    after = Part.of("log", '<ol id="log"><!--i:log--><li id="log-3">c</li><!--/i-->'
                           '<!--i:log--><li id="log-2">b, taken back</li><!--/i-->'
                           f'{KEPT}</ol>')
    sent = catch_up(shown, [after])
    assert sent == ('<template id="log-1" hx-swap-oob="delete"></template>'
                    '<template hx-swap-oob="afterbegin:#log"><li id="log-3">c</li></template>'
                    '<li hx-swap-oob="outerMorph" id="log-2">b, taken back</li>')
    assert catch_up(shown, [after]) == ""


def test_an_svg_item_is_sent_inside_an_svg_and_put_after_the_one_before_it():
    def board(*cells: str) -> Part:
        items = "".join(f'<!--i:track--><g id="{cell}"><rect width="{len(cell) * 40}">'
                        f'</rect>{"<circle></circle>" * 9 if len(cell) == 1 else ""}</g>'
                        "<!--/i-->" for cell in cells)
        return Part.of("board", f'<section id="board"><svg><g id="track">{items}</g></svg>'
                                "</section>")

    shown: dict[str, str] = {}
    catch_up(shown, [board("a", "b", "c", "d", "e")])
    sent = catch_up(shown, [board("a", "b", "bb", "c", "d", "ee")])
    assert sent == ('<template id="e" hx-swap-oob="delete"></template>'
                    '<svg><g hx-swap-oob="afterend:#b"><g id="bb"><rect width="80"></rect></g>'
                    '</g></svg>'
                    '<svg><g hx-swap-oob="afterend:#d"><g id="ee"><rect width="80"></rect></g>'
                    '</g></svg>')
    assert catch_up(shown, [board("b", "a")]).startswith('<section id="board">')  # reordered
    # New items side by side go in together, after an item the page has: an out-of-band
    # target must exist before the message's first edit.
    shown = {}
    catch_up(shown, [board("a", "b", "c", "d", "e")])
    sent = catch_up(shown, [board("a", "x", "y", "b", "c", "d", "e")])
    assert sent == ('<svg><g hx-swap-oob="afterend:#a"><g id="x"><rect width="40"></rect>'
                    + "<circle></circle>" * 9 + '</g><g id="y"><rect width="40"></rect>'
                    + "<circle></circle>" * 9 + "</g></g></svg>")


def test_a_changed_skeleton_sends_the_whole_region():
    shown: dict[str, str] = {}
    catch_up(shown, [Part.of("r", '<div id="r"><p>one</p><!--i:r--><b id="x">x</b>'
                                      '<!--/i--></div>')])
    sent = catch_up(shown, [Part.of("r", '<div id="r"><p>two</p><!--i:r--><b id="x">y</b>'
                                             '<!--/i--></div>')])
    assert sent == '<div id="r"><p>two</p><b id="x">y</b></div>'


def test_a_change_of_the_regions_own_attributes_alone_sends_its_opening_tag_alone():
    def head(seq: int, turn: str, status: str = "playing") -> Part:
        return Part.of("head", f'<section id="head" data-seq="{seq}" data-status="{status}" '
                               f'hx-swap-oob="outerMorph"><h1>{"The Climbers " * 20}</h1>'
                               f'<div id="now"><!--i:now--><p id="turn">{turn}</p><!--/i-->'
                               "</div></section>")

    shown: dict[str, str] = {}
    catch_up(shown, [head(1, "Ann climbs")])
    assert catch_up(shown, [head(2, "Ann climbs")]) == (
        '<section id="head" data-seq="2" data-status="playing" hx-swap-oob="outerAttributes">'
        "</section>")
    assert catch_up(shown, [head(3, "Bob climbs")]) == (
        '<section id="head" data-seq="3" data-status="playing" hx-swap-oob="outerAttributes">'
        '</section><p hx-swap-oob="outerMorph" id="turn">Bob climbs</p>')
    assert catch_up(shown, [head(3, "Bob climbs")]) == ""
    # An attribute gone is put right by the whole region: a swap of attributes only sets.
    gone = Part.of("head", '<section id="head" data-seq="4" hx-swap-oob="outerMorph">'
                           f'<h1>{"The Climbers " * 20}</h1><div id="now"><!--i:now-->'
                           '<p id="turn">Bob climbs</p><!--/i--></div></section>')
    assert catch_up(shown, [gone]) == gone.html
    # A region without items may have been changed by its page (a refusal dismissed): it
    # is sent whole.
    plain = [Part.of("notice", f'<div id="notice" data-seq="{seq}"></div>') for seq in (1, 2)]
    catch_up(shown, plain[:1])
    assert catch_up(shown, plain[1:]) == plain[1].html


def test_an_items_change_of_its_own_attributes_alone_sends_its_opening_tag_alone():
    def page(turn: int, used: str = "unused") -> Part:
        seats = "".join(f'<!--i:seats--><li id="seat-{n}" class="seat{" turn" * (n == turn)}">'
                        f'<span class="name">Player {n + 1}</span></li><!--/i-->'
                        for n in range(3))
        rows = "".join(f'<!--i:holders--><tr id="holder-{n}" class="{"turn" * (n == turn)}">'
                       f"<td>Player {n + 1}</td><td>{used if n == 0 else 'unused'}</td></tr>"
                       "<!--/i-->" for n in range(3))
        return Part.of("r", f'<div id="r"><ul id="seats">{seats}</ul>'
                            f'<table><tbody id="holders">{rows}</tbody></table></div>')

    shown: dict[str, str] = {}
    catch_up(shown, [page(0)])
    assert catch_up(shown, [page(1)]) == (
        '<li hx-swap-oob="outerAttributes" id="seat-0" class="seat"></li>'
        '<li hx-swap-oob="outerAttributes" id="seat-1" class="seat turn"></li>'
        '<table><tr hx-swap-oob="outerAttributes" id="holder-0" class=""></tr></table>'
        '<table><tr hx-swap-oob="outerAttributes" id="holder-1" class="turn"></tr></table>')
    # What the item holds changed too: the item is morphed whole.
    assert catch_up(shown, [page(1, "used")]) == (
        '<table><tr hx-swap-oob="outerMorph" id="holder-0" class=""><td>Player 1</td>'
        "<td>used</td></tr></table>")
    # An empty element is as short whole as its opening tag alone: it is morphed.
    shown = {}
    blocks = [Part.of("b", f'<div id="b"><p>{"The tower " * 20}</p><!--i:b-->'
                           f'<i id="tb-1" data-b="{at}"></i><!--/i--></div>')
              for at in ("1 2", "3 4")]
    catch_up(shown, blocks[:1])
    assert catch_up(shown, blocks[1:]) == (
        '<i hx-swap-oob="outerMorph" id="tb-1" data-b="3 4"></i>')


def count_sent(table, mover: int, viewers, phone_bytes: list[int],
               screen_bytes: list[int]) -> None:
    """Adds what each viewer but the mover is pushed now: the screen's bytes and the other
    phones'."""
    for conn in viewers:
        sent = len(push_for(table, conn).encode())
        if conn.seat is None:
            screen_bytes.append(sent)
        elif conn.seat != mover:
            phone_bytes.append(sent)


def random_moves(app, table: ApiTable, seed: int, count: int) -> Iterator[int]:
    """Plays ``count`` seeded random legal moves through the API; yields the seat that
    moved after each, inside the app's context (to draw what the viewers are pushed)."""
    rng = random.Random(seed)
    for seq in range(count):
        found = table.seat_to_move()
        assert found is not None
        seat, moves = found
        table.post_move(seat, rng.choice(moves), seq=seq)
        with app.app_context():
            yield seat


def test_the_climbers_median_push_is_within_2_kb_to_a_phone_and_to_the_screen():
    """Over the seeded games ``bench/pushes.py`` plays (five players, 80 random moves), a
    move's push carries only what it changed: at most 2 KB (median) to the phones that did
    not move and to the table screen."""
    phone_bytes: list[int] = []
    screen_bytes: list[int] = []
    for seed in (1, 2):
        for table, seat, viewers in playout("climbers", seed, 80):
            count_sent(table, seat, viewers, phone_bytes, screen_bytes)
    assert statistics.median(phone_bytes) <= 2_000, sorted(phone_bytes)
    assert statistics.median(screen_bytes) <= 2_000, sorted(screen_bytes)


def test_a_templates_indentation_is_not_sent():
    part = Part.of("log", '<ol id="log">\n    <!--i:log--><li id="log-1">\n      <b>Ann</b>\n'
                          "      walked  onto\n   the  table\n    </li><!--/i-->\n\n  </ol>")
    assert part.html == ('<ol id="log">\n<li id="log-1">\n<b>Ann</b>\nwalked  onto\n'
                         "the  table\n</li>\n</ol>")


def test_a_badly_marked_item_is_refused_rather_than_sent_half_parsed():
    with pytest.raises(ValueError, match="badly marked"):
        Part.of("log", '<ol id="log"><!--i:log--><li id="log-1">a</li></ol>')
    with pytest.raises(ValueError, match="badly marked"):
        Part.of("log", '<ol id="log"><!--i:log list--><li id="log-1">a</li><!--/i--></ol>')
    # A comment of the template's own is not an item.
    part = Part.of("log", '<ol id="log"><!-- newest first --><!--i:log--><li id="log-1">a'
                          "</li><!--/i--></ol>")
    assert [item.id for item in part.items] == ["log-1"]


def test_a_slow_phone_delays_nobody_and_then_gets_the_newest_state_not_a_backlog(server):
    app, address = server
    table = seated(app)
    phones = {seat: connect(address, table.code, table.tokens[seat]) for seat in (1, 2)}
    screen = connect(address, table.code)
    for ws in (*phones.values(), screen):
        receive_until(ws, 'id="log"')
    hub = services(app).hub
    slow = next(conn for conn in hub.connections(table.code) if conn.seat == 2)
    stuck, release = threading.Event(), threading.Event()
    send = slow.ws.send

    def stuck_send(text: str) -> None:  # a phone whose wifi has stalled
        stuck.set()
        release.wait(10)
        send(text)

    slow.ws.send = stuck_send
    for seq in range(3):
        seat, moves = table.seat_to_move()
        assert table.post_move(seat, moves[0], seq=seq).status_code == 200  # never waits
        assert stuck.wait(5)
        # Everyone else has the move while seat 2's phone is still stuck on the first one.
        receive_until(phones[1], f'data-seq="{seq + 1}"')
        receive_until(screen, f'data-seq="{seq + 1}"')
    release.set()
    heard = [int(SEQ.search(m).group(1)) for m in (phones[2].recv(), phones[2].recv())]
    assert heard == [1, 3]  # the push it was stuck on, then the newest: no 2
    for ws in (*phones.values(), screen):
        ws.close()


def test_the_socket_is_compressed(server):
    app, address = server
    table = seated(app)
    host, port = address.split(":")
    key = base64.b64encode(b"0123456789abcdef").decode()
    request = (f"GET /t/{table.code}/ws HTTP/1.1\r\nHost: {address}\r\n"
               f"Origin: http://{address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
    with socket.create_connection((host, int(port)), timeout=5) as raw:
        raw.sendall(request.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += raw.recv(4096)
    status, *headers = head.split(b"\r\n\r\n")[0].decode().split("\r\n")
    assert " 101 " in status
    extensions = [h for h in headers if h.lower().startswith("sec-websocket-extensions:")]
    assert extensions and "permessage-deflate" in extensions[0]


class _ListShape(HTMLParser):
    """Finds elements that sit directly in a list's element without being its items: a new
    item is put after the item before it, so anything else there would end up misplaced."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                      "meta", "source", "track", "wbr"})

    def __init__(self, lists: set[str]) -> None:
        super().__init__()
        self.lists = lists
        self.stack: list[str | None] = []  # the open elements' ids
        self.marked = False
        self.strays: list[str] = []

    def handle_comment(self, data: str) -> None:
        if data.startswith("i:"):
            self.marked = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element_id = dict(attrs).get("id")
        if self.stack and self.stack[-1] in self.lists and not self.marked:
            self.strays.append(f"<{tag} id={element_id}> in #{self.stack[-1]}")
        self.marked = False
        if tag not in self.VOID:
            self.stack.append(element_id)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if tag not in self.VOID and self.stack:
            self.stack.pop()


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_list_holds_only_its_items(app, game, monkeypatch):
    """Over a seeded game, every region of a phone and of the screen: the element of a list
    holds nothing but the list's items."""
    drawn: dict[str, str] = {}
    part_of = Part.of
    here = threading.current_thread()

    def keep(region_id: str, marked: str) -> Part:
        # Only this test's regions: another test's sockets may still be rendering pushes
        # on their own threads.
        if threading.current_thread() is here:
            drawn[region_id] = marked
        return part_of(region_id, marked)

    monkeypatch.setattr(Part, "of", staticmethod(keep))
    players = max(3, BY_GAME[game].engine.min_players)
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=3)
    rng = random.Random(3)
    live = services(app).tables.get(table.code)
    for seq in range(25):
        for seat in (None, 0, 1):
            drawn.clear()
            with app.test_request_context():
                regions(live, seat)
            for region_id, marked in drawn.items():
                shape = _ListShape(set(re.findall(r"<!--i:([\w-]+)-->", marked)))
                shape.feed(marked)
                assert not shape.strays, (region_id, shape.strays[:3])
        found = table.seat_to_move()
        if found is None:
            break
        seat, moves = found
        table.post_move(seat, rng.choice(moves), seq=seq)


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_phones_share_one_board_drawn_from_the_public_view(app, game):
    """Every phone's board is one rendering per change, from the public view; over a seeded
    game it is exactly what each seat's own view would draw, so sharing it hides nothing a
    phone showed and shows nothing it did not."""
    players = max(3, BY_GAME[game].engine.min_players)
    table = ApiTable.started(app.test_client(), game=game, players=players, seed=5)
    rng = random.Random(5)
    live = services(app).tables.get(table.code)
    phones = [Connection(None, table.code, seat, "en") for seat in range(players)]
    for seq in range(30):
        with app.app_context():
            boards = [next(p for p in render_for(live, conn) if p.id == "board")
                      for conn in phones]
            assert all(board is boards[0] for board in boards)
        for seat in range(players):
            with app.test_request_context():
                own = render_template(PHONE_BOARD, **viewer_context(live, seat))
            assert Part.of("board", own).html == boards[0].html
        found = table.seat_to_move()
        if found is None:
            break
        seat, moves = found
        table.post_move(seat, rng.choice(moves), seq=seq)


def test_another_players_move_leaves_a_phones_one_tap_forms_alone(app):
    """Heuchel & Meuchel's set-up: every player places cards at once, each card a one-tap
    form. Another seat placing a card changes nothing in this phone's own region."""
    table = ApiTable.started(app.test_client(), game="heuchel-meuchel", players=3, seed=4)
    for seat in (0, 1):  # both choose a column: their cards become one-tap forms
        table.post_move(seat, next(m for m in table.moves(seat) if m["type"] == "column"))
    live = services(app).tables.get(table.code)

    def own_region() -> str:
        with app.test_request_context():
            return next(part.html for part in regions(live, 0) if part.id == "private")

    before = own_region()
    assert "data-confirm-move" in before
    table.post_move(1, next(m for m in table.moves(1) if m["type"] == "place"))
    assert own_region() == before


def test_the_climbers_early_moves_send_a_waiting_phone_its_budget_not_its_whole_map(app):
    """The first moves of The Climbers move blocks to the table and figures off it. What
    they change beside the map (who is still on the table, a player's own figure and stone,
    the map's legend) is morphed alone: the median push to a waiting phone stays within
    the issue's 8 KB, the screen's within 16 KB."""
    table = ApiTable.started(app.test_client(), game="climbers", players=5, seed=1)
    finish_building(table)
    live = services(app).tables.get(table.code)
    viewers = [Connection(None, table.code, seat, "en") for seat in range(5)]
    viewers.append(Connection(None, table.code, None, "en"))
    with app.app_context():
        for conn in viewers:
            push_for(live, conn)
    phone_bytes: list[int] = []
    screen_bytes: list[int] = []
    for seat in random_moves(app, table, seed=1, count=25):
        count_sent(live, seat, viewers, phone_bytes, screen_bytes)
    assert statistics.median(phone_bytes) <= 8_000, sorted(phone_bytes)
    assert statistics.median(screen_bytes) <= 16_000, sorted(screen_bytes)


def test_the_climbers_question_is_pushed_alone_the_phones_tower_stays(app):
    """A move changes what each phone is asked (the tops lit, the blocks that may move):
    that question is one list item, morphed alone. The rest of the phone's own region, the
    tower's view with its drawing, is never sent again while the player's side stays."""
    table = ApiTable.started(app.test_client(), game="climbers", players=3, seed=3)
    finish_building(table)
    live = services(app).tables.get(table.code)
    phones = [Connection(None, table.code, seat, "en") for seat in range(3)]
    with app.app_context():
        for conn in phones:
            push_for(live, conn)
    questions = 0
    for seq, _ in enumerate(random_moves(app, table, seed=3, count=20)):
        for conn in phones:
            sent = push_for(live, conn)
            assert 'id="private"' not in sent, (seq, conn.seat)
            questions += 'id="cl-question"' in sent
    assert questions >= 20  # the mover's phone and the next one's, at the least


def test_a_phone_is_sent_its_seats_and_log_after_what_a_move_changes_in_sight(app):
    """A push to a phone puts the regions further down its page (the seats, the log) after
    a marker, which the phone swaps in a little later; the table screen's push has none."""
    table = ApiTable.started(app.test_client(), game="skyrunner", players=3, seed=5)
    live = services(app).tables.get(table.code)
    phone, screen = (Connection(None, table.code, seat, "en") for seat in (1, None))
    with app.app_context():
        for conn in (phone, screen):
            push_for(live, conn)
    seat, moves = table.seat_to_move()
    table.post_move(seat, moves[0], seq=0)
    with app.app_context():
        now, later = push_for(live, phone).split(LATER)
        on_screen = push_for(live, screen)
    assert 'id="status"' in now and 'id="log' not in now
    assert 'id="log-' in later and 'id="status"' not in later
    assert LATER not in on_screen and 'id="log-' in on_screen
    with app.app_context():
        assert push_for(live, phone) == ""  # nothing new: no marker alone
