"""The host's buttons on another device (the TV, the host's own phone): a host device makes
a host link, shown once on a page of its own (never in a region, so never pushed), as an
address, a QR code and a key to type; the device that opens it and confirms holds the key
in its host cookie until the host revokes the link.

A wrong or revoked key changes nothing and is told so; each wrong key spends a token of the
address's misses bucket (``companion.web.ratelimit``), so keys cannot be guessed.
"""

from __future__ import annotations

import time

from flask import Blueprint, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from companion.network import qr_svg
from companion.tables import HOST_LINKS_MAX, TableError, typed_host_key
from companion.web.cookies import host_cookie, set_secret_cookie
from companion.web.ratelimit import address_key, too_fast
from companion.web.render import game_name, public_url
from companion.web.responses import refusal_body, refusal_response, status_of, table_or_404, tables
from companion.web.screen import is_host
from companion.web.services import services

bp = Blueprint("host_links", __name__)

#: The most of a typed key that is read.
KEY_TYPED_MAX = 40


def grouped(key: str) -> str:
    """A key as shown, in groups of four: ``7KQ2-M9XD-…``."""
    return "-".join(key[i:i + 4] for i in range(0, len(key), 4))


def links_page(code: str, made: tuple[int, str] | None = None) -> str:
    table = table_or_404(code)
    context: dict[str, object] = {}
    if made is not None:
        link, key = made
        address = public_url(url_for("host_links.open_form", code=table.code, key=key))
        context = {"made_id": link, "made_key": grouped(key), "made_url": address,
                   "made_qr": Markup(qr_svg(address)),
                   "enter_url": public_url(url_for("host_links.open_form", code=table.code))}
    links = sorted(table.host_links.items())
    return render_template("screen/host_links.html", code=table.code,
                           game_name=game_name(table.row.game), game_id=table.row.game,
                           links=[{"id": link,
                                   "made": time.strftime("%H:%M", time.localtime(made_at))}
                                  for link, (_, made_at) in links],
                           full=len(links) >= HOST_LINKS_MAX, **context)


@bp.get("/t/<code>/host-links")
def show(code: str) -> Response | str:
    if not is_host(table_or_404(code)):
        return refusal_response("table.host-only")
    return links_page(code)


@bp.post("/t/<code>/host-links")
def make(code: str) -> Response | str:
    table = table_or_404(code)
    if not is_host(table):
        return refusal_response("table.host-only")
    try:
        made = tables().make_host_link(table)
    except TableError as error:
        return refusal_response(error.rule, **error.params)
    return links_page(code, made)


@bp.post("/t/<code>/host-links/revoke")
def revoke(code: str) -> Response:
    table = table_or_404(code)
    if not is_host(table):
        return refusal_response("table.host-only")
    try:
        tables().revoke_host_link(table, int(request.form.get("link", "")))
    except ValueError:
        return refusal_response("table.no-such-host-link")
    except TableError as error:
        return refusal_response(error.rule, **error.params)
    return redirect(url_for("host_links.show", code=table.code), code=303)


def open_page(code: str, typed: str = "", notice: dict[str, str] | None = None) -> str:
    table = table_or_404(code)
    return render_template("screen/host_key.html", code=table.code,
                           game_name=game_name(table.row.game), game_id=table.row.game,
                           typed=typed[:KEY_TYPED_MAX], notice=notice)


@bp.get("/t/<code>/host")
def open_form(code: str) -> str:
    """The address a host link carries (its key filled in), or a field to type the key."""
    return open_page(code, request.args.get("key", ""))


@bp.post("/t/<code>/host")
def take(code: str) -> Response | tuple[str, int]:
    table = table_or_404(code)
    if is_host(table):  # already the host here: keep the cookie it has
        return redirect(url_for("screen.show", code=table.code), code=303)
    misses = services().limits.misses
    wait = misses.peek(address_key())
    if wait:
        return too_fast(wait)
    typed = request.form.get("key", "")[:KEY_TYPED_MAX]
    key = typed_host_key(typed)
    if not table.opens_host_link(key):
        misses.wait(address_key())
        notice = refusal_body("table.bad-host-key")
        return open_page(code, typed, notice), status_of("table.bad-host-key")
    response = redirect(url_for("screen.show", code=table.code), code=303)
    set_secret_cookie(response, host_cookie(table.code), key)
    return response
