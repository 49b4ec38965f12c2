"""The token buckets of the rate limits (``companion.web.ratelimit`` says who takes a token
from which), and the app's three of them."""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

RATE_PER_SECOND = 10.0
BURST = 40.0
#: Codes that find no table: ten at once, then one every ten seconds.
MISS_BURST = 10.0
MISS_PER_SECOND = 0.1
#: Tables created from one address: twenty at once, then one every two minutes.
TABLES_BURST = 20.0
TABLES_PER_SECOND = 1 / 120
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
        return self._take(key, now, spend=True)

    def peek(self, key: str, now: float | None = None) -> float:
        """How many seconds until ``key`` has a token (0: it has one), taking none."""
        return self._take(key, now, spend=False)

    def _take(self, key: str, now: float | None, spend: bool) -> float:
        now = time.monotonic() if now is None else now
        with self._lock:
            level, last = self._buckets.get(key, (self.burst, now))
            level = min(self.burst, level + (now - last) * self.rate)
            allowed = level >= 1
            self._buckets[key] = (level - 1 if allowed and spend else level, now)
            if len(self._buckets) > MAX_BUCKETS:
                self._forget_full(now)
            return 0.0 if allowed else (1 - level) / self.rate

    def _forget_full(self, now: float) -> None:
        """Drop buckets that have refilled: they hold nothing worth remembering."""
        self._buckets = {key: (level, last) for key, (level, last) in self._buckets.items()
                         if level + (now - last) * self.rate < self.burst}


@dataclass(frozen=True)
class Limits:
    """The app's buckets: requests by whoever sends them, lookups of tables that do not
    exist (a guess at a code), and tables created, by address."""

    requests: RateLimiter
    misses: RateLimiter
    tables: RateLimiter

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> Limits:
        return cls(
            RateLimiter(config.get("RATE_PER_SECOND", RATE_PER_SECOND),
                        config.get("RATE_BURST", BURST)),
            RateLimiter(config.get("MISS_PER_SECOND", MISS_PER_SECOND),
                        config.get("MISS_BURST", MISS_BURST)),
            RateLimiter(config.get("TABLES_PER_SECOND", TABLES_PER_SECOND),
                        config.get("TABLES_BURST", TABLES_BURST)))
