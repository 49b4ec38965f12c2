"""The cookies that tie a phone to its seat and the laptop to its table."""

from __future__ import annotations

from flask import Request
from werkzeug.wrappers import Response

MONTH = 30 * 24 * 3600


def seat_cookie(code: str) -> str:
    return f"seat_{code}"


def host_cookie(code: str) -> str:
    return f"host_{code}"


def wait_cookie(code: str) -> str:
    """A newcomer waiting for the host to let them into a freed seat."""
    return f"wait_{code}"


def set_secret_cookie(response: Response, name: str, token: str) -> None:
    response.set_cookie(name, token, max_age=MONTH, httponly=True, samesite="Lax", path="/")


def seat_token(request: Request, code: str) -> str | None:
    return request.cookies.get(seat_cookie(code))


def host_token(request: Request, code: str) -> str | None:
    return request.cookies.get(host_cookie(code))


def wait_token(request: Request, code: str) -> str | None:
    return request.cookies.get(wait_cookie(code))
