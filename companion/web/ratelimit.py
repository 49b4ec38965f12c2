"""Rate limits that a real player never meets, and a script gone wild always does.

Token buckets keyed on who the server knows a request comes from: a seat or host token it
has checked against the table the request names, else the client's address (a made-up
token is no one, so it shares its address's bucket). Three buckets:

- every unsafe request and every look-up of a table by its code (``/join?code=``,
  ``/j/<code>``, ``/t/<code>/…`` with its socket, ``/api/tables/<code>/…``, a rules page's
  ``?table=``) takes a token of the general bucket (``RATE_BURST`` at once,
  ``RATE_PER_SECOND`` sustained);
- a look-up by an address with no checked token that finds no table takes a token of the
  address's misses bucket (``MISS_BURST``, ``MISS_PER_SECOND``) before any route runs,
  whatever the route answers; while it is empty, that address looks up no code at all, so
  the codes cannot be guessed one after another, by one route or by all of them;
- creating a table takes a token of the address's tables bucket (``TABLES_BURST``,
  ``TABLES_PER_SECOND``), so one guest cannot use up the codes; the laptop the companion
  runs on (a loopback address) is the host of the night and is not counted.

A refused request is a 429 with ``Retry-After`` and changes nothing.
"""

from __future__ import annotations

import ipaddress
import math

from flask import Flask, Response, request

from companion.tables import Table, typed_code
from companion.web.cookies import host_token, seat_token
from companion.web.responses import refusal_response, tables
from companion.web.services import services

#: The endpoints that create a table.
CREATING = frozenset({"home.create", "api.create"})
#: The pages that name the table they were opened from in their query (``?table=``).
TABLE_IN_QUERY = frozenset({"rules.show", "rules.clause"})


def address_key() -> str:
    return "addr:" + (request.remote_addr or "")


def loopback() -> bool:
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


def looked_up_code() -> str | None:
    """The table code this request looks up, if it names one: in its path (its socket's
    too), in the home page's ``?code=`` as the join page reads it, or in a ``?table=``."""
    code = (request.view_args or {}).get("code")
    if isinstance(code, str):
        return code
    if request.endpoint == "join.by_code":
        return typed_code(request.args.get("code", ""))
    if request.endpoint in TABLE_IN_QUERY:
        return request.args.get("table")
    return None


def checked_key(table: Table | None) -> str | None:
    """The seat or host of ``table`` whose token this request carries, checked against
    the table; None for no token, a wrong one or no table."""
    if table is None:
        return None
    header = request.headers.get("Authorization", "")
    scheme, _, bearer = header.partition(" ")
    offered = [bearer.strip()] if scheme.lower() == "bearer" and bearer.strip() else []
    offered += [token for token in (seat_token(request, table.code),
                                    host_token(request, table.code)) if token]
    for token in offered[:3]:
        if table.is_host(token):
            return f"host:{table.code}"
        seat = table.seat_of(token)
        if seat is not None:
            return f"seat:{table.code}:{seat}"
    return None


def too_fast(wait: float, rule: str = "table.too-fast") -> Response:
    seconds = max(1, math.ceil(wait))
    response = refusal_response(rule, seconds=seconds)
    response.headers["Retry-After"] = str(seconds)
    return response


def init_app(app: Flask) -> None:

    @app.before_request
    def limit_rate() -> Response | None:
        code = looked_up_code()
        unsafe = request.method not in {"GET", "HEAD", "OPTIONS"}
        if not unsafe and code is None:
            return None
        table = tables().get(code) if code is not None else None
        key = checked_key(table) or address_key()
        wait = services().limits.requests.wait(key)
        if wait:
            return too_fast(wait)
        if code is not None and key.startswith("addr:"):
            misses = services().limits.misses
            # a miss is spent here, before any route runs: every route costs the same
            wait = misses.peek(key) if table is not None else misses.wait(key)
            if wait:
                return too_fast(wait)
        if request.endpoint in CREATING and not loopback():
            wait = services().limits.tables.wait(address_key())
            if wait:
                return too_fast(wait, "table.too-many-tables")
        return None
