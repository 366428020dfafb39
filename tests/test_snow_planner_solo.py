"""Snow Planner's solo rules: the titles table [Solo Rules: End Game], said at the result (the
manifest's `result: title:`; the scenario solo_title_chief.yaml, whose head comment has the
arithmetic: the player loses 26 VP in all, run with its starting score moved to each side of every
boundary of the table), and games of two players with the automa [Exceptional Rules when playing
with 2 players]."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import play_checked, replay_choices, round_trip
from snowrules.compile.compiler import load_program
from snowrules.play.agents import RandomAgent, play
from snowrules.play.results import result_reading
from snowrules.records.scenarios import run_scenario
from snowrules.runtime.engine import Game

SCENARIO = Path(__file__).resolve().parent.parent / "rulesets" / "snow_planner" / "scenarios" / "solo_title_chief.yaml"
LOST = 26  # 8 vacancy penalties of 3, and 2 for the missing snow at the fiscal year end

# | VP | ~50 | 51~70 | 71~99 | 100~ |  (the table as printed)
BOUNDARIES = [(50, "Intern"), (51, "Chief"), (70, "Chief"), (71, "Manager"), (99, "Manager"), (100, "President")]
READ: dict = {}  # the ruleset, read once for every run


@pytest.mark.parametrize("final, title", BOUNDARIES)
def test_the_result_names_the_title_the_score_earns(tmp_path, final, title):
    """The scenario ends with the score moved to `final` (its `expect:` checks it); the title is
    the manifest's `result: title:` read from a solo game's end with that score."""
    text = SCENARIO.read_text()
    assert text.count('"green.score": 77') == 1 and text.count('"green.score": 51') == 1
    moved = tmp_path / "title.yaml"
    moved.write_text(text.replace('"green.score": 77', f'"green.score": {final + LOST}')
                     .replace('"green.score": 51', f'"green.score": {final}'))
    result = run_scenario(moved, "snow_planner", read=READ)
    assert result.passed, result.failures
    assert not [e for e in result.events if e["e"] == "say" and "title" in e["text"]]  # said at the result only
    game, st = _solo_end()
    st.counters[game.layout.counter_index("score", 0)] = final
    assert result_reading(game, st)["titles"] == [title]


def _solo_end():
    """A seeded solo game, played to its end (its state's score is then set by the test)."""
    if "solo" not in READ:
        game = Game(load_program("snow_planner", None, 1))
        READ["solo"] = game, play(game, [RandomAgent(1)], seed=1)
    game, st = READ["solo"]
    return game, st.clone()


def test_a_game_of_two_players_names_no_title():
    """The table is the solo rules': with two players, and with the automa at two, no title."""
    for options in ((), (("automa_for_two", True),)):
        game = Game(load_program("snow_planner", None, 2, options))
        st = play(game, [RandomAgent(i) for i in range(2)], seed=3)
        assert st.result is not None and "titles" not in result_reading(game, st)


# --- two players and the automa: an option, not a variant, so the generic property tests (one
# game per variant and player count) do not play it: the same checks here ------------------------

WITH_AUTOMA = (("automa_for_two", True),)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_players_and_the_automa_keep_the_invariants_and_resume_from_json(seed):
    """Every component somewhere once and counters within bounds at every decision; the state
    written to JSON halfway (and a clone) ends the game exactly as the original; the automa is
    the third seat, never asked, and ends with no VP ([Rules for "Automa"])."""
    game = Game(load_program("snow_planner", None, 2, WITH_AUTOMA))
    original, choices = play_checked(game, seed)
    assert game.layout.seat_names == ["green", "red", "automa"]
    outcome = game.outcome(original)
    assert outcome.automa_score == 0 and not outcome.automa_won
    half = len(choices) // 2
    st = game.start(seed)
    replay_choices(game, st, choices[:half])
    assert 2 not in st.pending.seats  # the automa is never asked
    for resumed in (round_trip(st), st.clone()):
        replay_choices(game, resumed, choices[half:])
        assert resumed == original
