"""The game clock's repeated ring (runtime/clock.py): it stops a game whose stop was swallowed,
but never raises a second stop while the first is being handled, which escaped `game_clock` as
a bare OutOfTime under load (validate of Snow Planner, a scenario whose reading passed 5 s)."""
from __future__ import annotations

import signal
import time

import pytest
from conftest import ruleset_folder
from snowrules.compile.compiler import load_program
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.play.agents import play
from snowrules.runtime.clock import _FALLBACKS, NOWHERE, OutOfTime, _ring, game_clock
from snowrules.runtime.engine import Game
from test_bots import SOLO


def test_a_ring_while_a_stop_is_handled_raises_nothing_and_one_after_it_stops_again():
    _FALLBACKS.append(NOWHERE)  # a clock is running
    try:
        try:
            raise OutOfTime(NOWHERE)
        except OutOfTime:
            _ring(signal.SIGPROF, None)  # the first stop is on its way out: no second one
        with pytest.raises(OutOfTime):
            _ring(signal.SIGPROF, None)  # the stop was swallowed: the clock stops the game again
    finally:
        _FALLBACKS.pop()


# An agent asked at a decision past the start of its block (a `let`, then the rules ask): when
# the game's time runs out while the agent thinks, the error names the decision.
SLOW = SOLO  # test_bots' solo game: `let you = first(players)`, then `ask you to choose n from [0, 3]` at 5:5


class _Slow:
    """An agent that thinks longer than the game's time limit (CPU time, as the clock counts)."""

    name = "slow"

    def choose(self, observation) -> int:
        end = time.process_time() + 2.0
        while time.process_time() < end:
            pass
        return 0


def test_a_time_limit_reached_while_an_agent_thinks_names_the_decision(tmp_path):
    folder = ruleset_folder(tmp_path, SLOW, "schema: token_list.schema.json\ncomponents: []\n", players=(1, 1))
    with (folder / "ruleset.yaml").open("a") as manifest:
        manifest.write('action_ids: {distinct: "4"}\n')  # the numbers 0 and 3 as options
    game = Game(load_program(str(folder), None, 1))
    with pytest.raises(RuntimeRulesError) as error, game_clock(0.3, game.program):
        play(game, [_Slow()], 0)
    assert error.value.diagnostics[0].code == "SR709"
    assert str(error.value.diagnostics[0].position).endswith("rules.sr:5:5")  # the `ask`, not the `add` before it
