"""Issue 29: a loop that never ends, a game that never ends and a huge `repeat` are stopped within
the time bound on every command that plays rules (run, simulate, validate, test, replay), now that
each of them runs the generated code. test_hostile.py has the huge `repeat` under validate and run,
test_hostile_bounds.py the endless setup under all five and the endless game under run and
simulate with a time limit; these rows are the rest of that table: the huge `repeat` under
simulate, test and replay, and the endless game (each round asks both players) under validate,
test, replay and simulate with their own limits. Each is stopped by the step budget (SR706: the
generated code counts a `repeat`'s rounds before the first and each round of a `while`), in about
a second of CPU: the bound asserted is 5 s of CPU, under 500 MB of address space.

A row plants its rules in a copy of Goofspiel (a log of the unchanged game is written first for
`replay`) and checks the exit code, the place, the message and its code. `test` runs one scenario
(`-k`): each scenario has its own budget, and four of them would take four times one.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_hostile import GOOFSPIEL, SECONDS, insert_after
from test_hostile_bounds import snowrules

HUGE_REPEAT = "    repeat 1000000000000 times:\n        pass"
ENDLESS_GAME = ("    while true:\n"
                "        ask each p in players secretly to choose card from p.hand:\n"
                "            move card to p.bid\n"
                "        for each p in players:\n"
                "            move all from p.bid to p.hand")
# where an endless game is stopped: the `while` (or its body, at the end of its line), the `ask`, the
# move, the `for each` or its move
ENDLESS_PLACES = ((0, 5), (0, 16), (1, 9), (2, 13), (3, 9), (4, 13))
ONE_SCENARIO = ["-k", "highest_bid_takes"]
STEPS = "the game ran more than 5000000 steps (statements, loop rounds and draws) here"
SMOKE_STEPS = "the game ran more than 200000 steps (statements, loop rounds and draws) here (in a smoke game"

ROWS = [
    # (rules planted after `setup:`, command (GAME: the copy, LOG: a log of the unchanged game),
    #  places it may be stopped at (line offset, column), exit code, code or None (`test` prints none), says)
    ("huge repeat", HUGE_REPEAT, ["simulate", "GAME", "--players", "2", "--games", "5"], ((0, 5),), 1, "SR706", STEPS),
    ("huge repeat", HUGE_REPEAT, ["test", "GAME", *ONE_SCENARIO], ((0, 5),), 1, None, STEPS),
    ("huge repeat", HUGE_REPEAT, ["replay", "LOG", "--ruleset", "GAME"], ((0, 5),), 1, "SR706", STEPS),
    ("endless game", ENDLESS_GAME, ["validate", "GAME"], ENDLESS_PLACES, 1, "SR706", SMOKE_STEPS),
    ("endless game", ENDLESS_GAME, ["test", "GAME", *ONE_SCENARIO], ENDLESS_PLACES, 1, None, STEPS),
    ("endless game", ENDLESS_GAME, ["replay", "LOG", "--ruleset", "GAME"], ENDLESS_PLACES, 1, "SR706", STEPS),
    ("endless game", ENDLESS_GAME, ["simulate", "GAME", "--players", "2", "--games", "2"], ENDLESS_PLACES, 1,
     "SR706", STEPS),
]


@pytest.mark.parametrize(("what", "rules", "command", "places", "status", "code", "says"), ROWS,
                         ids=[f"{row[0]} under {row[2][0]}" for row in ROWS])
def test_endless_rules_stop_within_the_time_bound_on_every_command(tmp_path: Path, what, rules, command, places,
                                                                  status, code, says):
    game = tmp_path / "game"
    shutil.copytree(GOOFSPIEL, game)
    if "LOG" in command:
        made, output, _ = snowrules(tmp_path, "run", "game", "--players", "2", "--seed", "1", "--json",
                                    "--log", "game.jsonl")
        assert made == 0, output
    line = insert_after(game / "rules.sr", "setup:", rules)
    args = [{"GAME": "game", "LOG": "game.jsonl"}.get(arg, arg) for arg in command]
    got, output, seconds = snowrules(tmp_path, *args)
    assert got == status, f"exit {got}:\n{output}"
    assert seconds < SECONDS, f"{what} stopped after {seconds:.1f} s of CPU:\n{output}"
    assert "Traceback" not in output and "internal error" not in output, output
    wanted = [f"game/rules.sr:{line + k}:{col}: " for k, col in places]
    lines = [text for text in output.splitlines() if any(place in text for place in wanted)]
    assert lines, f"nothing at {wanted}:\n{output}"
    assert says in lines[0], lines[0]
    if code is not None:
        assert lines[0].endswith(f"[{code}]"), lines[0]
