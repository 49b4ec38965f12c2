"""Native ES modules under content-hashed URLs: any folder of them under ``static/`` (a
game's own, ``static/js/games/<id>/``), named by its path by the page that loads it.

A module imports another by a relative path (``import {draw} from "./paint.js"``), which
carries no hash: the page's import map sends each module's plain URL to its hashed one
(``assets.asset_url``), so every module, imported or fetched later with ``import()``, is
cached for a year and fetched anew once its bytes change. A page preloads the modules its
entry imports before it runs (``<link rel="modulepreload">``): they come with the entry,
not one after another. The import map is the one inline script a page carries; the
page's policy allows it by its hash (``security.allow_inline_script``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from flask import Flask, current_app, url_for
from markupsafe import Markup

from companion.web.assets import asset_url
from companion.web.security import allow_inline_script

#: A static import of a module beside the importer: ``import … from "./name.js";``.
STATIC_IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s+"\./([\w-]+\.js)";', re.MULTILINE)


def _static() -> Path:
    return Path(current_app.static_folder or "")


@cache
def _imports(path: Path, mtime_ns: int) -> tuple[str, ...]:
    return tuple(STATIC_IMPORT.findall(path.read_text(encoding="utf-8")))


def static_imports(entry: str) -> list[str]:
    """The modules ``entry`` (a file under ``static/``) imports, directly or through
    another, before it runs: what a page preloads (``import()`` comes later)."""
    folder = entry.rsplit("/", 1)[0]
    found: dict[str, None] = {}
    waiting = [entry]
    while waiting:
        path = _static() / waiting.pop()
        for name in _imports(path, path.stat().st_mtime_ns):
            module = f"{folder}/{name}"
            if module != entry and module not in found:
                found[module] = None
                waiting.append(module)
    return list(found)


def import_map(folder: str) -> Markup:
    """The import map of every module in ``static/<folder>``, its plain URL to its hashed
    one, allowed to run on this page by the policy."""
    modules = sorted(path.name for path in (_static() / folder).glob("*.js"))
    imports = {url_for("static", filename=f"{folder}/{name}"): asset_url(f"{folder}/{name}")
               for name in modules}
    text = json.dumps({"imports": imports}, separators=(",", ":"))
    allow_inline_script(text)
    return Markup(text)


def module_preloads(entry: str) -> list[str]:
    """The hashed URLs of the modules a page preloads for ``entry``."""
    return [asset_url(module) for module in static_imports(entry)]


def init_app(app: Flask) -> None:
    app.jinja_env.globals["import_map"] = import_map
    app.jinja_env.globals["module_preloads"] = module_preloads
