"""Pieces (``companion.web.pieces``): a board's squares and a hand's cards drawn once per
distinct set of arguments, in each language, and never from what they are not given."""

from __future__ import annotations

import pytest
from flask import render_template_string
from jinja2 import ChoiceLoader, DictLoader

from companion.i18n import drawing_in
from companion.web.services import services


@pytest.fixture
def pieces(app):
    app.jinja_env.loader = ChoiceLoader([DictLoader({
        "t/square.html": "{#- a square -#}\n<b id=\"sq-{{ n }}\">{{ _('Start') }} {{ n }}</b>\n",
        "t/leaky.html": "<b>{{ n }} {{ view.hand }}</b>",
        "t/request.html": "<b>{{ n }} {{ request.args }}</b>",
        "t/own.html": "{% if n %}{% set said = 'yes' %}{% endif %}<b>{{ said }}</b>",
    }), app.jinja_env.loader])
    return services(app).pieces


def draw(app, lang: str, source: str) -> str:
    with app.test_request_context(), drawing_in(lang):
        return render_template_string(source)


def test_a_piece_is_drawn_once_for_equal_arguments_in_each_language(app, pieces):
    source = "{% for n in (1, 1, 2, 1) %}{{ piece('t/square.html', n=n) }}{% endfor %}"
    assert draw(app, "en", source) == ('<b id="sq-1">Start 1</b><b id="sq-1">Start 1</b>'
                                       '<b id="sq-2">Start 2</b><b id="sq-1">Start 1</b>')
    assert (pieces.drawn, pieces.reused) == (2, 2)
    assert draw(app, "fr", source).startswith('<b id="sq-1">Départ 1</b>')
    assert (pieces.drawn, pieces.reused) == (4, 4)


@pytest.mark.parametrize("template", ["t/leaky.html", "t/request.html"])
def test_a_piece_that_reads_what_it_is_not_given_is_refused(app, pieces, template):
    with pytest.raises(ValueError, match="reads names it is not given"):
        draw(app, "en", f"{{{{ piece('{template}', n=1) }}}}")


def test_a_piece_may_set_names_of_its_own(app, pieces):
    assert draw(app, "en", "{{ piece('t/own.html', n=1) }}") == "<b>yes</b>"
