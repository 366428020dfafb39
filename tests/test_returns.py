"""Declared returns (the manifest's `returns`) shown by `run` and `simulate`, and expected by scenarios.

Kuhn poker (tests/rulesets/kuhn_poker) declares returns: the winner takes the smaller pot from
the other. With the `first` agent on both seats every decision takes its first option, "pass":
pass-pass goes to the showdown at the ante, so each game is +1 for the higher card and -1 for
the other. Its scores (it has no score counter) are all 0, which is what `run` used to show.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from snowrules.cli.main import main
from snowrules.records.scenarios import run_all, run_scenario

RULESETS = Path(__file__).resolve().parent / "rulesets"
KUHN = RULESETS / "kuhn_poker"


def cli(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_run_shows_the_declared_returns(capsys, seed):
    code, out = cli(capsys, "run", KUHN, "--agents", "first,first", "--seed", seed, "--json")
    assert code == 0
    result = json.loads(out)
    assert result["returns"] == ([1.0, -1.0] if result["winners"] == [0] else [-1.0, 1.0])
    code, out = cli(capsys, "run", KUHN, "--agents", "first,first", "--seed", seed)
    table = out[out.index("result after"):]
    assert "return" in table and "score" not in table
    winner = result["winner_names"][0]
    loser = "p1" if winner == "p0" else "p0"
    assert [line.split()[1:4] for line in table.splitlines() if line.split()[1:2] in ([winner], [loser])] == \
        [["p0", "│", "first"], ["p1", "│", "first"]]
    rows = {line.split()[1]: line.split() for line in table.splitlines() if line.split()[1:2] in (["p0"], ["p1"])}
    assert rows[winner][5] == "1" and rows[loser][5] == "-1"


def test_run_without_declared_returns_shows_scores(capsys):
    code, out = cli(capsys, "run", "snow_time", "--players", "3", "--seed", "1", "--json")
    assert code == 0 and "returns" not in json.loads(out)
    code, out = cli(capsys, "run", "snow_time", "--players", "3", "--seed", "1")
    assert "score" in out[out.index("result after"):]


def player_rows(out: str) -> list[str]:
    """The first column of the players' table (the first table simulate prints)."""
    players_table = out.split("game length")[0]
    return [line.split()[1] for line in players_table.splitlines() if line.startswith("│")]


def test_simulate_shows_mean_returns_by_seat_name(capsys):
    """Every game is +1 or -1 for p0: its mean return is 2 x its win rate - 1, and p1's the opposite."""
    code, out = cli(capsys, "simulate", KUHN, "--games", "200", "--agents", "first,first", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["player_names"] == ["p0", "p1"]
    p0 = summary["win_rates"][0]
    assert 0.2 < p0 < 0.8  # the deal decides: p0 holds the higher card in half the games
    assert summary["return_means"] == pytest.approx([2 * p0 - 1, 1 - 2 * p0], abs=1e-3)
    code, out = cli(capsys, "simulate", KUHN, "--games", "20", "--agents", "first,first")
    assert "mean return" in out and "mean score" not in out
    assert player_rows(out) == ["p0", "p1"]


def test_simulate_numbers_seats_by_their_names(capsys):
    code, out = cli(capsys, "simulate", "snow_time", "--games", "4", "--players", "3", "--json")
    summary = json.loads(out)
    assert summary["player_names"] == ["red", "blue", "green"] and "return_means" not in summary
    code, out = cli(capsys, "simulate", "snow_time", "--games", "4", "--players", "3")
    assert player_rows(out) == ["red", "blue", "green"]
    assert "mean score" in out


def test_scenarios_may_expect_returns():
    results = run_all(str(KUHN))
    assert [(r.name, r.passed) for r in results] == [
        ("A bet that is not called wins the ante", True), ("Pass, bet, call goes to the showdown", True)]


SHOWDOWN = "pass_bet_call_goes_to_showdown.yaml"
# (scenario text replaced, replacement, the failure it must report)
WRONG_RETURNS = [
    ("returns: {p0: -2, p1: 2}", "returns: {p0: -2, p1: 3}", "p1's return is 2, expected 3"),
    ("returns: {p0: -2, p1: 2}", "returns: {p0: 2}", "p0's return is -2, expected 2"),
    ("until: game end", "until: next decision", "the game goes on: there are no returns yet"),
]


@pytest.mark.parametrize("old, new, message", WRONG_RETURNS, ids=[w[1] for w in WRONG_RETURNS])
def test_a_scenario_with_wrong_returns_fails_at_its_line(tmp_path, old, new, message):
    folder = tmp_path / "kuhn"
    shutil.copytree(KUHN, folder)
    path = folder / "scenarios" / SHOWDOWN
    text = path.read_text()
    if new == "until: next decision":
        text = text.replace("  - {p0: bet}\n", "")
    path.write_text(text.replace(old, new))
    result = run_scenario(path, str(folder))
    line = next(i for i, x in enumerate(path.read_text().splitlines(), 1) if "returns:" in x)
    assert not result.passed
    reported = [f for f in result.failures if message in f]  # (a game that goes on fails its winners too)
    assert len(reported) == 1 and f"{SHOWDOWN}:{line}:" in reported[0]


def test_wrong_returns_are_listed_after_the_other_wrong_expectations(tmp_path):
    """Every wrong expectation is reported, in the order the runner checks them (winners before
    returns), not only the returns."""
    folder = tmp_path / "kuhn"
    shutil.copytree(KUHN, folder)
    path = folder / "scenarios" / SHOWDOWN
    path.write_text(path.read_text().replace("winners: [p1]", "winners: [p0]").replace("p1: 2}", "p1: 3}"))
    result = run_scenario(path, str(folder))
    assert [f.split(": ", 1)[1] for f in result.failures] == [
        "winners are [p1], expected [p0]", "p1's return is 2, expected 3"]


def test_a_scenario_expecting_returns_of_a_game_without_them_fails(tmp_path):
    """(The shower's reset, its only option, is taken without asking.)"""
    folder = tmp_path / "recall"
    shutil.copytree(RULESETS / "recall", folder)
    (folder / "scenarios").mkdir()
    path = folder / "scenarios" / "guess.yaml"
    path.write_text("name: A right guess\nplayers: 2\nchoices:\n  - {shower: '2'}\n"
                    "  - {guesser: '2'}\nuntil: game end\nexpect:\n  winners: [guesser]\n"
                    "  returns: {guesser: 1}\n")
    result = run_scenario(path, str(folder))
    assert not result.passed
    assert result.failures == [f"{result.path}:9:12: the ruleset's manifest declares no `returns` "
                               "(expect winners or counters instead)"]
