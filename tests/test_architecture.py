"""The layers of docs/architecture.md are a contract that lint-imports checks, and it does
catch an arrow that runs back up."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    return subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=tree, env=env,
                          capture_output=True, text=True)


def copy_of_the_package(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "companion", tmp_path / "companion",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "translations"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_layers_are_kept():
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize("module, line", [
    ("tables.py", "from companion.live import Hub"),
    ("tables.py", "from companion.web.responses import status_of"),
    ("store.py", "from companion.tables import Table"),
    ("games/skyrunner/rules.py", "import flask"),
    ("games/skyrunner/rules.py", "from companion.games.climbers import geometry"),
    ("games/skyrunner/rules.py", "from companion.games.skyrunner import web"),
    ("games/skyrunner/web.py", "from companion.games.climbers.web import words"),
    ("live.py", "from companion.web import render"),
    ("web/services.py", "from companion.web.regions import regions"),
])
def test_an_arrow_that_runs_back_up_breaks_the_contract(tmp_path, module, line):
    tree = copy_of_the_package(tmp_path)
    path = tree / "companion" / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    result = lint(tree)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout


def test_the_diagram_in_the_docs_is_the_contract():
    """docs/architecture.md draws the layers top to bottom as the contract lists them."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        contract = tomllib.load(handle)["tool"]["importlinter"]["contracts"][0]
    text = (ROOT / "docs" / "architecture.md").read_text()
    diagram = text.split("## Layers, and the way the arrows go", 1)[1].split("```")[1]
    drawn = [" | ".join(re.findall(r"companion\.\w+", line)) for line in diagram.splitlines()
             if line.startswith("companion.")]
    assert drawn == contract["layers"]



#: Who may import whom among the folders outside the package: each shares through support/.
OUTSIDE = {"tests": {"support"}, "bench": {"support"}, "scripts": {"support"}, "support": set()}
IMPORT = re.compile(r"^\s*(?:from|import)\s+(tests|bench|scripts|support)\b", re.MULTILINE)


def imports_across(folder: str) -> list[str]:
    allowed = OUTSIDE[folder] | {folder}
    return [f"{path.relative_to(ROOT)} imports {name}"
            for path in sorted((ROOT / folder).rglob("*.py"))
            for name in IMPORT.findall(path.read_text()) if name not in allowed]


@pytest.mark.parametrize("folder", sorted(OUTSIDE))
def test_tests_bench_and_scripts_share_only_through_support(folder):
    assert imports_across(folder) == []


def test_an_import_from_the_tests_in_bench_would_be_caught(tmp_path, monkeypatch):
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "x.py").write_text("from tests.conftest import ApiTable\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert imports_across("bench") == ["bench/x.py imports tests"]


MYPY = str(Path(sys.executable).with_name("mypy"))


def test_the_type_checker_catches_a_view_that_breaks_its_type(tmp_path):
    """mypy, as ./scripts/test runs it, refuses a game whose view lacks a declared key."""
    tree = copy_of_the_package(tmp_path)
    game = tree / "companion" / "games" / "seventh_heaven" / "game.py"
    text = game.read_text()
    assert '            "deck_count": len(state["deck"]),\n' in text
    game.write_text(text.replace('            "deck_count": len(state["deck"]),\n', ""))
    result = subprocess.run([MYPY, "companion"], cwd=tree, capture_output=True, text=True)
    assert result.returncode != 0
    assert 'Missing key "deck_count"' in result.stdout


def test_the_app_keeps_its_services_under_one_typed_key():
    """Everything the app factory builds is reached through ``services()``: no module,
    test or benchmark reads ``app.extensions`` by a string key of its own."""
    here = Path(__file__).resolve().parents[1]
    keyed = re.compile(r"\.extensions\[")
    readers = sorted(path.relative_to(here).as_posix()
                     for folder in ("companion", "tests", "bench", "scripts", "support")
                     for path in (here / folder).rglob("*.py")
                     if keyed.search(path.read_text()))
    assert readers == ["companion/app.py", "companion/web/services.py"], readers
