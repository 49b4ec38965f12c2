"""Where the companion's own files are: the top-level ``seeds/``, ``templates/`` and
``static/`` of a checkout, or the same folders inside the package once installed from a
wheel (the build copies them in: ``[tool.hatch.build.targets.wheel.force-include]``)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    installed = PACKAGE / name
    return installed if installed.is_dir() else PACKAGE.parent / name


#: The rule clauses, components and options of each game (``<game>.toml``).
SEEDS = _folder("seeds")
#: The Jinja templates: the pages, and each game's partials under ``games/<id>/``.
TEMPLATES = _folder("templates")
#: CSS, scripts, images and the vendored browser assets (``vendor/``).
STATIC = _folder("static")
#: The compiled catalogues of the interface's languages (inside the package either way).
TRANSLATIONS = PACKAGE / "translations"
