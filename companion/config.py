"""Configuration: defaults here, overridable by environment variables or a test's mapping."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import ClassVar

from companion.paths import TRANSLATIONS

DEFAULT_PORT = 5000
#: Connections one client address may hold at once: a phone holds its websocket and a few
#: keep-alive connections, a laptop showing several table screens some more.
CONNECTIONS_PER_ADDRESS = 50
#: The environ key the server's worker (``companion/worker.py``) sets on a request that came
#: on a connection over its address's cap: the app answers it with a refusal.
OVER_CONNECTION_CAP = "companion.over_connection_cap"


def listen_address(environ: Mapping[str, str] = os.environ) -> str:
    """Where the server listens: ``COMPANION_BIND`` (host:port), else every interface on
    ``$PORT`` (the Procfile convention of Heroku, Dokku, honcho and foreman), else on
    ``COMPANION_PORT``, else on 5000."""
    port = environ.get("PORT") or environ.get("COMPANION_PORT") or DEFAULT_PORT
    return environ.get("COMPANION_BIND") or f"0.0.0.0:{port}"


def public_port(environ: Mapping[str, str] = os.environ) -> int:
    """The port put in join links: ``COMPANION_PORT``, else the port listened on."""
    explicit = environ.get("COMPANION_PORT")
    if explicit:
        return int(explicit)
    _, _, port = listen_address(environ).rpartition(":")
    return int(port) if port.isdigit() else DEFAULT_PORT


def connections_per_address(environ: Mapping[str, str] = os.environ) -> int:
    """How many connections one client address may hold: ``COMPANION_CONNECTIONS_PER_ADDRESS``,
    else ``CONNECTIONS_PER_ADDRESS``."""
    return int(environ.get("COMPANION_CONNECTIONS_PER_ADDRESS") or CONNECTIONS_PER_ADDRESS)


def worker_count(environ: Mapping[str, str] = os.environ) -> int:
    """How many server processes serve the tables: ``COMPANION_WORKERS``, else one per core
    when Redis tells them of each other's changes (``COMPANION_REDIS``), else one. Several
    without Redis are refused: a move made in one would reach no socket of another."""
    redis = environ.get("COMPANION_REDIS")
    count = int(environ.get("COMPANION_WORKERS") or ((os.cpu_count() or 1) if redis else 1))
    if count > 1 and not redis:
        raise ValueError(f"{count} workers need Redis (--redis redis://host:port or "
                         "COMPANION_REDIS) to tell each other of every move")
    return count


class Config:
    #: Where the SQLite database lives (the app factory puts it in the instance folder), or
    #: a ``postgresql://`` URL: the store of several machines (docs/scaling.md).
    DATABASE: str | None = os.environ.get("COMPANION_DATABASE")
    #: Redis, through which several server processes tell each other of each change
    #: (``companion.peers``); None: one process, and nothing imports Redis.
    REDIS: str | None = os.environ.get("COMPANION_REDIS") or None
    #: The port phones reach the companion on (used in the join URL and QR code).
    PUBLIC_PORT: int = public_port()
    #: Where the server listens (host:port): a server on loopback cannot be joined.
    BIND_ADDRESS: str = listen_address()
    #: Fixes the address put in join URLs; found from the network interfaces when unset.
    PUBLIC_HOST: str | None = os.environ.get("COMPANION_HOST")
    MAX_CONTENT_LENGTH = 16 * 1024
    MAX_FORM_MEMORY_SIZE = 16 * 1024
    BABEL_DEFAULT_LOCALE = "en"
    #: The shared catalogue; the app factory puts the games' own before it (``i18n``).
    BABEL_TRANSLATION_DIRECTORIES = str(TRANSLATIONS)
    LANGUAGES = ("en", "fr")
    #: Seconds between websocket pings, so a phone that vanished is shown as away.
    SOCK_SERVER_OPTIONS: ClassVar[dict[str, int]] = {
        "ping_interval": int(os.environ.get("COMPANION_PING", "15")),
        "max_message_size": 4096,
    }
    #: Whether ``POST /api/tables`` may fix the deal with a ``seed`` (for tests and bots):
    #: whoever chose it can know every hand, so a games night's server refuses it.
    SEEDED_DEALS: bool = os.environ.get("COMPANION_SEEDED_DEALS") == "1"
    #: How long a finished game stays on the night scoreboard.
    NIGHT_HOURS = 12
    #: The letters of a table's code and how many (the tests use fewer, to use them up).
    CODE_ALPHABET = "ACDEFHJKMNPRTWXY"
    CODE_LENGTH = 4
    #: Seconds of nothing happening after which a table gives up its code (see
    #: ``companion.tables.Retirement``): a lobby, a table whose game is over, one left
    #: in the middle of a game.
    RETIRE_SECONDS: ClassVar[dict[str, float]] = {"lobby": 2 * 3600, "over": 3600,
                                                  "playing": 6 * 3600}
