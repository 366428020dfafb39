"""The step budget (Program.max_steps): rules that never end stop with a clear error. The VM
(which runs a game whose agents answer from inside the run) counts statements and stops at the
statement that went over the budget, whether it is a native statement or a step (a statement the
VM runs itself), and counts the statements run in the state; the generated code that runs a game
answered from outside counts the rounds of its loops and bounds the turns by their number, and
stops at the loop."""
from __future__ import annotations

import pytest
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.runtime.engine import Game
from test_language import ruleset

# (rules, where the VM stops: line:col of the only statement each turn runs; where generated code stops: the turns)
ENDLESS = [
    ("counter n per player from 0\neach turn:\n    add 1 to first(players).n\n", "3:5", "2:1"),  # native
    ("each turn:\n    if turn < 0:\n        announce turn\n", "2:5", "1:1"),                    # a step
]


def _answering_inside(st):  # an agent answering from inside the run: the VM runs the game (never asked here)
    raise AssertionError("these rules ask nothing")


@pytest.mark.parametrize("rules, on_vm, generated", ENDLESS, ids=["native", "step"])
def test_rules_that_never_end_stop_at_the_statement_over_the_budget(tmp_path, rules, on_vm, generated):
    program = compile_ruleset(ruleset(tmp_path, rules), 2)
    program.max_steps = 200
    for decide, where in ((_answering_inside, on_vm), (None, generated)):
        with pytest.raises(RuntimeRulesError) as raised:
            Game(program).start(0, decide=decide)
        message = str(raised.value)
        assert "the game ran more than 200 steps" in message
        assert f"rules.sr:{where}" in message, (decide, message)


def test_statements_run_are_counted_in_the_state(tmp_path):
    """Each statement run counts once, a step as one, a block's end as none, the `end game`
    that stops the game as none: the game's block pushes its setup (1), which runs its
    statement (1); the turns start (1), and each of the 3 turns runs its two statements, which
    the compiler fuses into one native statement (3); the game's block pushes the end of the
    game (1), whose `end game` stops it. 7 in all."""
    program = compile_ruleset(ruleset(tmp_path, """counter n per player from 0
setup:
    add 1 to first(players).n
rounds 3:
    add 1 to first(players).n
    add 1 to first(players).n
at game end:
    end game winners players
"""), 2)
    st = Game(program).start(0, decide=_answering_inside)
    assert st.result is not None and st.counters[program.turn_counter] == 3
    assert st.steps == 7
    generated = Game(program).start(0)  # no loop in it: nothing counted (its turns are bounded by their number)
    assert generated.result is not None and generated.steps == 0
