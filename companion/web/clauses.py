"""The text of a rule clause, in the reader's language, with its parameters filled in.

Game clauses live in the registered game's seeds file (``seeds/<game>.toml``); the
platform's own (``table.*``) in ``seeds/table.toml``. A refusal always names one of them.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from companion.games.base import clauses as game_clauses
from companion.web.games.spec import spec_of


class _Blank(dict):
    """Leaves an ellipsis where a parameter is not known (the rules page shows clauses
    without any)."""

    def __missing__(self, key: str) -> str:
        return "…"


def clause(game_id: str, rule: str) -> dict[str, Any] | None:
    """The clause ``rule`` names: the platform's own, or one of the registered game's."""
    if rule.startswith("table."):
        return game_clauses("table").get(rule)
    spec = spec_of(game_id)
    return spec.clauses.get(rule) if spec is not None else None


def clause_text(game_id: str, rule: str, lang: str, params: dict[str, Any] | None = None) -> str:
    found = clause(game_id, rule)
    if found is None:
        return rule
    text = found.get(lang) or found["en"]
    return text.format_map(_Blank({k: _word(game_id, k, v, lang)
                                   for k, v in (params or {}).items()}))


def _word(game_id: str, key: str, value: Any, lang: str) -> Any:
    """A ``colour`` parameter in the reader's words (the game's ``names.colours``); any
    other parameter as it is."""
    spec = None if game_id.startswith("table") else spec_of(game_id)
    if key != "colour" or spec is None:
        return value
    name = spec.seed.get("names", {}).get("colours", {}).get(value)
    return (name.get(lang) or name["en"]) if name else value


def clause_source(game_id: str, rule: str) -> str:
    """The rulebook section a clause comes from, as the log's "why" lines cite it."""
    found = clause(game_id, rule)
    return found["source"] if found else rule


def source_parts(game_id: str, source: str) -> list[tuple[str, str | None]]:
    """A clause's source cut into its languages: the sections of a rulebook are cited as
    printed, in the rulebook's language (the seed's ``rulebook_lang``); a source citing two
    rulebooks reads "EN: … · FR: …". None: no language of its own (the product's name)."""
    if source.startswith("EN: ") and " · FR: " in source:
        english, french = source.split(" · FR: ", 1)
        return [(english, "en"), (" · ", None), ("FR: " + french, "fr")]
    spec = spec_of(game_id) if game_id != "table" else None
    lang = spec.seed.get("rulebook_lang") if spec is not None else None
    return [(source, lang if isinstance(lang, str) else None)]


def source_markup(game_id: str, source: str, reader_lang: str) -> Markup:
    """A clause's source as HTML, each part in another language than the page's marked with
    ``lang`` so that a screen reader reads it in that language (WCAG 3.1.2)."""
    return Markup("").join(
        Markup('<span lang="{}">{}</span>').format(lang, text)
        if lang is not None and lang != reader_lang else escape(text)
        for text, lang in source_parts(game_id, source))


def clause_source_markup(game_id: str, rule: str, reader_lang: str) -> Markup:
    found = clause(game_id, rule)
    if found is None:
        return escape(rule)
    return source_markup("table" if rule.startswith("table.") else game_id, found["source"],
                         reader_lang)
