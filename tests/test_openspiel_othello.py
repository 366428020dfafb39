"""Othello, written as a ruleset from OpenSpiel's othello.cc, against OpenSpiel's own game:
lockstep over seeded random games (the same player to move and legal actions at every node, the
same returns at the end), the board after every move of a few more, every node below late
positions (7 empty squares: the last moves, passes, every ending), the game's facts, and an
opening worked by hand.

The default run plays 20 lockstep games and walks about 3,000 late nodes (a few seconds: a random
game is about 60 moves, each reading the board through list expressions); the `thorough` profile
(`--hypothesis-profile=thorough`) plays ten times as many games, and
`python tests/openspiel_crosscheck.py othello` 100 more by hand.
"""
from __future__ import annotations

import json
import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from conftest import examples  # noqa: E402
from openspiel_crosscheck import crosscheck, crosscheck_tree, games  # noqa: E402

NAME = "othello"
SEEDS = examples(20)


def their_board(state) -> list[str]:
    """OpenSpiel's board as 8 rows of x (black), o (white) and - (empty), row 1 first
    ([OthelloState::ToString])."""
    return ["".join(line.split()[1:9]) for line in str(state).splitlines()[2:10]]


def our_board(state) -> list[str]:
    """The ruleset's board read from the first seat's observation: each cell {x: column, y: row}
    of the board zone by the disc on it (a black disc x, a white one o, else -)."""
    board = json.loads(state.observation_string(0).splitlines()[0])["grids"]["board"]
    mark = {(x, y): "x" if stack[-1][0] == "black disc" else "o" for x, y, stack in board}
    return ["".join(mark.get((x, y), "-") for x in range(8)) for y in range(8)]


def test_same_game_as_openspiel_move_by_move():
    theirs, ours = games(NAME, NAME, {})
    nodes = sum(crosscheck(theirs, ours, seed) for seed in range(SEEDS))
    assert nodes >= 50 * SEEDS  # a random game fills most of the 60 free squares


@pytest.mark.parametrize("seed", range(4))
def test_same_board_after_every_move(seed):
    rng = random.Random(1000 + seed)
    theirs, ours = (game.new_initial_state() for game in games(NAME, NAME, {}))
    moves = 0
    while not theirs.is_terminal():
        assert our_board(ours) == their_board(theirs), f"after {theirs.history()}"
        action = rng.choice(theirs.legal_actions())
        theirs.apply_action(action)
        ours.apply_action(action)
        moves += 1
    assert our_board(ours) == their_board(theirs)
    assert ours.returns() == theirs.returns()
    assert moves >= 50


def _late_position(seed: int, empty: int) -> tuple[int, ...]:
    """OpenSpiel's random game up to the first position with `empty` empty squares: its history."""
    state = pyspiel.load_game(NAME).new_initial_state()
    rng = random.Random(seed)
    while "".join(their_board(state)).count("-") > empty:
        state.apply_action(rng.choice(state.legal_actions()))
    return tuple(state.history())


def _their_subtree(state) -> tuple[int, int]:
    """OpenSpiel's nodes below a state, and how many of them are passes (a single legal 64)."""
    if state.is_terminal():
        return 1, 0
    nodes, passes = 1, int(state.legal_actions() == [64])
    for action in state.legal_actions():
        below = _their_subtree(state.child(action))
        nodes, passes = nodes + below[0], passes + below[1]
    return nodes, passes


@pytest.mark.parametrize("seed", range(3))
def test_same_subtree_as_openspiel_below_a_late_position(seed):
    """Every node below a position with 7 empty squares: the last moves, the passes of a player
    left without a square, and every way the game ends."""
    history = _late_position(seed, 7)
    state = pyspiel.load_game(NAME).new_initial_state()
    for action in history:
        state.apply_action(action)
    nodes, _ = _their_subtree(state)
    assert crosscheck_tree(*games(NAME, NAME, {}), history) == nodes > 500


def test_the_late_positions_walked_hold_passes():
    counts = []
    for seed in range(3):
        state = pyspiel.load_game(NAME).new_initial_state()
        for action in _late_position(seed, 7):
            state.apply_action(action)
        counts.append(_their_subtree(state)[1])
    assert all(count > 0 for count in counts), counts


def test_same_game_facts_as_openspiel():
    theirs, ours = games(NAME, NAME, {})
    for fact in ("num_distinct_actions", "max_chance_outcomes", "num_players", "max_game_length",
                 "max_utility", "min_utility", "utility_sum"):
        assert getattr(ours, fact)() == getattr(theirs, fact)(), fact
    for fact in ("dynamics", "chance_mode", "utility"):
        assert getattr(ours.get_type(), fact) == getattr(theirs.get_type(), fact), fact


# An opening worked by hand, by OpenSpiel ids (row x 8 + column, from 0: d3 is 2 x 8 + 3 = 19).
# The start: white d4 e5, black e4 d5; black's moves are d3 (19), c4 (26), f5 (37), e6 (44).
#   black d3 (19) turns d4: black d3 d4 e4 d5 (4), white e5 (1).
#   white c3 (18) turns d4 (the diagonal c3-d4-e5): white c3 d4 e5 (3), black d3 e4 d5 (3).
#   black c4 (26) turns d4 (the row c4-d4-e4): black c4 d3 d4 e4 d5 (5), white c3 e5 (2).
# White may then play only e3 (20: e3-e4-e5, down) and c5 (34: c5-d5-e5, right). Not f3: down-left
# f3-e4-d5 meets the empty c6; not c6: up-right c6-d5-e4 meets the empty f3; not f4 nor b4: the
# row b4..f4 holds three black discs with no white at either end.
OPENING = [19, 18, 26]


def test_an_opening_worked_by_hand_is_the_same_on_both():
    for game, board_of in zip(games(NAME, NAME, {}), (their_board, our_board)):
        state = game.new_initial_state()
        assert state.legal_actions() == [19, 26, 37, 44]
        for action in OPENING:
            state.apply_action(action)
        assert board_of(state) == ["--------", "--------", "--ox----", "--xxx---", "---xo---", "--------",
                                   "--------", "--------"]
        assert state.current_player() == 1
        assert state.legal_actions() == [20, 34]
