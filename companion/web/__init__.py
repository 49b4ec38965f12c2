"""The web layer: blueprints by page kind, each a thin shell over ``companion.tables``."""

from __future__ import annotations

from flask import Flask
from flask_sock import Sock

from companion.web import (
    api,
    assets,
    home,
    join,
    phone,
    ratelimit,
    rules,
    screen,
    security,
    sockets,
)
from companion.web.render import install_renderer


def init_app(app: Flask) -> None:
    """The web layer on the app: headers and limits, assets, blueprints, sockets."""
    security.init_app(app)
    ratelimit.init_app(app)
    for module in (home, join, phone, screen, rules, api):
        app.register_blueprint(module.bp)
    assets.init_app(app)
    sock = Sock(app)
    sockets.register(sock)
    install_renderer(app)
