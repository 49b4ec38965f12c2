"""Headers, Origin checks and the error pages: refusals are clear 4xx, never a traceback."""

from __future__ import annotations

import base64
import hashlib
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import HTTPException

from companion.config import OVER_CONNECTION_CAP
from companion.web.hosts import host_allowed
from companion.web.responses import refusal_response

#: ``media-src data:``: the video that keeps a phone awake over plain http (NoSleep's) is
#: carried in its script as data URIs. A page that carries an import map allows it by its
#: hash (``policy``).
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "media-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def allow_inline_script(text: str) -> None:
    """Let the page being made run the inline script ``text`` (an import map: see
    ``modules.py``), and no other: its policy names that script by its SHA-256."""
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    g.setdefault("script_hashes", {})[f"'sha256-{digest}'"] = None


def policy() -> str:
    """The page's Content-Security-Policy: ``CSP``, with the inline scripts it allows."""
    hashes = g.get("script_hashes")
    if not hashes:
        return CSP
    return CSP.replace("script-src 'self'", " ".join(["script-src 'self'", *hashes]), 1)


#: HTTP status → the platform clause that explains it.
STATUS_RULES = {
    400: "table.bad-request",
    403: "table.bad-origin",
    404: "table.not-found",
    405: "table.method",
    408: "table.too-slow",
    413: "table.too-large",
}

#: Seconds a device over its cap of connections is told to wait before it tries again.
CONNECTIONS_RETRY_SECONDS = 10


#: Scripts and style sheets: a policy, a referrer rule or a frame rule governs the document
#: that loads them, not them, so they go without (a phone's first load is some 1 KB lighter).
SUBRESOURCES = frozenset({"text/javascript", "application/javascript", "text/css"})


def origin_allowed() -> bool:
    """A browser's cross-site request carries another Origin; scripts send none."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return parts.scheme in {"http", "https"} and parts.netloc == request.host


def own_path(target: str) -> str:
    """``target`` when it is a path of this site, else the home page: a redirect goes
    nowhere else. A browser drops tabs and line breaks from a URL and reads ``\\`` as
    ``/``, so ``/\\evil.example`` or ``/<tab>/evil.example`` is another site, like
    ``//evil.example``: a target holding a control character or a backslash is refused."""
    if not target.startswith("/") or target.startswith("//") \
            or any(char == "\\" or char < " " or char == "\x7f" for char in target):
        return "/"
    return target


def handshake_complete() -> bool:
    """The headers a websocket handshake (RFC 6455, version 13) cannot do without; without
    them flask-sock's handshake fails before any route runs."""
    return bool(request.headers.get("Sec-WebSocket-Key")) and \
        request.headers.get("Sec-WebSocket-Version") == "13"


def too_many_connections() -> Response:
    """The answer on a connection over its address's cap (``companion/worker.py``), the
    only one it gets before it is closed."""
    response = refusal_response("table.too-many-connections")
    response.headers["Retry-After"] = str(CONNECTIONS_RETRY_SECONDS)
    return response


def check_request() -> Response | None:
    """Refuse, before any view runs, what no view may serve: over the connection cap, a
    foreign Host or Origin, a body too large, a websocket handshake cut short."""
    if request.environ.get(OVER_CONNECTION_CAP):
        return too_many_connections()
    if not host_allowed():
        return refusal_response("table.bad-host")
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.content_length is not None and request.content_length > limit:
        return refusal_response("table.too-large")
    unsafe = request.method not in {"GET", "HEAD", "OPTIONS"}
    upgrading = request.headers.get("Upgrade", "").lower() == "websocket"
    if (unsafe or upgrading) and not origin_allowed():
        return refusal_response("table.bad-origin")
    if upgrading and not handshake_complete():
        return refusal_response("table.bad-request", detail="websocket handshake")
    return None


def set_headers(response: Response) -> Response:
    response.headers["X-Content-Type-Options"] = "nosniff"
    if response.mimetype not in SUBRESOURCES:
        response.headers.setdefault("Content-Security-Policy", policy())
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
    if response.mimetype == "text/html" or request.path.startswith("/api/"):
        response.headers.setdefault("Cache-Control", "no-store")
    return response


def http_error(error: HTTPException) -> Response:
    """An HTTP error (404, 405…) as a refusal in the reader's words."""
    status = error.code or 500
    rule = STATUS_RULES.get(status, "table.bad-request")
    return refusal_response(rule, status=status, detail=error.description or "")


def unexpected(error: Exception) -> Response:
    """A fault of the server: logged, and answered with a refusal, never a traceback."""
    current_app.logger.exception("unexpected error")
    return refusal_response("table.server-error")


def init_app(app: Flask) -> None:
    """Check every request before it is served, and give every answer its headers."""
    app.before_request(check_request)
    app.after_request(set_headers)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(Exception, unexpected)
