"""Start the real server (the Procfile's gunicorn command) as a process, for tests that kill it."""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def procfile_command() -> list[str]:
    line = (ROOT / "Procfile").read_text().strip()
    return shlex.split(line.partition(":")[2])


class ServerProcess:
    def __init__(self, database: Path, port: int | None = None) -> None:
        self.database = database
        self.port = port or free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = dict(os.environ, COMPANION_DATABASE=str(self.database),
                   COMPANION_BIND=f"127.0.0.1:{self.port}", COMPANION_HOST="127.0.0.1",
                   COMPANION_PORT=str(self.port))
        command = procfile_command()
        command[0] = str(Path(sys.executable).with_name(command[0]))
        self.log = (self.database.parent / f"server-{self.port}.log").open("ab")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=self.log,
                                        stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/", timeout=1).close()
                return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL the whole server, gunicorn's master and its worker, at once."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())
