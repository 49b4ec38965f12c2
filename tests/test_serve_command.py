"""`companion serve`'s options become the settings of the server it starts."""

from __future__ import annotations

import os

import pytest

from companion.__main__ import main


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment the server would start with (``os.execvp`` replaced)."""
    environ = {key: value for key, value in os.environ.items()
               if not key.startswith("COMPANION_")}
    monkeypatch.setattr(os, "environ", environ)

    def execvp(file: str, args: list[str]) -> None:
        assert args[1:3] == ["-m", "gunicorn"]
        raise SystemExit(0)

    monkeypatch.setattr(os, "execvp", execvp)
    return environ


def test_serve_puts_the_store_where_database_says(started):
    url = "postgresql://companion@db.lan/companion"
    with pytest.raises(SystemExit):
        main(["serve", "--bind", "127.0.0.1:5123", "--database", url])
    assert started["COMPANION_DATABASE"] == url


def test_serve_without_database_keeps_the_embedded_default(started):
    with pytest.raises(SystemExit):
        main(["serve", "--bind", "127.0.0.1:5123"])
    assert "COMPANION_DATABASE" not in started
