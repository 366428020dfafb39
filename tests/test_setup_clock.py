"""The setup's clock (play/start_clock.py): a game's start, up to its first decision, within
its own CPU time, nested in the game's clock; the game's own clock goes on after it, and the
game played is the same one."""
from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest
from snowrules.compile.compiler import compile_ruleset
from snowrules.language.diagnostics import RuntimeRulesError
from snowrules.load.ruleset import load_ruleset
from snowrules.play import start_clock
from snowrules.play.agents import RandomAgent, make_agent, play
from snowrules.runtime.clock import game_clock
from snowrules.runtime.engine import Game
from test_hostile import GOOFSPIEL, insert_after

# a statement that costs some CPU time in setup: every component filtered (all are in the box)
WORK = "size([each c in box where c.value > 0])"
# a statement of a round that costs some 2.5 ms of CPU (20,000 products of a number not known
# before the game: nothing folds them)
ROUND_WORK = 'if sum([i * turn for each i in 1..20000]) < 0:\n                announce "never"'


def _game(tmp_path: Path, after: str = "", text: str = "") -> tuple[Game, int]:
    """Goofspiel with `text` inserted after the line holding `after` (nothing when empty):
    the game for 2 players and the number of the first inserted line."""
    folder = tmp_path / "game"
    shutil.copytree(GOOFSPIEL, folder)
    line = insert_after(folder / "rules.sr", after, text) if text else 0
    return Game(compile_ruleset(load_ruleset(str(folder)), 2)), line


def _agents(kind: str, seed: int = 0) -> list:
    return [make_agent(kind, seed + i) for i in range(2)]


@pytest.fixture
def short_setup(monkeypatch):
    """The setup's limit at 0.15 s, so that a test waits no longer."""
    monkeypatch.setattr(start_clock, "SETUP_SECONDS", 0.15)


@pytest.mark.parametrize("agents", ["random", "first"])
def test_a_setup_that_never_ends_stops_at_its_loop_with_the_setups_message(tmp_path, short_setup, agents):
    game, line = _game(tmp_path, "setup:", f"    while true:\n        let y = {WORK}")
    with pytest.raises(RuntimeRulesError) as stopped:
        play(game, _agents(agents), 0)
    found = stopped.value.diagnostics[0]
    assert found.code == "SR709"
    assert found.message == ("the setup ran longer than 0.15 s of CPU time here "
                             "(the limit of a game's setup, up to its first decision)")
    assert (found.position.line, found.position.col) in ((line, 5), (line + 1, 9))


@pytest.mark.parametrize("agents", ["random", "first"])
def test_the_setups_clock_ends_at_the_first_decision_and_the_games_clock_goes_on(tmp_path, short_setup, agents):
    """Each round spends CPU after its bid: some 0.6 s in all, past the setup's 0.15 s, within
    the game's 60 s. Then the same game under a game clock of 0.3 s is stopped by it, with its message."""
    game, _ = _game(tmp_path, "    phase reveal:", f"        repeat 20 times:\n            {ROUND_WORK}")
    st = play(game, _agents(agents), 0)
    assert st.result is not None
    with game_clock(60.0):
        play(game, _agents(agents), 0)
    with pytest.raises(RuntimeRulesError) as stopped, game_clock(0.3):
        play(game, _agents(agents), 0)
    assert stopped.value.diagnostics[0].message == "the game ran longer than 0.3 s of CPU time (its time limit) here"


def test_a_game_clock_tighter_than_the_setups_stops_the_setup_with_its_own_message(tmp_path):
    game, _ = _game(tmp_path, "setup:", f"    while true:\n        let y = {WORK}")
    with pytest.raises(RuntimeRulesError) as stopped, game_clock(0.3):
        play(game, _agents("random"), 0)
    assert stopped.value.diagnostics[0].message == "the game ran longer than 0.3 s of CPU time (its time limit) here"


@pytest.mark.parametrize("agents", ["random", "first"])
def test_a_game_is_the_same_with_the_setups_clock_and_without(tmp_path, agents):
    """Seeded games with the setup's clock (the main thread) and without it (another thread, where
    no clock works): the same scores and turns, the random agents' draws put back in place."""
    game, _ = _game(tmp_path)

    def outcomes() -> list:
        found = []
        for seed in range(20):
            st = play(game, _agents(agents, seed), seed)
            outcome = game.outcome(st)
            found.append((outcome.scores, outcome.winners, outcome.turns))
        return found
    timed = outcomes()
    untimed: list = []
    thread = threading.Thread(target=lambda: untimed.extend(outcomes()))
    thread.start()
    thread.join()
    assert timed == untimed
    if agents == "random":
        assert len({tuple(scores) for scores, _, _ in timed}) > 1  # not one game 20 times


def test_random_agents_draw_from_their_own_generators_after_the_setup(tmp_path):
    """The first draw puts the seats' own drawers back: the list the game holds is theirs."""
    game = _game(tmp_path)[0]
    agents = [RandomAgent(1), RandomAgent(2)]
    setup = start_clock.SetupClock(game.program)
    with setup:
        draws = setup.drawing([agent.drawer for agent in agents])
        assert setup.running and draws[1] is not agents[1].drawer
        expected = RandomAgent(2).choose_index(1000)
        assert draws[1](None, 1000) == expected
    assert not setup.running
    assert draws == [agents[0].drawer, agents[1].drawer]
