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

    from companion import i18n, web
    from companion.live import Hub
    from companion.store import Store
    from companion.tables import Tables

    i18n.init_app(app)
    hub = Hub(app)
    app.extensions["hub"] = hub
    app.extensions["tables"] = Tables(Store(app.config["DATABASE"]), listener=hub)
    web.init_app(app)
    return app
