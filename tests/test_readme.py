"""The README's two commands are what CI and a newcomer run: they must stay runnable."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def command(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"<!-- {marker} -->\s*```sh\n(.+)\n```", text)
    assert match, f"README.md lost its {marker}"
    return match.group(1)


def test_play_command_plays_a_seeded_four_player_game_of_a_bundled_ruleset():
    play = command("play-command")
    assert "snowrules run snow_time" in play and "--players 4" in play and "--seed" in play
    assert "pip install" in play


def test_ci_runs_the_readme_test_command():
    assert "pytest" in command("test-command")
    assert "test-command" in (ROOT / ".ci" / "run").read_text()
