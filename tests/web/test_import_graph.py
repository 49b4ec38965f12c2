"""The web layer's modules import one another without a circle (imports made for the type
checker alone included), and a module imported on its own brings only what it needs: a
text look-up comes with no blueprint."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
WEB = "companion.web"


def cycle_in(imports: Mapping[str, set[str]]) -> list[str] | None:
    """A circle of ``imports`` (module → the modules it imports), as the modules along it
    with the first again at the end; None when there is none."""
    state: dict[str, str] = {}  # "open" while on the path walked, "done" after

    def walk(module: str, path: list[str]) -> list[str] | None:
        state[module] = "open"
        for imported in sorted(imports.get(module, ())):
            if state.get(imported) == "open":
                return [*path[path.index(imported):], imported]
            if imported not in state:
                found = walk(imported, [*path, imported])
                if found:
                    return found
        state[module] = "done"
        return None

    for module in sorted(imports):
        if module not in state:
            found = walk(module, [module])
            if found:
                return found
    return None


def web_imports() -> dict[str, set[str]]:
    """Each module of ``companion.web`` and the modules of ``companion.web`` it imports."""
    graph = grimp.build_graph("companion", cache_dir=None)
    modules = {module for module in graph.modules
               if module == WEB or module.startswith(WEB + ".")}
    return {module: graph.find_modules_directly_imported_by(module) & modules
            for module in modules}


def test_no_module_of_the_web_layer_imports_itself_in_a_circle():
    assert cycle_in(web_imports()) is None


def test_a_circle_is_found():
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle_in({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def blueprint_modules() -> set[str]:
    """The modules of the web layer that define a blueprint."""
    return {f"{WEB}.{path.stem}" for path in (ROOT / "companion" / "web").glob("*.py")
            if re.search(r"^bp = Blueprint\(", path.read_text(), re.MULTILINE)}


def test_a_text_look_up_imported_alone_brings_no_blueprint():
    blueprints = blueprint_modules()
    assert {f"{WEB}.phone", f"{WEB}.screen", f"{WEB}.sockets"} <= blueprints
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, companion.web.clauses; print(*sys.modules)"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    assert "companion.web.clauses" in loaded
    assert not blueprints & set(loaded)
