"""A PostgreSQL server of a test's own, started from the machine's binaries (Debian's
``postgresql`` package, which ``scripts/test`` installs): an empty cluster in a temporary
folder, on a free loopback port, gone with the test."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: Where Debian puts the binaries (one folder per major version), after those on PATH.
DEBIAN_BINARIES = "/usr/lib/postgresql/*/bin"
#: PostgreSQL refuses to run as root: as root, the cluster is run by this user.
SERVER_USER = "postgres"


def binaries() -> Path | None:
    """The folder holding ``initdb`` and ``postgres`` (None: PostgreSQL is not installed)."""
    on_path = shutil.which("initdb")
    found = [Path(on_path).resolve().parent] if on_path else []
    found += [Path(folder) for folder in sorted(glob.glob(DEBIAN_BINARIES), reverse=True)]
    return next((folder for folder in found if (folder / "postgres").exists()), None)


def as_server_user(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", SERVER_USER, "--", *command]


class PostgresServer:
    """One cluster in ``data``, served on ``port`` while started."""

    def __init__(self, folder: Path, data: Path, port: int) -> None:
        self.folder, self.data, self.port = folder, data, port
        self.url = f"postgresql://companion@127.0.0.1:{port}/postgres"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> PostgresServer:
        with (self.data / "server.log").open("ab") as log:
            self.process = subprocess.Popen(as_server_user([
                str(self.folder / "postgres"), "-D", str(self.data), "-p", str(self.port),
                "-k", str(self.data), "-c", "listen_addresses=127.0.0.1",
                "-c", "max_connections=50"]), stdout=subprocess.DEVNULL, stderr=log)
        self.wait_until_accepting()
        return self

    def stop(self) -> None:
        if self.process is not None:
            # Ends every session and waits until the server is gone (runuser, between this
            # process and the server's, does not wait for it).
            subprocess.run(as_server_user([str(self.folder / "pg_ctl"), "stop", "-D",
                                           str(self.data), "-m", "fast", "-w"]),
                           check=True, capture_output=True, timeout=60)
            self.process.wait(timeout=20)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def wait_until_accepting(self) -> None:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                psycopg.connect(self.url).close()
                return
            except psycopg.OperationalError:
                assert self.process is not None and self.process.poll() is None, \
                    "postgres stopped"
                assert time.monotonic() < deadline, "postgres did not start"
                time.sleep(0.1)


@contextmanager
def postgres_server(folder: Path, port: int) -> Iterator[PostgresServer]:
    """A running cluster of its own (``PostgresServer``), removed afterwards."""
    data = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, SERVER_USER)
    subprocess.run(as_server_user([str(folder / "initdb"), "-D", str(data), "-A", "trust",
                                   "-U", "companion", "--no-sync"]),
                   check=True, capture_output=True)
    server = PostgresServer(folder, data, port)
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(data, ignore_errors=True)
