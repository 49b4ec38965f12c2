"""The store on PostgreSQL (``COMPANION_DATABASE=postgresql://…``): several machines share
one database (docs/scaling.md, "Several machines").

What differs from the embedded SQLite file is here: the connection, how a parameter is
marked in the SQL (``%s`` for SQLite's ``?``) and the start of a write. A change of a
table is arbitrated as on SQLite, by the row of its revision: a second transaction
updating that row waits for the first to commit, then finds the revision moved on and
stores nothing (``store.Behind``).

psycopg is imported only here, and this module only when PostgreSQL is configured: the
embedded default needs nothing but Python. Under gunicorn's gevent worker psycopg waits
for the server through gevent's patched ``select`` (psycopg.waiting), so a query holds only
the greenlet that made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from psycopg.pq import TransactionStatus

T = TypeVar("T")

#: The key of the lock held while the schema is made: two processes starting at once on an
#: empty database would otherwise both create its tables.
SCHEMA_LOCK = 51


class Connection:
    """One psycopg connection, taking the store's SQL as written for SQLite (a ``?`` marks
    each parameter)."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._connection = psycopg.connect(url, autocommit=True)

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> psycopg.Cursor[Any]:
        """Run ``sql`` on a connection made again once PostgreSQL went away (restarted):
        after a statement found it gone (a write's transaction then only rolls back), or
        when this statement finds it gone between two transactions (a read or a write's
        BEGIN, run again on the new connection)."""
        sql = sql.replace("?", "%s")
        if self._connection.broken:
            self._reconnect()
        between = self._connection.info.transaction_status == TransactionStatus.IDLE
        try:
            return self._connection.execute(sql, params)
        except psycopg.OperationalError:
            if not (between and self._connection.broken):
                raise
        self._reconnect()
        return self._connection.execute(sql, params)

    def _reconnect(self) -> None:
        self._connection = psycopg.connect(self._url, autocommit=True)

    def close(self) -> None:
        self._connection.close()


class Postgres:
    """The engine of a PostgreSQL database (see ``store.Sqlite`` for the embedded one)."""

    #: A change's transaction; the revision's row lock serialises two changes of a table.
    BEGIN = "BEGIN"
    #: Lets ``Store.retire`` rename a table before the rows that refer to it.
    DEFER_KEYS = "SET CONSTRAINTS ALL DEFERRED"
    IntegrityError = psycopg.IntegrityError

    @staticmethod
    def connect(url: str, schema: str) -> Connection:
        connection = Connection(url)
        connection.execute("BEGIN")
        connection.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
        connection.execute(schema)
        connection.execute("COMMIT")
        return connection

    @staticmethod
    def run(work: Callable[[], T]) -> T:
        """``work()`` in place: psycopg lets the other greenlets run while it waits."""
        return work()
