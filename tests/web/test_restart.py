"""A server killed with SIGKILL right after acknowledging a move loses nothing."""

from __future__ import annotations

import random

import pytest

from support.server_process import ServerProcess

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
