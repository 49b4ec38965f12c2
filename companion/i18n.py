"""Languages: Flask-Babel for the interface, and the rule clauses' own EN/FR texts."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from pathlib import Path

from babel import Locale
from babel.support import NullTranslations
from flask import Flask, current_app, request
from flask_babel import Babel, force_locale, get_locale, get_translations
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

LANG_COOKIE = "lang"

#: The language of the drawing under way when its caller named it (a push is drawn in its
#: connection's language), and its app's catalogue for it: templates ask for them hundreds
#: of times a push, and Flask-Babel finds them through the request's context each time.
_drawing: ContextVar[tuple[str, NullTranslations] | None] = ContextVar("drawing",
                                                                      default=None)
#: Each language's locale, parsed once: Flask-Babel's ``force_locale`` parses the name it is
#: given, at half the cost of setting up a push's drawing.
_locales: dict[str, Locale] = {}


def select_locale() -> str:
    """The phone's choice (a cookie set by the switch), else the browser's language."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen is not None and chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or languages[0]


def current_lang() -> str:
    drawing = _drawing.get()
    return drawing[0] if drawing is not None else str(get_locale() or "en")


@contextlib.contextmanager
def drawing_in(lang: str) -> Iterator[None]:
    """Draw in ``lang``: Flask-Babel's ``force_locale``, with the language and the app's
    catalogue for it found once, not through the request for every word. Needs the app's
    context (each app merges the catalogues of the games it offers)."""
    locale = _locales.get(lang)
    if locale is None:
        locale = _locales[lang] = Locale.parse(lang)
    with force_locale(locale):
        token = _drawing.set((lang, get_translations()))
        try:
            yield
        finally:
            _drawing.reset(token)


def _catalogue() -> NullTranslations:
    drawing = _drawing.get()
    return drawing[1] if drawing is not None else get_translations()


def gettext(text: str, **variables: object) -> str:
    """Flask-Babel's ``gettext`` through the catalogue of the drawing under way: for words
    said in Python many times a page (a build step names every block it compares)."""
    said: str = _catalogue().ugettext(text)
    return said % variables if variables else said


def ngettext(singular: str, plural: str, num: int, **variables: object) -> str:
    said: str = _catalogue().ungettext(singular, plural, num)
    return said % {"num": num, **variables}


def listed(items: Sequence[str]) -> str:
    """Several things in one phrase, in the reader's language: "A", "A and B", "A, B and C"."""
    if len(items) < 2:
        return "".join(items)
    return gettext("%(list)s and %(last)s", list=", ".join(items[:-1]), last=items[-1])


def catalogue_directories(games: Iterable[Path], shared: str) -> str:
    """Flask-Babel's ``BABEL_TRANSLATION_DIRECTORIES``: the folders of the games' catalogues
    that exist, then the shared one. Flask-Babel merges the catalogues of the directories in
    this order, each over the ones before, so a string the shared catalogue holds is said
    as it says it; a game's catalogue holds its own places' strings, and
    ``tests/web/test_translations.py`` checks that every catalogue says a string alike."""
    return ";".join([*(str(folder) for folder in games if folder.is_dir()), shared])


def init_app(app: Flask, game_catalogues: Iterable[Path] = ()) -> None:
    """Languages for ``app``: the shared catalogue of its settings and, under it, the
    catalogues of the games it offers (``game_catalogues``, their folders)."""
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = catalogue_directories(
        game_catalogues, app.config["BABEL_TRANSLATION_DIRECTORIES"])
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals["current_lang"] = current_lang
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: _catalogue().ugettext(s),
        ngettext=lambda s, p, n: _catalogue().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _catalogue().upgettext(c, s),
        npgettext=lambda c, s, p, n: _catalogue().unpgettext(c, s, p, n),
    )
    # A push says a hundred words or more: ``_`` goes straight to the catalogue rather than
    # through Jinja's alias and wrapper, each a lookup and a call through the context.
    app.jinja_env.globals.update(_=_template_gettext, gettext=_template_gettext,
                                 ngettext=_template_ngettext)


@pass_context
def _template_gettext(context: Context, text: str, **variables: object) -> str:
    """A template's ``_``, as Jinja's new-style ``gettext`` says it: escaped in an HTML
    template, and always a format string."""
    said: str = _catalogue().ugettext(text)
    return (Markup(said) if context.eval_ctx.autoescape else said) % variables


@pass_context
def _template_ngettext(context: Context, singular: str, plural: str, num: int,
                       **variables: object) -> str:
    """A template's ``ngettext``, as Jinja's new-style one says it (``num`` given)."""
    variables.setdefault("num", num)
    said: str = _catalogue().ungettext(singular, plural, num)
    return (Markup(said) if context.eval_ctx.autoescape else said) % variables
