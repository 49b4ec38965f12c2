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


@contextmanager
def postgres_server(folder: Path, port: int) -> Iterator[str]:
    """A running cluster with its own database; yields its URL."""
    data = Path(tempfile.mkdtemp(prefix="companion-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, SERVER_USER)
    subprocess.run(as_server_user([str(folder / "initdb"), "-D", str(data), "-A", "trust",
                                   "-U", "companion", "--no-sync"]),
                   check=True, capture_output=True)
    process = subprocess.Popen(as_server_user([
        str(folder / "postgres"), "-D", str(data), "-p", str(port), "-k", str(data),
        "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=50"]),
        stdout=subprocess.DEVNULL, stderr=(data / "server.log").open("wb"))
    url = f"postgresql://companion@127.0.0.1:{port}/postgres"
    try:
        wait_until_accepting(url, process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=20)
        shutil.rmtree(data, ignore_errors=True)


def wait_until_accepting(url: str, process: subprocess.Popen[bytes]) -> None:
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            psycopg.connect(url).close()
            return
        except psycopg.OperationalError:
            assert process.poll() is None, "postgres stopped"
            assert time.monotonic() < deadline, "postgres did not start"
            time.sleep(0.1)
