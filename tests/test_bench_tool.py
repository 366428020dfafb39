"""tools/bench.py: its check that both sides of a ratio play games of the same length; bench.py,
bench_clone.py and bytecodes.py: their refusal of a command line they cannot measure, and
bytecodes.py's count, the same at every run."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent / "tools"
sys.path.insert(0, str(TOOLS))
from bench import Length, compare_lengths, ratio_cell, round_ratios  # noqa: E402


def test_a_length_is_the_mean_and_its_standard_error():
    # turns 1, 2, 3: mean 2, sample standard deviation 1, standard error 1 / sqrt(3)
    length = Length.of([1, 2, 3])
    assert length.mean == 2
    assert length.error == pytest.approx(1 / math.sqrt(3))


@pytest.mark.parametrize("ours, theirs, differs", [
    (Length(17.85, 0.04), Length(18.84, 0.04), True),    # Snow Time at 2: the +3 bonus spaces
    (Length(18.86, 0.035), Length(18.84, 0.04), False),  # within one standard error
    (Length(10.0, 0.1), Length(10.5, 0.1), False),       # 0.5 apart, 4 * hypot(0.1, 0.1) = 0.566
    (Length(10.0, 0.1), Length(10.6, 0.1), True),
    (Length(5.0, 0.0), Length(5.0, 0.0), False),         # two games of fixed length
    (Length(5.0, 0.0), Length(6.0, 0.0), True),
])
def test_lengths_differ_beyond_four_standard_errors(ours, theirs, differs):
    assert ours.differs_from(theirs) is differs


def test_the_turn_ratio_scales_the_ratio_by_the_lengths_and_a_difference_is_said(capsys):
    # 1000 games/s of 7.2 turns against 5000 of 5.4: 7200 turns/s against 27000, 0.2667
    row = {"ruleset": "r", "players": 2, "ratio": 0.2}
    compare_lengths(row, Length(7.2, 0.1), Length(5.4, 0.05))
    assert row["turn_ratio"] == pytest.approx(0.2667, abs=1e-4)
    assert row["same_length"] is False
    assert "do not play the same game" in capsys.readouterr().err
    row = {"ruleset": "r", "players": 2, "ratio": 0.2}
    compare_lengths(row, Length(5.4, 0.1), Length(5.4, 0.05))
    assert row["turn_ratio"] == 0.2 and row["same_length"] is True
    assert capsys.readouterr().err == ""


def test_without_a_length_on_either_side_the_row_says_nothing_of_lengths():
    row = {"ruleset": "r", "players": 2, "ratio": 0.2}
    compare_lengths(row, Length(5.4, 0.1), None)
    assert row == {"ruleset": "r", "players": 2, "ratio": 0.2}


@pytest.mark.parametrize("tool, arguments, message", [
    ("bench.py", ["--ruleset", "no_such_game"], "no_such_game:1:1: error: no ruleset here"),
    ("bench.py", ["--ruleset", "snowy_tricks", "--variant", "nope"],
     "rulesets/snowy_tricks/ruleset.yaml:17:3: error: unknown variant 'nope'"),
    ("bench.py", ["--variant", "two_player"], "--variant needs exactly one --ruleset"),
    ("bench.py", ["--rounds", "many"], "argument --rounds: invalid int value: 'many'"),
    ("bench_clone.py", ["--ruleset", "no_such_game"], "no_such_game:1:1: error: no ruleset here"),
    ("bytecodes.py", ["--ruleset", "no_such_game", "--played"], "no_such_game:1:1: error: no ruleset here"),
    ("bytecodes.py", ["--ruleset", "snow_time"], "snow_time has no OpenSpiel game: use --played"),
    ("bytecodes.py", ["--ruleset", "goofspiel", "--games", "0"], "--games must be at least 1"),
    ("bytecodes.py", [], "the following arguments are required: --ruleset"),
    ("bench_build.py", ["--ruleset", "no_such_game"], "no_such_game:1:1: error: no ruleset here"),
    ("bench_build.py", ["--repeat", "0"], "--repeat must be at least 1"),
    ("bench_build.py", ["--players", "two"], "argument --players: invalid int value: 'two'"),
])
def test_a_command_line_the_tool_cannot_measure_ends_with_its_reason(tool, arguments, message):
    done = subprocess.run([sys.executable, str(TOOLS / tool), *arguments], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_the_bytecode_count_of_seeded_games_is_the_same_at_every_run():
    """tools/bytecodes.py counts bench.py's own loop: two runs give the same total (what makes it a
    measure that machine noise does not move), and it names the generated module's functions."""
    def total() -> str:
        done = subprocess.run([sys.executable, str(TOOLS / "bytecodes.py"), "--ruleset", "goofspiel",
                               "--players", "2", "--games", "2", "--top", "40"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "<snowrules module" in done.stdout and "_resume" in done.stdout
        return done.stdout.splitlines()[0]
    first = total()
    assert first.startswith("goofspiel, 2 players, through the OpenSpiel adapter: ")
    assert first.endswith(" bytecodes a game")
    assert total() == first


def test_a_ratios_range_is_its_lowest_and_highest_round():
    """Round r of each side ran next to the other's round r: the range pairs them, not the lowest
    of one side with the highest of the other."""
    assert round_ratios([10.0, 30.0, 20.0], [100.0, 100.0, 50.0]) == [0.1, 0.4]
    row = {"ratio": 0.2346, "ratio_range": [0.1812, 0.2521], "turn_ratio": 1.5}
    assert ratio_cell(row, "ratio") == "0.235\n.18-.25"
    assert ratio_cell(row, "turn_ratio") == "1.500"
    assert ratio_cell(row, "adapter_ratio") == "-"
    assert ratio_cell({"ratio": 1.2, "ratio_range": [0.95, 1.31]}, "ratio") == "1.200\n.95-1.31"
