"""Static assets: content-hashed URLs cached for a year, and compressed responses.

A page names each asset as ``/static/<file>?v=<hash of its bytes>``: a phone that reloads
uses its cached copy without asking, and a new version has a new URL. An asset asked for
without its current hash (an old page, a hand-typed URL) is revalidated every time.

A hashed asset never changes, so it is compressed once, with Brotli at its best (a fifth
smaller than the quick compression pages get), and kept; the pages themselves are
compressed as they are made (Flask-Compress).
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import brotli
from flask import Flask, Response, current_app, request, url_for
from flask_compress import Compress

YEAR = 365 * 24 * 3600


@cache
def _digest(path: Path, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


@cache
def _brotli(path: Path, mtime_ns: int) -> bytes:
    return bytes(brotli.compress(path.read_bytes(), quality=11))


#: What is worth compressing among the assets (the images are SVG; fonts come compressed).
COMPRESSIBLE = {"text/css", "text/javascript", "application/javascript", "image/svg+xml"}


def _precompressed(response: Response, filename: str) -> None:
    """Serve the asset's bytes compressed once with Brotli, when the browser takes it."""
    if request.accept_encodings["br"] <= 0 or response.mimetype not in COMPRESSIBLE:
        return
    path = Path(current_app.static_folder or "") / filename
    try:
        body = _brotli(path, path.stat().st_mtime_ns)
    except OSError:
        return
    response.direct_passthrough = False
    response.set_data(body)
    response.headers["Content-Encoding"] = "br"
    response.headers["Vary"] = "Accept-Encoding"


def digest(filename: str) -> str:
    """The first 12 hex digits of the asset's SHA-256 ('' when there is no such file)."""
    path = Path(current_app.static_folder or "") / filename
    try:
        return _digest(path, path.stat().st_mtime_ns)
    except OSError:
        return ""


def asset_url(filename: str) -> str:
    return url_for("static", filename=filename, v=digest(filename))


def game_stylesheet(game_id: str) -> str | None:
    """The URL of a game's own stylesheet (``static/css/games/<id>.css``): a game's pages
    load it beside the platform's, so no page carries the other games' rules."""
    filename = f"css/games/{game_id}.css"
    return asset_url(filename) if digest(filename) else None


def init_app(app: Flask) -> None:
    Compress(app)
    app.jinja_env.globals["asset_url"] = asset_url
    app.jinja_env.globals["game_stylesheet"] = game_stylesheet

    @app.after_request
    def cache_hashed_assets(response: Response) -> Response:
        if request.endpoint == "static" and response.status_code == 200:
            filename = (request.view_args or {}).get("filename", "")
            if request.args.get("v") and request.args.get("v") == digest(filename):
                response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
                # Never asked again: no validators, no download name (a phone's first load
                # is the lighter for it).
                for name in ("ETag", "Last-Modified", "Content-Disposition"):
                    response.headers.pop(name, None)
                _precompressed(response, filename)
            else:
                response.headers["Cache-Control"] = "no-cache"
        return response
