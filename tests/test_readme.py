"""The README's two commands are what CI and a newcomer run: they must stay runnable, and the play
command must really play the game it promises."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the `snowrules` this test suite runs with (the README's `.venv/bin/snowrules`, installed by its
# `pip install -e .`)
SNOWRULES = Path(sys.executable).parent / "snowrules"


def command(marker: str) -> str:
    text = (ROOT / "README.md").read_text()
    match = re.search(rf"<!-- {marker} -->\s*```sh\n(.+)\n```", text)
    assert match, f"README.md lost its {marker}"
    return match.group(1)


def steps(marker: str) -> list[list[str]]:
    return [shlex.split(step) for step in command(marker).split("&&")]


def test_play_command_plays_a_seeded_four_player_game_of_a_bundled_ruleset():
    setup_venv, install, play = steps("play-command")
    assert setup_venv[-3:] == ["-m", "venv", ".venv"]
    assert install[0] == ".venv/bin/pip" and install[-2:] == ["-e", "."]
    # the installed script is the one the command calls
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert play[0] == ".venv/bin/snowrules" and "snowrules" in scripts
    arguments = play[1:]
    assert arguments[:2] == ["run", "snow_time"]
    told = subprocess.run([str(SNOWRULES), *arguments], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert told.returncode == 0, told.stderr
    # told turn by turn, from the first turn, to a winner
    assert told.stdout.startswith("Snow Time - 4 players, seed 7, seats: red, blue, green, yellow")
    assert "\nTurn 1\n" in told.stdout and "\nTurn 2\n" in told.stdout
    assert "winner" in told.stdout.splitlines()[-2]
    result = subprocess.run([str(SNOWRULES), *arguments, "--json"], cwd=ROOT, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    outcome = json.loads(result.stdout)
    assert (outcome["ruleset"], outcome["players"], outcome["seed"]) == ("snow_time", 4, 7)
    # [End of Game & Winner] the winner is the pawn on the last space (30, the assumed track); the
    # others stopped short of it
    assert len(outcome["winners"]) >= 1
    assert all(outcome["scores"][w] == 30 for w in outcome["winners"])
    assert all(score < 30 for seat, score in enumerate(outcome["scores"]) if seat not in outcome["winners"])
    assert f"Turn {outcome['turns']}\n" in told.stdout and f"Turn {outcome['turns'] + 1}\n" not in told.stdout


def test_ci_runs_the_readme_test_command():
    setup_venv, install, test = steps("test-command")
    assert install[0] == ".venv/bin/pip" and install[-2:] == ["-e", ".[test]"]
    assert test == [".venv/bin/python", "-m", "pytest", "-q"]
    assert "test-command" in (ROOT / ".ci" / "run").read_text()
