"""A per-token rate limit that a real player never meets, and a script gone wild always does.

A token bucket per seat or host token (or per address, for calls without one): every
unsafe request takes a token; the bucket refills steadily. A person taps a few times a
second at most; a runaway loop is refused with 429 until it calms down.
"""

from __future__ import annotations

import math
import threading
import time

from flask import Flask, Response, current_app, request

from companion.web.responses import refusal_response

RATE_PER_SECOND = 10.0
BURST = 40.0
MAX_BUCKETS = 10_000


class RateLimiter:
    def __init__(self, rate: float = RATE_PER_SECOND, burst: float = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def allow(self, key: str, now: float | None = None) -> bool:
        return self.wait(key, now) == 0

    def wait(self, key: str, now: float | None = None) -> float:
        """Takes a token for ``key`` and answers 0, or, with none left, answers how many
        seconds until one is back."""
        now = time.monotonic() if now is None else now
        with self._lock:
            level, last = self._buckets.get(key, (self.burst, now))
            level = min(self.burst, level + (now - last) * self.rate)
            allowed = level >= 1
            self._buckets[key] = (level - 1 if allowed else level, now)
            if len(self._buckets) > MAX_BUCKETS:
                self._forget_full(now)
            return 0.0 if allowed else (1 - level) / self.rate

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled: they hold nothing worth remembering."""
        self._buckets = {key: (level, last) for key, (level, last) in self._buckets.items()
                         if level + (now - last) * self.rate < self.burst}


def request_key() -> str:
    """Whose request this is: its bearer token, its table cookies, or its address."""
    header = request.headers.get("Authorization", "")
    if header.lower().startswith("bearer "):
        return "bearer:" + header[7:].strip()[:64]
    cookies = sorted(f"{k}={v[:64]}" for k, v in request.cookies.items()
                     if k.startswith(("seat_", "host_")))
    if cookies:
        return "cookie:" + ";".join(cookies[:4])
    return "addr:" + (request.remote_addr or "")


def init_app(app: Flask) -> None:
    app.extensions["rate_limiter"] = RateLimiter(
        app.config.get("RATE_PER_SECOND", RATE_PER_SECOND), app.config.get("RATE_BURST", BURST))

    @app.before_request
    def limit_rate() -> Response | None:
        if request.method in {"GET", "HEAD", "OPTIONS"}:
            return None
        wait = current_app.extensions["rate_limiter"].wait(request_key())
        if not wait:
            return None
        response = refusal_response("table.too-fast")
        response.headers["Retry-After"] = str(max(1, math.ceil(wait)))
        return response
