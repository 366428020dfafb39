"""A move tally (model/move_tally.py) counts every move the rules make, in every build: the
generated lines count in place what an event listener would count from the `Moved` events.

simulate's per-component figures are a tally (play/batch.py `PlayTracker`): the figures must not
depend on which build played the game, nor lose a move made by a Python function (a draw at
random, a grid placement, a turn) rather than by generated lines.
"""
from __future__ import annotations

import linecache
from types import SimpleNamespace

import pytest
from conftest import config_id, configurations, every_move, game_for
from snowrules.compile.apply import tally_moves
from snowrules.model.events import Moved
from snowrules.play.agents import RandomAgent, play
from snowrules.play.batch import PlayTracker
from snowrules.runtime.engine import Game

# one configuration of each bundled ruleset: its fewest players, no variant
CONFIGS = sorted({name: (name, None, players) for name, variant, players in reversed(configurations())
                  if variant is None}.values())


class StoppedRandom(RandomAgent):
    """A random agent asked from outside at each decision (`play` answers only RandomAgent itself in
    place): the game runs on the stoppable build."""


def told(game: Game, seed: int) -> tuple[list[int], list[int]]:
    """Each component's moves counted from the `Moved` events of the game played with a listener
    (every event line, no tally lines), and the final scores."""
    tally = every_move(game)
    players = game.program.players
    counting = SimpleNamespace(tally=tally)  # what tally_moves reads of a state

    def listen(event) -> None:
        if event.__class__ is Moved:
            tally_moves(counting, event.components, event.source, event.dest)
    st = play(game, [RandomAgent(seed * 10 + p) for p in range(players)], seed, listen=listen)
    return tally.take()[0], game.outcome(st).scores


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_a_tally_counts_every_move_the_events_tell(config):
    game = game_for(config)
    players = game.program.players
    for seed in (1, 2):
        moves, scores = told(game, seed)
        assert sum(moves) > 0
        for agent in (RandomAgent, StoppedRandom):  # played through, and stopped at each decision
            tally = every_move(game)
            st = play(game, [agent(seed * 10 + p) for p in range(players)], seed, tally=tally)
            assert game.outcome(st).scores == scores
            assert tally.take()[0] == moves, agent.__name__


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_plays_are_the_same_played_through_and_stopped(config):
    game = game_for(config)
    players = game.program.players
    taken = []
    for agent in (RandomAgent, StoppedRandom):
        tracker = PlayTracker(game.program)
        play(game, [agent(70 + p) for p in range(players)], 7, tally=tracker.tally)
        taken.append(tracker.take())
    assert taken[0] == taken[1]


def test_a_copy_of_the_state_counts_nothing():
    # a search's look-ahead plays on copies of the state: they must not count into the figures
    game = game_for(("snow_time", None, 2))
    tally = every_move(game)
    st = game.start(3, tally=tally)
    before = tally.counts[0][:]
    copy = st.clone()
    game.answer(copy, [0] * len(copy.pending.seats))
    assert copy.tally is None and tally.counts[0] == before


def test_a_listener_that_hears_only_moves_is_told_the_same_moves():
    # `hears` builds the game with the event lines of those kinds only (Game.play_through): the
    # moves told are the ones a listener to every event is told, and nothing else is sent
    game = game_for(("snow_time", None, 2))
    every: list = []
    play(game, [RandomAgent(20), RandomAgent(21)], 2, listen=every.append)
    heard: list = []
    play(game, [RandomAgent(20), RandomAgent(21)], 2, listen=heard.append, hears=(Moved,))
    moves = [e for e in every if e.__class__ is Moved]
    assert moves and [e for e in heard if e.__class__ is Moved] == moves
    assert {e.__class__.__name__ for e in heard} <= {"Moved", "TurnStarted", "GameOver"}
    assert any("hearing Moved" in key for key in linecache.cache)  # its own build
