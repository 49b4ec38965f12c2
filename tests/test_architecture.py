"""The layers of docs/architecture.md are a contract that lint-imports checks, and it does
catch an arrow that runs back up."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
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
    ("live.py", "from companion.web import render"),
])
def test_an_arrow_that_runs_back_up_breaks_the_contract(tmp_path, module, line):
    tree = copy_of_the_package(tmp_path)
    path = tree / "companion" / module
    path.write_text(path.read_text() + f"\n{line}  # noqa\n")
    result = lint(tree)
    assert result.returncode != 0, result.stdout
    assert "BROKEN" in result.stdout
