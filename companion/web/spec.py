"""One game as the companion knows it: the engine, what its seeds file says of it, and how
the web layer draws it (template helpers and the folder of its partials).

A game's presenter (``companion.games.<id>.web``) names its :class:`GameSpec` ``SPEC``;
``companion.web.games.GAMES`` gathers them, and the app factory hands that list to the
tables (the engines) and to the pages (everything else). Its template helpers are a
:class:`Helpers`, whose few members the shared pages ask of every game have defaults.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from companion.games.base import Game
from companion.paths import SEEDS, TEMPLATES

#: The partials every game provides under its template folder (``your_turn.html`` is
#: optional: the platform's own is used when a game has none).
PARTIALS = ("board.html", "choice.html", "describe.html", "phone_board.html", "private.html",
            "table.html", "turn.html", "waiting.html")


class Helpers:
    """A game's template helpers. Each game's subclass adds what its own partials call and
    overrides, of the members below (which the shared pages ask of every game), only those
    its game has: the defaults are a game's without them."""

    #: Keys a tap answers together with the key before them (The Climbers' ghost place:
    #: where a block goes and how it lies): "One choice back" drops them with it
    #: (``picker.back``).
    riders: tuple[str, ...] = ()

    def seat_colour_name(self, view: Mapping[str, Any], seat: int) -> str | None:
        """The colour ``seat`` plays, by which a free seat is named ("yellow"), or None:
        the game gives its seats no colours (``seat_names``)."""
        return None

    def standing(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The pick that starts changing a choice the viewer has made and may still change
        (SkyRunner's secret card, until the reveal), or None: no such choice
        (``render.standing_pick``)."""
        return None


@dataclass(frozen=True)
class GameSpec:
    """A registered game. ``seeds`` and ``templates`` default to the package's own folders
    (``seeds/<id>.toml`` and ``templates/games/<id>/``); its catalogues are the folder
    ``translations/`` of its package."""

    engine: Game
    helpers: Helpers
    seeds: Path | None = None
    templates: Path | None = None
    #: Pieces of the table's public pages fetched when asked rather than pushed (a step of
    #: a long instruction): each is the template ``<name>.html`` of the game's folder,
    #: served at ``/t/<code>/extra/<name>`` from the public view.
    extras: tuple[str, ...] = ()
    #: Extras the whole table goes into together, pausing every move meanwhile: each
    #: with the clause a move made then is refused with (``Tables.pause``).
    pauses: Mapping[str, str] = field(default_factory=dict)
    #: The median bytes per ordinary move a phone and the table screen may be pushed
    #: (phone, screen): ``bench/pushes.py`` holds each game to its own.
    push_budget: tuple[int, int] = (3_000, 6_000)

    @property
    def id(self) -> str:
        return self.engine.id

    @property
    def seeds_path(self) -> Path:
        return self.seeds or SEEDS / f"{self.id}.toml"

    @property
    def templates_path(self) -> Path:
        return self.templates or TEMPLATES / "games" / self.id

    @property
    def package_path(self) -> Path:
        """The folder of the game's package: its engine and its presenter."""
        package = type(self.engine).__module__.rpartition(".")[0]
        return Path(str(sys.modules[package].__file__)).parent

    @property
    def translations_path(self) -> Path:
        """The folder of the game's catalogues (``<lang>/LC_MESSAGES/messages.po`` and
        ``.mo``): the strings of its own places, beside its package."""
        return self.package_path / "translations"

    @cached_property
    def seed(self) -> dict[str, Any]:
        with self.seeds_path.open("rb") as handle:
            return tomllib.load(handle)

    def name(self, lang: str = "en") -> str:
        names = self.seed["name"]
        return names.get(lang) or names["en"]

    @property
    def designers(self) -> str:
        return self.seed.get("designers", "")

    @property
    def year(self) -> int | None:
        return self.seed.get("year")

    @property
    def bgg_id(self) -> int | None:
        """The game's BoardGameGeek id, where it is known (its seeds file says where it
        was found): what BG Stats and BGG file a logged play under."""
        found = self.seed.get("bgg_id")
        return found if isinstance(found, int) else None

    @property
    def min_players(self) -> int:
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        return self.engine.max_players

    @cached_property
    def clauses(self) -> dict[str, dict[str, Any]]:
        """The game's rule clauses by id: ``{"en", "fr", "source", "decision"?, ...}``."""
        return {clause["id"]: clause for clause in self.seed.get("clause", [])}

