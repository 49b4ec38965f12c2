"""What the app factory builds once for an app, in one typed object: the tables, the hub,
the games offered, the rate limits, what the pages keep between drawings, and the pushes.
Requests, tests and benchmarks reach them through ``services()``.

It imports no module of the web layer that reaches the services itself, so any of them
may import it without closing a circle.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flask import Flask, current_app

if TYPE_CHECKING:
    from companion.live import Hub
    from companion.tables import Tables
    from companion.web.buckets import Limits
    from companion.web.caches import Caches
    from companion.web.pieces import Pieces
    from companion.web.pushes import Pushes
    from companion.web.spec import GameSpec

#: The one key of the companion's own in ``app.extensions``.
KEY = "companion"


@dataclass(frozen=True)
class Services:
    tables: Tables
    hub: Hub
    #: The games offered, by id, in the order the home page lists them.
    games: Mapping[str, GameSpec]
    limits: Limits
    caches: Caches
    pieces: Pieces
    #: What each socket is sent, and what it was sent (``companion.web.pushes``).
    pushes: Pushes


def services(app: Flask | None = None) -> Services:
    """The services of ``app`` (the current app when not given)."""
    found: Services = (app or current_app).extensions[KEY]
    return found


def registered() -> Mapping[str, GameSpec]:
    """The current app's games by id, in the order the home page offers them."""
    return services().games


def spec_of(game_id: Any) -> GameSpec | None:
    """The registered game called ``game_id``, or None (any value: it may come from a URL)."""
    return registered().get(game_id) if isinstance(game_id, str) else None
