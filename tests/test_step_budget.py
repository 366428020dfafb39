"""The step budget (Program.max_steps): rules that never end stop with a clear error. The
generated code counts the rounds of its loops (all of a `repeat`'s or `for each`'s before the
first) and bounds the turns by their number, and stops at the loop or the turns that went over;
answered in place or from outside, the same place."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import answered_from_outside
from snowrules.compile.compiler import compile_ruleset, load_program
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.runtime.engine import Game
from test_language import ruleset
from test_playthrough import random_decide

# (rules, where the game stops: line:col of the turns, or of the loop that went over)
ENDLESS = [
    ("counter n per player from 0\neach turn:\n    add 1 to first(players).n\n", "2:1"),  # statements alone
    ("each turn:\n    if turn < 0:\n        announce turn\n", "1:1"),                       # a step
    ("each turn:\n    repeat 150 times:\n        pass\n", "2:5"),                           # a loop's rounds
    ("each turn:\n    ask first(players) to choose n from [1, 2]:\n        announce n\n", "1:1"),  # a decision
]


@pytest.mark.parametrize("rules, where", ENDLESS, ids=["statements", "step", "loop", "decision"])
def test_rules_that_never_end_stop_where_they_went_over_the_budget(tmp_path, rules, where):
    program = compile_ruleset(ruleset(tmp_path, rules), 2)
    program.max_steps = 200
    for answering in ("in place", "from outside"):
        game = Game(program)
        with pytest.raises(RuntimeRulesError) as raised:
            if answering == "in place":
                game.start(0, decide=lambda st: st.pending.options[0][0])
            else:
                st = game.start(0)
                while st.pending is not None:
                    game.answer(st, [0])
        message = str(raised.value)
        assert "the game ran more than 200 steps" in message
        assert f"rules.sr:{where}" in message, (answering, message)


def test_loop_rounds_are_counted_in_the_state(tmp_path):
    """A loop's rounds count once each, all before the first; statements and turns count none
    (the turns are bounded by their number): 3 turns of a `repeat 4 times`, 12 in all, and a
    `for each` over the 2 players in the setup, 2 more."""
    program = compile_ruleset(ruleset(tmp_path, """counter n per player from 0
setup:
    for each p in players:
        add 1 to p.n
rounds 3:
    repeat 4 times:
        add 1 to first(players).n
at game end:
    end game winners players
"""), 2)
    st = Game(program).start(0)
    assert st.result is not None and st.counters[program.turn_counter] == 3
    assert st.steps == 14


@pytest.mark.parametrize(("ruleset", "players"), [("tests/rulesets/pig", 2), ("snowy_tricks", 3),
                                                  ("snowfall_over_mountains", 1), ("snow_planner", 2)])
def test_a_game_counts_the_same_steps_answered_in_place_or_stopped_at_each_decision(ruleset, players):
    """The budget is one count whoever answers: a loop's rounds are charged once when it starts
    (not again when a game stopped in its body goes on), and a `while` pass that stopped is
    counted once done, as each pass is (Pig: a decision in a `while`; Snowy Tricks: in loops)."""
    folder = Path(__file__).resolve().parent.parent / ruleset if ruleset.startswith("tests/") else ruleset
    game = Game(load_program(str(folder), None, players))
    for seed in range(3):
        in_place = game.play_through(seed, random_decide(game.program.seats, seed))
        stopped = answered_from_outside(game, seed, random_decide(game.program.seats, seed))
        assert in_place.result == stopped.result and in_place.steps == stopped.steps > 0, seed
