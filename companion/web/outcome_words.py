"""How a finished game is said, from its seeds file (``[outcome]``): why it ended, and what
a place's number means. Functions of the game, the value and the language alone: they
need no app and no request."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.web.spec import GameSpec


def outcome_reason(game: GameSpec, reason: str, lang: str) -> str:
    """Why a game ended, in ``lang`` (the game's seeds, ``[outcome.reasons]``)."""
    texts = game.seed.get("outcome", {}).get("reasons", {}).get(reason, {})
    return str(texts.get(lang) or texts.get("en") or "")


def outcome_score(game: GameSpec, score: Any, lang: str) -> str:
    """A place's number with what it means ("18 points", "height 7"), in ``lang``."""
    texts = game.seed.get("outcome", {}).get("score", {})
    text = texts.get(lang) or texts.get("en") or "{score}"
    return str(text).replace("{score}", str(score))
