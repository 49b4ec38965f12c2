"""The other server processes serving the same store, through Redis pub/sub.

With several processes (``companion serve --workers N --redis URL``, or several machines on
one database), the store is the arbiter and each process keeps its tables in memory. After
a change is stored, its process publishes the table's code and revision on one channel;
every process listens (a thread, a greenlet under gevent) and, for a table it holds, reads
the change back from the store and pushes it to its own sockets as it does a change made in
it. Nothing else crosses the channel: no view, no move, no token.

redis-py is imported only here, and this module only when Redis is configured: the
embedded default needs nothing but Python.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import redis

#: The one channel every process publishes on and listens to.
CHANNEL = "companion:tables"
#: Seconds between attempts to listen again once Redis went away.
RETRY = 1.0

logger = logging.getLogger(__name__)


def message(code: str, revision: int) -> str:
    """What is published for a change: the table's code and its revision, nothing else."""
    return f"{code} {revision}"


def heard_code(data: bytes) -> str | None:
    """The table code of a published message (None for anything else)."""
    code, _, revision = data.decode(errors="replace").partition(" ")
    return code if code and revision.isdigit() else None


class RedisPeers:
    """Tells the other processes of each change (``tables.Peers``), and hears theirs:
    ``heard(code)`` is called for every change published, this process's own included
    (reading back a table already up to date costs one look at the store)."""

    def __init__(self, url: str, heard: Callable[[str], None],
                 lost: Callable[[], None]) -> None:
        self._redis = redis.Redis.from_url(url)
        self._heard = heard
        #: Called once listening again after Redis went away: messages may have been missed.
        self._lost = lost
        self._thread = threading.Thread(target=self._listen, daemon=True, name="peers")

    def start(self) -> RedisPeers:
        self._thread.start()
        return self

    def changed(self, code: str, revision: int) -> None:
        """Publish a change; a Redis gone away loses only the other processes' push (they
        catch up at their next request), never the change, which is stored already."""
        try:
            self._redis.publish(CHANNEL, message(code, revision))
        except redis.RedisError as error:
            logger.warning("could not tell the other processes of %s: %s", code, error)

    def _hear(self, code: str) -> None:
        try:
            self._heard(code)
        except Exception:  # one table that cannot be read back must not deafen the rest
            logger.exception("could not catch up table %s", code)

    def _listen(self) -> None:
        missed = False
        while True:
            try:
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(CHANNEL)
                if missed:
                    self._lost()
                    missed = False
                for published in pubsub.listen():
                    code = heard_code(published["data"])
                    if code is not None:
                        self._hear(code)
            except redis.RedisError as error:
                logger.warning("listening to the other processes again: %s", error)
                missed = True
                time.sleep(RETRY)
