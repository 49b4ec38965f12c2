"""The app factory: the Flask app of one server process (and a fresh one per test)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

from companion.config import Config
from companion.paths import STATIC, TEMPLATES

if TYPE_CHECKING:
    from companion.web.spec import GameSpec


def create_app(overrides: dict[str, Any] | None = None,
               games: Sequence[GameSpec] | None = None) -> Flask:
    """The app factory: one app per server process, and a fresh one per test.

    ``games`` are the games offered (``companion.web.games.GAMES`` unless a test adds one).
    """
    app = Flask(__name__, instance_path=str(Path.cwd() / "instance"),
                template_folder=str(TEMPLATES), static_folder=str(STATIC))
    app.config.from_object(Config)
    if overrides:
        app.config.update(overrides)
    if not app.config["DATABASE"]:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["DATABASE"] = str(Path(app.instance_path) / "companion.sqlite")

    from companion import i18n
    from companion.live import Hub
    from companion.store import Store
    from companion.tables import Retirement, Tables
    from companion.web import assembly, regions
    from companion.web.buckets import Limits
    from companion.web.caches import Caches
    from companion.web.games import GAMES
    from companion.web.pieces import Pieces
    from companion.web.pushes import Pushes
    from companion.web.services import KEY, Services

    registry = {spec.id: spec for spec in (GAMES if games is None else games)}
    i18n.init_app(app, [spec.translations_path for spec in registry.values()])
    caches = Caches()
    pushes = Pushes(app, caches.memo, regions)
    hub = Hub(pushes)
    tables = Tables(
        Store(app.config["DATABASE"]),
        {game_id: spec.engine for game_id, spec in registry.items()}, listener=hub,
        alphabet=app.config["CODE_ALPHABET"], length=app.config["CODE_LENGTH"],
        retirement=Retirement(**app.config["RETIRE_SECONDS"]))
    if app.config["REDIS"]:  # several processes serve these tables
        from companion.peers import RedisPeers

        tables.peers = RedisPeers(app.config["REDIS"], heard=tables.heard,
                                  lost=tables.catch_up_all).start()
    app.extensions[KEY] = Services(
        tables=tables, hub=hub, games=registry, limits=Limits.from_config(app.config),
        caches=caches, pieces=Pieces(app.jinja_env), pushes=pushes)
    assembly.init_app(app)
    return app
