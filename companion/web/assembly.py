"""The web layer put on an app: templates, headers and limits, assets, blueprints and sockets.
Only the app factory imports it: a module of the web layer imported on
its own brings no blueprint with it."""

from __future__ import annotations

from flask import Flask
from jinja2 import BaseLoader, ChoiceLoader, FileSystemLoader, PrefixLoader

from companion.paths import TEMPLATES
from companion.web import (
    api,
    assets,
    extras,
    home,
    host_links,
    join,
    modules,
    night,
    phone,
    pieces,
    ratelimit,
    record,
    regions,
    rules,
    screen,
    security,
    sockets,
    waiting,
)
from companion.web.render import install_template_globals
from companion.web.services import services


def init_app(app: Flask) -> None:
    """The web layer on ``app``, whose services and pushes are built."""
    app.jinja_loader = template_loader(app)
    security.init_app(app)
    ratelimit.init_app(app)
    for module in (home, join, waiting, phone, screen, record, night, host_links, extras,
                   rules, api, sockets):
        app.register_blueprint(module.bp)
    assets.init_app(app)
    modules.init_app(app)
    install_template_globals(app)
    regions.install(app)
    pieces.install(app, services(app).pieces)


def template_loader(app: Flask) -> BaseLoader:
    """The app's templates, where ``games/<id>/…`` is read from each registered game's own
    template folder."""
    games = PrefixLoader({game_id: FileSystemLoader(spec.templates_path)
                          for game_id, spec in services(app).games.items()})
    return ChoiceLoader([PrefixLoader({"games": games}), FileSystemLoader(TEMPLATES)])
