"""Under gunicorn's gevent worker, a commit waiting for the disk and the drawing of The
Climbers' start tower hold only the request that made them, not every other table's
requests and pushes (``companion/aside.py``)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SLOW_DISK = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import sys, time
    import gevent
    from companion.store import Store, TableRow

    disk_sleep = monkey.get_original("time", "sleep")  # holds the whole thread, as a flush does

    class SlowDisk:
        \"\"\"The store's connection on a disk that takes 300 ms to flush a commit.\"\"\"
        def __init__(self, db):
            self.db = db
        def execute(self, sql, *params):
            if sql == "COMMIT":
                disk_sleep(0.3)
            return self.db.execute(sql, *params)

    store = Store(sys.argv[1])
    store._db = SlowDisk(store._db)
    ticks = []

    def other_table():
        for _ in range(40):
            ticks.append(time.monotonic())
            gevent.sleep(0.005)

    ticking = gevent.spawn(other_table)
    gevent.sleep(0)
    began = time.monotonic()
    assert store.create_table(TableRow("ABCD", "climbers", 2, {}, "h", began, 1, "en"))
    ended = time.monotonic()
    ticking.join()
    during = sum(1 for tick in ticks if began < tick < ended)
    assert store.load_table("ABCD") is not None
    print(during, round(ended - began, 3))
""")


def test_a_commit_waiting_for_the_disk_holds_only_its_own_request(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SLOW_DISK, str(tmp_path / "c.db")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    during, took = done.stdout.split()
    assert float(took) >= 0.3  # the request itself waited for its commit
    assert int(during) >= 10, done.stdout  # meanwhile another table went on (every 5 ms)


CLIMBERS_START = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import sys, tempfile, time
    from pathlib import Path
    import gevent
    from companion import create_app
    from companion.web.services import services

    app = create_app({"DATABASE": sys.argv[1], "PUBLIC_HOST": "127.0.0.1"})
    ticks = []

    def other_table():
        for _ in range(400):
            ticks.append(time.monotonic())
            gevent.sleep(0.005)

    with app.app_context():
        tables = services(app).tables
        table, _ = tables.create("climbers", 4, {}, seed=7)
        for seat in range(4):
            tables.join(table, f"Player {seat + 1}", seat)
        ticking = gevent.spawn(other_table)
        gevent.sleep(0)
        began = time.monotonic()
        tables.start(table, first_seat=0)  # draws the start tower
        ended = time.monotonic()
        ticking.kill()
        assert table.match.state["phase"] == "build"
    print(sum(1 for tick in ticks if began < tick < ended), round(ended - began, 3))
""")


def test_a_climbers_game_starting_lets_the_other_tables_go_on(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", CLIMBERS_START, str(tmp_path / "c.db")],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    during, took = done.stdout.split()
    assert float(took) >= 0.05, done.stdout  # drawing the tower takes a while
    assert int(during) >= 5, done.stdout  # meanwhile another table went on


BETWEEN_STEPS = textwrap.dedent("""
    from gevent import monkey
    monkey.patch_all()
    import socket
    import gevent
    from companion.aside import let_others_run

    ours, theirs = socket.socketpair()
    heard = []

    def other_table():  # waits on its socket, as a push sender or a request does
        heard.append(theirs.recv(16))

    waiting = gevent.spawn(other_table)
    gevent.sleep(0)  # it is now waiting for its socket
    ours.sendall(b"move")
    steps_before_heard = None
    for step in range(35):  # a computation's steps, each holding the thread
        sum(range(20_000))
        if heard and steps_before_heard is None:
            steps_before_heard = step
        let_others_run()
    waiting.join()
    print(steps_before_heard)
""")


def test_between_two_steps_a_greenlet_whose_socket_is_ready_runs() -> None:
    """``let_others_run`` lets the event loop poll its sockets, not only run the greenlets
    already woken (``gevent.sleep(0)`` would leave a waiting request until the end)."""
    done = subprocess.run([sys.executable, "-c", BETWEEN_STEPS], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    # Heard within the first steps (after the first on a quiet machine, a step or two later
    # on a loaded one), not after the last: gevent.sleep(0) would print None.
    heard_at = done.stdout.strip()
    assert heard_at.isdigit() and int(heard_at) <= 5, done.stdout
