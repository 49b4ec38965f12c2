"""The join address: the one `companion serve` prints is the one the table screen shows and
puts in its QR code; a server the phones cannot reach (on loopback, or with no address on a
network) says so on the table screen, with how to fix it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from companion.network import join_host, qr_svg
from support.checkout import ROOT
from support.server_process import LOGS, call_json, free_port, stop_group, wait_until_served
from tests.conftest import ApiTable, make_app

LOOPBACK_WARNING = ("Phones cannot join: this laptop serves only itself. Start it with "
                    "./scripts/serve --bind 0.0.0.0 or set COMPANION_HOST.")


def screen_of(app, lang: str = "en") -> tuple[str, str, bytes]:
    """A new table's screen, its join address and its QR code."""
    client = app.test_client()
    code = ApiTable(client, game="seventh-heaven", players=3).code
    page = client.get(f"/t/{code}/screen", headers={"Accept-Language": lang})
    (url,) = re.findall(r'<p class="join-url">([^<]+)</p>', page.get_data(as_text=True))
    return page.get_data(as_text=True), url, client.get(f"/t/{code}/qr.svg").data


def test_a_server_on_loopback_sends_phones_there_and_says_they_cannot_join(tmp_path):
    app = make_app({"DATABASE": str(tmp_path / "db.sqlite"), "PUBLIC_HOST": None,
                    "BIND_ADDRESS": "127.0.0.1:5077", "PUBLIC_PORT": 5077})
    page, url, qr = screen_of(app)
    assert url.startswith("http://127.0.0.1:5077/j/")
    assert qr.decode() == qr_svg(url)
    assert LOOPBACK_WARNING in page
    french, _, _ = screen_of(app, "fr")
    assert "Les téléphones ne peuvent pas rejoindre la table" in french
    assert "--bind 0.0.0.0" in french and LOOPBACK_WARNING not in french


def test_a_server_on_every_interface_with_no_network_says_phones_cannot_join(tmp_path,
                                                                            monkeypatch):
    # The machine's interfaces are the part under test's input: a laptop off every network
    # has only loopback, which lan_address answers as 127.0.0.1.
    monkeypatch.setattr("companion.network.lan_address", lambda: "127.0.0.1")
    app = make_app({"DATABASE": str(tmp_path / "db.sqlite"), "PUBLIC_HOST": None,
                    "BIND_ADDRESS": "0.0.0.0:5000"})
    page, _, _ = screen_of(app)
    assert "this laptop has no address on a local network" in page


def test_a_server_with_companion_host_shows_no_warning(app):
    page, url, qr = screen_of(app)
    assert url.startswith("http://192.168.1.20:5000/j/") and qr.decode() == qr_svg(url)
    assert 'id="unreachable"' not in page


def test_a_server_bound_to_one_address_sends_phones_to_that_address():
    assert join_host("192.168.7.9", None) == ("192.168.7.9", None)
    assert join_host("localhost", None) == ("localhost", "loopback")
    assert join_host("[::1]", None) == ("[::1]", "loopback")
    assert join_host("127.0.0.1", "companion.example") == ("companion.example", None)


def serve(bind: str, log: Path, **env: str) -> tuple[subprocess.Popen[str], list[str]]:
    """`companion serve --bind bind`, and what it printed up to its address; the server's
    own log (gunicorn's, on stderr) goes to ``log``, read by the test's teardown."""
    environ = {key: value for key, value in os.environ.items()
               if key not in ("COMPANION_HOST", "COMPANION_BIND", "COMPANION_PORT", "PORT")}
    environ.update(env)
    LOGS.append(log)
    with log.open("w") as stderr:
        process = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--bind", bind],
                                   cwd=ROOT, env=environ, stdout=subprocess.PIPE,
                                   stderr=stderr, text=True, start_new_session=True)
    lines: list[str] = []
    while not lines or not lines[-1].startswith("http://"):
        line = process.stdout.readline()
        assert line, "serve stopped before printing its address:\n" + log.read_text()[-4000:]
        lines.append(line.strip())
    return process, lines


def table_screen(port: int, process: subprocess.Popen[str], log: Path) -> tuple[str, str, str]:
    """A new table's screen as served, its join address and its QR code."""
    base = f"http://127.0.0.1:{port}"
    wait_until_served(base + "/", process, 20, log)
    status, body = call_json(base, "POST", "/api/tables",
                             {"game": "seventh-heaven", "players": 3})
    assert status == 201, body
    page = urllib.request.urlopen(f"{base}/t/{body['code']}/screen", timeout=10).read().decode()
    (url,) = re.findall(r'<p class="join-url">([^<]+)</p>', page)
    qr = urllib.request.urlopen(f"{base}/t/{body['code']}/qr.svg", timeout=10).read().decode()
    assert url == body["join_url"] and qr == qr_svg(url)
    return page, url, body["code"]


@pytest.mark.slow
def test_companion_serve_on_loopback_prints_the_screens_address_and_warns(tmp_path):
    port = free_port()
    process, lines = serve(f"127.0.0.1:{port}", tmp_path / "serve.log",
                           COMPANION_DATABASE=str(tmp_path / "serve.sqlite"))
    try:
        printed = lines[-1]
        assert printed == f"http://127.0.0.1:{port}/"
        assert LOOPBACK_WARNING in lines
        page, url, code = table_screen(port, process, tmp_path / "serve.log")
        assert url == f"{printed}j/{code}"
        assert LOOPBACK_WARNING in page
    finally:
        stop_group(process)


@pytest.mark.slow
def test_companion_serve_everywhere_with_companion_host_shows_no_warning(tmp_path):
    port = free_port()
    process, lines = serve(f"0.0.0.0:{port}", tmp_path / "serve.log",
                           COMPANION_HOST="companion.example",
                           COMPANION_DATABASE=str(tmp_path / "serve.sqlite"))
    try:
        printed = lines[-1]
        assert printed == f"http://companion.example:{port}/"
        page, url, code = table_screen(port, process, tmp_path / "serve.log")
        assert url == f"{printed}j/{code}"
        assert 'id="unreachable"' not in page and "Phones cannot join" not in page
        assert not any("Phones cannot join" in line for line in lines)
    finally:
        stop_group(process)
