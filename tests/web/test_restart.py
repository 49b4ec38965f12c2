"""A server killed with SIGKILL right after acknowledging a move loses nothing, and its log
reads as it did."""

from __future__ import annotations

import random
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest

from support.server_process import ServerProcess
from tests.web.test_log_history import lines_of

pytestmark = pytest.mark.slow


def test_a_killed_server_comes_back_with_every_acknowledged_move(tmp_path):
    server = ServerProcess(tmp_path / "restart.sqlite").start()
    try:
        status, created = server.call("POST", "/api/tables",
                                      {"game": "seventh-heaven", "players": 3, "seed": 5})
        assert status == 201
        code, host = created["code"], created["host_token"]
        tokens = {}
        for seat, name in enumerate(("Ana", "Ben", "Chloé")):
            status, joined = server.call("POST", f"/api/tables/{code}/seats",
                                         {"name": name, "seat": seat})
            tokens[seat] = joined["token"]
        assert server.call("POST", f"/api/tables/{code}/start", {}, host)[0] == 200
        rng = random.Random(1)
        acknowledged = 0
        for step in range(8):
            for token in tokens.values():
                _, listed = server.call("GET", f"/api/tables/{code}/moves", token=token)
                if listed["moves"]:
                    status, _ = server.call("POST", f"/api/tables/{code}/moves", {
                        "move": rng.choice(listed["moves"]), "seq": listed["seq"],
                        "client_move_id": f"k{step}"}, token)
                    assert status == 200
                    acknowledged = listed["seq"] + 1
                    break
        views = {seat: server.call("GET", f"/api/tables/{code}/view", token=token)[1]
                 for seat, token in tokens.items()}
        server.kill()  # SIGKILL, right after the last acknowledged move

        server.start()
        for seat, token in tokens.items():
            status, view = server.call("GET", f"/api/tables/{code}/view", token=token)
            assert status == 200  # the same phone still holds the same seat
            assert view == views[seat]
            assert view["seq"] == acknowledged
        _, log = server.call("GET", f"/api/tables/{code}/log")
        assert len(log["entries"]) == acknowledged
    finally:
        server.stop()


class _Unfollowed(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_: Any) -> None:
        return None


#: A browser that stops at a redirect: the cookies come with it.
_BROWSER = urllib.request.build_opener(_Unfollowed)


def browse(server: ServerProcess, path: str, cookie: str = "",
           form: dict[str, Any] | None = None, lang: str = "en") -> tuple[str, list[str]]:
    """A page as a browser holding ``cookie`` gets it (a form posted from the companion's
    own pages): its HTML, or a redirect's, and the cookies it was given."""
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(server.base + path, data=data, headers={
        "Cookie": cookie, "Origin": server.base, "Accept-Language": lang})
    try:
        response = _BROWSER.open(request, timeout=10)
    except urllib.error.HTTPError as redirect:
        assert redirect.code == 303, f"{path}: {redirect.code}"
        response = redirect
    with response:
        return response.read().decode(), response.headers.get_all("Set-Cookie") or []


def test_a_killed_server_comes_back_with_every_log_line_as_it_read(tmp_path):
    """A seat freed and given to a newcomer, a move taken back, three rewound: after a
    SIGKILL every line of the log reads as it did, in English and in French."""
    server = ServerProcess(tmp_path / "record.sqlite").start()
    try:
        _, created = server.call("POST", "/api/tables",
                                 {"game": "seventh-heaven", "players": 3, "seed": 5})
        code, host = created["code"], created["host_token"]
        tokens = {seat: server.call("POST", f"/api/tables/{code}/seats",
                                    {"name": name, "seat": seat})[1]["token"]
                  for seat, name in enumerate(("Ana", "Ben", "Chloé"))}
        assert server.call("POST", f"/api/tables/{code}/start", {}, host)[0] == 200
        rng = random.Random(2)

        def play(moves: int) -> None:
            for step in range(moves):
                for seat, token in tokens.items():
                    _, listed = server.call("GET", f"/api/tables/{code}/moves", token=token)
                    if listed.get("moves"):
                        assert server.call("POST", f"/api/tables/{code}/moves", {
                            "move": rng.choice(listed["moves"]), "seq": listed["seq"],
                            "client_move_id": f"r{step}-{seat}"}, token)[0] == 200
                        break

        def shown_moves() -> list[int]:
            _, log = server.call("GET", f"/api/tables/{code}/log")
            return [entry["seq"] for entry in log["entries"]
                    if entry["kind"] == "move" and not entry["undone"]]

        first: dict[tuple[str, str], str] = {}

        def read() -> dict[tuple[str, str], str]:
            """The screen's lines in each language; each as first read kept in ``first``."""
            lines = {(lang, line_id): text for lang in ("en", "fr") for line_id, text in
                     lines_of(browse(server, f"/t/{code}/screen", lang=lang)[0]).items()}
            for key, text in lines.items():
                first.setdefault(key, text)
            return lines

        play(4)
        read()
        hosting = f"host_{code}={host}"
        browse(server, f"/t/{code}/free", hosting, {"seat": "2"})
        read()
        del tokens[2]
        _, given = browse(server, f"/j/{code}", form={"name": "Dana", "seat": "2"})
        waiting = given[0].split(";")[0]
        screen, _ = browse(server, f"/t/{code}/screen", hosting)
        (request_id,) = set(re.findall(r'name="request" value="([0-9a-f]+)"', screen))
        browse(server, f"/t/{code}/admit", hosting, {"request": request_id})
        _, seated = browse(server, f"/t/{code}/wait", waiting)
        tokens[2] = seated[0].split(";")[0].split("=", 1)[1]
        play(3)
        read()
        assert server.call("POST", f"/api/tables/{code}/undo",
                           {"undo": shown_moves()[-1]}, host)[0] == 200
        read()
        _, view = server.call("GET", f"/api/tables/{code}/view")
        assert server.call("POST", f"/api/tables/{code}/rewind",
                           {"to": shown_moves()[-3], "last": view["seq"]}, host)[0] == 200
        assert "The host let Dana into Chloé’s seat." in read().values()
        server.kill()  # SIGKILL, right after the rewind was acknowledged

        server.start()
        now = read()
        assert {key: first[key] for key in now} == now
    finally:
        server.stop()
