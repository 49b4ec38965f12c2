"""The rules as players read them: every clause has a name players would say, in each
language; its own short page (what a refusal's "Rule:" and a log line's "Why:" open) says
the rule, the decision taken where the rulebook is unclear and the rulebook's own sentence,
in the page's language, with no developer's word; the whole rules page keeps ids and
sources to its small print."""

from __future__ import annotations

import json
import re

import pytest

from companion.games.base import clauses
from support.reading import shown_text, unreadable
from tests.conftest import ApiTable

GAMES = ("seventh-heaven", "heuchel-meuchel", "skyrunner", "climbers")
LANGS = ("en", "fr")
SMALL_PRINT = re.compile(r'<p class="source">.*?</p>', re.S)
RULE_LINK = re.compile(r'<p class="rule-id"><a href="([^"]+)">([^<]+)</a></p>')


def every_clause() -> list[tuple[str, str]]:
    return [(game, rule) for game in GAMES for rule in clauses(game)]


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_has_a_title_in_each_language(game):
    for rule, clause in clauses(game).items():
        title = clause.get("title", {})
        for lang in LANGS:
            assert title.get(lang), (rule, lang)
            assert rule not in title[lang] and len(title[lang]) <= 45, (rule, title[lang])
            assert not unreadable(title[lang], lang), (rule, lang, unreadable(title[lang], lang))


@pytest.mark.parametrize("game", GAMES)
def test_each_rule_opens_short_in_each_language(client, game):
    """Every clause's page, in English and in French: its title as the heading, its words
    once, and nothing a player should not read."""
    catalogue = clauses(game)
    for rule, clause in catalogue.items():
        for lang in LANGS:
            response = client.get(f"/rules/{game}/{rule}", headers={"Accept-Language": lang})
            assert response.status_code == 200, (rule, lang)
            page = response.get_data(as_text=True)
            text = shown_text(page)
            assert f"<h1>{clause['title'][lang]}</h1>".replace("'", "&#39;") in page, rule
            assert page.count('class="rule-text"') == 1, rule
            assert not unreadable(text, lang), (rule, lang, unreadable(text, lang))
            if "quote" in clause:
                quoted = clause["quote"][lang].replace("'", "&#39;").replace('"', "&#34;")
                assert f"<blockquote>{quoted}</blockquote>" in page, (rule, lang)
            if "example" in clause:
                assert clause["example"][lang][:40].replace("'", "&#39;") in page, rule
            if "decision" in clause:
                assert clause["decision"][lang][:40].replace("'", "&#39;") in page, rule
            assert len(text) < 2500, (rule, len(text))  # a rule, not the rulebook


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_whole_rules_page_keeps_ids_and_sources_to_its_small_print(client, game, lang):
    page = client.get(f"/rules/{game}", headers={"Accept-Language": lang}).get_data(True)
    small_print = SMALL_PRINT.findall(page)
    assert len(small_print) == len(clauses(game))
    text = shown_text(SMALL_PRINT.sub("", page))
    assert not unreadable(text, lang), unreadable(text, lang)
    for clause in clauses(game).values():
        assert f'<h3><a href="/rules/{game}/{clause["id"]}">' in page


def test_an_unknown_rule_is_a_clear_refusal(client):
    response = client.get("/rules/skyrunner/sr.no-such-rule")
    assert response.status_code == 404
    assert "There is nothing at this address." in response.get_data(as_text=True)


@pytest.mark.parametrize(("lang", "title", "words"), [
    ("en", "Taking turns", "clockwise"),
    ("fr", "Chacun son tour", "sens des aiguilles d’une montre"),
])
def test_not_your_turn_names_the_turn_rule_and_opens_it(client, lang, title, words):
    """A waiting player taps a card of their hand in In 7th Heaven: the sheet names the
    turn rule by its title, with no clause id, and its link opens that rule alone."""
    table = ApiTable.started(client, game="seventh-heaven", players=4, seed=3)
    client.set_cookie(f"seat_{table.code}", table.tokens[1])
    card = table.view(1)["view"]["hand"][0]
    answer = client.get(f"/t/{table.code}/explain",
                        query_string={"pick": json.dumps({"card": card})},
                        headers={"HX-Request": "true", "Accept-Language": lang})
    sheet = answer.get_data(as_text=True)
    assert 'data-rule="7h.turn.wait"' in sheet
    assert not unreadable(shown_text(sheet), lang), unreadable(shown_text(sheet), lang)
    link, label = RULE_LINK.search(sheet).groups()
    assert title in label and "Garden" not in label
    assert link == f"/rules/seventh-heaven/7h.turn.wait?table={table.code}"
    rule = client.get(link, headers={"Accept-Language": lang}).get_data(as_text=True)
    assert f"<h1>{title}</h1>" in rule and words in rule
    assert f'href="/t/{table.code}/play"' in rule  # back to the phone
