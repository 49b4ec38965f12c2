"""Pieces: the small templates a board or a hand repeats (a square, a stack, a card), each
drawn once per distinct set of arguments and kept.

A move changes a square or two of a board of dozens, yet the board's region is drawn
whole again for every change: a piece the region calls with the same arguments as before
costs a digest of those arguments, not a rendering. A piece may read only its arguments
and the template globals that are pure functions of the language (``_``, ``helpers``,
``url_for``…; the language is part of the key), not the request's; this is checked when a
piece template is first used with a set of names, so a piece cannot show something its key
does not hold.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Flask
from jinja2 import Environment, meta, nodes
from markupsafe import Markup

from companion.i18n import current_lang
from companion.lru import LRU
from companion.web.memo import PER_REQUEST, canonical, reading

#: Pieces kept, the least recently used dropped first: a few tables' boards and hands in
#: every language in use.
PIECES_KEPT = 16384


class Pieces:
    """The pieces drawn lately, by (template, language, arguments)."""

    def __init__(self, env: Environment) -> None:
        self._env = env
        self._lock = threading.Lock()
        self._kept: LRU[tuple[str, str, str], Markup] = LRU(PIECES_KEPT)
        self._checked: set[tuple[str, frozenset[str]]] = set()
        #: Pieces drawn and reused, for the tests and the benchmarks.
        self.drawn = 0
        self.reused = 0

    def draw(self, template: str, arguments: dict[str, Any]) -> Markup:
        """``template`` drawn with ``arguments``, or as drawn before with equal ones.

        Digesting the arguments reads them whole, so a region that holds the piece is
        drawn again when any of them changes (see ``companion.web.memo``)."""
        key = (template, current_lang(), canonical(arguments))
        with self._lock:
            html = self._kept.get(key)
            if html is not None:
                self.reused += 1
                return html
        self._check(template, frozenset(arguments))
        with reading():  # what the piece looks up is its arguments, read above
            html = Markup(self._env.get_template(template).render(arguments).strip())
        with self._lock:
            self._kept.put(key, html)
            self.drawn += 1
        return html

    def _check(self, template: str, given: frozenset[str]) -> None:
        """Refuse a piece that reads a name it is not given: a name of the page's context
        would be a value its key does not hold."""
        if (template, given) in self._checked:
            return
        assert self._env.loader is not None
        source, _, _ = self._env.loader.get_source(self._env, template)
        tree = self._env.parse(source)
        names = list(tree.find_all(nodes.Name))
        # Names the piece sets itself, even in one branch only, are its own.
        own = {name.name for name in names if name.ctx != "load"}
        # Jinja counts every global as declared; the request's are not the piece's to read.
        loads = {name.name for name in names if name.ctx == "load"}
        unknown = (meta.find_undeclared_variables(tree) | (loads & PER_REQUEST)) - own - given
        if unknown:
            raise ValueError(f"the piece {template} reads names it is not given: "
                             f"{', '.join(sorted(unknown))}")
        self._checked.add((template, given))


def install(app: Flask, pieces: Pieces) -> None:
    """``piece(template, **arguments)`` for templates, drawn by ``pieces`` (see
    ``Pieces.draw``)."""
    app.jinja_env.globals["piece"] = lambda template, **arguments: pieces.draw(template,
                                                                                arguments)
