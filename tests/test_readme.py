"""The README's two commands are what CI and a newcomer run: they must stay runnable, and the play
command must really play the game it promises."""
from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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
    assert test == [".venv/bin/python", "-m", "pytest", "-q", "-n", "auto", "--dist", "worksteal"]
    assert "test-command" in (ROOT / ".ci" / "run").read_text()


# --- every command line of README runs ----------------------------------------------------------
#
# Each line of README's ```sh blocks runs here, as a user would type it (the console script of this
# environment for `.venv/bin/snowrules`), from a folder holding a copy of rulesets/snow_time so that
# the paths README uses resolve. Each has an expectation of its output: a README line that no
# expectation matches fails, so a new line gets its check. The two setup commands of the
# Quickstart are CI itself (.ci/run); their `snowrules` part runs here.


def _readme_command_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", line).strip()
            if line:
                lines.append(line)
    return lines


def _json_with(format_name: str, **fields):
    def check(out: str) -> None:
        result = json.loads(out)
        assert result["format"] == format_name
        for key, value in fields.items():
            assert result[key] == value, (key, result[key])
    return check


def _contains(*words: str):
    def check(out: str) -> None:
        for word in words:
            assert word in out, word
    return check


def _ruleset_list(out: str) -> None:
    assert out.splitlines()[0].startswith("crazy_eights  Crazy Eights 1.0.0, 2-5 players")
    assert "goofspiel  Goofspiel 1.0.0, 2-10 players" in out
    assert "snow_time  Snow Time 1.0.0, 2-5 players" in out
    assert "    --variant two_colours  (2 players)" in out


def _games_end_sooner(out: str) -> None:
    """README: "make the track shorter and watch games end sooner": the short track's mean game
    length (column B) is below the base game's (A), by more than its interval's width."""
    assert "A = base game, B = variant short_track" in out and "paired" in out
    row = next(line for line in out.splitlines() if "mean turns" in line)
    base, short, difference, interval = [cell.strip() for cell in row.split("\u2502")[2:6]]
    assert float(short) < float(base) and float(difference) < 0
    assert float(interval.split("..")[1]) < 0, row  # the whole interval below zero


# (a regular expression a README line matches, what its output must show); the first match counts.
EXPECTATIONS = [
    (r"pip install .* && \.venv/bin/snowrules run snow_time --players 4 --seed 7$",
     _contains("Snow Time - 4 players, seed 7", "result after")),
    # CI runs it: .ci/run
    (r"pip install -q -e '\.\[test\]' && \.venv/bin/python -m pytest -q -n auto --dist worksteal$", None),
    (r"snowrules list$", _ruleset_list),
    (r"--seed 1 --rules$", _contains("Snow Time - 3 players, seed 1", "rules.sr:")),
    (r"--json$", _json_with("snowrules-run/1", players=4, seed=7)),
    (r"--variant two_colours$", _contains("Snow Time - 2 players, variant two_colours", "result after")),
    (r"run snowy_tricks --players 4 --seed 2$", _contains("Snowy Tricks - 4 players, seed 2", "result after")),
    (r"--agents human,random,random$", _contains("Snow Time - 3 players", "to choose", "choice 1-")),
    (r"validate rulesets/snow_time$", _contains("rulesets/snow_time: valid")),
    (r"snowrules new my_game$", _contains("my_game: a new ruleset (7 files)")),
    (r"upgrade rulesets/snow_time$", _contains("rulesets/snow_time: already in edition 3 of the language")),
    (r"test snow_time$", _contains(" passed, 0 failed")),
    (r"explain goofspiel --players 2 --code$",
     _contains("# snowrules module", "goofspiel, 2 players", "def _block", "rulesets/goofspiel/rules.sr:")),
    (r"explain snow_time --ir$",
     _contains("# The intermediate form of Snow Time, 2 players", "each turn  @ ", "snow_time/rules.sr:62:1",
               'ask for a choice: "play a card face down"', "[may wait]")),
    (r"--log game\.jsonl && .*replay game\.jsonl$", _contains("log written to game.jsonl", "game.jsonl: identical (")),
    (r"simulate snow_time --games 2000 --players 4 --workers 2$",
     _contains("Snow Time: 200 games", "on 2 workers", "game length: mean")),
    (r"run goofspiel .*num_cards=6", _contains("Goofspiel - 3 players, num_cards=6, points_order=descending")),
    (r"run oh_hell .*off_bid_penalty=true",
     _contains("Oh Hell! - 4 players, num_tricks_fixed=5, off_bid_penalty=true")),
    (r"run crazy_eights .*use_special_cards=true",
     _contains("Crazy Eights - 3 players, use_special_cards=true, seed 1", "is skipped",
               "the direction of play is reversed", "result after")),
    (r"run othello --seed 1$",
     _contains("Othello - 2 players, seed 1", "turns over", "neither player can move", "result after")),
    (r"snowrules run snow_time --players 3 --seed 1$", _contains("Snow Time - 3 players, seed 1", "result after")),
    (r"^python tools/bench\.py$", _contains("random-agent games per second", "snow_time")),
    (r"^python tools/bench_clone\.py$", _contains("microseconds per clone", "goofspiel")),
    (r"^python tools/bench_build\.py$", _contains("cold CPU s", "goofspiel 2p", "snowrules list")),
    (r"^python tools/bytecodes\.py ",
     _contains("goofspiel, 2 players, through the OpenSpiel adapter:", "bytecodes a game", "<snowrules module")),
    (r"^python tools/bots\.py$", _contains("goofspiel     3p mcts:iterations=5    win rate", "fair share 0.333")),
    (r"--agents mcts:iterations=200,seed=3,greedy,random", _contains("Oh Hell! - 3 players", "mcts", "greedy")),
    (r"--out games\.csv --report report/$", _contains("Snow Time: 200 games", "games written to games.csv",
                                                       "report written to")),
    (r"compare snow_time --variant short_track", _games_end_sooner),
    (r"tournament goofspiel --agents random,greedy --games 10$",
     _contains("Goofspiel: 2 seatings x 10 games = 20 games", "win matrix", "first-seat effect",
               "--agents random,greedy --seed 2802244911")),
    (r"sweep snow_time --constant last_space=12\.\.32:4 .*--report sweep/$",
     _contains("Snow Time: last_space over 6 points x 40 games, 2 players", "first player edge", "report written to")),
    (r"tune snow_time --vary last_space=16\.\.40 ",
     _contains("Snow Time: minimise abs(first player edge)", "on fresh seeds (master seed 1)", "winner: last_space=")),
    (r"run snowfall_over_mountains --seed 3 -v --picture woods\.svg",
     _contains("Snowfall over Mountains - 1 player,", "woods:\n", "The game ends: you score -20: Lost Traveler",
               "picture written to woods.svg")),
]

QUICK = {"python tools/bench.py": ["--rounds", "1", "--seconds", "0.05", "--players", "2", "--ruleset", "snow_time"],
         "python tools/bench_clone.py": ["--games", "1", "--number", "20", "--repeat", "1", "--players", "2"],
         "python tools/bench_build.py": ["--ruleset", "goofspiel", "--repeat", "1"],
         "python tools/bytecodes.py --ruleset goofspiel --players 2": ["--games", "2"],
         "python tools/bots.py": ["--ruleset", "goofspiel", "--games", "4", "--iterations", "5", "--samples", "1"]}
# Lines that would take minutes (10,000 games) or ten seconds (2,000) run here with a tenth of the
# games or fewer (the only change made to a README line).
FEWER_GAMES = {"--games 10000": "--games 100", "--games 4000": "--games 40", "--trials 40": "--trials 3",
               "--games 2000": "--games 200"}


def _argv(command: str) -> list[str]:
    import shlex
    import sys
    for many, few in FEWER_GAMES.items():
        command = command.replace(many, few)
    words = shlex.split(command)
    if words[0] == ".venv/bin/snowrules":
        beside = Path(sys.executable).parent / "snowrules"
        return [str(beside)] + words[1:]
    if words[0] == "python":
        return [sys.executable, str(ROOT / words[1])] + words[2:] + QUICK.get(command, [])
    raise AssertionError(f"README command {command!r}: no way to run it here")


@pytest.mark.parametrize("line", _readme_command_lines())
def test_every_readme_command_line_runs(line, tmp_path):
    import shutil
    import subprocess
    found = [check for pattern, check in EXPECTATIONS if re.search(pattern, line)]
    assert found, f"README line {line!r} has no expectation in tests/test_readme.py"
    check = found[0]
    if check is None:
        return
    shutil.copytree(ROOT / "rulesets" / "snow_time", tmp_path / "rulesets" / "snow_time")
    out = ""
    for part in line.split(" && "):
        if "pip install" in part or "python3 -m venv" in part:
            continue  # the setup: CI does it on a fresh clone
        done = subprocess.run(_argv(part), cwd=tmp_path, capture_output=True, text=True, timeout=300,
                              input="1\n" * 5000, env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"})
        assert done.returncode == 0, (part, done.stdout[-2000:], done.stderr[-2000:])
        assert "Traceback" not in done.stdout + done.stderr
        out += done.stdout
    check(out)


def test_readme_python_examples_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 3
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_python_example_plays_the_same_game_as_the_command(monkeypatch, capsys):
    # the README says so: its first Python example is `snowrules run snow_time --players 4 --seed 7`
    import json

    from snowrules.cli.main import main
    monkeypatch.chdir(ROOT)
    block = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)[0]
    names: dict = {}
    exec(compile(block, "README.md", "exec"), names)
    capsys.readouterr()
    assert main(["run", "snow_time", "--players", "4", "--seed", "7", "--json"]) == 0
    ran = json.loads(capsys.readouterr().out)
    outcome = names["game"].outcome(names["state"])
    assert (outcome.scores, outcome.winners, outcome.turns) == (ran["scores"], ran["winners"], ran["turns"])
