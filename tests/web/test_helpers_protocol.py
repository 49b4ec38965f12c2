"""A game's template helpers are a ``Helpers`` (``companion/web/spec.py``): what the shared
pages ask of every game's helpers (``riders``, ``seat_colour_name``, ``standing``) is a
member of that class with a default, which a game overrides where it has one, so no module
probes a game, its engine or its helpers for a member (``getattr``, ``hasattr``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from companion.web.spec import Helpers
from tests.conftest import FAKE_GAME, GAMES_UNDER_TEST

ROOT = Path(__file__).resolve().parents[2]

#: What a game, its engine, its spec or its helpers go by in the companion's code (and the
#: registry's ``registered()[game_id]``): a probed object named so is one of them.
GAME_WORDS = re.compile(r"game|engine|helpers|spec|registered|presenter", re.IGNORECASE)
PROBES = ("getattr", "hasattr")


class _Probes(ast.NodeVisitor):
    """The ``getattr``/``hasattr`` calls of a module whose object is, as far as its names
    tell, a game, an engine or a game's helpers: named so, or ``self`` in a class that is one
    (named so, or built on one: ``Game``, ``Helpers``)."""

    def __init__(self) -> None:
        self.found: list[str] = []
        self.classes: list[list[str]] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.classes.append([node.name, *(ast.unparse(base) for base in node.bases)])
        self.generic_visit(node)
        self.classes.pop()

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id in PROBES and node.args:
            names = [self._meaning(name) for name in _names(node.args[0])]
            if any(GAME_WORDS.search(name) for name in names):
                self.found.append(f"{node.lineno}: {ast.unparse(node)}")
        self.generic_visit(node)

    def _meaning(self, name: str) -> str:
        if name in ("self", "cls") and self.classes:
            return " ".join(self.classes[-1])
        return name


def _names(expression: ast.expr) -> list[str]:
    """Every name an expression says: its variables and the attributes it reads."""
    return [node.id if isinstance(node, ast.Name) else node.attr
            for node in ast.walk(expression) if isinstance(node, ast.Name | ast.Attribute)]


def probes(source: str) -> list[str]:
    """Where ``source`` probes a game, an engine or a game's helpers for a member."""
    visitor = _Probes()
    visitor.visit(ast.parse(source))
    return visitor.found


@pytest.mark.parametrize("source", [
    'getattr(registered()[game_id].helpers, "seat_colour_name", None)',
    'getattr(registered()[table.row.game].helpers, "riders", ())',
    'hasattr(spec.engine, "moves")',
    'getattr(ENGINE, "takes_corrections", False)',
    'getattr(self.engines[play.game], "view")',
    'class Climbers(SeededGame):\n    def f(self):\n        return hasattr(self, "x")',
    'class SkyRunnerHelpers(Helpers):\n    def f(self):\n        return getattr(self, "x")',
])
def test_a_probe_of_a_game_its_engine_or_its_helpers_is_found(source):
    assert probes(source) != []


@pytest.mark.parametrize("source", [
    'getattr(pick, "key", None)',
    'getattr(provider, "default", _plain)',
    'hasattr(value, "__dataclass_fields__")',
    'class Pick:\n    def f(self):\n        return getattr(self, "x")',
    'def __getattr__(name):\n    return name',
])
def test_a_probe_of_anything_else_is_not(source):
    assert probes(source) == []


def test_no_module_of_the_companion_probes_a_game_its_engine_or_its_helpers():
    found = {str(path.relative_to(ROOT)): probes(path.read_text())
             for path in sorted((ROOT / "companion").rglob("*.py"))}
    assert {path: lines for path, lines in found.items() if lines} == {}


@pytest.mark.parametrize("spec", GAMES_UNDER_TEST, ids=lambda spec: spec.id)
def test_every_game_s_helpers_are_helpers(spec):
    assert isinstance(spec.helpers, Helpers)


def test_a_game_without_them_gets_the_defaults():
    """High Card's seats have no colours, it has no choice that stands, and its picker's
    taps answer one question each."""
    view = FAKE_GAME.engine.view(FAKE_GAME.engine.setup(2, {"first_seat": 0}, 5), None)
    helpers = FAKE_GAME.helpers
    assert helpers.riders == ()
    assert [helpers.seat_colour_name(view, seat) for seat in range(2)] == [None, None]
    assert helpers.standing(view) is None
