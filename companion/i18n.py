"""Languages: Flask-Babel for the interface, and the rule clauses' own EN/FR texts."""

from __future__ import annotations

from flask import Flask, current_app, request
from flask_babel import Babel, get_locale

LANG_COOKIE = "lang"


def select_locale() -> str:
    """The phone's choice (a cookie set by the switch), else the browser's language."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen is not None and chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or languages[0]


def current_lang() -> str:
    return str(get_locale() or "en")


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals["current_lang"] = current_lang
