"""The newcomer's path: what a host with only Python, and a packager, get from the project's
files alone. No state of this checkout is used: not its .venv, not its test packages.

- ``./scripts/serve`` in a fresh copy, with ``npm`` and ``node`` failing, installs the runtime
  dependencies only and serves a table that plays, pushes included;
- a wheel built from a fresh copy, installed in a clean venv of its own, serves every kind
  of page with its scripts through the Procfile's command with only ``PORT`` set.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
import urllib.request
import zipfile
from importlib.metadata import distribution, packages_distributions
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from support.catalogues import every
from support.checkout import ROOT, copy_checkout
from support.server_log import assert_clean_log
from support.server_process import (
    Phone,
    call_json,
    free_port,
    procfile_command,
    stop_group,
    wait_until_served,
)

pytestmark = pytest.mark.slow

#: How long a first install may take: the runtime packages, from the registry or pip's cache.
INSTALL_SECONDS = 600


def failing_tools(folder: Path) -> Path:
    """A folder of ``npm`` and ``node`` that fail, as on a laptop without them, and write
    down that they were asked."""
    folder.mkdir()
    for tool in ("npm", "node"):
        script = folder / tool
        script.write_text(f'#!/bin/sh\necho "{tool} $*" >> "{folder}/asked"\n'
                          f'echo "{tool}: command not found" >&2\nexit 127\n')
        script.chmod(0o755)
    return folder


def fetch(url: str, lang: str = "en") -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": lang})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read().decode()


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """A JSON API call that must succeed: its answer."""
    status, answer = call_json(base, method, path, body, token)
    assert status in (200, 201), (path, status, answer)
    return answer


def scripts_of(page: str) -> list[str]:
    return [src.replace("&amp;", "&") for src in re.findall(r'<script src="([^"]+)"', page)]


def assert_scripts_served(base: str, page: str) -> None:
    """Every script the page names answers, htmx among them."""
    scripts = scripts_of(page)
    assert any("vendor/htmx.min.js" in src for src in scripts), scripts
    for src in scripts:
        status, body = fetch(base + src)
        assert status == 200 and body, src
        if "htmx.min.js" in src:
            assert 'this.version="' in body


# --- the dependencies ---------------------------------------------------------------


def imported_packages() -> set[str]:
    """The top-level modules the companion's code imports, its own and the stdlib's aside."""
    found: set[str] = set()
    for path in (ROOT / "companion").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found.update(alias.name.partition(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.partition(".")[0])
    return found - set(sys.stdlib_module_names) - {"companion", "__future__"}


def runtime_closure() -> set[str]:
    """Every distribution the companion's runtime dependencies bring, extras they name
    included, and its own extras but the test one (``hall``: Redis and psycopg, for
    several processes or machines, imported only when configured). The companion's own
    come from this checkout's pyproject.toml (the installed copy may be older)."""
    seen: set[str] = set()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(text) for text in project["dependencies"]]
    todo += [Requirement(text) for extra, texts in project["optional-dependencies"].items()
             if extra != "test" for text in texts]
    while todo:
        req = todo.pop()
        name = req.name.lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        for text in distribution(req.name).requires or []:
            sub = Requirement(text)
            extras = req.extras or {""}
            if not sub.marker or any(sub.marker.evaluate({"extra": extra}) for extra in extras):
                todo.append(sub)
    return seen


def test_every_package_the_server_imports_is_a_runtime_dependency():
    """Nothing the server needs may arrive only with the test tools (gunicorn's gevent
    worker needs ``packaging``, which its ``gevent`` extra brings)."""
    closure = runtime_closure()
    owners = packages_distributions()
    for module in sorted(imported_packages()):
        dists = {name.lower().replace("_", "-") for name in owners.get(module, [])}
        assert dists & closure, f"{module} ({dists}) comes with no runtime dependency"
    assert "packaging" in closure and "gevent" in closure


# --- ./scripts/serve on a laptop with only Python ---------------------------------------


def test_a_fresh_copy_serves_a_playable_table_with_no_npm_or_node(tmp_path):
    checkout = copy_checkout(tmp_path / "checkout")
    tools = failing_tools(tmp_path / "tools")
    port = free_port()
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("COMPANION_", "VIRTUAL_ENV", "PYTHON"))}
    env.update(PATH=f"{tools}:{env['PATH']}", COMPANION_BIND=f"127.0.0.1:{port}",
               COMPANION_HOST="127.0.0.1", COMPANION_DATABASE=str(tmp_path / "db.sqlite"))
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([checkout / "scripts" / "serve"], cwd=checkout, env=env,
                                   stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    phones: list[Phone] = []
    try:
        assert "In 7th Heaven" in wait_until_served(base + "/", process, INSTALL_SECONDS, log)
        # Only the runtime packages were installed: no pytest, no playwright.
        installed = subprocess.run([checkout / ".venv" / "bin" / "python", "-m", "pip",
                                    "list", "--format=freeze"], capture_output=True,
                                   text=True, check=True).stdout.lower()
        assert "pytest" not in installed and "playwright" not in installed

        created = call(base, "POST", "/api/tables", {"game": "seventh-heaven", "players": 2})
        code, host = created["code"], created["host_token"]
        tokens = [call(base, "POST", f"/api/tables/{code}/seats",
                       {"name": name, "seat": seat})["token"]
                  for seat, name in enumerate(("Ana", "Ben"))]
        phones = [Phone(base, code, f"seat_{code}={token}").start() for token in tokens]
        seq = call(base, "POST", f"/api/tables/{code}/start", {"first_seat": 0}, host)["seq"]
        assert all(phone.wait(1, seq) for phone in phones)

        request = urllib.request.Request(f"{base}/t/{code}/play",
                                         headers={"Cookie": f"seat_{code}={tokens[0]}"})
        page = urllib.request.urlopen(request, timeout=10).read().decode()
        assert_scripts_served(base, page)

        listed = call(base, "GET", f"/api/tables/{code}/moves", token=tokens[0])
        moved = call(base, "POST", f"/api/tables/{code}/moves",
                     {"move": listed["moves"][0], "seq": listed["seq"],
                      "client_move_id": "newcomer-1"}, tokens[0])
        assert moved["seq"] == listed["seq"] + 1
        assert phones[1].wait(1, moved["seq"]), "the other phone was not told of the move"
    finally:
        for phone in phones:
            phone.stop()
        stop_group(process)
    assert not (tools / "asked").exists(), (tools / "asked").read_text()
    assert_clean_log(log)


# --- a wheel, installed on its own ----------------------------------------------------


def test_a_wheel_of_a_fresh_copy_serves_every_page_through_the_procfile(tmp_path):
    checkout = copy_checkout(tmp_path / "checkout")
    dist, venv, elsewhere = tmp_path / "dist", tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist,
                    checkout], check=True, capture_output=True, timeout=INSTALL_SECONDS)
    wheel = next(dist.glob("table_companion-*.whl"))
    with zipfile.ZipFile(wheel) as built:  # the shared catalogue and each game's, compiled
        assert {place.mo("fr").relative_to(ROOT).as_posix() for place in every()} <= set(
            built.namelist())
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([venv / "bin" / "python", "-m", "pip", "install", "-q",
                    "--disable-pip-version-check", wheel], check=True, capture_output=True,
                   timeout=INSTALL_SECONDS)

    port = free_port()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path), "PORT": str(port)}
    log = tmp_path / "procfile.log"
    with log.open("wb") as out:
        process = subprocess.Popen(procfile_command(checkout), cwd=elsewhere,
                                   env=env, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        home = wait_until_served(base + "/", process, 30, log)
        assert "In 7th Heaven" in home
        assert_scripts_served(base, home)
        assert "Démarrer une table" in fetch(base + "/", "fr")[1]
        created = call(base, "POST", "/api/tables", {"game": "climbers", "players": 2})
        status, screen = fetch(f"{base}/t/{created['code']}/screen")
        assert status == 200 and created["code"] in screen
        assert_scripts_served(base, screen)
        assert "Règles" in fetch(base + "/rules/climbers", "fr")[1]
    finally:
        stop_group(process)
    # It ran the installed package, from the folder it was started in.
    assert (elsewhere / "instance" / "companion.sqlite").exists()
    version = subprocess.run([venv / "bin" / "companion", "--version"], env=env,
                             capture_output=True, text=True, check=True).stdout
    assert re.fullmatch(r"companion \d+\.\d+\.\d+\n", version)
    assert_clean_log(log)
