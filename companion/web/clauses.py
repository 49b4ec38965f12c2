"""The text of a rule clause, in the reader's language, with its parameters filled in.

Game clauses live in the registered game's seeds file (``seeds/<game>.toml``); the
platform's own (``table.*``) in ``seeds/table.toml``. A refusal always names one of them.
"""

from __future__ import annotations

from typing import Any

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
