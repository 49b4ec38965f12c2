"""The documentation matches the code: every API route, every game page, the README."""

from __future__ import annotations

import re
from pathlib import Path

from companion.web.games import BY_ID

ROOT = Path(__file__).resolve().parents[2]


def test_every_api_route_is_documented(app):
    documented = (ROOT / "docs" / "api.md").read_text()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"<\1>", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert f"`{method} {path}" in documented, f"{method} {path} is not in docs/api.md"


def test_every_built_game_has_its_page():
    for game_id in BY_ID:
        page = ROOT / "docs" / "games" / f"{game_id}.md"
        assert page.exists()


def test_the_readme_gives_exactly_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert commands[:2] == ["./scripts/serve", "./scripts/test"]
    assert "./scripts/test" in (ROOT / ".ci" / "run").read_text()


def test_every_status_the_companion_answers_is_in_the_api_docs():
    from companion.web.responses import STATUS_OF_RULE
    from companion.web.security import STATUS_RULES

    answered = set(STATUS_OF_RULE.values()) | set(STATUS_RULES) | {422}
    documented = {int(code) for code in re.findall(
        r"^\| ([45]\d\d) \|", (ROOT / "docs" / "api.md").read_text(), re.M)}
    assert answered <= documented, answered - documented
    assert "Retry-After" in (ROOT / "docs" / "api.md").read_text()


def test_every_benchmark_command_in_the_docs_runs_a_script_that_takes_its_options():
    """A number is only as good as the command beside it: each ``bench/`` command of the
    performance docs names a script that exists and options that script reads."""
    commands = []
    for name in ("performance.md", "performance-history.md"):
        text = (ROOT / "docs" / name).read_text()
        commands += re.findall(r"`(?:\.venv/bin/python |PYTHONHASHSEED=0 [^`]*?)?bench/(\w+)\.py"
                               r"([^`]*)`", text)
    assert len(commands) > 20
    for script, arguments in commands:
        source = ROOT / "bench" / f"{script}.py"
        assert source.is_file(), f"bench/{script}.py"
        for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", arguments):
            assert f'"{option}"' in source.read_text(), f"bench/{script}.py {option}"
