"""Table Companion: phones as private controllers for physical board games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from companion.config import Config

ROOT = Path(__file__).resolve().parent.parent


def create_app(overrides: dict[str, Any] | None = None) -> Flask:
    """The app factory: one app per server process, and a fresh one per test."""
    app = Flask(__name__, instance_path=str(Path.cwd() / "instance"))
    app.config.from_object(Config)
    if overrides:
        app.config.update(overrides)
    if not app.config["DATABASE"]:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["DATABASE"] = str(Path(app.instance_path) / "companion.sqlite")

    from companion import i18n, ratelimit, security
    from companion.live import Hub
    from companion.store import Store
    from companion.tables import Tables
    from companion.web import register_blueprints

    i18n.init_app(app)
    security.init_app(app)
    ratelimit.init_app(app)
    store = Store(app.config["DATABASE"])
    hub = Hub(app)
    app.extensions["tables"] = Tables(store, hub)
    register_blueprints(app)
    return app
