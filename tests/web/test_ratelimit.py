"""The per-token rate limit: a runaway script is refused, a person never is."""

from __future__ import annotations

import pytest

from companion.web.ratelimit import RateLimiter
from tests.conftest import ApiTable, bearer, make_app


def test_a_person_tapping_never_meets_the_limit():
    limiter = RateLimiter(rate=10, burst=40)
    # three taps a second for ten minutes
    assert all(limiter.allow("seat", now=t / 3) for t in range(1800))


def test_a_burst_is_cut_and_the_bucket_refills():
    limiter = RateLimiter(rate=10, burst=40)
    results = [limiter.allow("bot", now=0.0) for _ in range(60)]
    assert results.count(True) == 40
    assert limiter.allow("bot", now=1.0)
    assert limiter.allow("someone-else", now=0.0)


def test_a_runaway_client_gets_429_and_the_table_is_unchanged(tmp_path):
    client = make_app({"DATABASE": str(tmp_path / "rate.sqlite")}).test_client()
    table = ApiTable(client, players=2).join_all()
    table.start()
    before = table.view(1)
    statuses = {client.post(f"/api/tables/{table.code}/undo",
                            headers=bearer(table.tokens[1])).status_code for _ in range(60)}
    assert 429 in statuses
    response = client.post(f"/api/tables/{table.code}/undo", headers=bearer(table.tokens[1]))
    assert response.status_code == 429
    assert response.get_json()["error"]["rule"] == "table.too-fast"
    assert response.headers["Retry-After"] == "1"
    assert table.view(1) == before


def test_retry_after_is_the_time_until_a_request_is_allowed_again():
    limiter = RateLimiter(rate=0.25, burst=1)
    assert limiter.wait("bot", now=0.0) == 0
    assert limiter.wait("bot", now=1.0) == pytest.approx(3.0)
    assert limiter.wait("bot", now=4.0) == 0
